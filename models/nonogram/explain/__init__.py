"""Explanations of nonograms: the deductions in order, a complete proof, a grade.

The deductions are replayed from the empty grid by compiled kernels (:mod:`.black`,
:mod:`.colour`), each cell narrowed step by step:

1. *line logic* on a worklist of dirty lines, the exact line solver on each: a ``line`` step;
2. at a stall, *probes* of depth 1: a value assumed in a cell and line logic run on a copy; a
   line left with no placement makes a ``probe`` step ruling the value out, its chain the line
   visits the conflict rests on;
3. at the first stall of probes, the puzzle is solved by the method asked for (``probing`` by
   default), asked for two solutions. When it has two, both fit every deduction so far and
   differ in an open cell, where both values lead to a solution: the explanation ends there
   with a ``second`` step. Otherwise (unique, or no solution):
4. when a sweep of probes finds nothing, probes of depth 2 (line logic and depth-1 probes to
   their fixpoint under the assumption) over every open cell, each value, until one fails;
   after the first refutation (below) they are tried only on the :data:`DEEP_CELLS` best cells
   and spend at most :data:`DEEP_FLOOR` plus :data:`DEEP_SHARE` times the solve's own trials;
5. else a *refutation*: at the cell whose trial decides the most, a value the solution does not
   take is assumed (a ``guess``) and its branch searched depth first with line logic and
   depth-1 probes, a nested guess at each stall, until every branch ends in a line with no
   placement (``contradiction``); each ``backtrack`` restores the grid of before its guess and
   rules the guessed value out. Deductions go on from the cell it decided.

So the steps are a complete proof: a unique puzzle ends with every cell decided and no guess
standing, an unsolvable one in a contradiction; only a limit leaves it open (grade ``None``).

``summary["grade"]`` is the least reasoning that solves the puzzle, as the replay ran it:
``"line logic"``, ``"probing"`` (depth 1 to a fixpoint), ``"deeper probes"`` (depth 2 to a
fixpoint over every cell) or ``"search"`` (refutations needed: ``refutations``, their
``refutation steps`` and ``guesses``, and ``nodes``, the solve's node count). For a puzzle that
is not unique it is the reasoning that reached the branch, and ``summary["verdict"]`` is
``"not unique"`` (else ``"unique"`` or ``"no solution"``; ``None`` when a limit stopped the run);
it also counts ``steps``, ``probes``, ``deeper probes`` and ``backtracks``.

Rules and data (``Step.data``; cells ``[row, column]``, 0-based; 1 filled, 0 empty, or colours):

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
    ``cell``, ``value``, ``depth`` (the guesses held, this one included): to be refuted.
``contradiction``
    ``axis``, ``index``, ``clue``: no placement fits; a ``backtrack`` follows when a guess is
    held, else the clues have no solution.
``backtrack``
    ``cell`` (the last guess held), ``undone`` (every cell changed since it, row-major),
    ``fixed`` or ``narrowed`` (the cell without the guessed value), ``depth``.
``second``
    ``grid`` (a second solution) and ``cells`` (where it differs from the result's, every one
    open when the step comes).

A state (``Step.state``) is ``(codes, marks)``: cell masks as bytes, the cells decided. A
refutation of over :data:`FOLD` steps folds into one line (:attr:`.Step.fold` on its guess).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any, Literal

import numpy as np

from cspsolve.explanation import Explanation, Step
from cspsolve.kind import Runner
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from ..board import Grid, Nonogram
from ..colour_board import ColourNonogram
from ..solver import GRADES, LISTING, NonogramOptions, sum_mismatch
from .black import BlackBoard
from .colour import ColourBoard
from .common import CONFLICT, FIXPOINT, HALTED, NONE, STOPPED, Board, place, slice_chain

__all__ = ["GRADES", "State", "explain", "load_kernels"]

DEEP_CELLS = 8
"""After the first refutation, probes of depth 2 are tried, when a sweep of probes found
nothing, on this many cells of the best scores (both values each)."""
DEEP_SHARE = 1
DEEP_FLOOR = 2000
"""After the first refutation, probes of depth 2 spend at most ``DEEP_FLOOR + DEEP_SHARE``
times the solve's trials (its ``stats.probes``) in trials."""
FOLD = 8
"""A top-level refutation of more steps than this is folded into one line of text."""

