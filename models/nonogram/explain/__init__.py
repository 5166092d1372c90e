"""Explanations of nonograms: the deductions in order, a grade, uniqueness.

The puzzle is first solved by the method asked for (``probing`` by default), asked for two
solutions so that uniqueness is decided. The deductions are then replayed from the empty grid
by compiled kernels (:mod:`.black`, :mod:`.colour`), each cell narrowed step by step:

1. *line logic* on a worklist of dirty lines, the exact line solver on each: a ``line`` step;
2. at a stall, *probes* of depth 1: a value assumed in a cell and line logic run on a copy; a
   line left with no placement makes a ``probe`` step ruling the value out, its chain the line
   visits the conflict rests on;
3. when a sweep of probes finds nothing, probes of depth 2 on the :data:`DEEP_CELLS` best cells
   of the sweep (line logic and depth-1 probes under the assumption), bounded by
   :data:`DEEP_FLOOR` plus :data:`DEEP_SHARE` times the solve's own trials;
4. else a ``guess`` at the cell whose trial decides the most, the value that decides the most
   first. If the solution takes another value, the wrong branch is searched depth first and,
   when refuted within :data:`BRANCH_STEPS` steps, shown up to its ``contradiction`` and the
   ``backtrack`` that undoes it; else the guess follows the solution (its text says why).

``summary["grade"]`` is the deepest reasoning needed: ``"line logic"``, ``"probing"``,
``"deeper probes"`` or ``"search"`` (with ``nodes``, the search's node count); the summary also
counts ``steps``, ``probes``, ``deeper probes``, ``guesses`` and ``backtracks``. When no guess
holds at the end, the deductions decided every cell and the solution is unique; otherwise the
search decided it, and a second solution is the last step.

Rules and their data (``Step.data``; cells ``[row, column]``, 0-based; a value is 1 filled or
0 empty, in colour a colour's index, 0 the background):

``line``
    ``axis`` (``"row"``/``"column"``), ``index``, ``clue`` (colour: ``[length, colour]``
    pairs), ``fixed`` (``[row, column, value]``) or in colour ``narrowed`` (``[row, column,
    colours left]``): what every placement agreeing with the known cells gives.
``probe``
    ``cell``, ``assumed``, ``depth`` (1 or 2), ``chain`` (in order on the grid with the
    assumption: line visits with a ``line`` step's keys; at depth 2 each entry has a ``rule``,
    ``"line"`` or ``"probe"``), ``conflict`` (``axis``, ``index``, ``clue``), and ``fixed``
    or ``narrowed`` (the cell without ``assumed``).
``guess``
    ``cell``, ``value``, ``depth`` (the guesses held, this one included).
``contradiction``
    ``axis``, ``index``, ``clue``: no placement fits; a ``backtrack`` follows when a guess is
    held, else the clues have no solution.
``backtrack``
    ``cell`` (the last guess held), ``undone`` (every cell changed since it, row-major),
    ``fixed`` or ``narrowed`` (the cell without the guessed value), ``depth``.
``second``
    ``grid`` (a second solution) and ``cells`` (where it differs).

A state (``Step.state``) is ``(codes, marks)``: the grid's cell masks as bytes, and the cells
the step decided.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from cspsolve.explanation import Explanation, Step
from cspsolve.kind import Runner
from cspsolve.limits import Budget, Limits
from cspsolve.render import Scene
from cspsolve.results import Result, Stats, Status

from ..board import Grid, Nonogram
from ..colour.board import ColourNonogram
from ..solver import LISTING, NonogramOptions
from .black import BlackBoard
from .colour import ColourBoard
from .common import CONFLICT, FIXPOINT, HALTED, NONE, STOPPED, Board, place, slice_chain

__all__ = ["GRADES", "State", "explain", "load_kernels"]

GRADES = ("line logic", "probing", "deeper probes", "search")
"""The grades, easiest first (see the module docstring)."""

DEEP_CELLS = 8
"""Probes of depth 2 are tried, after a sweep of probes found nothing, on this many cells of
the best scores (both values each)."""
DEEP_SHARE = 1
DEEP_FLOOR = 2000
"""Probes of depth 2 spend at most ``DEEP_FLOOR + DEEP_SHARE`` times the solve's trials (its
``stats.probes``) in trials, the replay's share of the work bounded by the solve's."""
BRANCH_STEPS = 60
"""A branch the search tries first and the solution does not take is shown when the search
under it refutes it in this many steps at most, its guess and its backtrack included."""

State = tuple[bytes, tuple[tuple[int, int], ...]]
"""A drawn state: the cell masks row by row, and the cells to mark."""

Puzzle = Nonogram | ColourNonogram


_QUIET: State = (b"", ())
"""The state of the steps of a chain (never drawn)."""


class _Replay:
    """The deductions replayed on a board, as steps (see the module docstring).

    Parameters
    ----------
    board : Board
        The grid, empty.
    budget : Budget
        The run's limits.
    allowance : int
        The trials that probes of depth 2 may spend (see :data:`DEEP_SHARE`).
    """

    def __init__(self, board: Board, budget: Budget, allowance: int) -> None:
        self.board = board
        self.budget = budget
        self.allowance = allowance
        self.steps: list[Step] = []
        self.guesses = 0
        self.held: list[tuple[Any, int, int]] = []
        """The guesses in force (not undone by a ``backtrack``): the grid before each, its
        cell and value."""
        self.probes = 0
        self.deeper = 0
        self.backtracks = 0
        self.conflict = False
        self.quiet = False
        """Whether the steps are a chain's: no text, no state."""
        self.stopped: Status | None = None
        height, width = board.size
        self.needed = np.zeros(height + width, np.uint8)
        self.keep = np.zeros(0, np.uint8)

    def _add(self, rule: str, text: Callable[[], str], data: dict[str, Any], marks: Any) -> None:
        """Append a step (its text and state only when not :attr:`quiet`)."""
        if self.quiet:
            self.steps.append(Step(rule, "", data, _QUIET))
            return
        state = self.board.codes.tobytes(), tuple((m[0], m[1]) for m in marks)
        self.steps.append(Step(rule, text(), data, state))

    def _halted(self) -> None:
        self.stopped = self.budget.interrupted() or Status.LIMIT

    def _lines(self, cell: int) -> tuple[int, int]:
        """The row and the column of ``cell`` (row-major), as line numbers."""
        height, width = self.board.size
        return cell // width, height + cell % width

    def _line_text(self, line: int, data: dict[str, Any]) -> str:
        return f"{self.board.titles[line]}: line logic {self.board.fixes(data)}"

    def line_logic(self, lines: Iterable[int]) -> bool:
        """Line logic from ``lines`` to a fixpoint, a ``line`` step per visit that decides
        something (and a ``contradiction`` step). False when it stops short (a conflict or
        the limit)."""
        board = self.board
        before = board.codes.copy()
        verdict, entries = board.propagate(lines)
        after, board.codes = board.codes, before  # replayed visit by visit, for the states
        for line, cells in board.visits(entries):
            if not self.quiet:
                board.apply(cells)
            data = {**board.names[line], board.key: cells}
            self._add("line", functools.partial(self._line_text, line, data), data, cells)
        board.codes = after
        if verdict == STOPPED:
            self._halted()
        elif verdict == CONFLICT:
            line = int(entries[-1, 0])
            text = f"{board.titles[line]}: no placement of the clue fits the known cells"
            self._add("contradiction", lambda: text, dict(board.names[line]), [])
            self.conflict = True
        return verdict == FIXPOINT

    def probe(self, start: int) -> tuple[int, int]:
        """Sweep probes from cell ``start``; on a failed assumption add its ``probe`` step and
        return ``(cell, value)``; else ``(NONE, 0)`` or ``(HALTED, 0)``."""
        board = self.board
        cell, value = board.sweep(start)
        if cell < 0:
            if cell == HALTED:
                self._halted()
            return cell, value
        verdict, entries = board.trial(cell, value)
        if verdict != CONFLICT:
            self._halted()
            return HALTED, 0
        if len(self.keep) < len(entries):
            self.keep = np.zeros(len(entries), np.uint8)
        keep = self.keep[: len(entries)]
        slice_chain(entries, len(entries), board.size[0], self.needed, keep)
        kept = entries[keep == 1]
        chain = [{**board.names[line], board.key: cells} for line, cells in board.visits(kept)]
        conflict = int(entries[-1, 0])
        decided, words = board.exclude(cell, value)
        row, col = divmod(cell, board.size[1])
        text = (
            f"probe {place(row, col)}: if {board.word(value)}, line logic ({len(chain)} lines) "
            f"leaves {board.titles[conflict]} no placement, so it is {words}"
        )
        data = {
            "cell": [row, col],
            "assumed": value,
            "depth": 1,
            "chain": chain,
            "conflict": dict(board.names[conflict]),
            board.key: decided,
        }
        self._add("probe", lambda: text, data, decided)
        self.probes += 1
        return cell, value

    def _counts(self) -> tuple[Any, int, tuple[int, int, int, int]]:
        """What :meth:`_undo` restores: the grid, the steps, the counts and the guesses held."""
        board = self.board
        return (
            board.codes.copy(),
            len(self.steps),
            (self.probes, self.guesses, len(self.held), self.backtracks),
        )

    def _undo(self, saved: tuple[Any, int, tuple[int, int, int, int]]) -> list[Step]:
        """Restore what :meth:`_counts` saved; the steps taken since."""
        codes, mark, (self.probes, self.guesses, held, self.backtracks) = saved
        taken = self.steps[mark:]
        del self.steps[mark:]
        del self.held[held:]
        self.board.codes = codes
        self.conflict = False
        return taken

    def deep_probe(self) -> int:
        """After a sweep of probes found nothing: probes of depth 2 on the best cells of the
        sweep, while the allowance of trials lasts; the first that fails is a ``probe`` step of
        depth 2 (its cell is returned), else :data:`.NONE` (or :data:`.HALTED`)."""
        board = self.board
        for cell in board.candidates(DEEP_CELLS):
            for value in board.values(cell):
                if self.allowance <= 0:
                    return NONE
                spent = board.spent()
                failed = board.deep(cell, value)
                if failed == HALTED:
                    self._halted()
                    return HALTED
                found = failed == 1 and self._deep_step(cell, value)
                self.allowance -= board.spent() - spent
                if failed:  # the sweep's grid is spent: no further tries this time
                    return cell if found else HALTED if self.stopped else NONE
        return NONE

    def _deep_step(self, cell: int, value: int) -> bool:
        """The ``probe`` step of depth 2 ruling ``value`` out of ``cell``: the line logic and
        probes of depth 1 under the assumption, replayed to the contradiction, as its chain.
        False (no step) when the replay stops before it."""
        board = self.board
        saved = self._counts()
        board.assign(cell, value)
        self.quiet = True
        start, lines = cell, self._lines(cell)
        while self.line_logic(lines) and board.open():
            found, _ = self.probe((start + 1) % len(board.codes.flat))
            if found < 0:
                break
            start, lines = found, self._lines(found)
        self.quiet = False
        conflicted = self.conflict
        taken = self._undo(saved)
        if not conflicted or self.stopped:
            return False
        chain = [{"rule": step.rule, **step.data} for step in taken[:-1]]
        inner = sum(step.rule == "probe" for step in taken)
        conflict = dict(taken[-1].data)
        decided, words = board.exclude(cell, value)
        row, col = divmod(cell, board.size[1])
        title = board.titles[board.names.index(conflict)]
        text = (
            f"probe {place(row, col)} at depth 2: if {board.word(value)}, line logic and "
            f"{inner} probe{'s' * (inner != 1)} ({len(chain)} steps) leave {title} no "
            f"placement, so it is {words}"
        )
        data = {
            "cell": [row, col],
            "assumed": value,
            "depth": 2,
            "chain": chain,
            "conflict": conflict,
            board.key: decided,
        }
        self._add("probe", lambda: text, data, decided)
        self.probes += 1
        self.deeper += 1
        return True

    def guess(self, cell: int, value: int, note: str) -> None:
        """Give ``cell`` the value ``value``, as a ``guess`` step (``note`` says why)."""
        board = self.board
        row, col = divmod(cell, board.size[1])
        self.guesses += 1
        self.held.append((board.codes.copy(), cell, value))
        board.assign(cell, value)
        depth = len(self.held)
        text = f"guess {place(row, col)} {board.word(value)} (probes stall; depth {depth}{note})"
        data = {"cell": [row, col], "value": value, "depth": depth}
        self._add("guess", lambda: text, data, [[row, col]])

    def backtrack(self) -> int:
        """Undo the last guess held after a contradiction, as a ``backtrack`` step: the grid as
        it was before the guess, the guessed value ruled out. Its cell is returned."""
        board = self.board
        codes, cell, value = self.held.pop()
        changed = np.nonzero(board.codes != codes)
        undone = [[int(r), int(c)] for r, c in zip(*changed, strict=True)]
        self.conflict = False
        board.codes = codes
        decided, words = board.exclude(cell, value)
        row, col = divmod(cell, board.size[1])
        depth = len(self.held)
        text = (
            f"backtrack: the guess at {place(row, col)} fails, {len(undone)} cells are undone "
            f"and it is {words} (depth {depth})"
        )
        data = {"cell": [row, col], "undone": undone, board.key: decided, "depth": depth}
        self._add("backtrack", lambda: text, data, decided)
        self.backtracks += 1
        return cell

    def branch(self, choice: tuple[int, int], solution: Any) -> int:
        """After probes of both depths found nothing: a guess at the cell of ``choice``
        (:meth:`Board.branching`), its value a search tries first. When the solution does not
        take that value its branch is searched (:meth:`refute`): refuted in
        :data:`BRANCH_STEPS` steps at most it is shown; else the guess takes the solution's
        value, its text saying why. The cell is returned (:data:`.HALTED` when the limit
        stopped the replay)."""
        board = self.board
        cell, first = choice
        value = board.value(solution, cell)
        note = ""
        if first != value:
            why = self.refute(cell, first)
            if why is None:
                return HALTED if self.stopped else cell
            note = (
                f"; {board.word(first)}, tried first, {why}: the guess follows the solution found"
            )
        self.guess(cell, value, note)
        return cell

    def refute(self, cell: int, value: int) -> str | None:
        """Search the branch of ``value`` at ``cell`` depth first: the guess, line logic and
        probes of depth 1 under it, at a stall a further guess (the value a search tries
        first), at a contradiction a ``backtrack`` of the last guess. None when the branch is
        refuted in :data:`BRANCH_STEPS` steps at most (its steps kept) or the limit stops the
        replay; else its steps are taken back and the words say why."""
        board = self.board
        saved = self._counts()
        held = len(self.held)
        self.guess(cell, value, "; the search's first choice")
        start, lines = cell, self._lines(cell)
        why = f"is not refuted in {BRANCH_STEPS} steps"
        while len(self.steps) - saved[1] <= BRANCH_STEPS:
            if not self.line_logic(lines):
                if self.stopped:
                    return None
                start = self.backtrack()
                if len(self.held) == held and len(self.steps) - saved[1] <= BRANCH_STEPS:
                    return None  # else the loop ends: refuted, but in too many steps
            elif not board.open():
                why = "leads to another solution"
                break
            else:
                start, _ = self.probe((start + 1) % len(board.codes.flat))
                if start == HALTED:
                    return None
                if start == NONE:
                    start, first = board.branching()
                    self.guess(start, first, "; the search's first choice")
            lines = self._lines(start)
        self._undo(saved)
        return why

    def run(self, solution: Any) -> None:
        """Deduce from the empty grid until every cell is decided, a contradiction, a stall
        without a solution to follow, or the limit."""
        board = self.board
        height, width = board.size
        board.aim(solution)
        lines: Iterable[int] = range(height + width)
        start = 0
        while self.line_logic(lines) and board.open():
            self.stopped = self.budget.exhausted()
            if self.stopped:
                return
            cell, _ = self.probe(start)
            if cell == NONE:
                choice = board.branching()
                cell = self.deep_probe()
                if cell == NONE:
                    if solution is None:
                        return
                    cell = self.branch(choice, solution)
            if cell == HALTED:
                return
            start = (cell + 1) % (height * width)
            lines = self._lines(cell)

    def grade(self) -> str:
        """The deepest reasoning used (:data:`GRADES`)."""
        used = (True, self.probes, self.deeper, self.guesses)
        return GRADES[max(i for i, u in enumerate(used) if u)]


