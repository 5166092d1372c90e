"""Explanations: why an answer holds, as steps a person can follow and a program can replay.

A puzzle kind's ``explain`` (see :class:`~cspsolve.kind.Kind`) returns an :class:`Explanation`:
the :class:`Step` list of the reasoning in order (a nonogram's deductions, a plan's moves with
their g, h and f, the presses of Lights Out), the proof in words of what the steps cannot show
alone (optimality, uniqueness), and a summary of JSON-ready facts (the difficulty grade, the
bound reached). This module renders it for every kind alike: numbered text, JSON Lines (one
object a step, the schema in ``docs/design.md`` §12), and pictures of the board after each step
(:mod:`cspsolve.player` plays them in a web page or Jupyter; :func:`cspsolve.render.write_image`
writes them as a GIF).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cspsolve.errors import OptionError
from cspsolve.results import Status

if TYPE_CHECKING:
    from cspsolve.render import Scene
    from cspsolve.results import Result

__all__ = ["EXPLAIN_IMAGES", "Explanation", "Step"]

EXPLAIN_IMAGES = (".html", ".gif", ".svg", ".png")
"""Files :meth:`Explanation.write` makes: a page stepping through the frames, an animated GIF,
or a still of the start and the end."""


@dataclass(frozen=True)
class Step:
    """One step of an explanation.

    Attributes
    ----------
    rule : str
        What kind of reasoning it is, a word a program can dispatch on: e.g. ``"line"``
        (nonogram line logic), ``"probe"``, ``"guess"``, ``"backtrack"``, ``"move"``,
        ``"chase"``, ``"quiet"``. Each kind documents its rules in its ``explain`` module.
    text : str
        The step in one sentence for people (``"row 3 (clue 3 1): line logic fills (3, 2)"``).
    data : mapping
        JSON-ready facts that let a program replay the step (the line, the cells and values,
        the move, g and h, ...); keys are the kind's, documented with its rules.
    state : object
        The board after the step, as the kind's ``scene`` draws it (``None``: not drawn).
    fold : (int, str) or None
        For the first step of a long sub-argument (a refuted branch): how many steps it spans,
        this one included, and one sentence for all of them, which the text shows instead
        unless asked to unfold (:meth:`Explanation.text`). JSON always holds every step.
    """

    rule: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    state: Any = field(default=None, repr=False, compare=False)
    fold: tuple[int, str] | None = field(default=None, repr=False, compare=False)

    def record(self, number: int) -> dict[str, Any]:
        """The step as one JSON Lines object: ``type``, ``step``, ``rule``, ``text`` and data.

        Examples
        --------
        >>> Step("move", "A+2", {"g": 1, "h": 3}).record(1)
        {'type': 'step', 'step': 1, 'rule': 'move', 'text': 'A+2', 'g': 1, 'h': 3}
        """
        return {"type": "step", "step": number, "rule": self.rule, "text": self.text, **self.data}


@dataclass
class Explanation:
    """Why an answer holds: its steps, the proof in words and a summary.

    Attributes
    ----------
    kind : str
        The puzzle's kind.
    result : Result
        The answer explained (its status, solution, proof and statistics).
    steps : list of Step
        The reasoning in order; replaying them reaches the answer.
    proof : list of str
        What the steps do not show alone, in sentences: why the plan is optimal, why the
        solution is unique or where a second one differs, why no solution exists, or what a
        limit left open.
    summary : dict
        JSON-ready facts: the kind's ``grade`` (difficulty) and whatever the proof rests on
        (``"lower_bound"``, node counts per f-limit, the coset searched, ...).
    start : object
        The board before the first step (``None``: not drawn).
    scene : callable or None
        ``scene(state, caption) -> Scene``: a board state drawn for pictures; ``None`` when
        the puzzle has no grid to draw.
    draw : callable or None
        ``draw(state) -> str``: a board state as text, for ``--frames``.
    """

    kind: str
    result: Result[Any]
    steps: list[Step]
    proof: list[str] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    start: Any = field(default=None, repr=False)
    scene: Callable[[Any, str], Scene] | None = field(default=None, repr=False)
    draw: Callable[[Any], str] | None = field(default=None, repr=False)

    def text(self, *, frames: bool = False, unfold: bool = False) -> str:
        """The explanation for a terminal: numbered steps, then the proof and the summary.

        Parameters
        ----------
        frames : bool
            Draw the board after each step (with the kind's ``draw``), and before the first.
        unfold : bool
            Show every step of a folded sub-argument (:attr:`Step.fold`); else its steps are
            one line, numbered by their range (``12-48.``), drawn after its last step.
        """
        lines: list[str] = []
        snapshots = frames and self.draw is not None
        if snapshots and self.start is not None and self._drawn(self.start):
            lines += [self._drawn(self.start), ""]
        width = len(str(len(self.steps)))
        number = 0
        while number < len(self.steps):
            step = self.steps[number]
            span, words = (1, step.text) if unfold or step.fold is None else step.fold
            last = number + span
            label = f"{number + 1}" if span == 1 else f"{number + 1}-{last}"
            lines.append(f"{label:>{width}}. {words}")
            state = self.steps[last - 1].state
            if snapshots and state is not None:
                lines += [self._drawn(state), ""]
            number = last
        lines += self.proof
        if self.facts():
            lines.append(", ".join(self.facts()))
        return "\n".join(lines)

    def _drawn(self, state: Any) -> str:
        assert self.draw is not None
        return self.draw(state)

    def records(self, encode: Callable[[Any], Any] | None = None) -> Iterator[dict[str, Any]]:
        """The JSON Lines objects: one per step, then one of ``type`` ``"summary"``.

        The summary object holds ``kind``, the result (``status``, ``method``, ``solution``,
        ``proof``, ``stats`` as in ``solve``'s JSON, the solution through ``encode``), the
        explanation's ``summary`` facts under ``explanation`` and its proof sentences under
        ``words``.
        """
        for number, step in enumerate(self.steps, 1):
            yield step.record(number)
        yield {
            "type": "summary",
            "kind": self.kind,
            "steps": len(self.steps),
            **self.result.to_json(encode),
            "explanation": self.summary,
            "words": self.proof,
        }

    def jsonl(self, encode: Callable[[Any], Any] | None = None) -> str:
        """:meth:`records` as JSON Lines text (one object a line, ending in a newline)."""
        return "".join(json.dumps(r) + "\n" for r in self.records(encode))

    def frames(self) -> list[tuple[str, Scene]]:
        """Each drawn state with its caption: the start, then the board after each step.

        Raises
        ------
        OptionError
            When the puzzle has no grid to draw.
        """
        if self.scene is None:
            raise OptionError(f"this {self.kind} has no grid to draw; use text or JSON")
        out: list[tuple[str, Scene]] = []
        if self.start is not None:
            out.append(("start", self.scene(self.start, "start")))
        for number, step in enumerate(self.steps, 1):
            if step.state is not None:
                caption = f"{number}/{len(self.steps)}: {step.text}"
                out.append((caption, self.scene(step.state, caption)))
        return out

    def html(self, title: str = "") -> str:
        """A self-contained web page stepping through the frames (see :mod:`cspsolve.player`)."""
        from cspsolve.player import page

        return page(self.frames(), title=title or f"{self.kind} explained", notes=self.notes())

    def _repr_html_(self) -> str | None:
        """Jupyter's view: the frames with a step slider and buttons (no server needed), or
        the text when the puzzle has no grid."""
        try:
            frames = self.frames()
        except OptionError:
            return None
        from cspsolve.player import widget

        return widget(frames, notes=self.notes())

    def notes(self) -> list[str]:
        """The proof sentences, then the summary facts as ``name: value`` lines (what the
        player shows below the board)."""
        return [*self.proof, *self.facts()]

    def facts(self) -> list[str]:
        """The summary's single values as ``name: value`` (lists, tables and unknown values
        are left to the JSON summary); a grade of ``None`` (a stopped run) says it is not
        known.

        Examples
        --------
        >>> from cspsolve.results import Result, Status
        >>> why = Explanation("x", Result(Status.SOLVED), [])
        >>> why.summary = {"grade": "easy", "counts": [[1, 2]], "bound": None, "cost": 3.0}
        >>> why.summary["proven"] = False
        >>> why.facts()
        ['grade: easy', 'cost: 3', 'proven: False']
        """
        return [
            self._fact(name, value)
            for name, value in self.summary.items()
            if isinstance(value, str | int | float) or name == "grade"  # bools too
        ]

    def _fact(self, name: str, value: Any) -> str:
        """One summary value as ``name: value``; a grade of ``None`` says why it is missing."""
        if name == "grade" and value is None:
            stopped = {Status.LIMIT: "stopped at a limit", Status.CANCELLED: "cancelled"}
            return f"grade: not known ({stopped.get(self.result.status, 'not given')})"
        return f"{name}: {value:g}" if isinstance(value, float) else f"{name}: {value}"

    def __str__(self) -> str:
        return self.text()

    def write(
        self,
        path: str | Path,
        title: str = "",
        *,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        """Write the explanation as a picture; the extension names the format.

        ``.html``: the page of :meth:`html`; ``.gif``: every frame (see
        :func:`cspsolve.render.write_image`, which tells ``announce`` beforehand how long a
        long one will take); ``.svg`` or ``.png``: the start and the end side by side.

        Raises
        ------
        OptionError
            For another extension, or a puzzle with no grid to draw.
        OSError
            When the file cannot be written.
        """
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in EXPLAIN_IMAGES:
            known = ", ".join(EXPLAIN_IMAGES)
            raise OptionError(f"unknown image format {path.suffix!r}; use {known}")
        if suffix == ".html":
            path.write_text(self.html(title), encoding="utf-8")
            return
        from cspsolve.render import write_image

        write_image([scene for _, scene in self.frames()], path, announce=announce)