State = tuple[bytes, tuple[tuple[int, int], ...]]
"""A drawn state: the cell masks row by row, and the cells to mark."""

Puzzle = Nonogram | ColourNonogram

Outcome = Literal["done", "stall", "conflict", "halted"]
"""Where deductions end: every cell decided, nothing more follows, a line has no placement,
or the limit."""
Deep = Literal["none", "full", "budget"]
"""Probes of depth 2 at a stall: none, over every cell, or within the allowance."""

_QUIET: State = (b"", ())
"""The state of the steps of a chain (never drawn)."""


class _Replay:
    """The deductions replayed on a board, as steps (see the module docstring).

    Parameters
    ----------
    board : Board
        The grid, empty.
    budget : Budget
        The run's limits; each guess counts as a node.
    """

    def __init__(self, board: Board, budget: Budget) -> None:
        self.board = board
        self.budget = budget
        self.allowance = 0
        """The trials that capped probes of depth 2 may spend (see :data:`DEEP_SHARE`)."""
        self.steps: list[Step] = []
        self.guesses = 0
        self.held: list[tuple[Any, int, int]] = []
        """The guesses in force (not undone by a ``backtrack``): the grid before each, its
        cell and value."""
        self.probes = 0
        self.deeper = 0
        self.backtracks = 0
        self.refutations = 0
        self.refuting = 0
        """The steps of the top-level refutations."""
        self.level = 0
        """The deepest reasoning used outside refutations (an index of :data:`GRADES`)."""
        self.conflict = False
        self.quiet = False
        """Whether the steps are a chain's: no text, no state."""
        self.stopped: Status | None = None
        self.ruled_out = ""
        """The words of the last ``backtrack``: what its cell is left."""
        height, width = board.size
        self.cells = height * width
        self.needed = np.zeros(height + width, np.uint8)
        self.keep = np.zeros(0, np.uint8)

    def _add(self, rule: str, text: Callable[[], str], data: dict[str, Any], marks: Any) -> None:
        """Append a step (its text and state only when not :attr:`quiet`)."""
        if self.quiet:
            self.steps.append(Step(rule, "", data, _QUIET))
            return
        state = self.board.codes.tobytes(), tuple((m[0], m[1]) for m in marks)
        self.steps.append(Step(rule, text(), data, state))

    def _used(self, level: int) -> None:
        """Record reasoning of ``level`` (an index of :data:`GRADES`) outside refutations."""
        if not self.held and not self.quiet:
            self.level = max(self.level, level)

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
        self._used(1)
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

    def deep_probe(self, capped: bool) -> int:
        """After a sweep of probes found nothing: probes of depth 2 on the open cells of the
        sweep, best scores first (``capped``: on :data:`DEEP_CELLS` cells while the allowance
        of trials lasts); the first that fails is a ``probe`` step of depth 2 (its cell is
        returned), else :data:`.NONE` (or :data:`.HALTED`)."""
        board = self.board
        for cell in board.candidates(DEEP_CELLS if capped else self.cells):
            for value in board.values(cell):
                if capped and self.allowance <= 0:
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
            found, _ = self.probe((start + 1) % self.cells)
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
        self._used(2)
        return True

    def deduce(self, lines: Iterable[int], start: int, deep: Deep) -> Outcome:
        """Line logic from ``lines`` and probes from cell ``start`` (of depth 2 as ``deep``
        says) until every cell is decided, nothing more follows, a line has no placement, or
        the limit."""
        board = self.board
        while True:
            if not self.line_logic(lines):
                return "halted" if self.stopped else "conflict"
            if not board.open():
                return "done"
            self.stopped = self.budget.exhausted()
            if self.stopped:
                return "halted"
            cell, _ = self.probe(start)
            if cell == NONE and deep != "none":
                cell = self.deep_probe(capped=deep == "budget")
            if cell == HALTED:
                return "halted"
            if cell == NONE:
                return "stall"
            start, lines = (cell + 1) % self.cells, self._lines(cell)

    def guess(self, cell: int, value: int) -> None:
        """Assume ``value`` at ``cell``, to be refuted: a ``guess`` step (a node)."""
        board = self.board
        row, col = divmod(cell, board.size[1])
        self.guesses += 1
        self.budget.stats.expanded += 1
        self.held.append((board.codes.copy(), cell, value))
        board.assign(cell, value)
        depth = len(self.held)
        text = f"guess {place(row, col)} {board.word(value)}, to refute it (depth {depth})"
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
        self.ruled_out = f"so {place(row, col)} is {words}"
        text = (
            f"backtrack: the guess at {place(row, col)} fails, {len(undone)} cells are undone "
            f"and it is {words} (depth {depth})"
        )
        data = {"cell": [row, col], "undone": undone, board.key: decided, "depth": depth}
        self._add("backtrack", lambda: text, data, decided)
        self.backtracks += 1
        return cell

    def refute(self, cell: int, value: int) -> Outcome:
        """Refute ``value`` at ``cell``: its ``guess``, then line logic and probes of depth 1,
        at a stall a nested guess (the value a search tries first) refuted in turn, until the
        guess's own ``backtrack``. ``"conflict"`` when refuted (the cell then lacks the value),
        ``"halted"`` at the limit, ``"done"`` when a branch decides every cell (a solution
        the refutation cannot rule out; its guesses stand)."""
        base = len(self.held)
        opened = [len(self.steps)]
        self.guess(cell, value)
        lines, start = self._lines(cell), (cell + 1) % self.cells
        while True:
            outcome = self.deduce(lines, start, "none")
            if outcome == "conflict":
                cell = self.backtrack()
                first = opened.pop()
                if len(self.held) == base:
                    self._fold(first)
                    return "conflict"
            elif outcome == "stall":
                cell, choice = self.fail_first()
                opened.append(len(self.steps))
                self.guess(cell, choice)
            else:
                return outcome
            lines, start = self._lines(cell), (cell + 1) % self.cells

    def fail_first(self) -> tuple[int, int]:
        """After a sweep of probes found nothing: the open cell of the best score, and the
        value whose trial decides the most there (the likeliest to fail soon)."""
        board = self.board
        [cell] = board.candidates(1)
        sizes = {value: len(board.trial(cell, value)[1]) for value in board.values(cell)}
        return cell, max(sizes, key=sizes.__getitem__)

    def _fold(self, first: int) -> None:
        """Count the refutation from step ``first`` to the last one; at the top level, fold it
        when it is longer than :data:`FOLD` steps."""
        if self.held:
            return
        count = len(self.steps) - first
        self.refutations += 1
        self.refuting += count
        self.level = len(GRADES) - 1
        if count <= FOLD:
            return
        guess, conflict = self.steps[first], self.steps[-2]
        row, col = guess.data["cell"]
        nested = sum(step.rule == "guess" for step in self.steps[first + 1 :])
        within = f" ({nested} nested guesses)" if nested else ""
        line = self.board.titles[self.board.names.index(dict(conflict.data))]
        word = self.board.word(guess.data["value"])
        text = (
            f"if {place(row, col)} were {word}: {count} steps{within}, the last leaving "
            f"{line} no placement, {self.ruled_out}"
        )
        self.steps[first] = dataclasses.replace(guess, fold=(count, text))

    def wrong(self, cell: int, first: int, solution: Any) -> int:
        """A value of ``cell`` that ``solution`` does not take: ``first`` if it is one."""
        right = self.board.value(solution, cell)
        if first != right:
            return first
        return next(v for v in self.board.values(cell) if v != right)

    def prove(self, solution: Any) -> Outcome:
        """From a stall, deduce until every cell is decided, with probes of depth 2 and, where
        they stall, refutations of values ``solution`` does not take (with ``solution`` None,
        of the value a search tries first): ``"done"``, ``"conflict"`` (no solution) or
        ``"halted"``; ``"stall"`` when a branch reached a solution other than ``solution``
        (its guesses stand)."""
        board = self.board
        lines: Iterable[int] = ()
        start = 0
        while True:
            deep: Deep = "budget" if self.refutations else "full"
            outcome = self.deduce(lines, start, deep)
            if outcome != "stall":
                return outcome
            cell, first = board.branching()
            value = first if solution is None else self.wrong(cell, first, solution)
            if self.refute(cell, value) != "conflict":
                return "halted" if self.stopped else "stall"
            lines, start = self._lines(cell), (cell + 1) % self.cells

    def grade(self) -> str:
        """The deepest reasoning used outside refutations (:data:`GRADES`)."""
        return GRADES[self.level]

    def second(self, solution: Grid, other: Grid) -> None:
        """The ``second`` step: ``other`` fits every step and differs from ``solution``."""
        cells = _differences(solution, other)
        where = ", ".join(place(r, c) for r, c in cells[:12]) + ", ..." * (len(cells) > 12)
        text = (
            f"a second solution fits every step and differs in {len(cells)} open cells: "
            f"{where}; at {place(*cells[0])} both values lead to a solution"
        )
        state = (self.board.encode(other).tobytes(), tuple((r, c) for r, c in cells))
        self.steps.append(Step("second", text, {"grid": list(other), "cells": cells}, state))


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