def _solver_options(options: NonogramOptions, method: str) -> NonogramOptions:
    """The options the solver runs with: at least two solutions looked for, listed when the
    method lists them (the second one is shown)."""
    if method in LISTING:
        return dataclasses.replace(options, solutions=max(options.solutions or 2, 2))
    return dataclasses.replace(options, unique=True)


def _differences(first: Grid, second: Grid) -> list[list[int]]:
    return [
        [r, c]
        for r, (a, b) in enumerate(zip(first, second, strict=True))
        for c, (x, y) in enumerate(zip(a, b, strict=True))
        if x != y
    ]


def _uniqueness(replay: _Replay, found: Result[Grid]) -> list[str]:
    """The proof sentences on uniqueness (or unsolvability), adding a ``second`` step."""
    unique = found.proof.get("unique")
    if found.status is Status.UNSOLVABLE:
        if replay.conflict:
            return ["The clues have no solution: the contradiction follows from the deductions."]
        if found.stats.expanded:
            nodes = found.stats.expanded
            return [f"The clues have no solution: the search ({nodes} nodes) found none."]
        return [f"The clues have no solution: {found.message}."]
    assert found.solution is not None
    if not replay.held:
        found.proof["unique"] = True
        return ["The solution is unique: the deductions decided every cell (no guess holds)."]
    if unique:
        return [
            f"The solution is unique: the search ({found.stats.expanded} nodes) found no "
            "other, so no guess's other values lead to a solution."
        ]
    if unique is None:
        return ["Uniqueness is open: a limit stopped the search for a second solution."]
    others = [s for s in found.solutions if s != found.solution]
    if not others:
        return ["The solution is not unique (the method does not show the second one)."]
    second = others[0]
    cells = _differences(found.solution, second)
    where = ", ".join(place(r, c) for r, c in cells[:12]) + (", ..." if len(cells) > 12 else "")
    text = f"a second solution differs in {len(cells)} cells: {where}"
    state = (replay.board.encode(second).tobytes(), tuple((r, c) for r, c in cells))
    replay.steps.append(Step("second", text, {"grid": list(second), "cells": cells}, state))
    return [f"The solution is not unique: {text} (the last step)."]


