"""Lights Out explained: light chasing, the quiet patterns, the coset searched and the proof.

The answer explained is the algebra's (:func:`.algebra.minimum_with_witness`). On a plain
grid (no torus, holes or graph) the steps follow *light chasing*: the presses of row 1 decide
every other row's (press under each light left on in the row above), so the story is the
leftover lights in the last row when row 1 is left alone, the quiet patterns, the coset of
solutions searched for the fewest presses, the chosen first row, then one step per row chased.
On a torus, a grid with holes or a graph, light chasing does not apply: the story is the
system ``A x = b`` solved by elimination, the quiet patterns, the coset, then the presses
row by row (all at once on a graph). An unsolvable board ends with a *certificate*: a quiet
pattern covering an odd number of lit cells, which no press can change.

Each step's ``data`` (JSON-ready) lets a program replay it. Cells are ``[row, col]`` (0-based)
on a grid and node labels on a graph; ``text`` counts from 1 (and names nodes by label).
Steps that press cells carry ``presses`` (the cells pressed in this step), and the lights
after the step: on a grid, ``rows`` (the rows whose lights the step can change, ascending) and
``lit`` (the lit cells of those rows after it; the other rows keep their lights); on a graph,
``lit`` (every lit node after it). Steps that press nothing leave the lights as they are.

Rules and their data keys:

``leftover`` (plain grids)
    Chasing the lights down from an unpressed row 1 leaves ``leftover`` lit (cells of the
    last row, ``row``); the first-row system has ``unknowns`` (the columns), ``rank`` and
    ``nullity``. On a solvable board it is a trial and presses nothing; on an unsolvable board
    it comes after the ``chase`` steps that did that chase, and names the lights they left.
``solve`` (torus, holes, graphs)
    The system ``A x = b``: ``unknowns`` (enabled cells), ``rank`` and ``nullity``.
``quiet``
    Quiet pattern ``index`` (from 1) of a basis of ``nullity``: ``presses`` (pressing them
    all changes no light). Presses nothing on the board; at most :data:`QUIET_SHOWN` listed.
``coset``
    The solutions are one press set plus any combination of the quiet patterns, ``2**nullity``
    of them: ``nullity``, ``groups`` (the basis split into groups pressing disjoint cells, each
    ``{"size", "search", "complete"}``; ``search`` is ``"enumerated"``, ``"symmetry"`` (one
    combination per orbit of the grid's symmetries keeping the coset) or ``"local"`` (local
    search)), ``combinations`` (press sets weighed), ``cpsat`` (whether CP-SAT was asked to
    prove the minimum), ``proven``, ``count`` (the presses of the answer). Presses nothing.
``first`` (plain grids)
    Press the answer's cells of row 1: ``presses``, ``rows``, ``lit``, and ``leftover``: the
    last-row cells these presses alone, chased on a dark board, leave lit — the ``leftover``
    step's, so that the two cancel and the chase ends dark.
``chase`` (plain grids)
    Press the cells of row ``row + 1`` under the lit cells of row ``row``: ``row``,
    ``presses``, ``rows``, ``lit`` (row ``row`` is dark after it).
``press`` (torus, holes, graphs)
    Press the answer's cells of one grid row ``row`` (rows without presses are skipped), or
    every node of the answer on a graph: ``presses``, ``rows`` (grids), ``lit``.
``certificate`` (unsolvable boards)
    A quiet pattern ``presses`` covering ``overlap`` lit cells of the board as given, an odd
    number: every press keeps the parity of the lights under it, so they never all go out.
    Presses nothing.

Steps stay linear in the board's size: one per row, texts naming at most :data:`NAMED` cells.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation, Step
from cspsolve.limits import Budget, Limits
from cspsolve.memory import paused_collection
from cspsolve.render import Scene, plural
from cspsolve.results import Result, Stats, Status

from . import algebra
from .board import LightsOut, Presses, bits, coordinates, flatten, labelled, transpose, unflatten
from .pictures import board
from .pictures import draw as draw_presses

__all__ = ["NAMED", "QUIET_SHOWN", "Frame", "explain"]

NAMED = 8
"""Most cells a step's text names (its data lists them all)."""

