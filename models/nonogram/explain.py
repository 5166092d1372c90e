"""Explanations of black-and-white nonograms: the deductions in order, a grade, uniqueness.

The puzzle is first solved by the method asked for (``probing`` by default), asked for at least
two solutions so that uniqueness is decided. The deductions are then replayed from the empty
grid by compiled kernels, each cell decided once:

1. *line logic* on a worklist of dirty lines, each visit by the exact line solver
   (:func:`.lines.cells.settle_line`); a visit that fixes cells is a ``line`` step;
2. when line logic stalls, *probes* (depth 1): each undecided cell, from where the last probe
   left off, is assumed filled, then empty, and line logic run on a copy of the grid; an
   assumption that leaves some line with no placement is a ``probe`` step fixing the cell the
   other way, with the line visits of that trial as its chain; line logic then goes on;
3. when a whole sweep of probes finds nothing, a ``guess``: a cell takes the value it has in the
   solution found by the search, the cell whose trial with that value fixed the most cells
   (the guess that helps most); line logic and probes go on under it.
   A guess that follows the solution never needs undoing: the search's own backtracking, which
   found that solution and decided uniqueness, is summed up by its node count.

The grade (``summary["grade"]``) is the deepest reasoning the replay needed: ``"line logic"``
(line logic alone), ``"probing"`` (probes of depth 1 too), ``"search"`` (a guess; the summary's
``nodes`` is then the search's node count). Uniqueness: when no guess was needed the deductions
fixed every cell, so the solution is unique; otherwise the search decided it, and a second
solution is shown as a last ``second`` step.

Rules and their data keys (``Step.data``; cells are ``[row, column]``, 0-based; values are 1
filled, 0 empty):

``line``
    ``axis`` (``"row"`` or ``"column"``), ``index`` (0-based), ``clue`` (list of int) and
    ``fixed`` (list of ``[row, column, value]``): every placement of the clue that agrees with
    the cells known before the step gives these cells these values.
``probe``
    ``cell``, ``assumed`` (the value tried), ``chain`` (the trial's line visits that fixed
    cells, each a dict of ``axis``, ``index``, ``clue``, ``fixed`` as a ``line`` step's),
    ``conflict`` (``axis``, ``index``, ``clue`` of the line left with no placement) and
    ``fixed`` (``[[row, column, 1 - assumed]]``).
``guess``
    ``cell``, ``value``, ``depth`` (the guesses so far, this one included).
``contradiction``
    ``axis``, ``index``, ``clue``: no placement of the clue agrees with the known cells, so
    the clues have no solution (it follows from line logic and probes alone).
``second``
    ``grid`` (rows of ``#`` and ``.``) a second solution and ``cells`` the ``[row, column]``
    where it differs from the first (the last step; its state is the second grid, those cells
    marked).

A state (``Step.state``) is ``(codes, marks)``: the grid's cell codes (:mod:`.lines.cells`),
row by row, as bytes, and the cells the step fixed.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cspsolve.explain import Explanation, Step
from cspsolve.kind import Runner
from cspsolve.limits import Budget, Limits
from cspsolve.render import Scene
from cspsolve.results import Result, Stats, Status

from ._kernels import kernel
from .board import Grid, Nonogram
from .lines.bits import MAX_CELLS, settle_bits
from .lines.cells import EMPTY, FILLED, UNKNOWN, scratch, settle_line
from .search.probing import STOP, Network, enqueue, raise_stop
from .search.probing import _trial as trial
from .solver import LISTING, NonogramOptions

__all__ = ["GRADES", "State", "explain", "load_kernels", "rows"]

GRADES = ("line logic", "probing", "search")
"""The grades, easiest first (see the module docstring)."""

State = tuple[bytes, tuple[tuple[int, int], ...]]
"""A drawn state: the cell codes row by row, and the cells to mark."""

_STOPPED, _CONFLICT, _FIXPOINT = -1, 0, 1
"""What :func:`_line_logic` returns."""
_NONE, _HALTED = -1, -2
"""What :func:`_sweep` returns besides a failed assumption (``cell * 2 + filled``)."""
_CHARS = bytes.maketrans(bytes((EMPTY, FILLED, UNKNOWN)), b".#?")
"""Cell codes to the characters of a partial grid (``?`` undecided)."""


@kernel(inline=True)
def _settle(cells: Any, blocks: Any, first: int, k: int, work: Any) -> bool:
    """Narrow a line's cell codes in place by the exact line solver: on words
    (:func:`.lines.bits.settle_bits`) up to :data:`.lines.bits.MAX_CELLS` cells, on the codes
    (:func:`.lines.cells.settle_line`) beyond. False on a contradiction."""
    n = cells.shape[0]
    if n > MAX_CELLS:
        return settle_line(cells, blocks[first : first + k], work[4], work[5], work[6], work[7])
    can_empty, can_fill = np.uint64(0), np.uint64(0)
    for i in range(n):
        bit = np.uint64(1) << np.uint64(i)
        if cells[i] & EMPTY:
            can_empty |= bit
        if cells[i] & FILLED:
            can_fill |= bit
    ok, empty, filled = settle_bits(can_empty, can_fill, n, blocks, first, k, work[8])
    if ok:
        for i in range(n):
            bit = np.uint64(1) << np.uint64(i)
            cells[i] = EMPTY if empty & bit else FILLED if filled & bit else UNKNOWN
    return ok


@kernel(inline=True)
def _run(
    codes: Any, height: int, width: int, clues: Any, work: Any, log: Any, tally: Any,
    stop: Any,
) -> int:  # fmt: skip
    """Line logic to a fixpoint from the lines on the worklist, logging what it fixes.

    Each cell fixed is a row ``(line, position, code)`` of ``log``, in order; a line left with
    no placement ends the log with ``(line, -1, 0)``. ``tally[0]`` receives the rows written.
    Returns :data:`_FIXPOINT`, :data:`_CONFLICT`, or :data:`_STOPPED` when ``stop[0]`` is set.
    """
    blocks, starts, counts = clues
    queue, queued, ends, cells = work[0], work[1], work[2], work[3]
    lines = height + width
    m = 0
    status = _FIXPOINT
    while ends[1]:
        if stop[0]:
            status = _STOPPED
            break
        line = queue[ends[0]]
        ends[0] = ends[0] + 1 if ends[0] + 1 < lines else 0
        ends[1] -= 1
        queued[line] = 0
        row = line < height
        n = width if row else height
        for i in range(n):
            cells[i] = codes[line, i] if row else codes[i, line - height]
        if not _settle(cells[:n], blocks, starts[line], counts[line], work):
            log[m, 0], log[m, 1], log[m, 2] = line, -1, 0
            m += 1
            status = _CONFLICT
            break
        for i in range(n):
            r, c = (line, i) if row else (i, line - height)
            if cells[i] != codes[r, c]:
                codes[r, c] = cells[i]
                log[m, 0], log[m, 1], log[m, 2] = line, i, cells[i]
                m += 1
                enqueue(height + i if row else i, queue, queued, ends)
    if status != _FIXPOINT:
        queued[:] = 0
        ends[:] = 0
    tally[0] = m
    return status


@kernel()
def _line_logic(
    codes: Any, height: int, width: int, clues: Any, work: Any, log: Any, tally: Any,
    stop: Any,
) -> int:  # fmt: skip
    """:func:`_run` as a kernel of its own."""
    return _run(codes, height, width, clues, work, log, tally, stop)


@kernel()
def _logged_trial(
    codes: Any, trial: Any, row: int, col: int, value: int, height: int, width: int,
    clues: Any, work: Any, log: Any, tally: Any, stop: Any,
) -> int:  # fmt: skip
    """Copy ``codes`` into ``trial``, set one cell there and run line logic (:func:`_run`),
    logging it: the chain of a probe."""
    for r in range(height):
        for c in range(width):
            trial[r, c] = codes[r, c]
    trial[row, col] = value
    queue, queued, ends = work[0], work[1], work[2]
    enqueue(row, queue, queued, ends)
    enqueue(height + col, queue, queued, ends)
    return _run(trial, height, width, clues, work, log, tally, stop)


@kernel()
def _slice(log: Any, m: int, height: int, width: int, needed: Any, keep: Any) -> None:
    """Mark in ``keep`` the entries of a failed trial's log (``m`` rows, the last its
    conflict) that the conflict rests on: going backwards, a line visit is kept when a cell it
    fixed lies in a line that a kept visit later read (the cell's crossing line, or its own
    line visited again); ``needed`` (uint8, (H + W,)) is scratch."""
    needed[:] = 0
    needed[log[m - 1, 0]] = 1
    keep[m - 1] = 1
    i = m - 2
    while i >= 0:
        line = log[i, 0]
        first = i
        while first > 0 and log[first - 1, 0] == line:
            first -= 1
        used = needed[line] == 1
        for j in range(first, i + 1):
            position = log[j, 1]
            cross = height + position if line < height else position
            used = used or needed[cross] == 1
        for j in range(first, i + 1):
            keep[j] = used
        if used:
            needed[line] = 1
            for j in range(first, i + 1):
                position = log[j, 1]
                needed[height + position if line < height else position] = 1
        i = first - 1


@kernel()
def _sweep(
    codes: Any, start: int, grid: Any, size: Any, clues: Any, work: Any, counters: Any,
    trials: Any, target: Any, best: Any,
) -> int:  # fmt: skip
    """Probe the undecided cells from ``start`` on (wrapping round) until an assumption fails.

    The trials run on the fast solver's bit grids (:mod:`.search.probing`, its network's
    ``clues``, ``work``, ``counters`` and ``trials``): ``codes`` is copied into ``grid`` first.

    Returns ``cell * 2 + 1`` when assuming the cell (row-major index) filled fails, ``cell * 2``
    when assuming it empty does, :data:`_NONE` when none fails, or :data:`_HALTED` when the
    stop flag of ``counters`` was raised. ``best[0]`` is then the cell whose trial with its
    value in ``target`` (cell codes, a solution) fixed the most cells.
    """
    height, width = size
    grid[:] = 0
    for r in range(height):
        for c in range(width):
            if codes[r, c] != UNKNOWN:
                plane = 1 if codes[r, c] == FILLED else 0
                grid[plane, r, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
                grid[plane, height + c, r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    cells = height * width
    best_score = -1
    for step in range(cells):
        cell = start + step if start + step < cells else start + step - cells
        row, col = cell // width, cell % width
        if codes[row, col] != UNKNOWN:
            continue
        for plane in (1, 0):
            fixed = trial(grid, trials[plane], cell, plane, size, clues, work, counters, work.read)
            if counters[STOP]:
                return _HALTED
            if fixed < 0:
                return cell * 2 + plane
            if target[row, col] == (FILLED if plane else EMPTY) and fixed > best_score:
                best[0], best_score = cell, fixed
    return _NONE


@dataclass
class _Board:
    """The replay's grid and the kernels' arrays for one puzzle.

    ``codes`` is the grid (cell codes, (H, W)); ``trial`` a copy for the logged trials;
    ``clues`` and ``work`` the arrays of :func:`_run` (``work``: the worklist's queue, flags and
    ends, a line's codes, the scratch of :func:`.lines.cells.settle_line` and of
    :func:`.lines.bits.settle_bits`); ``log`` and ``tally`` its log; ``stop``
    its stop flag; ``net`` the fast solver's network, whose trials :func:`_sweep` runs, with
    ``grid`` its bit grid; ``needed`` and ``keep`` the scratch of :func:`_slice`; ``best`` the
    best cell of the last sweep; ``target`` the cell codes of the solution guesses follow (0
    where there is none).
    """

    puzzle: Nonogram
    codes: Any
    trial: Any
    clues: tuple[Any, Any, Any]
    work: tuple[Any, ...]
    log: Any
    net: Network
    grid: Any
    needed: Any
    keep: Any
    tally: Any = dataclasses.field(default_factory=lambda: np.zeros(1, np.int64))
    stop: Any = dataclasses.field(default_factory=lambda: np.zeros(1, np.int64))
    best: Any = dataclasses.field(default_factory=lambda: np.zeros(1, np.int64))
    target: Any = None

    @classmethod
    def build(cls, puzzle: Nonogram) -> _Board:
        """The empty grid of ``puzzle`` and the arrays the kernels take."""
        height, width = puzzle.height, puzzle.width
        net = Network.build(puzzle)
        lines = height + width
        longest = max(height, width)
        blocks = int(net.clues[2].max(initial=0))
        work = (
            np.zeros(lines, np.int64),
            np.zeros(lines, np.uint8),
            np.zeros(2, np.int64),
            np.zeros(longest, np.uint8),
            *scratch(longest, blocks),
            np.zeros((4, blocks + 1), np.uint64),
        )
        codes = np.full((height, width), UNKNOWN, np.uint8)
        log = np.zeros((height * width + 1, 3), np.int64)
        needed, keep = np.zeros(lines, np.uint8), np.zeros(height * width + 1, np.uint8)
        return cls(
            puzzle, codes, codes.copy(), net.clues, work, log, net, net.unknown(), needed, keep
        )

    @property
    def size(self) -> tuple[int, int]:
        """``(height, width)``."""
        return self.puzzle.height, self.puzzle.width

    def queue(self, lines: Iterable[int]) -> None:
        """Put lines (rows ``0 .. H-1``, then columns) on the worklist."""
        queue, queued, ends = self.work[0], self.work[1], self.work[2]
        for line in lines:
            if not queued[line]:
                queue[(ends[0] + ends[1]) % len(queue)] = line
                queued[line] = 1
                ends[1] += 1

    def ring(self) -> None:
        """Raise every kernel's stop flag (the budget's alarm)."""
        self.stop[0] = 1
        raise_stop(self.net.counters)

    def logged(self) -> Any:
        """The rows the last kernel logged (a view)."""
        return self.log[: int(self.tally[0])]

    @functools.cached_property
    def names(self) -> list[dict[str, Any]]:
        """Each line's naming data: ``axis``, ``index``, ``clue``."""
        rows = [
            {"axis": "row", "index": i, "clue": list(c)} for i, c in enumerate(self.puzzle.rows)
        ]
        columns = [
            {"axis": "column", "index": i, "clue": list(c)}
            for i, c in enumerate(self.puzzle.columns)
        ]
        return rows + columns

    def line(self, line: int) -> dict[str, Any]:
        """The data naming a line: ``axis``, ``index``, ``clue`` (a copy)."""
        return dict(self.names[line])

    def visits(self, entries: Any) -> list[tuple[int, list[list[int]]]]:
        """Logged entries grouped by line visit: the line and the ``[row, column, value]`` it
        fixed (a contradiction's entry left out)."""
        height = self.puzzle.height
        out: list[tuple[int, list[list[int]]]] = []
        last = -1
        fixed: list[list[int]] = []
        for line, position, code in entries.tolist():
            if position < 0:
                continue
            if line != last:
                fixed = []
                out.append((line, fixed))
                last = line
            value = int(code == FILLED)
            if line < height:
                fixed.append([line, position, value])
            else:
                fixed.append([position, line - height, value])
        return out


