"""What a worker process does for a job: one :mod:`cspsolve.tasks` call, its answer as JSON.

Every answer is JSON-ready data; a solution comes with its picture as SVG (our renderer, the
kind's ``scenes``) and as text (the kind's ``draw``) for a puzzle with no grid to draw.
"""

from __future__ import annotations

import io
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cspsolve import registry, tasks
from cspsolve.errors import OptionError
from cspsolve.generating import generator_of, made, options_of
from cspsolve.kind import Designer, Kind, Player
from cspsolve.limits import Limits
from cspsolve.notebook import as_given
from cspsolve.results import Result

__all__ = ["ACTIONS", "TOOLS", "Spec", "run"]

ANSI = re.compile(r"\x1b\[[0-9;]*m")
"""The colour codes a kind's text drawing may hold for a terminal."""


@dataclass(frozen=True)
class Spec:
    """One job: what to do, to which puzzle, how, within which time.

    Attributes
    ----------
    action : str
        One of :data:`ACTIONS`.
    kind : str
        The puzzle's kind.
    puzzle : object
        The kind's puzzle object.
    request : Request
        Method, heuristic and options.
    time_limit : float
        Seconds the job may take; ``compare`` gives each of its runs this much, as the command
        line does (:attr:`wall`).
    methods, heuristics : tuple of str or None
        ``compare`` runs only these (``None``: all).
    runs : int
        The runs of a ``compare`` job (1 for any other).
    seed : int
        The seed of a ``generate`` job (its puzzle is the first of ``cspsolve generate
        --seed SEED``; its request's options are the generator's).
    """

    action: str
    kind: str
    puzzle: Any
    request: tasks.Request
    time_limit: float
    methods: tuple[str, ...] | None = None
    heuristics: tuple[str, ...] | None = field(default=None)
    runs: int = 1
    seed: int = 0

    @property
    def wall(self) -> float:
        """Seconds the whole job may take: the time limit of each run, and for ``compare``
        :data:`PLOT_SECONDS` more to draw the plot."""
        extra = PLOT_SECONDS if self.action == "compare" else 0.0
        return self.time_limit * self.runs + extra


PLOT_SECONDS = 2.0
"""Seconds a ``compare`` job may take beyond its runs, to draw its plot (0.2 s to 0.5 s)."""


def _picture(kind: Kind, puzzle: Any, result: Result[Any]) -> dict[str, Any]:
    """The result's JSON with its solution drawn: ``svg`` (or ``None``) and ``text``."""
    out = result.to_json(kind.encode)
    out["svg"] = out["text"] = None
    if result.status.has_solution and result.picture is not None:
        from cspsolve.render import drawn

        out["svg"] = drawn(result.picture)
        out["text"] = ANSI.sub("", kind.draw(puzzle, result.solution))
    return out