QUIET_SHOWN = 8
"""Most quiet patterns listed as steps (the basis may have hundreds)."""

QUIET_CELLS = 4096
"""The quiet patterns listed name at most this many cells in all, or half the board's cells
if more (so that the steps stay linear in the board's size)."""

SECONDS_PER_CELL = 6e-7
"""Time kept back from the algebra, per cell, for making the steps under a time limit (at
most half the limit; the steps of a million cells take about 0.3 s)."""


SECONDS_PER_LISTED = 1.5e-7
"""The garbage collector's first pass over a cell listed in the steps' data (a ``[row,
col]`` list), once it runs again (:func:`_no_collection`): the steps stop early enough
for it to fit in the time limit."""


@dataclass(frozen=True)
class Frame:
    """The board after a step, as the rows it changed on top of the frame before (O(1) to
    make; :meth:`lights` walks back to the start, which only drawing does).

    Attributes
    ----------
    parent : Frame or None
        The frame before (``None``: the board as given).
    rows : tuple of (int, int)
        ``(row, lights)`` of each row this step changed.
    marks : tuple of (int, int)
        ``(row, packed cells)`` ringed in the picture (the cells pressed or shown).
    """

    parent: Frame | None
    rows: tuple[tuple[int, int], ...] = ()
    marks: tuple[tuple[int, int], ...] = ()

    def lights(self, start: Sequence[int]) -> list[int]:
        """The packed rows of lights in this frame, from the board's ``start``."""
        chain: list[Frame] = []
        frame: Frame | None = self
        while frame is not None:
            chain.append(frame)
            frame = frame.parent
        out = list(start)
        for link in reversed(chain):
            for r, value in link.rows:
                out[r] = value
        return out

    def marked(self, rows: int) -> Presses:
        """The ringed cells as packed rows."""
        out = [0] * rows
        for r, value in self.marks:
            out[r] |= value
        return tuple(out)


class _Story:
    """The steps being told, the board as it stands and the time they may take."""

    def __init__(self, puzzle: LightsOut, budget: Budget) -> None:
        self.puzzle = puzzle
        self.budget = budget
        self.steps: list[Step] = []
        self.lights = list(puzzle.lights)
        self.frame = Frame(None)
        self.made = 0
        """Cells listed in the steps' data so far (each a list the collector will visit)."""

    def check_time(self) -> None:
        """Raise :class:`_StoppedError` when the run is cancelled, or when the time left would
        not cover the collector's first pass over the cells listed (see
        :data:`SECONDS_PER_LISTED`)."""
        stopped = self.budget.interrupted()
        left = self.budget.remaining()
        if stopped is None and left is not None and left < self.made * SECONDS_PER_LISTED:
            stopped = Status.LIMIT
        if stopped is not None:
            raise _StoppedError(stopped)

    def _add(self, step: Step) -> None:
        self.steps.append(step)
        self.made += len(step.data.get("presses", ())) + len(step.data.get("lit", ()))

    def note(self, rule: str, text: str, data: dict[str, Any], marks: Presses = ()) -> None:
        """A step that presses nothing (``marks`` ringed in its picture)."""
        self.frame = Frame(self.frame, (), tuple((r, m) for r, m in enumerate(marks) if m))
        self._add(Step(rule, text, data, self.frame))

    def pressed(
        self, rule: str, text: str, data: dict[str, Any], presses: dict[int, int], rows: list[int]
    ) -> None:
        """A step that pressed ``presses`` (row: packed cells), changing the lights of
        ``rows``; adds the lights after it to ``data``."""
        p = self.puzzle
        if p.is_grid:
            data["rows"] = rows
            data["lit"] = [[r, c] for r in rows for c in bits(self.lights[r])]
        else:
            data["lit"] = _cells(p, self.lights)
        changed = tuple((r, self.lights[r]) for r in rows)
        self.frame = Frame(self.frame, changed, tuple(presses.items()))
        self._add(Step(rule, text, data, self.frame))
        self.check_time()