def _branches(found: Result[Grid]) -> bool:
    """Whether the replay goes on past its first stall: a unique solution (or one whose
    uniqueness a limit left open) to follow, or no solution, every branch to be refuted."""
    if found.status is Status.UNSOLVABLE:
        return True
    return found.status.has_solution and found.proof.get("unique") is not False


def _second(found: Result[Grid]) -> Grid | None:
    """A solution the solver listed besides its answer."""
    return next((s for s in found.solutions if s != found.solution), None)


def _conclude(replay: _Replay, found: Result[Grid], outcome: Outcome) -> tuple[str, list[str]]:
    """The verdict and the proof sentences on uniqueness (or unsolvability) once the replay
    ended with ``outcome`` (adding a ``second`` step where it stopped at a branch)."""
    if found.status is Status.UNSOLVABLE:
        if not replay.steps and outcome == "conflict":
            return "no solution", [f"The clues have no solution: {found.message}."]
        if outcome == "conflict":
            return "no solution", [
                "The clues have no solution: the contradiction follows from the steps shown."
            ]
        return "no solution", [
            f"The clues have no solution: the search found none ({found.message})."
        ]
    assert found.solution is not None
    if outcome == "conflict":
        return "disagreement", [
            "The steps end in a contradiction although the solver found a solution: one of "
            "them is wrong (please report it)."
        ]
    if outcome == "done" and not replay.held:
        found.proof["unique"] = True
        return "unique", [
            "The solution is unique: it follows from the steps shown (every cell decided, "
            "no guess standing)."
        ]
    other = _second(found)
    if other is None and replay.held:  # a refutation reached a solution
        other = replay.board.rows(replay.board.codes.tobytes())
    if other is None:
        return "not unique", ["The solution is not unique (the method does not show a second one)."]
    found.proof["unique"] = False
    replay.second(found.solution, other)
    return "not unique", [
        "The solution is not unique: the deductions stop where two solutions branch (the last "
        "step)."
    ]


