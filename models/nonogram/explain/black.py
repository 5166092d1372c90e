"""The black-and-white replay: line logic on cell codes, probes on the fast solver's bit grids.

The grid is one cell code a cell (:mod:`..lines.cells`: ``EMPTY`` 1, ``FILLED`` 2, ``UNKNOWN``
3, a mask of the values left: bit 0 empty, bit 1 filled). Line logic runs on a worklist of
dirty lines, each visit by the exact line solver (on words up to 62 cells, on cell codes
beyond), logging every cell it fixes; a sweep of probes runs the fast solver's trials
(:func:`..search.probing._trial`, with its line cache), and the failed assumption's trial is
run again with the log, for its chain.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._kernels import copy, kernel
from ..board import Grid, Nonogram
from ..lines.bits import MAX_CELLS, settle_bits
from ..lines.cells import EMPTY, FILLED, UNKNOWN, scratch, settle_line
from ..search.probing import _trial as trial
from ..search.propagation import STOP, Network, _decided, enqueue, raise_stop
from .common import CONFLICT, FIXPOINT, HALTED, NONE, STOPPED

__all__ = ["BlackBoard"]

_CHARS = bytes.maketrans(bytes((EMPTY, FILLED, UNKNOWN)), b".#?")
"""Cell codes to the characters of a partial grid (``?`` undecided)."""
_CODES = bytes.maketrans(b".#", bytes((EMPTY, FILLED)))
"""A grid's characters to cell codes."""


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
    Returns :data:`.FIXPOINT`, :data:`.CONFLICT`, or :data:`.STOPPED` when the stop flag of
    ``stop`` (the fast solver's counters) is raised.
    """
    blocks, starts, counts = clues
    queue, queued, ends, cells = work[0], work[1], work[2], work[3]
    lines = height + width
    m = 0
    status = FIXPOINT
    while ends[1]:
        if stop[STOP]:
            status = STOPPED
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
            status = CONFLICT
            break
        for i in range(n):
            r, c = (line, i) if row else (i, line - height)
            if cells[i] != codes[r, c]:
                codes[r, c] = cells[i]
                log[m, 0], log[m, 1], log[m, 2] = line, i, cells[i]
                m += 1
                enqueue(height + i if row else i, queue, queued, ends)
    if status != FIXPOINT:
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
def _sweep(
    codes: Any, start: int, grid: Any, size: Any, clues: Any, work: Any, counters: Any,
    trials: Any, target: Any, scores: Any, best: Any,
) -> int:  # fmt: skip
    """Probe the undecided cells from ``start`` on (wrapping round) until an assumption fails.

    The trials run on the fast solver's bit grids (:mod:`..search.propagation`, its network's
    ``clues``, ``work``, ``counters`` and ``trials``): ``codes`` is copied into ``grid`` first.

    Returns ``cell * 2 + 1`` when assuming the cell (row-major index) filled fails, ``cell * 2``
    when assuming it empty does, :data:`.NONE` when none fails, or :data:`.HALTED` when the
    stop flag of ``counters`` was raised. After :data:`.NONE`, ``scores`` (float64, (H * W,))
    holds each undecided cell's score ``(fixed_empty + 1) * (fixed_filled + 1)`` (the cells
    its two trials decide; 0 for a decided cell), and ``best`` the cell whose trial with its
    value in ``target`` (cell codes, a solution) decided the most, and the value whose trial
    decides more there (the one a search tries first).
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
    scores[:] = 0.0
    best_score = -1.0
    for step in range(cells):
        cell = start + step if start + step < cells else start + step - cells
        row, col = cell // width, cell % width
        if codes[row, col] != UNKNOWN:
            continue
        filled = trial(grid, trials[1], cell, 1, size, clues, work, counters, work.read)
        if counters[STOP]:
            return HALTED
        if filled < 0:
            return cell * 2 + 1
        empty = trial(grid, trials[0], cell, 0, size, clues, work, counters, work.read)
        if counters[STOP]:
            return HALTED
        if empty < 0:
            return cell * 2
        scores[cell] = (empty + 1.0) * (filled + 1.0)
        helped = filled if target[row, col] == FILLED else empty
        if helped > best_score:
            best_score = helped
            best[0], best[1] = cell, 1 if filled >= empty else 0
    return NONE


@kernel()
def _called_trial(
    grid: Any, copied: Any, cell: int, plane: int, size: Any, clues: Any, work: Any,
    counters: Any, read: Any,
) -> int:  # fmt: skip
    """:func:`..search.probing._trial` as a kernel of its own, called rather than inlined by
    :func:`_deep`, which needs it at four places: its propagation is compiled once, not four
    times (a first explain compiles the kernels it calls)."""
    return trial(grid, copied, cell, plane, size, clues, work, counters, read)