class _StoppedError(Exception):
    """A limit stopped the telling of the steps."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.value)
        self.status = status


# --- naming cells --------------------------------------------------------------------------------


def _cells(puzzle: LightsOut, rows: Sequence[int]) -> list[Any]:
    """The set cells of packed rows as data: ``[row, col]`` pairs, or node labels."""
    return coordinates(rows) if puzzle.is_grid else [puzzle.name(i) for i in bits(rows[0])]


def _named(puzzle: LightsOut, cells: Sequence[Any]) -> str:
    """Up to :data:`NAMED` cells of the data for people: ``(2, 3) (4, 1) ... (9 more)``
    (1-based), or node labels."""
    if puzzle.is_grid:
        shown = [puzzle.name(r * puzzle.cols + c) for r, c in cells[:NAMED]]
    else:
        shown = list(cells[:NAMED])
    more = f" ... ({len(cells) - NAMED} more)" if len(cells) > NAMED else ""
    return " ".join(shown) + more if shown else "none"


# --- the explanation ------------------------------------------------------------------------------


def explain(
    puzzle: LightsOut,
    *,
    method: str | None,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> Explanation:
    """Why the algebra's answer holds: the steps, the proof and the summary (see the module).

    Raises
    ------
    OptionError
        When another method or a heuristic is asked for (the explanation is the algebra's),
        or for a torus, holes or graph board too large for elimination.
    """
    if method not in (None, "algebra") or heuristic is not None:
        raise OptionError("a Lights Out explanation follows the algebra; use --method algebra")
    limits = limits or Limits()
    budget = limits.start(Stats())
    trace = algebra.Trace()
    result, witness = algebra.minimum_with_witness(
        puzzle, limits=_for_algebra(limits, puzzle), trace=trace
    )
    story = _Story(puzzle, budget)
    try:
        with paused_collection():
            _tell(story, result, witness, trace)
    except _StoppedError as e:
        stopped = e.status
        result = Result(stopped, None, result.stats, "algebra", proof=result.proof)
        words = f"The {'time limit' if stopped is Status.LIMIT else 'cancellation'} stopped"
        proof = [f"{words} the explanation after {plural(len(story.steps), 'step')}."]
    else:
        proof = _proof(puzzle, result, witness, trace)
    result.stats.seconds = budget.finish().seconds
    return Explanation(
        kind="lightsout",
        result=result.map(functools.partial(labelled, puzzle)),
        steps=story.steps,
        proof=proof,
        summary=_summary(result, trace),
        start=Frame(None),
        scene=_scene(puzzle),
        draw=_drawer(puzzle),
    )


def _for_algebra(limits: Limits, puzzle: LightsOut) -> Limits:
    """``limits`` less the time kept back for making the steps."""
    if limits.time_limit is None:
        return limits
    kept = min(limits.time_limit / 2, puzzle.cells * SECONDS_PER_CELL)
    return dataclasses.replace(limits, time_limit=limits.time_limit - kept)


def _tell(
    story: _Story, result: Result[Presses], witness: Presses | None, trace: algebra.Trace
) -> None:
    """The steps of the answer ``result`` (nothing when a limit left no answer)."""
    p = story.puzzle
    nullity = result.proof.get("nullity")
    if nullity is None:
        return
    if witness is not None:
        if p.plain:
            leftover = _chase(story)
            _leftover(story, leftover, nullity, trial=False)
        else:
            _solve(story, nullity)
        _certificate(story, witness)
        return
    assert result.solution is not None
    leftover = algebra.chase(p, 0)[1] if p.plain else 0
    if p.plain:
        _leftover(story, leftover, nullity, trial=True)
    else:
        _solve(story, nullity)
    _quiet(story, trace)
    _coset(story, result, trace)
    if p.plain:
        _first(story, result.solution[0], leftover)
        _chase(story)
    else:
        _press(story, result.solution)
    assert not any(story.lights), "the explained presses left lights on"


def _leftover(story: _Story, leftover: int, nullity: int, *, trial: bool) -> None:
    p = story.puzzle
    last = p.rows - 1
    cells = [[last, c] for c in bits(leftover)]
    rank = p.cols - nullity  # every quiet pattern is chased from its first row
    left = (
        f"{plural(len(cells), 'light')} on in row {last + 1}: {_named(p, cells)}"
        if cells
        else f"row {last + 1} dark"
    )
    if trial:
        text = (
            f"light chasing: row 1's presses decide every other row's; with row 1 unpressed, "
            f"chasing leaves {left}; row 1's {p.cols} presses must leave the same lights "
            f"(a GF(2) system of rank {rank}, nullity {p.cols - rank})"
        )
    else:
        text = (
            f"the chase leaves {left}; no choice of row 1's {p.cols} presses clears them "
            f"(a GF(2) system of rank {rank}, nullity {p.cols - rank})"
        )
    data = {
        "row": last,
        "leftover": cells,
        "unknowns": p.cols,
        "rank": rank,
        "nullity": p.cols - rank,
    }
    story.note("leftover", text, data)


def _solve(story: _Story, nullity: int) -> None:
    p = story.puzzle
    unknowns = p.enabled.bit_count()
    text = (
        f"light chasing does not apply to this {_shape(p)}: the system A x = b of "
        f"{plural(unknowns, 'press')} ({unknowns} {p.unit}s) has rank {unknowns - nullity}, "
        f"nullity {nullity}"
    )
    story.note(
        "solve", text, {"unknowns": unknowns, "rank": unknowns - nullity, "nullity": nullity}
    )


def _shape(puzzle: LightsOut) -> str:
    if not puzzle.is_grid:
        return "graph"
    return "torus" if puzzle.torus else "grid with holes"


def _quiet(story: _Story, trace: algebra.Trace) -> None:
    """Up to :data:`QUIET_SHOWN` quiet patterns of the basis, while they name at most
    :data:`QUIET_CELLS` cells in all (or half the board's)."""
    p = story.puzzle
    listed = 0
    for index, flat in enumerate(trace.basis[:QUIET_SHOWN], 1):
        if listed + flat.bit_count() > max(p.cells // 2, QUIET_CELLS):
            break
        listed += flat.bit_count()
        pattern = _unflat(p, flat, trace.transposed)
        cells = _cells(p, pattern)
        text = (
            f"quiet pattern {index} of {len(trace.basis)}: pressing the "
            f"{plural(len(cells), p.unit)} {_named(p, cells)} changes no light"
        )
        story.note("quiet", text, {"index": index, "presses": cells}, pattern)
        story.check_time()


def _unflat(puzzle: LightsOut, flat: int, transposed: bool) -> Presses:
    """A flat press set of the board solved as packed rows of ``puzzle``."""
    if not transposed:
        return unflatten(flat, rows=puzzle.rows, cols=puzzle.cols)
    return transpose(unflatten(flat, rows=puzzle.cols, cols=puzzle.rows), puzzle.rows)


def _coset(story: _Story, result: Result[Presses], trace: algebra.Trace) -> None:
    nullity = result.proof["nullity"]
    count = int(result.stats.cost)
    groups = [dataclasses.asdict(g) for g in trace.groups]
    data = {
        "nullity": nullity,
        "groups": groups,
        "combinations": int(result.stats.extra.get("combinations", 1)),
        "cpsat": "cpsat_seconds" in result.stats.extra,
        "proven": bool(result.proof.get("minimum")),
        "count": count,
    }
    if nullity == 0:
        text = f"nullity 0: the solution is unique, {plural(count, 'press')}"
    else:
        sizes = ", ".join(f"{g.size} ({g.search})" for g in trace.groups)
        searched = f"groups of quiet patterns searched: {sizes}" if sizes else "none searched"
        text = (
            f"the solutions are one press set plus any combination of the {nullity} quiet "
            f"patterns: 2^{nullity} press sets; {searched}; the lightest found has "
            f"{plural(count, 'press')}"
        )
    story.note("coset", text, data)


def _first(story: _Story, first: int, leftover: int) -> None:
    p = story.puzzle
    cells = [[0, c] for c in bits(first)]
    _press_row(story, 0, first)
    rows = [r for r in (0, 1) if r < p.rows]
    what = f"press row 1 at {_named(p, cells)}" if cells else "press nothing in row 1"
    text = (
        f"{what} ({plural(len(cells), 'press')}): chased alone on a dark board, row 1's "
        f"presses leave the same lights on in row {p.rows}, so the chase clears them"
    )
    data = {"presses": cells, "leftover": [[p.rows - 1, c] for c in bits(leftover)]}
    story.pressed("first", text, data, {0: first}, rows)


def _chase(story: _Story) -> int:
    """Chase the lights down: press row ``r + 1`` under row ``r``'s lights, for each row but
    the last (rows already dark are skipped). Returns the lights left in the last row."""
    p = story.puzzle
    for r in range(p.rows - 1):
        below = story.lights[r]
        if not below:
            continue
        _press_row(story, r + 1, below)
        cells = [[r + 1, c] for c in bits(below)]
        text = (
            f"chase row {r + 1}: press {_named(p, cells)} below its lit cells "
            f"({plural(len(cells), 'press')})"
        )
        rows = [rr for rr in (r, r + 1, r + 2) if rr < p.rows]
        story.pressed("chase", text, {"row": r, "presses": cells}, {r + 1: below}, rows)
    return story.lights[-1]


def _press_row(story: _Story, r: int, presses: int) -> None:
    """Press the cells ``presses`` of row ``r`` of a plain grid (the press rule a row at a
    time)."""
    p, lights = story.puzzle, story.lights
    full = (1 << p.cols) - 1
    own = presses if p.variant == "sigma-plus" else 0
    lights[r] ^= ((presses << 1) & full) ^ (presses >> 1) ^ own
    if r > 0:
        lights[r - 1] ^= presses
    if r + 1 < p.rows:
        lights[r + 1] ^= presses


def _press(story: _Story, solution: Presses) -> None:
    """The presses of a torus, holed grid or graph: a row at a time (all at once on a graph),
    by the board's press rule."""
    p = story.puzzle
    full = (1 << p.cols) - 1
    for r, row in enumerate(solution):
        if not row:
            continue
        delta = 0
        for c in bits(row):
            delta ^= p.toggles(r * p.cols + c)
        rows = _rows_near(p, r)
        for rr in rows:
            story.lights[rr] ^= (delta >> (rr * p.cols)) & full
        cells = [[r, c] for c in bits(row)] if p.is_grid else _cells(p, (row,))
        where = f"row {r + 1}: " if p.is_grid else ""
        text = f"{where}press {_named(p, cells)} ({plural(len(cells), 'press')})"
        data: dict[str, Any] = {"row": r, "presses": cells} if p.is_grid else {"presses": cells}
        story.pressed("press", text, data, {r: row}, rows)


def _rows_near(puzzle: LightsOut, r: int) -> list[int]:
    """The rows a press in row ``r`` can change, ascending."""
    near = {r - 1, r, r + 1}
    if puzzle.torus:
        near = {rr % puzzle.rows for rr in near}
    return sorted(rr for rr in near if 0 <= rr < puzzle.rows)


def _certificate(story: _Story, witness: Presses) -> None:
    p = story.puzzle
    cells = _cells(p, witness)
    overlap = (flatten(witness, p.cols) & p.flat).bit_count()
    lit = plural(overlap, "lit " + p.unit)
    text = (
        f"the quiet pattern {_named(p, cells)} ({plural(len(cells), p.unit)}) changes no light "
        f"and covers {lit} of the board as given, an odd number: every press keeps that "
        "parity, so the lights never all go out"
    )
    story.note("certificate", text, {"presses": cells, "overlap": overlap}, witness)


# --- proof and summary ----------------------------------------------------------------------------


def _proof(
    puzzle: LightsOut, result: Result[Presses], witness: Presses | None, trace: algebra.Trace
) -> list[str]:
    nullity = result.proof.get("nullity")
    if nullity is None:
        words = "time limit" if result.status is Status.LIMIT else "cancellation"
        return [f"The {words} stopped the algebra before it found a solution."]
    if witness is not None:
        return [
            "No press set turns every light off: pressing a cell toggles an even number of "
            "the certificate's cells (it is quiet), so the parity of the lit cells under it "
            "never changes, and it is odd."
        ]
    count = plural(int(result.stats.cost), "press")
    if nullity == 0:
        return [
            f"The toggle matrix is invertible (nullity 0), so this press set is the only "
            f"solution and its {count} are the minimum."
        ]
    coset = (
        f"Every solution is this press set plus a combination of the {nullity} quiet "
        f"patterns: a coset of 2^{nullity} press sets."
    )
    if len(trace.groups) > 1:
        coset += (
            f" The quiet patterns fall into {len(trace.groups)} groups pressing disjoint "
            "cells, so the lightest combinations of the groups together make the lightest "
            "press set of the coset."
        )
    return [coset, _minimum_sentence(result, trace, count)]


def _minimum_sentence(result: Result[Presses], trace: algebra.Trace, count: str) -> str:
    """Why the count is the minimum, or what left it open."""
    combinations = int(result.stats.extra.get("combinations", 1))
    local = [g for g in trace.groups if g.search == "local"]
    if result.proof.get("minimum"):
        if local:
            return (
                f"A group of {local[0].size} quiet patterns was too large to enumerate; "
                f"CP-SAT proved that {count} are the minimum."
            )
        symmetric = any(g.search == "symmetry" for g in trace.groups)
        orbits = (
            " (one per orbit of the grid's symmetries that keep the coset)" if symmetric else ""
        )
        return (
            f"Every group was searched in full, {combinations:,} press sets weighed{orbits}: "
            f"{count} are the minimum."
        )
    stopped = result.proof.get("stopped")
    why = (
        f"{'a limit' if stopped == 'limit' else 'the cancellation'} stopped the search"
        if stopped
        else f"a group of {local[0].size} quiet patterns was too large to enumerate"
        if local
        else "the node limit stopped the search"
    )
    return (
        f"The minimum is not proven: {why}; the fewest found are {count} (local search adds "
        "a quiet pattern while the count drops)."
    )


def _summary(result: Result[Presses], trace: algebra.Trace) -> dict[str, Any]:
    """``grade``: ``unique`` (nullity 0), ``coset search`` (every group searched in full),
    ``cp-sat`` (CP-SAT proved the minimum), ``unproven``, ``unsolvable``, or ``None`` when a
    limit stopped the algebra; ``nullity``, ``presses``, ``coset`` (``2**nullity``, ``None``
    beyond 2**128), ``minimum_proven``."""
    nullity = result.proof.get("nullity")
    proven = bool(result.proof.get("minimum"))
    grade: str | None
    if nullity is None or result.status in (Status.LIMIT, Status.CANCELLED):
        grade = None
    elif result.status is Status.UNSOLVABLE:
        grade = "unsolvable"
    elif not proven:
        grade = "unproven"
    elif nullity == 0:
        grade = "unique"
    else:
        local = any(g.search == "local" for g in trace.groups)
        grade = "cp-sat" if local else "coset search"
    return {
        "grade": grade,
        "nullity": nullity,
        "presses": int(result.stats.cost) if result.status.has_solution else None,
        "coset": 2**nullity if nullity is not None and nullity <= 128 else None,
        "minimum_proven": proven,
    }


# --- pictures -------------------------------------------------------------------------------------


def _scene(puzzle: LightsOut) -> Callable[[Frame, str], Scene]:
    """Draw a frame: a grid cell by cell, a graph as its nodes and edges
    (:func:`.pictures.board`)."""

    def scene(frame: Frame, caption: str) -> Scene:
        return board(puzzle, frame.lights(puzzle.lights), frame.marked(puzzle.rows), caption)

    return scene


def _drawer(puzzle: LightsOut) -> Callable[[Frame], str]:
    def draw(frame: Frame) -> str:
        lights = frame.lights(puzzle.lights)
        marked = frame.marked(puzzle.rows)
        if puzzle.is_grid:
            return draw_presses(puzzle.with_lights(lights), marked)
        lit = " ".join(puzzle.name(i) for i in bits(lights[0])) or "none"
        return f"lit: {lit}; marked: " + (
            " ".join(puzzle.name(i) for i in bits(marked[0])) or "none"
        )

    return draw
