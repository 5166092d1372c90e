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

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cspsolve.errors import OptionError
from cspsolve.results import Status

if TYPE_CHECKING:
    from cspsolve.player import Frame
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
    detail : callable or None
        ``detail(scene, step) -> Scene``: what a step adds to the picture of the board after
        it (a probe's chain and its conflict line, the cell a guess took); ``None``: nothing.
    """

    kind: str
    result: Result[Any]
    steps: list[Step]
    proof: list[str] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    start: Any = field(default=None, repr=False)
    scene: Callable[[Any, str], Scene] | None = field(default=None, repr=False)
    draw: Callable[[Any], str] | None = field(default=None, repr=False)
    detail: Callable[[Scene, Step], Scene] | None = field(default=None, repr=False)

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

    def frames(self) -> list[Frame]:
        """Each drawn state: the start, then the board after each step, each step's frame
        listed by its text (a folded sub-argument under its sentence, :attr:`Step.fold`) and
        captioned ``step N of M: text``. A step's picture shows what
        it adds (:attr:`detail`) and outlines what it changed: the cells the kind's scene
        highlights, else every cell that differs from the frame before (a moved car or tile,
        the lights a press toggled).

        Raises
        ------
        OptionError
            When the puzzle has no grid to draw.
        """
        from cspsolve.player import Frame

        if self.scene is None:
            raise OptionError(f"this {self.kind} has no grid to draw; use text or JSON")
        out: list[Frame] = []
        shown = None if self.start is None else self.scene(self.start, "start")
        if shown is not None:
            out.append(Frame("start", shown))
        for number, step in enumerate(self.steps, 1):
            if step.state is not None:
                caption = f"step {number} of {len(self.steps)}: {step.text}"
                shown = self._pictured(step, caption, shown)
                out.append(Frame(step.text, shown, number, step.fold))
        return out

    def _pictured(self, step: Step, caption: str, before: Scene | None) -> Scene:
        """The board after ``step`` with what it adds and what it changed since ``before``."""
        from cspsolve.scenes import changed

        assert self.scene is not None
        scene = self.scene(step.state, caption)
        if self.detail is not None:
            scene = self.detail(scene, step)
        if scene.highlight or before is None:
            return scene
        return dataclasses.replace(scene, highlight=changed(before, scene))

    def html(self, title: str = "", subtitle: str = "") -> str:
        """A self-contained web page stepping through the frames (see :mod:`cspsolve.player`),
        headed by ``title`` (the puzzle's) and ``subtitle`` (what it is, where from)."""
        from cspsolve.player import page

        heading = title or f"{self.kind} explained"
        return page(self.frames(), title=heading, notes=self.notes(), subtitle=subtitle)

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
        """The proof sentences, then the summary in sentences (what the player shows below
        the board).

        Examples
        --------
        >>> from cspsolve.results import Result, Status
        >>> why = Explanation("x", Result(Status.OPTIMAL), [], proof=["No plan is shorter."])
        >>> why.summary = {"grade": "easy", "h_start": 4, "steps": 3, "probes": 1, "per": "f"}
        >>> why.summary["minimum_proven"] = True
        >>> why.notes()  # doctest: +NORMALIZE_WHITESPACE
        ['No plan is shorter.', 'Grade: easy.', 'Counted: 3 steps, 1 probe.',
         'The heuristic gives 4 at the start.', 'The minimum is proven.']
        """
        from cspsolve.render import plural

        said: list[str] = []
        counts = []
        for name, value in self.summary.items():
            if name in _COUNTED and isinstance(value, int):
                counts.append(plural(value, _COUNTED[name]))
            elif name not in _UNSAID and (isinstance(value, str | int | float) or name == "grade"):
                said.append(self._sentence(name, value))
        if counts:
            said.insert(min(len(said), 1), f"Counted: {', '.join(counts)}.")
        return [*self.proof, *said]

    def _sentence(self, name: str, value: Any) -> str:
        """One summary fact as a sentence (``name: value.`` for a fact with no words of its
        own)."""
        if name == "grade" and value is None:
            return f"Grade: {self._fact(name, value).removeprefix('grade: ')}."
        words = name.replace("_", " ")
        if isinstance(value, bool):
            yes, no = _YES_NO.get(
                name, (f"{words.capitalize()}: yes.", f"{words.capitalize()}: no.")
            )
            return yes if value else no
        if isinstance(value, float):
            value = f"{value:g}"
        elif isinstance(value, int):
            value = f"{value:,}"
        return _SAID.get(name, words.capitalize() + ": {}.").format(value)

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
        subtitle: str = "",
        announce: Callable[[str], None] | None = None,
    ) -> None:
        """Write the explanation as a picture; the extension names the format.

        ``.html``: the page of :meth:`html` (``title`` and ``subtitle`` its heading); ``.gif``:
        every frame (see
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
            path.write_text(self.html(title, subtitle), encoding="utf-8")
            return
        from cspsolve.render import write_image

        write_image([frame.scene for frame in self.frames()], path, announce=announce)


_SAID = {
    "grade": "Grade: {}.",
    "verdict": "Verdict: {}.",
    "lower_bound": "No plan costs less than {}.",
    "cost": "This plan costs {}.",
    "h_start": "The heuristic gives {} at the start.",
    "manhattan": "The Manhattan distance at the start is {}.",
    "linear_conflict": "With linear conflicts, the estimate at the start is {}.",
    "nullity": "The board has {} independent quiet patterns (its nullity).",
    "coset": "The coset searched holds {} press sets.",
    "expanded": "The search expanded {} nodes.",
    "generated": "The search generated {} nodes.",
    "method": "Method: {}.",
    "heuristic": "Heuristic: {}.",
    "metric": "Cost counted in {}.",
}
"""A sentence for each summary fact of the kinds' explanations (``{}`` its value)."""
_COUNTED = {
    "steps": "step",
    "probes": "probe",
    "deeper probes": "deeper probe",
    "guesses": "guess",
    "backtracks": "backtrack",
    "refutations": "refutation",
    "refutation steps": "refutation step",
    "nodes": "search node",
    "moves": "move",
    "presses": "press",
    "positions": "position",
}
"""Summary facts that count something, said together in one sentence (the thing counted)."""
_YES_NO = {"minimum_proven": ("The minimum is proven.", "The minimum is not proven.")}
"""The sentences of a yes-or-no fact."""
_UNSAID = {"per"}
"""Facts that only describe another (the unit of the counts' table)."""
