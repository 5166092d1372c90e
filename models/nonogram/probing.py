"""The fast nonogram solver: line propagation on a worklist, probing, depth-first search.

The grid is a flat ``uint8`` array of cell codes (row-major; codes of :mod:`.linedp`: bit 0
"may be empty", bit 1 "may be filled"). Lines are numbered rows ``0 .. H-1`` then columns
``H .. H+W-1``. Three compiled kernels do the work:

:func:`propagate`
    Line logic to a fixpoint: a FIFO worklist of *dirty* lines; each is narrowed by the exact
    line solver :func:`.linedp.settle_line`, and every cell it changes makes the crossing line
    dirty. Only lines whose cells changed are solved again.
:func:`probe`
    Probing (failed-literal detection on cells) to a fixpoint: every undecided cell is set to
    filled, then to empty, and each trial propagated on a copy of the grid. When both trials
    fail the node is dead; when one fails the cell takes the other value (the grid becomes the
    surviving trial); otherwise every cell that both trials decide the same way is kept. Sweeps
    repeat until one changes nothing. The last sweep's trials score the cells for branching.
    This is the "fully probing" of Wu et al. 2013 (*IEEE TCIAIG* 5(3), §III-B, the method of
    their tournament solver LalaFrogKK) and the probing of Jan Wolter's pbnsolve
    (https://webpbn.com/pbnsolve.html, "probing"), both run to a fixpoint here.
:func:`search` (Python)
    Depth-first search over probed nodes. The branching cell is the one whose two trials
    fixed the most cells, by the product ``(fixed_empty + 1) * (fixed_filled + 1)`` (both
    children are then small); its two children are the already propagated trials, tried the
    less constrained (fewer cells fixed, "succeed first") first. Measured on every 20th
    puzzle of ``taai2011`` and ``tcga2022`` (from the 8th; 5 s cap each): product 53 s,
    lexicographic (min, max) 85 s; on 12 hard ``taai2011`` puzzles before the line cache
    (4 s cap): product / fewer first 29 s, product / more first 45 s, (min, max) 36-38 s,
    (max, min) 39 s, sum 46 s. The search has heavy tails; these samples are small.
    ``max_solutions=2`` goes on after the first solution, so that uniqueness is settled by
    the search itself.

Probing repeats the same line states many times (every sweep re-tries every cell), so line
solves go through a cache keyed by (line, partial line) (:func:`_settle_cached`): on the
tournament puzzles it answers most of them and made the solver about 2.5 times faster. The
kernels are compiled by numba (``cache=True``: compiled once per machine).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .board import Grid, Nonogram
from .linedp import EMPTY, FILLED, UNKNOWN, scratch, settle_line

__all__ = ["Network", "line_logic", "probe", "propagate", "search", "solve_probing"]

_SOLVES, _PROBES, _HITS = 0, 1, 2
"""Indices of the line-solve, probe and line-cache-hit counters in the kernels' ``counters``."""

_DEAD, _SOLVED = -1, -2
"""What :func:`probe` returns besides a cell to branch on."""