def _name(data: dict[str, Any]) -> str:
    """A line for people: ``row 3 (clue 3 1)``."""
    clue = " ".join(map(str, data["clue"])) or "0"
    return f"{data['axis']} {data['index'] + 1} (clue {clue})"


def _place(row: int, col: int) -> str:
    """A cell for people, 1-based: ``(3, 7)``."""
    return f"({row + 1}, {col + 1})"


def _fixes(data: dict[str, Any]) -> str:
    """What a line visit fixed, for people: ``fills columns 2, 3 and empties column 7``."""
    along = 1 if data["axis"] == "row" else 0
    parts: list[str] = []
    for value, verb in ((1, "fills"), (0, "empties")):
        at = [str(cell[along] + 1) for cell in data["fixed"] if cell[2] == value]
        if at:
            noun = ("column" if along else "row") + ("s" if len(at) > 1 else "")
            parts.append(f"{verb} {noun} {', '.join(at)}")
    return " and ".join(parts)


def _value(value: int) -> str:
    return "filled" if value else "empty"


class _Replay:
    """The deductions replayed on a :class:`_Board`, as steps (see the module docstring)."""

    def __init__(self, board: _Board, budget: Budget) -> None:
        self.board = board
        self.budget = budget
        self.steps: list[Step] = []
        self.guesses = 0
        self.probes = 0
        self.conflict = False
        self.stopped: Status | None = None

    def _state(self, marks: Iterable[list[int]]) -> State:
        return self.board.codes.tobytes(), tuple((m[0], m[1]) for m in marks)

    def _arrays(self) -> tuple[Any, Any, Any, Any, Any]:
        board = self.board
        return board.clues, board.work, board.log, board.tally, board.stop

    def _halted(self) -> None:
        self.stopped = self.budget.interrupted() or Status.LIMIT

    def line_logic(self, lines: Iterable[int]) -> bool:
        """Line logic from ``lines`` to a fixpoint, a ``line`` step per visit that fixes cells
        (and a ``contradiction`` step). False when it stops short (a conflict or the limit)."""
        board = self.board
        board.queue(lines)
        after = board.codes.copy()
        found = _line_logic(after, *board.size, *self._arrays())
        entries = board.logged()
        codes = board.codes  # replayed visit by visit, to snapshot the grid after each
        for line, fixed in board.visits(entries):
            for r, c, v in fixed:
                codes[r, c] = FILLED if v else EMPTY
            data = {**board.names[line], "fixed": fixed}
            text = f"{_name(data)}: line logic {_fixes(data)}"
            self.steps.append(Step("line", text, data, self._state(fixed)))
        if found == _STOPPED:
            self._halted()
        elif found == _CONFLICT:
            data = board.line(int(entries[-1, 0]))
            text = f"{_name(data)}: no placement of the clue fits the known cells"
            self.steps.append(Step("contradiction", text, data, self._state([])))
            self.conflict = True
        return found == _FIXPOINT

    def probe(self, start: int) -> int:
        """Sweep probes from cell ``start``; on a failed assumption add its ``probe`` step, fix
        the cell and return it; :data:`_NONE` when none fails (the best cell in the board's
        ``best``), :data:`_HALTED` at the limit."""
        board, net = self.board, self.board.net
        height, width = board.size
        found = _sweep(
            board.codes, start, board.grid, board.size, net.clues, net.work, net.counters,
            net.trials, board.target, board.best,
        )  # fmt: skip
        if found < 0:
            if found == _HALTED:
                self._halted()
            return found
        cell, assumed = found // 2, found % 2
        row, col = divmod(cell, width)
        code = FILLED if assumed else EMPTY
        args = (height, width, *self._arrays())
        if _logged_trial(board.codes, board.trial, row, col, code, *args) == _STOPPED:
            self._halted()
            return _HALTED
        entries = board.logged()
        keep = board.keep[: len(entries)]
        _slice(entries, len(entries), height, width, board.needed, keep)
        chain = [
            {**board.names[line], "fixed": fixed}
            for line, fixed in board.visits(entries[keep == 1])
        ]
        conflict = board.line(int(entries[-1, 0]))
        fixed = [[row, col, 1 - assumed]]
        board.codes[row, col] = EMPTY if assumed else FILLED
        text = (
            f"probe {_place(row, col)}: if {_value(assumed)}, line logic ({len(chain)} lines) "
            f"leaves {_name(conflict)} no placement, so it is {_value(1 - assumed)}"
        )
        data = {"cell": [row, col], "assumed": assumed, "chain": chain, "conflict": conflict}
        self.steps.append(Step("probe", text, {**data, "fixed": fixed}, self._state(fixed)))
        self.probes += 1
        return cell

    def guess(self, cell: int, solution: Grid) -> None:
        """Set ``cell`` to its value in ``solution``, as a ``guess`` step."""
        row, col = divmod(cell, self.board.puzzle.width)
        value = int(solution[row][col] == "#")
        self.guesses += 1
        self.board.codes[row, col] = FILLED if value else EMPTY
        text = f"guess {_place(row, col)} {_value(value)} (probes stall; depth {self.guesses})"
        data = {"cell": [row, col], "value": value, "depth": self.guesses}
        self.steps.append(Step("guess", text, data, self._state([[row, col]])))

    def run(self, solution: Grid | None) -> None:
        """Deduce from the empty grid until every cell is fixed, a contradiction, a stall
        without a solution to follow, or the limit."""
        board = self.board
        height, width = board.size
        lines: Iterable[int] = range(height + width)
        start = 0
        board.target = np.zeros(board.size, np.uint8)
        if solution is not None:
            board.target[:] = np.array([[c == "#" for c in row] for row in solution]) + EMPTY
        while self.line_logic(lines) and (board.codes == UNKNOWN).any():
            self.stopped = self.budget.exhausted()
            if self.stopped:
                return
            cell = self.probe(start)
            if cell == _HALTED:
                return
            if cell == _NONE:
                if solution is None:
                    return
                cell = int(board.best[0])
                self.guess(cell, solution)
            start = (cell + 1) % (height * width)
            lines = (cell // width, height + cell % width)

    def grade(self) -> str:
        """The deepest reasoning used (:data:`GRADES`)."""
        return GRADES[2] if self.guesses else GRADES[1] if self.probes else GRADES[0]


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
    if not replay.guesses:
        found.proof["unique"] = True
        return ["The solution is unique: the deductions fixed every cell without a guess."]
    if unique:
        return [
            f"The solution is unique: the search ({found.stats.expanded} nodes) found no "
            "other, so no guess's other value leads to a solution."
        ]
    if unique is None:
        return ["Uniqueness is open: a limit stopped the search for a second solution."]
    others = [s for s in found.solutions if s != found.solution]
    if not others:
        return ["The solution is not unique (the method does not show the second one)."]
    second = others[0]
    cells = _differences(found.solution, second)
    where = ", ".join(_place(r, c) for r, c in cells[:12]) + (", ..." if len(cells) > 12 else "")
    text = f"a second solution differs in {len(cells)} cells: {where}"
    codes = "".join(second).encode().translate(bytes.maketrans(b".#", bytes((EMPTY, FILLED))))
    state = (codes, tuple((r, c) for r, c in cells))
    replay.steps.append(Step("second", text, {"grid": list(second), "cells": cells}, state))
    return [f"The solution is not unique: {text} (the last step)."]


def explain(
    puzzle: Nonogram,
    *,
    run: Runner,
    method: str,
    heuristic: str | None,
    options: NonogramOptions,
    limits: Limits | None,
    scene: Callable[[State, str], Scene],
    draw: Callable[[State], str],
) -> Explanation:
    """Explain a black-and-white nonogram (see the module docstring).

    Parameters
    ----------
    puzzle : Nonogram
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
    scene, draw : callable
        Draw a :data:`State` as a picture and as text.

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
    board = _Board.build(puzzle)
    replay = _Replay(board, budget)
    proof: list[str] = []
    if found.status in (Status.SOLVED, Status.UNSOLVABLE):
        with budget.alarm(board.ring):
            replay.run(found.solution)
    if replay.stopped or found.status not in (Status.SOLVED, Status.UNSOLVABLE):
        status = replay.stopped or found.status
        found = Result(status, None, found.stats, found.method, found.heuristic)
        proof.append(f"Stopped by a limit ({status}) after {len(replay.steps)} steps.")
    else:
        proof += _uniqueness(replay, found)
    found.solutions = found.solutions[: options.solutions or 0]
    found.stats.seconds = budget.finish().seconds
    summary: dict[str, Any] = {
        "grade": replay.grade(),
        "steps": len(replay.steps),
        "probes": replay.probes,
        "guesses": replay.guesses,
    }
    if replay.guesses:
        summary["nodes"] = found.stats.expanded
    start: State = (bytes([UNKNOWN]) * board.codes.size, ())
    return Explanation("nonogram", found, replay.steps, proof, summary, start, scene, draw)


def rows(state: State, width: int) -> Grid:
    """A state's grid, row by row: ``#`` filled, ``.`` empty, ``?`` undecided."""
    text = state[0].translate(_CHARS).decode()
    return tuple(text[i : i + width] for i in range(0, len(text), width))


@functools.cache
def load_kernels() -> None:
    """Compile (or load) the replay's kernels before a clock starts."""
    board = _Board.build(Nonogram(rows=((1,), (1,)), columns=((1,), (1,))))
    _Replay(board, Limits().start(Stats())).run(("#.", ".#"))