def _solve(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    puzzle = tasks.prepare(kind, spec.puzzle, request=spec.request)
    result = tasks.solve(kind, puzzle, request=spec.request, limits=limits)
    return _picture(kind, puzzle, result)


def _verify(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    report = tasks.verify(kind, spec.puzzle, request=spec.request, limits=limits)
    return {
        "agree": report.agree,
        "problems": report.problems,
        "words": report.words(),
        "search": report.search.to_json(kind.encode),
        "reference": report.reference.to_json(kind.encode),
    }


def _analyze(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    return {"analysis": tasks.analyze(kind, spec.puzzle, request=spec.request, limits=limits)}


def _compare(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    """Every (method, heuristic) pair, each given the job's time limit (as ``cspsolve compare``
    gives each run ``--time-limit``)."""
    puzzle = tasks.prepare(kind, spec.puzzle, request=spec.request)
    pairs = tasks.comparisons(kind, puzzle, methods=spec.methods, heuristics=spec.heuristics)
    runs = []
    for method, heuristic in pairs:
        request = tasks.Request(method, heuristic, spec.request.options)
        each = Limits(time_limit=spec.time_limit, cancel=limits.cancel, progress=limits.progress)
        try:
            found = tasks.solve(kind, puzzle, request=request, limits=each).to_json(kind.encode)
        except OptionError as e:
            found = {"method": method, "heuristic": heuristic, "status": "refused",
                     "message": str(e), "stats": {}}  # fmt: skip
        found.pop("solution", None)
        found.pop("solutions", None)
        runs.append(found)
    plot = _plot(kind.describe(puzzle), runs)
    return {"runs": runs, "seconds_each": spec.time_limit, "plot": plot}


def _plot(title: str, runs: list[dict[str, Any]]) -> str:
    """The SVG of ``cspsolve compare --plot`` for the runs of one puzzle."""
    from cspsolve.render import plot_comparison

    plotted = [
        (title, tasks.run_name(r["method"], r["heuristic"]),
         r["stats"].get("expanded", 0), r["stats"].get("seconds", 0.0))
        for r in runs
    ]  # fmt: skip
    svg = io.BytesIO()
    plot_comparison(plotted, svg, format="svg")
    return svg.getvalue().decode()


def _explain(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    """The explanation's JSON Lines records, and its step player when it can be drawn."""
    explained = tasks.explain(kind, spec.puzzle, request=spec.request, limits=limits)
    out: dict[str, Any] = {"records": list(explained.records(kind.encode)), "player": None}
    try:
        from cspsolve import player  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return out
    try:
        frames = explained.frames()
    except OptionError:
        return out
    out["player"] = player.widget(frames, notes=explained.notes())
    return out


def _design(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    """The check of the kind's :class:`~cspsolve.kind.Designer` on a puzzle drawn."""
    tool = kind.tools["design"]
    assert isinstance(tool, Designer)
    return tool.check(spec.puzzle, limits)


def _hint(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    """The hint of the kind's :class:`~cspsolve.kind.Player` on a puzzle played."""
    tool = kind.tools["play"]
    assert isinstance(tool, Player)
    return tool.hint(spec.puzzle, limits)


def _generate(kind: Kind, spec: Spec, limits: Limits) -> dict[str, Any]:
    """One puzzle of the kind's generator (:mod:`cspsolve.generating`): ``status`` ``made``
    with its file's ``name`` and ``text``, its ``certificate`` and its picture as given
    (``svg``), or ``limit`` when the time limit stopped it."""
    generator = generator_of(kind)
    chosen = options_of(generator, spec.request.options)
    run = made(kind, chosen, seed=spec.seed, indices=[0], time_limit=limits.time_limit)
    found = next(run, None)
    if found is None:
        return {"status": "limit"}
    name = f"{kind.name}-{spec.seed}{generator.extension}"
    with tempfile.TemporaryDirectory() as folder:
        kind.write(found.puzzle, Path(folder) / name)
        text = (Path(folder) / name).read_text(encoding="utf-8")
    svg = as_given(kind, found.puzzle)
    return {"status": "made", "name": name, "text": text, "certificate": found.certificate,
            "svg": svg}  # fmt: skip


ACTIONS: dict[str, Callable[[Kind, Spec, Limits], dict[str, Any]]] = {
    "solve": _solve,
    "verify": _verify,
    "analyze": _analyze,
    "compare": _compare,
    "explain": _explain,
}
"""What each action on a puzzle runs (``POST /api/ACTION``)."""

TOOLS: dict[str, Callable[[Kind, Spec, Limits], dict[str, Any]]] = {
    "design": _design,
    "hint": _hint,
    "generate": _generate,
}
"""What the jobs of the kinds' tools run: a designer's check, a player's hint and a puzzle
made to order."""


def run(spec: Spec, limits: Limits) -> dict[str, Any]:
    """The JSON answer of one job.

    Raises
    ------
    OptionError
        When the request does not fit the kind or the puzzle (the page shows it in one line).
    """
    return (ACTIONS | TOOLS)[spec.action](registry.get(spec.kind), spec, limits)
