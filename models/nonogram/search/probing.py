"""The fast nonogram solver: line propagation on a worklist, probing, depth-first search.

The grid is held as bit sets, each line twice over: ``grid[0, l]`` has a bit for every cell of
line ``l`` known to be empty, ``grid[1, l]`` for every cell known to be filled. Lines are rows
``0 .. H-1`` then columns ``H .. H+W-1``, ``ceil(n / 64)`` words a line of ``n`` cells, so a
trial copy of the grid is ``2 (H + W)`` words.

:func:`propagate`
    Line logic to a fixpoint: a FIFO worklist of dirty lines, each narrowed by an exact line
    solver (:func:`.lines.bits.settle_bits` up to 62 cells, :func:`.lines.cells.settle_line`
    beyond; lines of up to 26 cells through a direct-mapped cache), every cell it decides
    making the crossing line dirty.
:func:`probe`
    Probing (failed-literal detection on cells) to a fixpoint: each undecided cell is set to
    filled, then to empty, and each trial propagated on a copy of the grid. Both failing kill
    the node; one failing fixes the cell the other way; otherwise the cells both decide alike
    are kept. A cell is probed again only when a line its last trials read has changed. The
    "fully probing" of Wu, Sun, Chen, Chen, Lee & Yen 2013, "An efficient approach to solving
    nonograms", *IEEE TCIAIG* 5(3), §III-B, and the probing of Jan Wolter's pbnsolve
    (https://webpbn.com/pbnsolve.html).
:func:`search` (Python)
    Depth-first search over probed nodes. The branching cell maximises ``(fixed_empty + 1) *
    (fixed_filled + 1) * (1 + weight(row) + weight(column))`` times the confidence of its
    likelier value, whose child is tried first. A line's weight counts the failed propagations
    on it, decaying at every node (dom/wdeg: Boussemart, Hemery, Lecoutre & Sais 2004, *ECAI*;
    VSIDS: Moskewicz et al. 2001, *DAC*). The confidence comes from the cell's beliefs after
    rounds of belief propagation between the lines (:func:`_beliefs`, :mod:`.lines.count`;
    Pesant 2019, *JAIR* 66, after maxSD: Pesant, Quimper & Zanarini 2012, *JAIR* 43).

    Three searches share the work in doubling rounds (a portfolio with restarts: Gomes, Selman
    & Kautz 1998, *AAAI*): likelier child first and more-fixing child first, both resumed where
    they stopped, and likelier-first searches with randomized scores, each started afresh and
    cut after a number of nodes that follows the Luby sequence (:func:`luby`; Luby, Sinclair &
    Zuckerman 1993, *IPL* 47), seeded: runs are reproducible. The conflict weights carry over
    from search to search. From round :data:`_LAST_CONFLICT_ROUND` on they reason from the last
    conflict (Lecoutre, Saïs, Tabary & Vidal 2009, *AIJ* 173). A search that exhausts its tree
    settles the question; ``max_solutions=2`` settles uniqueness by the search itself. With
    several workers the search below the first branching decisions is split over processes
    (:mod:`.split`).

The kernels are compiled by numba (:mod:`cspsolve.models.nonogram._kernels`); timings are in
``docs/benchmarks.md``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numba
import numpy as np

from cspsolve.csp.gac import StopPropagationError
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .._kernels import copy, kernel, lowest_bit, popcount
from ..board import Grid, Nonogram
from ..lines.bits import MAX_CELLS, settle_bits
from ..lines.cells import EMPTY, FILLED, UNKNOWN, scratch, settle_line
from ..lines.count import fill_density

__all__ = [
    "Network",
    "Probes",
    "Work",
    "children",
    "enqueue",
    "line_logic",
    "load_kernels",
    "luby",
    "probe",
    "propagate",
    "search",
    "solve_probing",
    "stamp",
]

_SOLVES, _PROBES, _HITS, _CLOCK, _DECIDED, _STOP = 0, 1, 2, 3, 4, 5
STOP = _STOP
"""Index of the stop flag in the counters of every network, black-and-white and colour (the
kernels stop at the next line solve once it is set, see :func:`raise_stop`)."""
"""Indices in the kernels' ``counters``: line solves, trials, line-cache hits, the clock that
stamps line changes (see :class:`Probes`), the cells propagation has decided, and the stop flag
(see :func:`propagate`)."""

_DEAD, _SOLVED = -1, -2
"""What :func:`probe` returns besides a cell to branch on."""

LIKELIER, FEWER, MORE = 0, 1, 2
"""Orders of :func:`children`: the likelier value first, the child fixing fewer cells first, the
one fixing more first."""

_FIRST_RUN = 400
"""Nodes allowed to each search of :func:`search`'s first round; the allowance doubles every
round."""
_RESTART_UNIT = 100
"""The randomized search number ``j`` of :func:`search` is cut after ``_RESTART_UNIT *
luby(j)`` nodes (see :class:`_Restarts`)."""
_LAST_CONFLICT_ROUND = 2
"""From this round of :func:`search` on, the searches reason from the last conflict."""
_CONFIDENCE = 1.0
"""The branching score is multiplied by the confidence of the likelier value to this power."""
_NOISE = 10.0
"""The randomized searches multiply a cell's branching score by a random factor in
``[1, 1 + _NOISE)``."""
_DECAY = 0.98
"""The conflict weights are multiplied by this factor at every node a search expands: a
failure counts half as much 34 nodes later."""
_BP_ROUNDS = 2
"""Rounds of belief propagation between the lines at every node (see :func:`_beliefs`)."""
_LEAST = 1e-3
"""Messages are clipped to ``[_LEAST, 1 - _LEAST]`` before they weigh the crossing lines."""

_MEMO_BITS = 16
"""The line cache holds ``2**16`` entries of two words (1 MiB) per puzzle. Its loads are the
hottest instruction of the solver (a tenth of the time in ``perf``: the table is twice a core's
512 KiB L2 cache here), but ``2**14`` and ``2**15`` entries measured no faster (more misses),
``2**18`` 7-10 % slower, nor did prefetching the next queued line's entry help."""
_MEMO_CELLS = 26
"""Lines of up to 26 cells of the first 4095 lines are cached: a key packs both bit sets of
the line and its number in one word."""
_NO_LINE = np.uint64(0xFFFFFFFFFFFFFFFF)
"""The cached value of a contradictory line (no real pair of 26-bit sets is all ones)."""