def explain(
    puzzle: Puzzle,
    *,
    run: Runner,
    method: str,
    heuristic: str | None,
    options: NonogramOptions,
    limits: Limits | None,
    picture: Callable[[Grid, str, Iterable[tuple[int, int]]], Scene],
    draw: Callable[[Grid], str],
) -> Explanation:
    """Explain a nonogram (see the module docstring).

    Parameters
    ----------
    puzzle : Nonogram or ColourNonogram
        The clues.
    run : Runner
        The method that solves it first; ``method`` is its name.
    heuristic : str or None
        Passed to ``run``.
    options : NonogramOptions
        The user's options; the explanation's result lists solutions only when they ask.
    limits : Limits, optional
        Shared by the solve and the replay; when they stop the replay the result has status
        ``limit`` and the steps found so far.
    picture, draw : callable
        Draw a (partial) grid, ``?`` for an undecided cell: as a picture with a caption and
        marked cells, and as text.

    Returns
    -------
    Explanation
        Its result is the solver's, ``stats.seconds`` the whole time; the summary has
        ``grade``, ``steps``, ``probes``, ``guesses`` and, for the grade ``search``, ``nodes``.
    """
    load_kernels()
    budget = (limits or Limits()).start(Stats())
    solving = _solver_options(options, method)
    found = run(puzzle, heuristic=heuristic, options=solving, limits=limits)
    board: Board = ColourBoard(puzzle) if isinstance(puzzle, ColourNonogram) else BlackBoard(puzzle)
    start: State = (board.codes.tobytes(), ())
    replay = _Replay(board, budget, DEEP_FLOOR + DEEP_SHARE * found.stats.probes)
    proof: list[str] = []
    if found.status in (Status.SOLVED, Status.UNSOLVABLE):
        with budget.alarm(board.ring):
            replay.run(found.solution)
    if replay.stopped or found.status not in (Status.SOLVED, Status.UNSOLVABLE):
        status = replay.stopped or found.status
        found = Result(status, None, found.stats, found.method, found.heuristic)
        steps = len(replay.steps)
        proof.append(f"Stopped ({status}) after {steps} steps: the rest of the grid is open.")
    else:
        proof += _uniqueness(replay, found)
    found.solutions = found.solutions[: options.solutions or 0]
    found.stats.seconds = budget.finish().seconds
    summary: dict[str, Any] = {
        "grade": replay.grade(),
        "steps": len(replay.steps),
        "probes": replay.probes,
        "deeper probes": replay.deeper,
        "guesses": replay.guesses,
        "backtracks": replay.backtracks,
    }
    if replay.guesses:
        summary["nodes"] = found.stats.expanded

    def scene(state: State, caption: str) -> Scene:
        return picture(board.rows(state[0]), caption, state[1])

    def drawn(state: State) -> str:
        return draw(board.rows(state[0]))

    return Explanation("nonogram", found, replay.steps, proof, summary, start, scene, drawn)


@functools.cache
def load_kernels() -> None:
    """Compile (or load) the replay's kernels before a clock starts."""
    from .black import warm as warm_black
    from .colour import warm as warm_colour

    warm_black()
    warm_colour()
    slice_chain(np.zeros((1, 3), np.int64), 1, 1, np.zeros(2, np.uint8), np.zeros(1, np.uint8))