@dataclass(frozen=True)
class Network:
    """A nonogram in the arrays the kernels take, with their work space.

    Attributes
    ----------
    height, width : int
        Rows and columns.
    clues : numpy.ndarray of int64
        Every line's clue, rows then columns, concatenated.
    starts, counts : numpy.ndarray of int64, shape (H + W,)
        Where each line's clue starts in ``clues`` and how many blocks it has.
    work : tuple of numpy.ndarray
        Scratch: the line buffer, the line solver's tables, the worklist and its flags, two
        trial grids (see :func:`build`).
    memo : numpy.ndarray of uint64, shape (2**18, 2)
        The line cache of :func:`_settle_cached` (kept for the whole search).
    """

    height: int
    width: int
    clues: Any
    starts: Any
    counts: Any
    work: tuple[Any, ...]
    memo: Any

    @classmethod
    def build(cls, puzzle: Nonogram) -> Network:
        """The arrays of ``puzzle``."""
        lines = [*puzzle.rows, *puzzle.columns]
        counts = np.array([len(c) for c in lines], np.int64)
        starts = np.zeros(len(lines), np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        clues = np.array([b for c in lines for b in c], np.int64)
        longest = max(puzzle.width, puzzle.height)
        cells = puzzle.width * puzzle.height
        work = (
            np.zeros(longest, np.uint8),
            *scratch(longest, int(counts.max(initial=0))),
            np.zeros(len(lines), np.int64),
            np.zeros(len(lines), np.uint8),
            np.zeros(cells, np.uint8),
            np.zeros(cells, np.uint8),
        )
        memo = np.zeros((1 << _MEMO_BITS, 2), np.uint64)
        return cls(puzzle.height, puzzle.width, clues, starts, counts, work, memo)

    def unknown(self) -> Any:
        """A grid of undecided cells."""
        return np.full(self.height * self.width, UNKNOWN, np.uint8)

    def decode(self, grid: Any) -> Grid:
        """Rows of ``#`` / ``.`` from a fully decided grid."""
        rows = grid.reshape(self.height, self.width) == FILLED
        return tuple("".join("#" if x else "." for x in row) for row in rows)


_MEMO_BITS = 18
"""The line cache holds ``2**18`` entries (4 MiB) per puzzle."""
_MEMO_CELLS = 26
"""Lines of up to 26 cells are cached: 2 bits per cell and 12 bits of line number in a key."""


@numba.njit(cache=True, nogil=True)
def _settle_cached(
    cells: Any,
    line: int,
    clue: Any,
    fwd: Any,
    bwd: Any,
    blocked: Any,
    cover: Any,
    memo: Any,
    counters: Any,
) -> bool:
    """:func:`.linedp.settle_line` through a direct-mapped cache keyed by (line, partial line).

    A key packs the line's cell codes (2 bits each) and its number; the slot is a
    multiplicative hash of the key (Knuth, *TAOCP* vol. 3, §6.4). A slot keeps the last key
    stored there and the narrowed codes (0 for a contradiction). Lines longer than
    :data:`_MEMO_CELLS` cells, or numbered 4096 and above, are solved directly.
    """
    n = cells.shape[0]
    if n > _MEMO_CELLS or line >= 4096:
        counters[0] += 1
        return settle_line(cells, clue, fwd, bwd, blocked, cover)
    key = np.uint64(line) << np.uint64(52)
    for i in range(n):
        key |= np.uint64(cells[i]) << np.uint64(2 * i)
    slot = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - _MEMO_BITS)
    if memo[slot, 0] == key:
        counters[2] += 1
        value = memo[slot, 1]
        if value == 0:
            return False
        for i in range(n):
            cells[i] = (value >> np.uint64(2 * i)) & np.uint64(3)
        return True
    counters[0] += 1
    ok = settle_line(cells, clue, fwd, bwd, blocked, cover)
    value = np.uint64(0)
    if ok:
        for i in range(n):
            value |= np.uint64(cells[i]) << np.uint64(2 * i)
    memo[slot, 0] = key
    memo[slot, 1] = value
    return ok


@numba.njit(cache=True, nogil=True)
def propagate(
    grid: Any,
    height: int,
    width: int,
    clues: Any,
    starts: Any,
    counts: Any,
    queued: Any,
    queue: Any,
    buf: Any,
    fwd: Any,
    bwd: Any,
    blocked: Any,
    cover: Any,
    memo: Any,
    counters: Any,
) -> bool:
    """Line logic to a fixpoint from the lines flagged in ``queued``; ``grid`` is narrowed.

    Parameters
    ----------
    grid : numpy.ndarray of uint8, shape (H * W,)
        Cell codes, row-major.
    height, width, clues, starts, counts
        The puzzle (see :class:`Network`).
    queued : numpy.ndarray of uint8, shape (H + W,)
        Dirty-line flags on entry; all clear on return.
    queue, buf, fwd, bwd, blocked, cover
        Work space (see :class:`Network`).
    memo : numpy.ndarray of uint64, shape (S, 2)
        The line cache (see :func:`_settle_cached`).
    counters : numpy.ndarray of int64
        ``counters[0]`` counts line solves, ``counters[2]`` line-cache hits.

    Returns
    -------
    bool
        False when some line has no compatible fill pattern (``grid`` is then partly narrowed).
    """
    lines = height + width
    head = 0
    tail = 0
    size = 0
    for line in range(lines):
        if queued[line]:
            queue[tail] = line
            tail += 1
            size += 1
    tail %= lines
    while size:
        line = queue[head]
        head = (head + 1) % lines
        size -= 1
        queued[line] = 0
        if line < height:
            base, step, n = line * width, 1, width
        else:
            base, step, n = line - height, width, height
        cells = buf[:n]
        for i in range(n):
            cells[i] = grid[base + i * step]
        first = starts[line]
        clue = clues[first : first + counts[line]]
        if not _settle_cached(cells, line, clue, fwd, bwd, blocked, cover, memo, counters):
            queued[:] = 0
            return False
        for i in range(n):
            at = base + i * step
            if cells[i] != grid[at]:
                grid[at] = cells[i]
                other = height + i if line < height else i
                if not queued[other]:
                    queued[other] = 1
                    queue[tail] = other
                    tail = (tail + 1) % lines
                    size += 1
    return True