@kernel()
def _deep(
    grid: Any, deep: Any, cell: int, plane: int, size: Any, clues: Any, work: Any,
    counters: Any, trials: Any,
) -> int:  # fmt: skip
    """Whether assuming ``cell`` (row-major) has ``plane``'s value (1 filled, 0 empty) in
    ``grid`` (bit grids, at a fixpoint of probes) fails under line logic and probes of depth 1
    to their fixpoint, on the copy ``deep``: 1 if it fails, 0 if not, :data:`.HALTED` when the
    stop flag of ``counters`` was raised.

    A probe that fails fixes its cell the other way (both failing: the assumption fails), and
    sweeps go on until one changes nothing. Failed assumptions only multiply as cells are
    decided, so whether the fixpoint is a contradiction does not depend on the order of the
    probes: the replay reaches it too, in its own order.
    """
    height, width = size
    failed = _called_trial(grid, deep, cell, plane, size, clues, work, counters, work.read) < 0
    changed = not failed
    while changed:
        changed = False
        for other in range(height * width):
            if counters[STOP]:
                return HALTED
            if _decided(deep, other // width, other % width):
                continue
            arrays = (size, clues, work, counters, work.read)
            if _called_trial(deep, trials[1], other, 1, *arrays) < 0:
                survivor = 0
            elif _called_trial(deep, trials[0], other, 0, *arrays) < 0:
                survivor = 1
            else:
                continue
            if survivor == 0 and _called_trial(deep, trials[0], other, 0, *arrays) < 0:
                failed = True
                break
            copy(deep, trials[survivor])
            changed = True
    if counters[STOP]:
        return HALTED
    return 1 if failed else 0


class BlackBoard:
    """The replay's grid and the kernels' arrays for a black-and-white puzzle (see
    :class:`.common.Board`); values are 0 empty and 1 filled."""

    key = "fixed"

    def __init__(self, puzzle: Nonogram) -> None:
        height, width = puzzle.height, puzzle.width
        self.puzzle = puzzle
        self.size = (height, width)
        self.net = Network.build(puzzle)
        lines = height + width
        longest = max(height, width)
        blocks = int(self.net.clues[2].max(initial=0))
        self.work = (
            np.zeros(lines, np.int64),
            np.zeros(lines, np.uint8),
            np.zeros(2, np.int64),
            np.zeros(longest, np.uint8),
            *scratch(longest, blocks),
            np.zeros((4, blocks + 1), np.uint64),
        )
        """The arrays of :func:`_run`: the worklist's queue, flags and ends, a line's codes,
        the scratch of :func:`..lines.cells.settle_line` and of :func:`..lines.bits.settle_bits`."""
        self.codes = np.full(self.size, UNKNOWN, np.uint8)
        self.trial_codes = self.codes.copy()
        self.grid = self.net.unknown()
        self.log = np.zeros((height * width + 1, 3), np.int64)
        self.tally = np.zeros(1, np.int64)
        self.best = np.zeros(2, np.int64)
        self.scores = np.zeros(height * width)
        self.deep_grid = self.net.unknown()
        self.target = np.zeros(self.size, np.uint8)
        self.names: list[dict[str, Any]] = [
            *({"axis": "row", "index": i, "clue": list(c)} for i, c in enumerate(puzzle.rows)),
            *(
                {"axis": "column", "index": i, "clue": list(c)}
                for i, c in enumerate(puzzle.columns)
            ),
        ]
        self.titles = [
            f"{n['axis']} {n['index'] + 1} (clue {' '.join(map(str, n['clue'])) or '0'})"
            for n in self.names
        ]

    def _arrays(self) -> tuple[Any, Any, Any, Any, Any]:
        return self.net.clues, self.work, self.log, self.tally, self.net.counters

    def _logged(self, verdict: int) -> tuple[int, Any]:
        return verdict, self.log[: int(self.tally[0])]

    def propagate(self, lines: Iterable[int]) -> tuple[int, Any]:
        """Line logic on ``codes`` from ``lines`` (:func:`_line_logic`)."""
        queue, queued, ends = self.work[0], self.work[1], self.work[2]
        for line in lines:
            enqueue(line, queue, queued, ends)
        return self._logged(_line_logic(self.codes, *self.size, *self._arrays()))

    def sweep(self, start: int) -> tuple[int, int]:
        """A sweep of probes from ``start`` (:func:`_sweep`)."""
        net = self.net
        found = _sweep(
            self.codes, start, self.grid, self.size, net.clues, net.work, net.counters,
            net.trials, self.target, self.scores, self.best,
        )  # fmt: skip
        if found < 0:
            return found, 0
        return found // 2, found % 2

    def branching(self) -> tuple[int, int]:
        """The best cell of the last sweep and the value to try there first."""
        return int(self.best[0]), int(self.best[1])

    def candidates(self, count: int) -> list[int]:
        """Up to ``count`` undecided cells of the best scores of the last sweep, best first."""
        order = np.argsort(-self.scores, kind="stable")[:count]
        return [int(cell) for cell in order if self.scores[cell] > 0]

    def values(self, cell: int) -> tuple[int, ...]:
        """The values ``cell`` may still take."""
        code = int(self.codes.flat[cell])
        return tuple(v for v, bit in ((1, FILLED), (0, EMPTY)) if code & bit)

    def deep(self, cell: int, value: int) -> int:
        """Whether assuming ``value`` at ``cell`` fails with probes of depth 1 under it
        (:func:`_deep`, on the grid of the last sweep): 1, 0 or :data:`.HALTED`."""
        net = self.net
        args = (self.size, net.clues, net.work, net.counters, net.trials)
        return int(_deep(self.grid, self.deep_grid, cell, value, *args))

    def trial(self, cell: int, value: int) -> tuple[int, Any]:
        """The logged trial of ``value`` at ``cell`` (:func:`_logged_trial`)."""
        row, col = divmod(cell, self.size[1])
        code = FILLED if value else EMPTY
        args = (*self.size, *self._arrays())
        return self._logged(_logged_trial(self.codes, self.trial_codes, row, col, code, *args))

    def visits(self, entries: Any) -> list[tuple[int, list[list[Any]]]]:
        """Entries grouped by line visit: the line and the ``[row, column, value]`` it fixed."""
        height = self.size[0]
        out: list[tuple[int, list[list[Any]]]] = []
        last = -1
        fixed: list[list[Any]] = []
        for line, position, code in entries.tolist():
            if position < 0:
                continue
            if line != last:
                fixed = []
                out.append((line, fixed))
                last = line
            value = int(code == FILLED)
            fixed.append(
                [line, position, value] if line < height else [position, line - height, value]
            )
        return out

    def apply(self, cells: list[list[Any]]) -> None:
        """Set the ``[row, column, value]`` cells."""
        for r, c, v in cells:
            self.codes[r, c] = FILLED if v else EMPTY

    def fixes(self, data: dict[str, Any]) -> str:
        """``fills columns 2, 3 and empties column 7``."""
        along = 1 if data["axis"] == "row" else 0
        parts: list[str] = []
        for value, verb in ((1, "fills"), (0, "empties")):
            at = [str(cell[along] + 1) for cell in data["fixed"] if cell[2] == value]
            if at:
                noun = ("column" if along else "row") + ("s" if len(at) > 1 else "")
                parts.append(f"{verb} {noun} {', '.join(at)}")
        return " and ".join(parts)

    def exclude(self, cell: int, value: int) -> tuple[list[list[Any]], str]:
        """The cell takes the other value."""
        row, col = divmod(cell, self.size[1])
        self.assign(cell, 1 - value)
        return [[row, col, 1 - value]], self.word(1 - value)

    def assign(self, cell: int, value: int) -> None:
        """Fill (1) or empty (0) ``cell``."""
        self.codes.flat[cell] = FILLED if value else EMPTY

    def value(self, solution: Grid, cell: int) -> int:
        """1 where ``solution`` is filled."""
        row, col = divmod(cell, self.size[1])
        return int(solution[row][col] == "#")

    def word(self, value: int) -> str:
        """``filled`` or ``empty``."""
        return "filled" if value else "empty"

    def aim(self, solution: Grid | None) -> None:
        """Guesses are made where the value in ``solution`` decides the most."""
        self.target[:] = 0 if solution is None else self.encode(solution)

    def spent(self) -> int:
        """The trials run so far."""
        return int(self.net.counters[1])

    def open(self) -> bool:
        """Whether some cell is undecided."""
        return bool((self.codes == UNKNOWN).any())

    def encode(self, grid: Grid) -> Any:
        """The codes of a grid of ``#`` and ``.``."""
        data = "".join(grid).encode().translate(_CODES)
        return np.frombuffer(data, np.uint8).reshape(self.size)

    def rows(self, codes: bytes) -> Grid:
        """``#``, ``.`` or ``?`` per cell."""
        text = codes.translate(_CHARS).decode()
        width = self.size[1]
        return tuple(text[i : i + width] for i in range(0, len(text), width))

    def ring(self) -> None:
        """Raise the kernels' stop flag."""
        raise_stop(self.net.counters)


@functools.cache
def warm() -> None:
    """Compile (or load) the kernels of this module."""
    board = BlackBoard(Nonogram(rows=((1,), (1,)), columns=((1,), (1,))))
    board.propagate(range(4))
    board.sweep(0)
    board.deep(0, 1)
    board.trial(0, 1)