def explain(
    puzzle: Puzzle,
    *,
    run: Runner,
    method: str,
    heuristic: str | None,
    options: NonogramOptions,
    limits: Limits | None,
) -> Explanation:
    """Explain a nonogram (see the module docstring).

    Parameters
    ----------
    puzzle : Nonogram or ColourNonogram
        The clues.
    run : Runner
        The method that solves it at the first stall; ``method`` is its name.
    heuristic : str or None
        Passed to ``run``.
    options : NonogramOptions
        The user's options; the explanation's result lists solutions only when they ask.
    limits : Limits, optional
        Shared by the replay and the solve (each guess of a refutation counts as a node);
        when they stop the run, its result has status ``limit`` and the steps found so far.

    Returns
    -------
    Explanation
        Its result is the solver's, ``stats.seconds`` the whole time; the summary has
        ``grade``, ``verdict``, the counts of the steps and, for the grade ``search``,
        ``nodes``. Its states (:data:`State`) are drawn by the kind, which sets its ``scene``
        and ``draw``.
    """
    load_kernels(isinstance(puzzle, ColourNonogram))
    budget = (limits or Limits()).start(Stats())
    board: Board = ColourBoard(puzzle) if isinstance(puzzle, ColourNonogram) else BlackBoard(puzzle)
    start: State = (board.codes.tobytes(), ())
    replay = _Replay(board, budget)
    height, width = board.size
    mismatch = sum_mismatch(puzzle)
    with budget.alarm(board.ring):
        lines = () if mismatch else range(height + width)
        outcome = replay.deduce(lines, 0, "none") if lines else "conflict"
        found = _solved(replay, outcome, run, puzzle, heuristic, options, method)
        if outcome == "stall" and _branches(found):
            replay.allowance = DEEP_FLOOR + DEEP_SHARE * found.stats.probes
            board.aim(found.solution)
            outcome = replay.prove(found.solution)
    verdict: str | None = None
    if outcome == "halted" or found.status not in (Status.SOLVED, Status.UNSOLVABLE):
        status = replay.stopped or found.status
        found = Result(status, None, found.stats, found.method, found.heuristic)
        proof = [
            f"Stopped ({status}) after {len(replay.steps)} steps: the rest of the grid is open."
        ]
    else:
        verdict, proof = _conclude(replay, found, outcome)
    found.solutions = found.solutions[: options.solutions or 0]
    found.stats.seconds = budget.finish().seconds
    summary = _summary(replay, verdict, found)
    return Explanation("nonogram", found, replay.steps, proof, summary, start)


