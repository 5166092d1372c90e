"""Line logic on the compiled bit grid: the fast solver's propagation (the first step of
the ``probing`` method; :mod:`.probing` probes on it, :mod:`.portfolio` searches).

The grid is held as bit sets, each line twice over: ``grid[0, l]`` has a bit for every cell of
line ``l`` known to be empty, ``grid[1, l]`` for every cell known to be filled. Lines are rows
``0 .. H-1`` then columns ``H .. H+W-1``, ``ceil(n / 64)`` words a line of ``n`` cells, so a
trial copy of the grid is ``2 (H + W)`` words.

:func:`propagate`
    Line logic to a fixpoint: a FIFO worklist of dirty lines, each narrowed by an exact line
    solver on the line's words (:func:`..lines.bits.settle_bits` up to 62 cells in one word,
    :func:`..lines.words.settle_words` beyond; lines of up to 26 cells through a direct-mapped
    cache), every cell it decides making the crossing line dirty.

The kernels are compiled by numba (:mod:`cspsolve.models.nonogram._kernels`); timings are in
``docs/benchmarks.md``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

import numba
import numpy as np
from numba.extending import overload

from cspsolve.csp.gac import StopPropagationError
from cspsolve.limits import Budget, Limits
from cspsolve.results import Stats, Status

from .._kernels import kernel, kernel_options, lowest_bit, popcount
from ..board import Grid, Nonogram
from ..lines.bits import MAX_CELLS, settle_bits
from ..lines.cells import EMPTY, FILLED, UNKNOWN
from ..lines.words import low_word, scratch_words, settle_words, words_for

__all__ = [
    "STOP",
    "Network",
    "Work",
    "add_counters",
    "enqueue",
    "has_long_lines",
    "interrupted",
    "line_logic",
    "propagate",
    "raise_stop",
    "settle_line",
    "take_counters",
]

_SOLVES, _PROBES, _HITS, _CLOCK, _DECIDED, _STOP = 0, 1, 2, 3, 4, 5
STOP = _STOP
"""Index of the stop flag in the counters of every network, black-and-white and colour (the
kernels stop at the next line solve once it is set, see :func:`raise_stop`)."""
"""Indices in the kernels' ``counters``: line solves, trials, line-cache hits, the clock that
stamps line changes (see :class:`.probing.Probes`), the cells propagation has decided, and the
stop flag (see :func:`propagate`)."""

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
    sides : numpy.ndarray of uint64, shape (2, words_for(n)), or None
        A line of over :data:`.lines.bits.MAX_CELLS` cells as :func:`.lines.words.settle_words`
        takes it: the cells that may be empty, and those that may be filled. None when no line
        is that long: numba then compiles the kernels without the long-line solver (a type
        of their own, see :func:`_settle_any_long`).
    wordwork : numpy.ndarray of uint64, or None
        The scratch of :func:`.lines.words.settle_words` (see
        :func:`.lines.words.scratch_words`); None with ``sides``.
    narrowed : numpy.ndarray of uint64, shape (2, words_for(n))
        A line's bit sets (empty, filled) as the line solver narrowed them (``words_for(n)``,
        :func:`.lines.words.words_for`, is ``words`` or one more: room for the carry of
        :func:`.lines.words.settle_words`).
    memo : numpy.ndarray of uint64, shape (2**16, 2)
        The line cache (see :func:`_settle`).
    bitwork : numpy.ndarray of uint64, shape (4, k + 1)
        The scratch of :func:`.lines.bits.settle_bits`.
    read : numpy.ndarray of uint64, shape (1,)
        The lines a propagation solved, as a mask of ``line mod 64``.
    conflicts : numpy.ndarray of float64, shape (H + W,)
        Each line's conflict weight (see :func:`.probing.probe`).
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
    sides: Any
    wordwork: Any
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
        words, long_lines = words_for(longest), longest > MAX_CELLS
        return cls(
            queue=np.zeros(lines, np.int64),
            queued=np.zeros(lines, np.uint8),
            ends=np.zeros(2, np.int64),
            sides=np.zeros((2, words), np.uint64) if long_lines else None,
            wordwork=scratch_words(longest, blocks) if long_lines else None,
            narrowed=np.zeros((2, words), np.uint64),
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


def has_long_lines(puzzle: Nonogram) -> bool:
    """Whether ``puzzle`` has a line of over :data:`.lines.bits.MAX_CELLS` cells: its kernels
    are then compiled with the long-line solver (see :class:`Work`)."""
    return max(puzzle.width, puzzle.height) > MAX_CELLS


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
        Line solves, trials, line-cache hits, the clock (see :class:`.probing.Probes`), cells
        decided, and the stop flag that the run's alarm raises (:func:`propagate`).
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


@kernel(inline=True)
def _bit(i: Any) -> Any:
    return np.uint64(1) << np.uint64(i & 63)


@kernel()
def _settle_long(
    grid: Any, line: int, n: int, blocks: Any, first: int, k: int, sides: Any, wordwork: Any,
    narrowed: Any,
) -> bool:  # fmt: skip
    """Narrow a line of over :data:`.lines.bits.MAX_CELLS` cells into ``narrowed``, on its
    words (:func:`.lines.words.settle_words`). Returns False on a contradiction."""
    held = (n + 63) >> 6  # the line's words in the grid; settle_words may take one more
    for w in range(words_for(n)):
        empty = grid[0, line, w] if w < held else np.uint64(0)
        filled = grid[1, line, w] if w < held else np.uint64(0)
        full = low_word(n, w)
        sides[0, w] = full & ~filled
        sides[1, w] = full & ~empty
    return settle_words(sides[0], sides[1], n, blocks, first, k, wordwork, narrowed)


def _settle_any_long(
    grid: Any, line: int, n: int, blocks: Any, first: int, k: int, sides: Any, wordwork: Any,
    narrowed: Any,
) -> bool:  # fmt: skip
    """In the kernels, :func:`_settle_long` when the work space holds the long-line solver's
    scratch, else False (never reached: the puzzle has no such line). The kernels of a puzzle
    without long lines (``sides`` None) are thus compiled without the long-line solver, which
    about doubles numba's first compile."""
    raise NotImplementedError("called only by the kernels")