@numba.njit(cache=True, nogil=True)
def probe(
    grid: Any,
    height: int,
    width: int,
    clues: Any,
    starts: Any,
    counts: Any,
    buf: Any,
    fwd: Any,
    bwd: Any,
    blocked: Any,
    cover: Any,
    queue: Any,
    queued: Any,
    trial_empty: Any,
    trial_filled: Any,
    first: Any,
    second: Any,
    memo: Any,
    counters: Any,
) -> int:
    """Probe every undecided cell of a propagated grid until a sweep changes nothing.

    Parameters
    ----------
    grid : numpy.ndarray of uint8, shape (H * W,)
        A grid at the fixpoint of :func:`propagate`; narrowed in place by what probing proves.
    height ... cover, queue, queued
        As in :func:`propagate`.
    trial_empty, trial_filled : numpy.ndarray of uint8, shape (H * W,)
        Work space for the two trials.
    first, second : numpy.ndarray of uint8, shape (H * W,)
        Receive the two children of the chosen branching cell, both propagated: first the one
        whose trial fixed fewer cells (the less constrained, likelier to hold a solution).
    counters : numpy.ndarray of int64
        ``counters[0]`` counts line solves, ``counters[1]`` trials, ``counters[2]`` cache hits.

    Returns
    -------
    int
        The branching cell, ``-1`` when the node has no solution, ``-2`` when every cell is
        decided (the grid is a solution).
    """
    cells = height * width
    while True:
        changed = False
        best = -2
        best_score = -1
        for p in range(cells):
            if grid[p] != UNKNOWN:
                continue
            row = p // width
            col = p - row * width
            ok = np.zeros(2, np.bool_)
            for value in range(2):
                trial = trial_empty if value == 0 else trial_filled
                trial[:] = grid
                trial[p] = EMPTY if value == 0 else FILLED
                queued[row] = 1
                queued[height + col] = 1
                counters[1] += 1
                ok[value] = propagate(
                    trial, height, width, clues, starts, counts, queued, queue, buf, fwd, bwd,
                    blocked, cover, memo, counters,
                )  # fmt: skip
            if not ok[0] and not ok[1]:
                return -1
            if not ok[0] or not ok[1]:
                grid[:] = trial_filled if ok[1] else trial_empty
                changed = True
                continue
            fixed_empty = 0
            fixed_filled = 0
            agreed = False
            for q in range(cells):
                if grid[q] == UNKNOWN:
                    fixed_empty += trial_empty[q] != UNKNOWN
                    fixed_filled += trial_filled[q] != UNKNOWN
                    both = trial_empty[q] | trial_filled[q]
                    if both != UNKNOWN:
                        grid[q] = both
                        queued[q // width] = 1
                        queued[height + q % width] = 1
                        agreed = True
            if agreed:
                changed = True
                if not propagate(
                    grid, height, width, clues, starts, counts, queued, queue, buf, fwd, bwd,
                    blocked, cover, memo, counters,
                ):  # fmt: skip
                    return -1
                continue
            score = (fixed_empty + 1) * (fixed_filled + 1)
            if score > best_score:
                best = p
                best_score = score
                fewer, more = (
                    (trial_filled, trial_empty)
                    if fixed_filled <= fixed_empty
                    else (trial_empty, trial_filled)
                )
                first[:] = fewer
                second[:] = more
        if not changed:
            return best


def _propagate_all(net: Network, grid: Any, counters: Any) -> bool:
    """Line logic to a fixpoint from every line."""
    buf, fwd, bwd, blocked, cover, queue, queued, *_ = net.work
    queued[:] = 1
    return bool(
        propagate(
            grid, net.height, net.width, net.clues, net.starts, net.counts, queued, queue, buf,
            fwd, bwd, blocked, cover, net.memo, counters,
        )
    )  # fmt: skip


def line_logic(puzzle: Nonogram) -> tuple[bool, Any, Any]:
    """Line logic alone (no probing, no search) from the empty grid.

    Returns
    -------
    consistent : bool
        False when line logic finds the clues contradictory.
    grid : numpy.ndarray of uint8, shape (H, W)
        Cell codes at the fixpoint (:data:`.linedp.UNKNOWN` where undecided).
    counters : numpy.ndarray of int64
        ``[line solves, trials, line-cache hits]``.
    """
    net = Network.build(puzzle)
    grid = net.unknown()
    counters = np.zeros(3, np.int64)
    consistent = _propagate_all(net, grid, counters)
    return consistent, grid.reshape(puzzle.height, puzzle.width), counters


def _probe(net: Network, grid: Any, counters: Any) -> tuple[int, Any, Any]:
    """Probe ``grid`` in place; returns the branching cell (or -1/-2) and the two children."""
    buf, fwd, bwd, blocked, cover, queue, queued, trial_empty, trial_filled = net.work
    first, second = np.empty_like(grid), np.empty_like(grid)
    cell = probe(
        grid, net.height, net.width, net.clues, net.starts, net.counts, buf, fwd, bwd, blocked,
        cover, queue, queued, trial_empty, trial_filled, first, second, net.memo, counters,
    )  # fmt: skip
    return int(cell), first, second


def search(net: Network, budget: Budget, max_solutions: int) -> tuple[list[Grid], Status | None]:
    """Depth-first search with probing at every node (see the module docstring).

    Returns
    -------
    solutions : list of Grid
        Up to ``max_solutions`` solutions, in the order found.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when the budget stopped the search, else ``None``.
    """
    stats = budget.stats
    counters = np.zeros(3, np.int64)
    solutions: list[Grid] = []
    stopped: Status | None = None
    root = net.unknown()
    stack: list[tuple[Any, int]] = [(root, 0)] if _propagate_all(net, root, counters) else []
    while stack:
        stopped = budget.exhausted()
        if stopped:
            break
        grid, depth = stack.pop()
        stats.expanded += 1
        stats.depth = max(stats.depth, depth)
        cell, first, second = _probe(net, grid, counters)
        if cell == _DEAD:
            stats.backtracks += 1
        elif cell == _SOLVED:
            solutions.append(net.decode(grid))
            if len(solutions) >= max_solutions:
                break
        else:
            stats.generated += 2
            stack += [(second, depth + 1), (first, depth + 1)]
            stats.max_frontier = max(stats.max_frontier, len(stack))
    stats.propagations += int(counters[_SOLVES])
    stats.probes += int(counters[_PROBES])
    stats.extra["line_cache_hits"] = int(counters[_HITS])
    return solutions, stopped


@functools.cache
def _load_kernels() -> None:
    """Load (or compile) the kernels before a run's clock starts: numba does it on first call."""
    net = Network.build(Nonogram(rows=((1,), ()), columns=((1,), ())))
    search(net, Limits().start(Stats()), 2)


def solve_probing(
    puzzle: Nonogram, limits: Limits | None = None, max_solutions: int = 1
) -> Result[Grid]:
    """Solve a nonogram by depth-first search with probing (method ``"probing"``).

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        Checked before each node (a node's probing is not interrupted).
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.

    Returns
    -------
    Result of Grid
        As :meth:`cspsolve.results.Result.from_solutions`; ``stats.expanded`` counts probed
        nodes, ``propagations`` line solves, ``probes`` trials, ``backtracks`` dead nodes.
    """
    _load_kernels()
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    solutions, stopped = search(Network.build(puzzle), budget, max_solutions)
    return Result.from_solutions(budget.finish(), "probing", solutions, max_solutions, stopped)