class Work(NamedTuple):
    """The kernels' work space, one array a part; kept for the whole search.

    ``H + W`` lines, the longest of ``n`` cells in ``words`` words, clues of up to ``k`` blocks.

    Attributes
    ----------
    queue, queued, ends : numpy.ndarray
        The worklist of dirty lines, a ring buffer (int64, (H + W,)); 1 for a line on it (uint8,
        (H + W,)); its head and size (int64, (2,)).
    codes, forward, backward, blocked, cover : numpy.ndarray
        A line's cell codes (uint8, (n,)) and the scratch of :func:`.lines.cells.settle_line`
        (see :func:`.lines.cells.scratch`), for lines over :data:`.lines.bits.MAX_CELLS` cells.
    narrowed : numpy.ndarray of uint64, shape (2, words)
        A line's bit sets (empty, filled) as the line solver narrowed them.
    memo : numpy.ndarray of uint64, shape (2**16, 2)
        The line cache (see :func:`_settle`).
    bitwork : numpy.ndarray of uint64, shape (4, k + 1)
        The scratch of :func:`.lines.bits.settle_bits`.
    read : numpy.ndarray of uint64, shape (1,)
        The lines a propagation solved, as a mask of ``line mod 64``.
    conflicts : numpy.ndarray of float64, shape (H + W,)
        Each line's conflict weight (see :func:`probe`).
    messages : numpy.ndarray of float64, shape (H + W, n)
        Each line's messages to its cells, 0.5 at first (see :func:`_beliefs`).
    tables, bounds, prefix : numpy.ndarray
        The scratch of :func:`.lines.count.fill_density`: float64, (2, k + 1, min(n, 62) + 1);
        int64, (2, k + 1, 2); float64, (n + 1,).
    odds : numpy.ndarray of float64, shape (n,)
        The odds of being filled that a line's cells get from the crossing lines.
    """

    queue: Any
    queued: Any
    ends: Any
    codes: Any
    forward: Any
    backward: Any
    blocked: Any
    cover: Any
    narrowed: Any
    memo: Any
    bitwork: Any
    read: Any
    conflicts: Any
    messages: Any
    tables: Any
    bounds: Any
    odds: Any
    prefix: Any

    @classmethod
    def allocate(cls, lines: int, longest: int, blocks: int) -> Work:
        """The work space of ``lines`` lines of up to ``longest`` cells and ``blocks`` blocks."""
        forward, backward, blocked, cover = scratch(longest, blocks)
        return cls(
            queue=np.zeros(lines, np.int64),
            queued=np.zeros(lines, np.uint8),
            ends=np.zeros(2, np.int64),
            codes=np.zeros(longest, np.uint8),
            forward=forward,
            backward=backward,
            blocked=blocked,
            cover=cover,
            narrowed=np.zeros((2, (longest + 63) // 64), np.uint64),
            memo=np.zeros((1 << _MEMO_BITS, 2), np.uint64),
            bitwork=np.zeros((4, blocks + 1), np.uint64),
            read=np.zeros(1, np.uint64),
            conflicts=np.zeros(lines),
            messages=np.full((lines, longest), 0.5),
            tables=np.zeros((2, blocks + 1, min(longest, MAX_CELLS) + 1)),
            bounds=np.zeros((2, blocks + 1, 2), np.int64),
            odds=np.ones(longest),
            prefix=np.ones(longest + 1),
        )


@dataclass(frozen=True)
class Network:
    """A nonogram in the arrays the kernels take, with their work space.

    Attributes
    ----------
    height, width : int
        Rows and columns.
    clues : tuple of numpy.ndarray
        ``(blocks, starts, counts)``: every line's clue, rows then columns, concatenated (int64);
        where each line's clue starts in it and how many blocks it has (int64, shape (H + W,)).
    work : Work
        The kernels' work space.
    trials : numpy.ndarray of uint64, shape (3, 2, H + W, words)
        Two trial grids and a copy of the grid before a change.
    counters : numpy.ndarray of int64, shape (6,)
        Line solves, trials, line-cache hits, the clock (see :class:`Probes`), cells decided,
        and the stop flag that the run's alarm raises (:func:`propagate`).
    """

    height: int
    width: int
    clues: tuple[Any, Any, Any]
    work: Work
    trials: Any
    counters: Any = field(default_factory=lambda: np.zeros(6, np.int64))

    @classmethod
    def build(cls, puzzle: Nonogram) -> Network:
        """The arrays of ``puzzle``."""
        lines = [*puzzle.rows, *puzzle.columns]
        counts = np.array([len(c) for c in lines], np.int64)
        starts = np.zeros(len(lines), np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        blocks = np.array([b for c in lines for b in c], np.int64)
        longest = max(puzzle.width, puzzle.height)
        words = (longest + 63) // 64
        work = Work.allocate(len(lines), longest, int(counts.max(initial=0)))
        trials = np.zeros((3, 2, len(lines), words), np.uint64)
        return cls(puzzle.height, puzzle.width, (blocks, starts, counts), work, trials)

    def unknown(self) -> Any:
        """A grid of undecided cells (uint64, shape (2, H + W, words))."""
        return np.zeros(self.trials.shape[1:], np.uint64)

    def codes(self, grid: Any) -> Any:
        """Cell codes (:mod:`.lines.cells`) of ``grid``, shape (H, W), uint8."""
        bits = np.unpackbits(grid[:, : self.height].view(np.uint8), axis=2, bitorder="little")
        empty, filled = bits[0, :, : self.width], bits[1, :, : self.width]
        return (UNKNOWN - filled * EMPTY - empty * FILLED).astype(np.uint8)

    def decode(self, grid: Any) -> Grid:
        """Rows of ``#`` / ``.`` from a fully decided grid."""
        rows = self.codes(grid) == FILLED
        return tuple("".join("#" if x else "." for x in row) for row in rows)


@dataclass
class Probes:
    """What a node knows of its cells' last trials (see :func:`probe`); copied to each child.

    Attributes
    ----------
    probed_at : numpy.ndarray of int64, shape (H * W,)
        The clock when each cell was last probed (-1: never).
    read : numpy.ndarray of uint64, shape (H * W,)
        The lines the cell's two trials solved, as a mask of ``line mod 64``.
    score : numpy.ndarray of int64, shape (H * W,)
        The branching score of the cell's last trials.
    changed_at : numpy.ndarray of int64, shape (64,)
        The clock when a line of each class ``line mod 64`` last changed.
    """

    probed_at: Any
    read: Any
    score: Any
    changed_at: Any

    @classmethod
    def fresh(cls, cells: int) -> Probes:
        """No cell probed yet."""
        return cls(
            np.full(cells, -1, np.int64),
            np.zeros(cells, np.uint64),
            np.zeros(cells, np.int64),
            np.zeros(64, np.int64),
        )

    def copy(self) -> Probes:
        """An independent copy."""
        return Probes(*(a.copy() for a in (self.probed_at, self.read, self.score, self.changed_at)))


@kernel(inline=True)
def _bit(i: Any) -> Any:
    return np.uint64(1) << np.uint64(i & 63)


@kernel()
def _settle_cells(grid: Any, line: int, n: int, clue: Any, work: Any) -> bool:
    """:func:`.lines.cells.settle_line` on a line of any length, through its cell codes."""
    narrowed = work.narrowed
    cells = work.codes[:n]
    for i in range(n):
        w, b = i >> 6, _bit(i)
        cells[i] = EMPTY if grid[0, line, w] & b else FILLED if grid[1, line, w] & b else UNKNOWN
    if not settle_line(cells, clue, work.forward, work.backward, work.blocked, work.cover):
        return False
    narrowed[:] = 0
    for i in range(n):
        if cells[i] != UNKNOWN:
            narrowed[cells[i] - 1, i >> 6] |= _bit(i)
    return True


@kernel(inline=True)
def _settle(
    grid: Any, line: int, n: int, blocks: Any, first: int, k: int, narrowed: Any, memo: Any,
    bitwork: Any, counters: Any,
) -> bool:  # fmt: skip
    """Narrow a line of up to :data:`.lines.bits.MAX_CELLS` cells into ``narrowed``.

    The line is solved on its words (:func:`.lines.bits.settle_bits`). Lines of up to
    :data:`_MEMO_CELLS` cells go through a direct-mapped cache first: the key is the line's two
    bit sets and its number in one word, the slot a multiplicative hash of the key (Knuth,
    *TAOCP* vol. 3, §6.4); a slot keeps the last key stored there and the narrowed bit sets
    (:data:`_NO_LINE` for a contradiction). Returns False on a contradiction.
    """
    cached = n <= _MEMO_CELLS and line < 4095
    slot = np.int64(0)
    tag = np.uint64(line + 1) << np.uint64(52)
    key = grid[0, line, 0] | (grid[1, line, 0] << np.uint64(26)) | tag
    if cached:
        slot = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - _MEMO_BITS))
        if memo[slot, 0] == key:
            counters[_HITS] += 1
            value = memo[slot, 1]
            if value == _NO_LINE:
                return False
            narrowed[0, 0] = value & np.uint64(0x3FFFFFF)
            narrowed[1, 0] = value >> np.uint64(26)
            return True
    counters[_SOLVES] += 1
    full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    can_empty, can_fill = full & ~grid[1, line, 0], full & ~grid[0, line, 0]
    ok, empty, filled = settle_bits(can_empty, can_fill, n, blocks, first, k, bitwork)
    narrowed[0, 0] = empty
    narrowed[1, 0] = filled
    if cached:
        memo[slot, 0] = key
        memo[slot, 1] = empty | (filled << np.uint64(26)) if ok else _NO_LINE
    return ok


@kernel(inline=True)
def enqueue(line: int, queue: Any, queued: Any, ends: Any) -> None:
    """Put a line at the end of the worklist unless it is there already."""
    if not queued[line]:
        queued[line] = 1
        tail = ends[0] + ends[1]
        queue[tail - queue.shape[0] if tail >= queue.shape[0] else tail] = line
        ends[1] += 1


@kernel(inline=True)
def _decide(
    grid: Any, line: int, w: int, plane: int, bits: Any, height: int, queue: Any, queued: Any,
    ends: Any,
) -> None:  # fmt: skip
    """Add ``bits`` (word ``w`` of line ``line``) to ``plane`` in both views of the grid, and
    queue the lines that cross them."""
    grid[plane, line, w] |= bits
    pos = line if line < height else line - height
    while bits:
        i = w * 64 + lowest_bit(bits)
        bits &= bits - np.uint64(1)
        cross = height + i if line < height else i
        grid[plane, cross, pos >> 6] |= _bit(pos)
        enqueue(cross, queue, queued, ends)


@kernel(inline=True)
def _assign(grid: Any, cell: int, plane: int, width: int, work: Any) -> None:
    """Decide one cell (``plane`` 0: empty, 1: filled) and queue its row and column."""
    queue, queued, ends = work.queue, work.queued, work.ends
    height = grid.shape[1] - width
    row, col = cell // width, cell % width
    enqueue(row, queue, queued, ends)
    _decide(grid, row, col >> 6, plane, _bit(col), height, queue, queued, ends)


@kernel(inline=True)
def _propagate(
    grid: Any, height: int, width: int, clues: Any, work: Any, counters: Any, read: Any
) -> bool:
    """:func:`propagate`, inlined into the trials (a call would pass every array of ``work``
    member by member)."""
    blocks, starts, counts = clues
    queue, queued, ends = work.queue, work.queued, work.ends
    narrowed, memo, bitwork = work.narrowed, work.memo, work.bitwork
    lines = height + width
    while ends[1]:
        if counters[_STOP]:
            queued[:] = 0
            ends[:] = 0
            return False
        line = queue[ends[0]]
        ends[0] = ends[0] + 1 if ends[0] + 1 < lines else 0
        ends[1] -= 1
        queued[line] = 0
        read[0] |= _bit(line)
        n = width if line < height else height
        first, k = starts[line], counts[line]
        if n <= MAX_CELLS:
            ok = _settle(grid, line, n, blocks, first, k, narrowed, memo, bitwork, counters)
        else:
            counters[_SOLVES] += 1
            ok = _settle_cells(grid, line, n, blocks[first : first + k], work)
        if not ok:
            work.conflicts[line] += 1.0
            queued[:] = 0
            ends[:] = 0
            return False
        for w in range((n + 63) >> 6):  # narrowed holds only this line's words
            for plane in range(2):
                new = narrowed[plane, w] & ~grid[plane, line, w]
                if new:
                    counters[_DECIDED] += popcount(new)
                    _decide(grid, line, w, plane, new, height, queue, queued, ends)
    return True


@kernel()
def propagate(
    grid: Any, height: int, width: int, clues: Any, work: Any, counters: Any, read: Any
) -> bool:
    """Line logic to a fixpoint from the lines on the worklist; ``grid`` is narrowed.

    Parameters
    ----------
    grid : numpy.ndarray of uint64, shape (2, H + W, words)
        The grid's bit sets (see the module docstring).
    height, width : int
        The puzzle's size.
    clues, work
        The puzzle and the work space (see :class:`Network`); the worklist holds the dirty
        lines on entry and is empty on return.
    counters : numpy.ndarray of int64
        Line solves, cache hits and the cells decided are counted (see :class:`Network`). When
        its stop flag is raised (from another thread: the kernels release the GIL), the
        propagation gives up before the next line.
    read : numpy.ndarray of uint64, shape (1,)
        Receives the mask (``line mod 64``) of every line solved.

    Returns
    -------
    bool
        False when some line has no compatible fill pattern (``grid`` is then partly narrowed),
        or when the stop flag was raised: every kernel then fails fast, and whatever it returns
        after the flag went up is meaningless (:func:`interrupted`).
    """
    return _propagate(grid, height, width, clues, work, counters, read)


@kernel(inline=True)
def _trial(
    grid: Any, trial: Any, cell: int, plane: int, size: Any, clues: Any, work: Any,
    counters: Any, read: Any,
) -> int:  # fmt: skip
    """Copy ``grid`` into ``trial``, decide ``cell`` there and propagate: how many cells the
    trial decides (the cell included; counted as propagation decides them, each once), -1 if
    it fails."""
    height, width = size
    copy(trial, grid)
    counters[_PROBES] += 1
    _assign(trial, cell, plane, width, work)
    before = counters[_DECIDED]
    if not _propagate(trial, height, width, clues, work, counters, read):
        return -1
    return int(1 + counters[_DECIDED] - before)


@kernel(inline=True)
def _decided(grid: Any, row: int, col: int) -> bool:
    """Whether the cell at (``row``, ``col``) is decided, read in its row."""
    return bool((grid[0, row, col >> 6] | grid[1, row, col >> 6]) & _bit(col))


@kernel(inline=True)
def _known(grid: Any, cell: int, width: int) -> bool:
    """Whether the cell of row-major index ``cell`` is decided."""
    return _decided(grid, cell // width, cell % width)


@kernel(inline=True)
def _changed_since(clock: int, changed_at: Any) -> Any:
    """The classes (``line mod 64``) of the lines changed after ``clock``, as a mask."""
    classes = np.uint64(0)
    for c in range(64):
        if changed_at[c] > clock:
            classes |= _bit(c)
    return classes


@kernel(inline=True)
def stamp(before: Any, after: Any, changed_at: Any, counters: Any) -> None:
    """Advance the clock and stamp the class of every line that differs between two grids."""
    counters[_CLOCK] += 1
    for line in range(before.shape[1]):
        for w in range(before.shape[2]):
            if before[0, line, w] != after[0, line, w] or before[1, line, w] != after[1, line, w]:
                changed_at[line & 63] = counters[_CLOCK]
                break


@kernel(inline=True)
def _agreed(grid: Any, empty: Any, filled: Any, height: int) -> bool:
    """Whether both trials decide some cell alike that ``grid`` leaves open."""
    for row in range(height):
        for w in range(grid.shape[2]):
            for plane in range(2):
                if empty[plane, row, w] & filled[plane, row, w] & ~grid[plane, row, w]:
                    return True
    return False


@kernel(inline=True)
def _agree(grid: Any, empty: Any, filled: Any, height: int, work: Any) -> None:
    """Decide in ``grid`` every cell both trials decide alike, queueing their lines."""
    queue, queued, ends = work.queue, work.queued, work.ends
    for row in range(height):
        for w in range(grid.shape[2]):
            for plane in range(2):
                new = empty[plane, row, w] & filled[plane, row, w] & ~grid[plane, row, w]
                if new:
                    enqueue(row, queue, queued, ends)
                    _decide(grid, row, w, plane, new, height, queue, queued, ends)


@kernel()
def _beliefs(grid: Any, height: int, width: int, clues: Any, work: Any) -> None:
    """Rounds of belief propagation between the lines (sum-product; Pesant 2019, see
    :mod:`.lines.count`): their messages to their cells (``work.messages``, line by cell) brought
    closer to the grid's.

    A line's message to a cell is its weighted share of patterns filling the cell
    (:func:`.lines.count.fill_density`), each of its other cells weighted by the odds the
    crossing line's message gives it (clipped to ``[_LEAST, 1 - _LEAST]``). Each of
    :data:`_BP_ROUNDS` rounds recomputes every row with undecided cells from the columns'
    messages, then every column from the rows' new ones. The rounds start from the messages
    the last node left (0.5 at first): in depth-first search mostly the parent's, so the
    rounds add up along a branch. A cell's belief is then the product of its row's and its
    column's messages (:func:`_likelihoods`). Lines over :data:`.lines.bits.MAX_CELLS` cells
    send 0.5.
    """
    blocks, starts, counts = clues
    messages, odds = work.messages, work.odds
    buffers = (work.tables, work.bounds, work.prefix)
    for _ in range(_BP_ROUNDS):
        for line in range(height + width):
            n = width if line < height else height
            if n > MAX_CELLS:
                continue
            full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
            empty, filled = grid[0, line, 0], grid[1, line, 0]
            if empty | filled == full:
                continue
            for x in range(n):
                cross, at = (height + x, line) if line < height else (x, line - height)
                p = min(max(messages[cross, at], _LEAST), 1.0 - _LEAST)
                odds[x] = p / (1.0 - p)
            can_empty, can_fill = full & ~filled, full & ~empty
            clue = (blocks, starts[line], counts[line])
            fill_density(can_empty, can_fill, n, *clue, odds, *buffers, messages[line])


@kernel(inline=True)
def _likelihoods(cell: int, height: int, width: int, messages: Any) -> tuple[float, float]:
    """How likely ``cell`` is empty and filled: its belief, the product of its row's and its
    column's messages (:func:`_beliefs`; both 1/2 when they contradict each other, which a
    propagated grid rules out)."""
    row, col = cell // width, cell % width
    in_row, in_col = messages[row, col], messages[height + col, row]
    empty, filled = (1.0 - in_row) * (1.0 - in_col), in_row * in_col
    if empty + filled == 0.0:
        return 0.5, 0.5
    return empty, filled


@kernel()
def probe(
    grid: Any,
    size: Any,
    clues: Any,
    work: Any,
    counters: Any,
    trials: Any,
    probed_at: Any,
    read: Any,
    score: Any,
    changed_at: Any,
    *,
    noise: float,
) -> int:
    """Probe the undecided cells of a propagated grid until a sweep changes nothing.

    Parameters
    ----------
    grid : numpy.ndarray of uint64, shape (2, H + W, words)
        A grid at the fixpoint of :func:`propagate`; narrowed in place by what probing proves.
    size : tuple of int
        ``(H, W)``.
    clues, work, trials, counters
        As in :class:`Network`; ``counters`` also counts trials.
    probed_at, read, score, changed_at : numpy.ndarray
        The node's :class:`Probes`, brought up to date.
    noise : float
        Scores are multiplied by a random factor in ``[1, 1 + noise)`` to pick the branching
        cell (numpy's generator, see :func:`_seed`); 0 for the plain best score.

    Every line on which a propagation fails gains one conflict weight (``work.conflicts``; the
    search decays them, see :data:`_DECAY`); the branching cell maximises its trials' score
    times ``1 + weight(row) + weight(column)`` times the confidence of its likelier value
    (:func:`_likelihoods`, from the lines' messages left in ``work.messages`` for :func:`children`).

    Returns
    -------
    int
        The cell to branch on (row-major index, the best score), ``-1`` when the node has no
        solution, ``-2`` when every cell is decided (the grid is a solution).
    """
    height, width = size
    empty, filled, before = trials[0], trials[1], trials[2]
    lines = work.read
    changed = True
    while changed:
        changed = False
        since, fresh = np.int64(-1), np.uint64(0)  # the classes changed after `since`
        for row in range(height):
            for col in range(width):
                if _decided(grid, row, col):
                    continue
                cell = row * width + col
                if probed_at[cell] >= 0:  # probed before: again only if a line it read changed
                    if probed_at[cell] != since:
                        since, fresh = probed_at[cell], _changed_since(probed_at[cell], changed_at)
                    if not read[cell] & fresh:
                        continue
                lines[0] = 0
                fixed_empty = _trial(grid, empty, cell, 0, size, clues, work, counters, lines)
                fixed_filled = _trial(grid, filled, cell, 1, size, clues, work, counters, lines)
                can_empty, can_fill = fixed_empty >= 0, fixed_filled >= 0
                probed_at[cell] = counters[_CLOCK]
                read[cell] = lines[0]
                if not can_empty and not can_fill:
                    return _DEAD
                if not can_empty or not can_fill:
                    survivor = filled if can_fill else empty
                    stamp(grid, survivor, changed_at, counters)
                    copy(grid, survivor)
                elif not _agreed(grid, empty, filled, height):
                    score[cell] = (fixed_empty + 1) * (fixed_filled + 1)
                    continue
                else:
                    copy(before, grid)
                    _agree(grid, empty, filled, height, work)
                    if not propagate(grid, height, width, clues, work, counters, lines):
                        return _DEAD
                    stamp(before, grid, changed_at, counters)
                changed = True
                since = np.int64(-1)  # the stamps moved on
    _beliefs(grid, height, width, clues, work)
    best, best_score = _SOLVED, -1.0
    conflicts = work.conflicts
    for cell in range(height * width):
        if not _known(grid, cell, width):
            weight = 1 + conflicts[cell // width] + conflicts[height + cell % width]
            empty, filled = _likelihoods(cell, height, width, work.messages)
            confidence = max(empty, filled) / (empty + filled)
            value = score[cell] * weight * confidence**_CONFIDENCE
            if noise:
                value *= 1.0 + noise * np.random.random()
            if value > best_score:
                best, best_score = cell, value
    return best


@numba.njit(cache=True, nogil=True)
def _seed(seed: int) -> None:
    """Seed the random generator of compiled code (separate from numpy's in Python)."""
    np.random.seed(seed)


@kernel()
def children(
    grid: Any, cell: int, size: Any, clues: Any, work: Any, counters: Any, trials: Any,
    out: Any, *, order: int,
) -> None:  # fmt: skip
    """The two propagated children of branching on ``cell`` into ``out`` (shape (2,) + grid's),
    the one to try first first: by ``order``, :data:`LIKELIER` the value of higher likelihood
    (:func:`_likelihoods`, from the messages :func:`probe` left in ``work``), :data:`FEWER`
    the child that fixes fewer cells (the less constrained), :data:`MORE` the one that fixes
    more (the likelier to fail soon)."""
    height, width = size
    empty, filled = trials[0], trials[1]
    fixed_empty = _trial(grid, empty, cell, 0, size, clues, work, counters, work.read)
    fixed_filled = _trial(grid, filled, cell, 1, size, clues, work, counters, work.read)
    if order == LIKELIER:
        as_empty, as_filled = _likelihoods(cell, height, width, work.messages)
        filled_first = as_filled > as_empty
    else:
        filled_first = (fixed_filled <= fixed_empty) == (order == FEWER)
    copy(out[0], filled if filled_first else empty)
    copy(out[1], empty if filled_first else filled)


def raise_stop(counters: Any) -> None:
    """Raise the kernels' stop flag (called by the run's alarm, :meth:`Budget.alarm`)."""
    counters[_STOP] = 1


def interrupted(counters: Any, budget: Budget) -> Status | None:
    """``LIMIT`` or ``CANCELLED`` when the alarm has raised the stop flag (the last kernel's
    answer is then void), else ``None``."""
    if not counters[_STOP]:
        return None
    return budget.interrupted() or Status.LIMIT


def _propagate_all(net: Network, grid: Any) -> bool:
    """Line logic to a fixpoint from every line."""
    queue, queued, ends = net.work.queue, net.work.queued, net.work.ends
    queue[:] = np.arange(len(queue))
    queued[:] = 1
    ends[:] = (0, len(queue))
    size = (net.height, net.width)
    return bool(propagate(grid, *size, net.clues, net.work, net.counters, net.work.read))


def line_logic(puzzle: Nonogram, *, budget: Budget | None = None) -> tuple[bool, Any, Any]:
    """Line logic alone (no probing, no search) from the empty grid.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    budget : Budget, optional
        Its time limit and cancellation stop the propagation (:meth:`Budget.alarm`).

    Returns
    -------
    consistent : bool
        False when line logic finds the clues contradictory.
    grid : numpy.ndarray of uint8, shape (H, W)
        Cell codes at the fixpoint (:data:`.lines.cells.UNKNOWN` where undecided).
    counters : numpy.ndarray of int64
        ``[line solves, trials, line-cache hits, clock, cells decided, stop flag]``.

    Raises
    ------
    StopPropagationError
        When ``budget`` stopped the propagation.
    """
    net = Network.build(puzzle)
    grid = net.unknown()
    budget = budget or Limits().start(Stats())
    with budget.alarm(functools.partial(raise_stop, net.counters)):
        consistent = _propagate_all(net, grid)
    stopped = interrupted(net.counters, budget)
    if stopped:
        raise StopPropagationError(stopped)
    return consistent, net.codes(grid), net.counters


class _Dive:
    """A depth-first search from a grid that can be stopped and resumed (see :func:`search`).

    Parameters
    ----------
    net : Network
        The puzzle.
    start : numpy.ndarray
        The grid at the root (copied).
    order : int
        Which child to try first (:data:`LIKELIER`, :data:`FEWER` or :data:`MORE`).
    noise : float
        The noise of :func:`probe`'s branching choice (0: none).
    """

    def __init__(self, net: Network, start: Any, order: int, noise: float) -> None:
        self.net = net
        self.order = order
        self.noise = noise
        self.stack = [(start.copy(), Probes.fresh(net.height * net.width), 0, -1)]
        """Nodes to expand: grid, probes, depth and the cell decided to make the node (-1)."""
        self.conflict = -1
        """The last conflict: the cell whose decision made the last dead node (-1: none)."""
        self.last_conflict = False
        """Whether dead nodes set :attr:`conflict` (see :meth:`branching_cell`)."""
        self.resumable = False
        """Whether a node the budget interrupts goes back on the stack as it was, so that the
        search can go on later (elsewhere: :mod:`.split`); a copy of every node is then kept
        while it is expanded."""
        self.put_back = 0
        """How many interrupted nodes went back on the stack."""

    def advance(
        self, allowance: int, budget: Budget, found: list[Grid], max_solutions: int
    ) -> tuple[bool, Status | None]:
        """Expand up to ``allowance`` more nodes; solutions not in ``found`` are appended to it.

        Returns whether the search is settled (this tree exhausted, or ``max_solutions`` found)
        and the budget's stop status, if any.
        """
        net, stats = self.net, budget.stats
        size = (net.height, net.width)
        stack, weights = self.stack, net.work.conflicts
        while stack:
            stopped = budget.exhausted()
            if stopped or not allowance:
                return False, stopped
            allowance -= 1
            grid, probes, depth, decided = stack.pop()
            kept = (grid.copy(), probes.copy(), depth, decided) if self.resumable else None
            stats.expanded += 1
            weights *= _DECAY
            stats.depth = max(stats.depth, depth)
            cell = probe(
                grid, size, net.clues, net.work, net.counters, net.trials, probes.probed_at,
                probes.read, probes.score, probes.changed_at, noise=self.noise,
            )  # fmt: skip
            stopped = interrupted(net.counters, budget)
            if stopped:
                return False, self._put_back(kept, stopped)
            if cell == _DEAD:
                stats.backtracks += 1
                if self.last_conflict:
                    self.conflict = decided
            elif cell == _SOLVED:
                solution = net.decode(grid)
                if solution not in found:
                    found.append(solution)
                if len(found) >= max_solutions:
                    return True, None
            else:
                cell = self.branching_cell(grid, cell)
                kids = self._children(grid, cell, probes, depth + 1)
                stopped = interrupted(net.counters, budget)
                if stopped:
                    return False, self._put_back(kept, stopped)
                stack += kids
                stats.generated += 2
                stats.max_frontier = max(stats.max_frontier, len(stack))
        return True, None

    def _put_back(self, kept: Any, stopped: Status) -> Status:
        """Put an interrupted node back on the stack as it was before (when :attr:`resumable`);
        returns ``stopped``."""
        if kept is not None:
            self.stack.append(kept)
            self.put_back += 1
        return stopped

    def branching_cell(self, grid: Any, best: int) -> int:
        """The cell to branch on: the last conflict while it is undecided, else ``best``.

        Reasoning from the last conflict (Lecoutre, Saïs, Tabary & Vidal 2009, "Reasoning from
        last conflict(s) in constraint programming", *Artificial Intelligence* 173(18), §3):
        after a dead node the search branches on the cell that made it dead, at every node
        where that cell is undecided, until a decision on it survives. Backtracking past the
        culprit decision higher up is then found at once, as backjumping would.
        """
        if self.conflict >= 0 and _known(grid, self.conflict, self.net.width):
            self.conflict = -1
        return best if self.conflict < 0 else self.conflict

    def _children(self, grid: Any, cell: int, probes: Probes, depth: int) -> list[Any]:
        """Stack entries for the children of branching on ``cell``, the one to try first last."""
        net = self.net
        kids = np.empty((2, *grid.shape), np.uint64)
        size = (net.height, net.width)
        args = (net.clues, net.work, net.counters, net.trials, kids)
        children(grid, cell, size, *args, order=self.order)
        other = probes.copy()
        stamp(grid, kids[0], probes.changed_at, net.counters)
        stamp(grid, kids[1], other.changed_at, net.counters)
        return [(kids[1], other, depth, cell), (kids[0], probes, depth, cell)]


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    ``2**(k - 1)`` when ``i = 2**k - 1``, else the term ``i - 2**(k - 1) + 1`` for ``2**(k - 1)
    <= i < 2**k - 1``: the universal restart schedule of Luby, Sinclair & Zuckerman 1993,
    "Optimal speedup of Las Vegas algorithms", *Information Processing Letters* 47(4), §3.

    Raises
    ------
    ValueError
        When ``i < 1``.
    """
    if i < 1:
        raise ValueError(f"the Luby sequence starts at term 1, not {i}")
    while True:
        k = i.bit_length()  # 2**(k - 1) <= i < 2**k
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


class _Restarts:
    """Randomized likelier-first searches, each started afresh from the root and cut after
    :data:`_RESTART_UNIT` times :func:`luby` of its number nodes (see :func:`search`).

    The search a round's allowance cuts short goes on in the next round. The conflict weights,
    kept in the network, carry over from one search to the next.

    Parameters
    ----------
    net : Network
        The puzzle.
    root : numpy.ndarray
        The grid every search starts from (copied by each).
    """

    def __init__(self, net: Network, root: Any) -> None:
        self.net = net
        self.root = root
        self.started = 0
        """How many searches have been started."""
        self.last_conflict = False
        """Whether the searches reason from the last conflict (see :class:`_Dive`)."""
        self.dive, self.left = self._next()

    def _next(self) -> tuple[_Dive, int]:
        """A fresh randomized search and the nodes it is allowed."""
        self.started += 1
        return _Dive(self.net, self.root, LIKELIER, _NOISE), _RESTART_UNIT * luby(self.started)

    def advance(
        self, allowance: int, budget: Budget, found: list[Grid], max_solutions: int
    ) -> tuple[bool, Status | None]:
        """Expand up to ``allowance`` more nodes, restarting as the Luby sequence says; as
        :meth:`_Dive.advance`."""
        while allowance:
            if not self.left:
                self.dive, self.left = self._next()
            self.dive.last_conflict = self.last_conflict
            step = min(self.left, allowance)
            settled, stopped = self.dive.advance(step, budget, found, max_solutions)
            if settled or stopped:
                return settled, stopped
            self.left -= step
            allowance -= step
        return False, None


def search(
    net: Network, budget: Budget, *, max_solutions: int, seed: int = 0
) -> tuple[list[Grid], Status | None]:
    """Depth-first search with probing at every node, as a portfolio (see the module docstring).

    Round ``r`` allows :data:`_FIRST_RUN` ``* 2**r`` nodes to the likelier-first search, as many
    to the more-fixing-first search (both resumed) and as many to the randomized searches
    (:class:`_Restarts`), which draw their factors from one generator seeded with ``seed``.

    Returns
    -------
    solutions : list of Grid
        Up to ``max_solutions`` solutions, in the order found.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when the budget stopped the search, else ``None``.
    """
    solutions: list[Grid] = []
    root = net.unknown()
    consistent = _propagate_all(net, root)
    stopped = interrupted(net.counters, budget)
    settled = not consistent and not stopped
    likelier, more = _Dive(net, root, LIKELIER, 0.0), _Dive(net, root, MORE, 0.0)
    randomized = _Restarts(net, root)
    _seed(seed % 2**32)
    rounds = 0
    while not settled and not stopped:
        allowance = _FIRST_RUN << rounds
        for searcher in (likelier, more, randomized):
            searcher.last_conflict = rounds >= _LAST_CONFLICT_ROUND
            settled, stopped = searcher.advance(allowance, budget, solutions, max_solutions)
            if settled or stopped:
                break
        rounds += 1
    add_counters(net, budget.stats)
    budget.stats.extra["rounds"] = rounds
    return solutions, stopped


def add_counters(net: Network, stats: Stats) -> None:
    """Add the network's kernel counters (line solves, probes, line-cache hits) to ``stats``."""
    stats.propagations += int(net.counters[_SOLVES])
    stats.probes += int(net.counters[_PROBES])
    hits = stats.extra.get("line_cache_hits", 0) + int(net.counters[_HITS])
    stats.extra["line_cache_hits"] = hits


@functools.cache
def load_kernels() -> None:
    """Load (or compile) the kernels before a run's clock starts: numba does it on first call.

    Two crossed diagonals need branching, so every kernel runs.
    """
    net = Network.build(Nonogram(rows=((1,), (1,)), columns=((1,), (1,))))
    search(net, Limits().start(Stats()), max_solutions=2)


def solve_probing(
    puzzle: Nonogram, *, limits: Limits | None = None, max_solutions: int = 1, seed: int = 0
) -> Result[Grid]:
    """Solve a nonogram by depth-first search with probing (method ``"probing"``).

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        The node limit is checked before each node; the time limit and cancellation also
        stop the kernels within a node, before their next line solve (:meth:`Budget.alarm`).
        One core whatever ``workers`` says (the split search is :func:`.split.solve_split`).
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.
    seed : int
        Seeds the randomized searches of the portfolio (see :func:`search`). Every seed gives
        a correct answer, but a puzzle with several solutions may show another one first, and
        the node counts of hard puzzles vary with the seed
        (``python benchmarks/nonogram.py --parts seeds``).

    Returns
    -------
    Result of Grid
        As :meth:`cspsolve.results.Result.from_solutions`; ``stats.expanded`` counts probed
        nodes, ``propagations`` line solves, ``probes`` trials, ``backtracks`` dead nodes;
        ``stats.extra`` has ``line_cache_hits`` and ``rounds`` (of the portfolio, see
        :func:`search`); ``solutions`` lists every solution found.
    """
    load_kernels()
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    network = Network.build(puzzle)
    with budget.alarm(functools.partial(raise_stop, network.counters)):
        solutions, stopped = search(network, budget, max_solutions=max_solutions, seed=seed)
    found = Result.from_solutions(
        budget.finish(), "probing", solutions, max_solutions=max_solutions, stopped=stopped
    )
    found.solutions = solutions
    return found