def _solved(
    replay: _Replay,
    outcome: Outcome,
    run: Runner,
    puzzle: Puzzle,
    heuristic: str | None,
    options: NonogramOptions,
    method: str,
) -> Result[Grid]:
    """The solver's answer, asked for two solutions within what the replay left of the
    limits (a stopped result when the replay was stopped)."""
    if outcome == "halted":
        return Result(replay.stopped or Status.LIMIT, None, Stats(), method, heuristic)
    solving = _solver_options(options, method)
    return run(puzzle, heuristic=heuristic, options=solving, limits=replay.budget.rest())


def _summary(replay: _Replay, verdict: str | None, found: Result[Grid]) -> dict[str, Any]:
    """The explanation's facts (see the module docstring)."""
    summary: dict[str, Any] = {
        "grade": replay.grade() if verdict else None,
        "verdict": verdict,
        "steps": len(replay.steps),
        "probes": replay.probes,
        "deeper probes": replay.deeper,
        "guesses": replay.guesses,
        "backtracks": replay.backtracks,
    }
    if replay.refutations:
        summary["refutations"] = replay.refutations
        summary["refutation steps"] = replay.refuting
    if found.stats.expanded:
        summary["nodes"] = found.stats.expanded
    return summary


def load_kernels(colour: bool) -> None:
    """Compile (or load) the replay's kernels before a clock starts: those of colour puzzles
    or those of black-and-white ones, not both (a first run compiles only what it uses)."""
    if colour:
        from .colour import warm
    else:
        from .black import warm
    warm()
    _warm_chain()


@functools.cache
def _warm_chain() -> None:
    """Compile (or load) :func:`.common.slice_chain`."""
    slice_chain(np.zeros((1, 3), np.int64), 1, 1, np.zeros(2, np.uint8), np.zeros(1, np.uint8))