@overload(_settle_any_long, inline="always", jit_options=cast(Any, kernel_options()))
def _settle_any_long_typed(
    grid: Any, line: Any, n: Any, blocks: Any, first: Any, k: Any, sides: Any, wordwork: Any,
    narrowed: Any,
) -> Any:  # fmt: skip
    if isinstance(sides, numba.types.NoneType):

        def refuse(
            grid: Any, line: Any, n: Any, blocks: Any, first: Any, k: Any, sides: Any,
            wordwork: Any, narrowed: Any,
        ) -> Any:  # fmt: skip
            return False

        return refuse

    def settle(
        grid: Any, line: Any, n: Any, blocks: Any, first: Any, k: Any, sides: Any,
        wordwork: Any, narrowed: Any,
    ) -> Any:  # fmt: skip
        return _settle_long(grid, line, n, blocks, first, k, sides, wordwork, narrowed)

    return settle


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
def settle_line(grid: Any, line: int, n: int, clues: Any, work: Any, counters: Any) -> bool:
    """Narrow line ``line`` of ``n`` cells into ``work.narrowed`` by the exact line solver for
    its length (:func:`_settle` or :func:`_settle_long`), counting the solve. Returns False
    when no fill of the line agrees with its clue and its decided cells."""
    blocks, starts, counts = clues
    first, k = starts[line], counts[line]
    if n <= MAX_CELLS:
        return _settle(
            grid, line, n, blocks, first, k, work.narrowed, work.memo, work.bitwork, counters
        )
    counters[_SOLVES] += 1
    return _settle_any_long(
        grid, line, n, blocks, first, k, work.sides, work.wordwork, work.narrowed
    )


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
    queue, queued, ends = work.queue, work.queued, work.ends
    narrowed = work.narrowed
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
        if not settle_line(grid, line, n, clues, work, counters):
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
def _decided(grid: Any, row: int, col: int) -> bool:
    """Whether the cell at (``row``, ``col``) is decided, read in its row."""
    return bool((grid[0, row, col >> 6] | grid[1, row, col >> 6]) & _bit(col))


@kernel(inline=True)
def _known(grid: Any, cell: int, width: int) -> bool:
    """Whether the cell of row-major index ``cell`` is decided."""
    return _decided(grid, cell // width, cell % width)


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


def take_counters(net: Network, stats: Stats) -> None:
    """:func:`add_counters`, then those counters set back to 0 and the stop flag lowered (the
    clock goes on: the probes of a search that resumes read it), for a network that runs in
    slices."""
    add_counters(net, stats)
    net.counters[[_SOLVES, _PROBES, _HITS, _STOP]] = 0


def add_counters(net: Network, stats: Stats) -> None:
    """Add the network's kernel counters (line solves, probes, line-cache hits) to ``stats``."""
    stats.propagations += int(net.counters[_SOLVES])
    stats.probes += int(net.counters[_PROBES])
    hits = stats.extra.get("line_cache_hits", 0) + int(net.counters[_HITS])
    stats.extra["line_cache_hits"] = hits
