"""The colour nonogram solver: line propagation on a worklist, probing, depth-first search.

The grid is one bit mask per cell (uint32, shape (H, W)): bit ``c`` set while the cell may
still take colour ``c`` (bit 0 the background). Lines are rows ``0 .. H-1`` then columns
``H .. H+W-1``. It is the search of the black-and-white solver (:mod:`.probing`) with
a cell's two values replaced by its set of colours:

:func:`propagate`
    Line logic to a fixpoint: a FIFO worklist of dirty lines, each narrowed by the exact colour
    line solver (:func:`..lines.colour.settle_colour_line`; lines of up to 64 cells through a line
    cache), every cell it narrows making the crossing line dirty.
:func:`probe`
    Probing to a fixpoint (failed-literal detection on cells, generalised to several values):
    each undecided cell is given each of its colours in turn, each trial propagated on a copy
    of the grid. A colour whose trial fails is removed; no colour surviving kills the node;
    otherwise every cell of the grid is narrowed to the union of its masks over the surviving
    trials (what every completion of the node allows). The cells are visited in a cycle until
    a whole cycle changes nothing; a cell probed before, at this node or an ancestor, is probed
    again only when a line its last trials solved has changed since (lines told apart by their
    number modulo 64, as the black-and-white solver's :class:`.probing.Probes` do).
    The "fully probing" of Wu, Sun, Chen, Chen, Lee & Yen 2013, *IEEE TCIAIG* 5(3), §III-B, over
    colour sets as in Jan Wolter's pbnsolve (https://webpbn.com/pbnsolve.html).
:func:`search` (Python)
    Depth-first search over probed nodes. The branching cell maximises the product over its
    surviving colours of ``1 +`` the colour bits its trial removed (the black-and-white
    solver's ``(fixed_empty + 1) * (fixed_filled + 1)``); its children, one per colour, are
    tried in increasing order of the bits they remove (the least constraining value first).
    ``max_solutions=2`` settles uniqueness by exhausting the tree.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cspsolve.csp.gac import StopPropagationError
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .._kernels import copy, kernel
from ..colour_board import ColourNonogram, Grid
from ..lines.colour import scratch, settle_colour_line
from . import probing, propagation
from .propagation import enqueue

__all__ = [
    "Network",
    "Probes",
    "line_logic",
    "load_kernels",
    "probe",
    "propagate",
    "search",
    "solve_colour",
]

_SOLVES, _PROBES, _REMOVED, _CLOCK, _HITS, _STOP = 0, 1, 2, 3, 4, propagation.STOP
"""Indices in the kernels' ``counters``: line solves, trials, colour bits removed, the clock
that stamps line changes (see :class:`Probes`), line-cache hits, and the stop flag (see
:func:`propagate`)."""

_MEMO_BITS = 13
"""The line cache holds ``2**13`` lines (see :func:`_settle`)."""
_MEMO_CELLS = 64
"""Lines of up to 64 cells go through the line cache."""
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)

_DEAD, _SOLVED = -1, -2
"""What :func:`probe` returns besides a cell to branch on."""


@dataclass(frozen=True)
class Network:
    """A colour nonogram in the arrays the kernels take, with their work space.

    Attributes
    ----------
    height, width, colours : int
        Rows, columns, and colours (the background included).
    clues : tuple of numpy.ndarray
        ``(lengths, colours, starts, counts)``: every line's blocks, rows then columns,
        concatenated (int64); where each line's clue starts and how many blocks it has
        (int64, shape (H + W,)).
    work : tuple of numpy.ndarray
        The worklist (``queue`` int64 (H + W,), ``queued`` uint8 (H + W,), ``ends`` int64 (2,):
        head and size), a line's cells (uint32 (n,)), the lines a propagation solved (``read``,
        uint64 (1,), a mask of ``line mod 64``), the stamps of trial grids' line changes
        (int64 (64,), never read), the line cache (:func:`_settle`: keys uint32
        (2**13, m + 1), values uint32 (2**13, m), m = min(n, 64)) and the line solver's
        scratch (:func:`..lines.colour.scratch`).
    trials : numpy.ndarray of uint32, shape (C + 1, H, W)
        One trial grid per colour, and their union.
    order : numpy.ndarray of int64, shape (2, C)
        The children :func:`children` kept, in the order to try them, and the colour bits each
        trial removed.
    counters : numpy.ndarray of int64, shape (6,)
        Line solves, trials, colour bits removed, the clock (see :class:`Probes`), line-cache
        hits, and the stop flag that the run's alarm raises (:func:`propagate`).
    """

    height: int
    width: int
    colours: int
    clues: tuple[Any, Any, Any, Any]
    work: tuple[Any, ...]
    trials: Any
    order: Any
    counters: Any = field(default_factory=lambda: np.zeros(6, np.int64))

    @classmethod
    def build(cls, puzzle: ColourNonogram) -> Network:
        """The arrays of ``puzzle``."""
        lines = [*puzzle.rows, *puzzle.columns]
        counts = np.array([len(c) for c in lines], np.int64)
        starts = np.zeros(len(lines), np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        lengths = np.array([n for c in lines for n, _ in c], np.int64)
        colours = np.array([colour for c in lines for _, colour in c], np.int64)
        longest = max(puzzle.width, puzzle.height)
        work = (
            np.zeros(len(lines), np.int64),
            np.zeros(len(lines), np.uint8),
            np.zeros(2, np.int64),
            np.zeros(longest, np.uint32),
            np.zeros(1, np.uint64),
            np.zeros(64, np.int64),
            np.zeros((1 << _MEMO_BITS, min(longest, _MEMO_CELLS) + 1), np.uint32),
            np.zeros((1 << _MEMO_BITS, min(longest, _MEMO_CELLS)), np.uint32),
            *scratch(longest, int(counts.max(initial=0))),
        )
        size = (puzzle.height, puzzle.width)
        count = len(puzzle.colours)
        return cls(
            puzzle.height,
            puzzle.width,
            count,
            (lengths, colours, starts, counts),
            work,
            np.zeros((count + 1, *size), np.uint32),
            np.zeros((2, count), np.int64),
        )

    def unknown(self) -> Any:
        """A grid whose every cell may take every colour (uint32, shape (H, W))."""
        return np.full((self.height, self.width), (1 << self.colours) - 1, np.uint32)

    def decode(self, grid: Any, keys: str) -> Grid:
        """Rows of colour keys from a fully decided grid (``keys[c]`` for colour ``c``)."""
        return tuple("".join(keys[int(m).bit_length() - 1] for m in row) for row in grid)


class Probes(probing.Probes):
    """What a node knows of its cells' last trials (as the black-and-white solver's
    :class:`.probing.Probes`, the scores as floats); copied to each child."""

    @classmethod
    def fresh(cls, cells: int) -> Probes:
        """No cell probed yet."""
        fresh = super().fresh(cells)
        return cls(fresh.probed_at, fresh.read, np.zeros(cells), fresh.changed_at)

    def child(self, parent: Any, grid: Any, counters: Any) -> Probes:
        """A copy for a child whose grid is ``grid``, the lines where it differs from the
        ``parent`` grid stamped as changed."""
        counters[_CLOCK] += 1
        changed_at = self.changed_at.copy()
        differs = parent != grid
        height = grid.shape[0]
        for line in (
            *np.flatnonzero(differs.any(axis=1)),
            *(height + np.flatnonzero(differs.any(axis=0))),
        ):
            changed_at[line & 63] = counters[_CLOCK]
        return Probes(self.probed_at.copy(), self.read.copy(), self.score.copy(), changed_at)


@kernel(inline=True)
def _bits(mask: Any) -> int:
    """Set bits of a cell's mask."""
    count = 0
    while mask:
        mask &= mask - np.uint32(1)
        count += 1
    return count


@kernel(inline=True)
def _narrow(grid: Any, row: int, col: int, mask: Any, work: Any, counters: Any,
            changed_at: Any) -> None:  # fmt: skip
    """Narrow cell (``row``, ``col``) to ``mask`` (a subset of its colours), queue its two
    lines and stamp them changed at the clock's time."""
    queue, queued, ends = work[0], work[1], work[2]
    counters[_REMOVED] += _bits(grid[row, col]) - _bits(mask)
    grid[row, col] = mask
    column = grid.shape[0] + col
    enqueue(row, queue, queued, ends)
    enqueue(column, queue, queued, ends)
    changed_at[row & 63] = changed_at[column & 63] = counters[_CLOCK]


@kernel(inline=True)
def _settle(line: int, cells: Any, lengths: Any, colours: Any, work: Any, counters: Any) -> bool:
    """:func:`..lines.colour.settle_colour_line` on line ``line`` whose cells are ``cells``,
    through a direct-mapped cache for lines of up to :data:`_MEMO_CELLS` cells: the slot is a
    multiplicative hash of the line's number and masks (Knuth, *TAOCP* vol. 3, §6.4); it keeps
    the last line stored there (its number plus one, then its masks) and the narrowed masks (a
    first mask of 0 for a contradiction)."""
    n = cells.shape[0]
    if n > _MEMO_CELLS:
        counters[_SOLVES] += 1
        return settle_colour_line(cells, lengths, colours, *work[8:])
    keys, values = work[6], work[7]
    digest = np.uint64(line + 1) * _GOLDEN
    for i in range(n):
        digest = (digest ^ np.uint64(cells[i])) * _GOLDEN
    slot = np.int64(digest >> np.uint64(64 - _MEMO_BITS))
    key, value = keys[slot], values[slot]
    hit = key[0] == line + 1
    for i in range(n):
        if not hit:
            break
        hit = key[i + 1] == cells[i]
    if hit:
        counters[_HITS] += 1
        if value[0] == 0:
            return False
        for i in range(n):
            cells[i] = value[i]
        return True
    counters[_SOLVES] += 1
    key[0] = line + 1
    for i in range(n):
        key[i + 1] = cells[i]
    ok = settle_colour_line(cells, lengths, colours, *work[8:])
    for i in range(n):
        value[i] = cells[i] if ok else 0
    return ok


@kernel(inline=True)
def _propagate(grid: Any, clues: Any, work: Any, counters: Any, changed_at: Any) -> bool:
    """:func:`propagate`, inlined into the trials; the lines it changes are stamped in
    ``changed_at``, those it solves added to ``work[4]``."""
    lengths, colours, starts, counts = clues
    queue, queued, ends, cells = work[0], work[1], work[2], work[3]
    height, width = grid.shape
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
        work[4][0] |= np.uint64(1) << np.uint64(line & 63)
        is_row = line < height
        n = width if is_row else height
        line_cells = cells[:n]
        for i in range(n):
            line_cells[i] = grid[line, i] if is_row else grid[i, line - height]
        first, k = starts[line], counts[line]
        blocks, painted = lengths[first : first + k], colours[first : first + k]
        if not _settle(line, line_cells, blocks, painted, work, counters):
            queued[:] = 0
            ends[:] = 0
            return False
        for i in range(n):
            row, col = (line, i) if is_row else (i, line - height)
            if line_cells[i] != grid[row, col]:
                _narrow(grid, row, col, line_cells[i], work, counters, changed_at)
    return True


@kernel()
def propagate(grid: Any, clues: Any, work: Any, counters: Any) -> bool:
    """Line logic to a fixpoint from the lines on the worklist; ``grid`` is narrowed.

    Parameters
    ----------
    grid : numpy.ndarray of uint32, shape (H, W)
        Each cell's possible colours.
    clues, work, counters
        As in :class:`Network`; the worklist holds the dirty lines on entry and is empty on
        return. When the stop flag of ``counters`` is raised (from another thread: the kernels
        release the GIL), the propagation gives up before the next line.

    Returns
    -------
    bool
        False when some line has no placement agreeing with the grid (``grid`` is then partly
        narrowed), or when the stop flag was raised: every kernel then fails fast, and
        whatever it returns after the flag went up is meaningless
        (:func:`.propagation.interrupted`).
    """
    return _propagate(grid, clues, work, counters, work[5])


@kernel(inline=True)
def _trial(grid: Any, trial: Any, row: int, col: int, bit: Any, clues: Any, work: Any,
           counters: Any) -> int:  # fmt: skip
    """Copy ``grid`` into ``trial``, give cell (``row``, ``col``) the colour ``bit`` there and
    propagate: how many colour bits the trial removes, -1 if it fails."""
    copy(trial, grid)
    counters[_PROBES] += 1
    before = counters[_REMOVED]
    _narrow(trial, row, col, bit, work, counters, work[5])
    if not _propagate(trial, clues, work, counters, work[5]):
        return -1
    return int(counters[_REMOVED] - before)


@kernel(inline=True)
def _probe_cell(grid: Any, row: int, col: int, clues: Any, work: Any, counters: Any,
                trials: Any, scores: Any, changed_at: Any) -> int:  # fmt: skip
    """Probe one undecided cell: -1 when no colour survives, 1 when the grid was narrowed
    (and propagated, 2 when that failed; the lines changed stamped in ``changed_at`` at a new
    time of the clock), 0 when nothing changed (its score is then set)."""
    union = trials[trials.shape[0] - 1]
    mask = grid[row, col]
    survivors = 0
    score = 1.0
    rest = mask
    while rest:
        bit = rest & (~rest + np.uint32(1))
        rest &= rest - np.uint32(1)
        trial = trials[0]
        removed = _trial(grid, trial, row, col, bit, clues, work, counters)
        if removed < 0:
            continue
        score *= removed + 1.0
        if survivors == 0:
            copy(union, trial)
        else:
            for r in range(grid.shape[0]):
                for c in range(grid.shape[1]):
                    union[r, c] |= trial[r, c]
        survivors += 1
    if survivors == 0:
        return -1
    changed = False
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            if union[r, c] != grid[r, c]:
                if not changed:
                    counters[_CLOCK] += 1
                    changed = True
                _narrow(grid, r, c, union[r, c], work, counters, changed_at)
    if not changed:
        scores[row * grid.shape[1] + col] = score
        return 0
    return 1 if _propagate(grid, clues, work, counters, changed_at) else 2


@kernel(inline=True)
def _stale(cell: int, probed_at: Any, read: Any, changed_at: Any) -> bool:
    """Whether ``cell`` must be probed: never probed, or a line its trials solved changed
    since."""
    if probed_at[cell] < 0:
        return True
    for c in range(64):
        if changed_at[c] > probed_at[cell] and read[cell] & (np.uint64(1) << np.uint64(c)):
            return True
    return False


@kernel()
def probe(grid: Any, clues: Any, work: Any, counters: Any, trials: Any, probed_at: Any,
          read: Any, scores: Any, changed_at: Any) -> int:  # fmt: skip
    """Probe the undecided cells of a propagated grid until a whole cycle over them changes
    nothing.

    Parameters
    ----------
    grid : numpy.ndarray of uint32, shape (H, W)
        A grid at the fixpoint of :func:`propagate`; narrowed in place by what probing proves.
    clues, work, counters, trials
        As in :class:`Network`; ``counters`` also counts trials.
    probed_at, read, scores, changed_at : numpy.ndarray
        The node's :class:`Probes`, brought up to date; a cell is probed only when
        :func:`_stale`.

    Returns
    -------
    int
        The cell to branch on (row-major index, the best score), ``-1`` when the node has no
        solution, ``-2`` when every cell is decided (the grid is a solution).
    """
    height, width = grid.shape
    cells = height * width
    quiet, cell = 0, 0
    while quiet < cells:  # until a whole cycle changes nothing
        row, col = cell // width, cell % width
        at = cell
        cell = cell + 1 if cell + 1 < cells else 0
        quiet += 1
        mask = grid[row, col]
        if not mask & (mask - np.uint32(1)) or not _stale(at, probed_at, read, changed_at):
            continue
        work[4][0] = 0
        probed_at[at] = counters[_CLOCK]
        outcome = _probe_cell(grid, row, col, clues, work, counters, trials, scores, changed_at)
        read[at] = work[4][0]
        if outcome < 0 or outcome == 2:
            return _DEAD
        if outcome == 1:
            quiet = 0
    best, best_score = _SOLVED, -1.0
    for row in range(height):
        for col in range(width):
            mask = grid[row, col]
            at = row * width + col
            if mask & (mask - np.uint32(1)) and scores[at] > best_score:
                best, best_score = at, scores[at]
    return best


@kernel()
def children(grid: Any, cell: int, clues: Any, work: Any, counters: Any, trials: Any,
             order: Any) -> int:  # fmt: skip
    """The propagated children of giving ``cell`` each of its colours: child ``i`` of the
    returned count is ``trials[order[0, i]]``, those removing fewer colour bits first
    (``order[1, i]``: the bits trial ``i`` removed); children whose propagation fails are left
    out."""
    row, col = cell // grid.shape[1], cell % grid.shape[1]
    count = 0
    rest = grid[row, col]
    while rest:
        bit = rest & (~rest + np.uint32(1))
        rest &= rest - np.uint32(1)
        removed = _trial(grid, trials[count], row, col, bit, clues, work, counters)
        if removed >= 0:
            order[0, count] = count
            order[1, count] = removed
            count += 1
    for i in range(1, count):  # insertion sort by removed bits
        j = i
        while j > 0 and order[1, order[0, j - 1]] > order[1, order[0, j]]:
            order[0, j - 1], order[0, j] = order[0, j], order[0, j - 1]
            j -= 1
    return count


def _propagate_all(net: Network, grid: Any) -> bool:
    """Line logic to a fixpoint from every line."""
    queue, queued, ends = net.work[:3]
    queue[:] = np.arange(len(queue))
    queued[:] = 1
    ends[:] = (0, len(queue))
    return bool(propagate(grid, net.clues, net.work, net.counters))


def line_logic(puzzle: ColourNonogram, *, budget: Budget | None = None) -> tuple[bool, int]:
    """Line logic alone (no probing, no search) from the grid of undecided cells.

    Parameters
    ----------
    puzzle : ColourNonogram
        The clues.
    budget : Budget, optional
        Its time limit and cancellation stop the propagation (:meth:`Budget.alarm`).

    Returns
    -------
    tuple of (bool, int)
        Whether line logic finds the clues consistent, and how many cells it decides.

    Raises
    ------
    StopPropagationError
        When ``budget`` stopped the propagation.
    """
    net = Network.build(puzzle)
    grid = net.unknown()
    budget = budget or Limits().start(Stats())
    with budget.alarm(functools.partial(propagation.raise_stop, net.counters)):
        consistent = _propagate_all(net, grid)
    stopped = propagation.interrupted(net.counters, budget)
    if stopped:
        raise StopPropagationError(stopped)
    return consistent, int(np.count_nonzero((grid & (grid - 1)) == 0))


def search(
    net: Network, keys: str, budget: Budget, *, max_solutions: int
) -> tuple[list[Grid], Status | None]:
    """Depth-first search with probing at every node (see the module docstring).

    Parameters
    ----------
    net : Network
        The puzzle.
    keys : str
        The colour keys, the background's first, to write the solutions.
    budget : Budget
        Checked before each node, and after each kernel for the stop flag its alarm raises
        (see :func:`solve_colour`).
    max_solutions : int
        Stop after this many solutions.

    Returns
    -------
    solutions : list of Grid
        Up to ``max_solutions`` solutions, in the order found.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when the budget stopped the search, else ``None``.
    """
    stats = budget.stats
    solutions: list[Grid] = []
    root = net.unknown()
    fresh = Probes.fresh(net.height * net.width)
    consistent = _propagate_all(net, root)
    stopped = propagation.interrupted(net.counters, budget)
    stack = [(root, fresh, 0)] if consistent and not stopped else []
    args = (net.clues, net.work, net.counters, net.trials)
    while stack:
        stopped = budget.exhausted()
        if stopped:
            break
        grid, probes, depth = stack.pop()
        stats.expanded += 1
        stats.depth = max(stats.depth, depth)
        cell = probe(grid, *args, probes.probed_at, probes.read, probes.score, probes.changed_at)
        stopped = propagation.interrupted(net.counters, budget)
        if stopped:
            break
        if cell == _DEAD:
            stats.backtracks += 1
        elif cell == _SOLVED:
            solutions.append(net.decode(grid, keys))
            if len(solutions) >= max_solutions:
                break
        else:
            count = children(grid, cell, *args, net.order)
            stopped = propagation.interrupted(net.counters, budget)
            if stopped:
                break
            stats.backtracks += int(grid.flat[cell]).bit_count() - count
            kids = []
            for i in range(count):
                kid = net.trials[net.order[0, i]].copy()
                kids.append((kid, probes.child(grid, kid, net.counters), depth + 1))
            stack += kids[::-1]
            stats.generated += count
            stats.max_frontier = max(stats.max_frontier, len(stack))
    stats.propagations += int(net.counters[_SOLVES])
    stats.probes += int(net.counters[_PROBES])
    stats.extra["line_cache_hits"] = int(net.counters[_HITS])
    return solutions, stopped


@functools.cache
def load_kernels() -> None:
    """Load (or compile) the kernels before a run's clock starts: numba does it on first call.

    Two crossed diagonals of two colours need branching, so every kernel runs.
    """
    from ..colour_board import Colour

    colours = (Colour(".", "white", "#ffffff"), Colour("a", "red", "#ff0000"))
    clue = ((1, 1),)
    puzzle = ColourNonogram((clue, clue), (clue, clue), colours)
    search(Network.build(puzzle), ".a", Limits().start(Stats()), max_solutions=2)


def solve_colour(
    puzzle: ColourNonogram, *, limits: Limits | None = None, max_solutions: int = 1
) -> Result[Grid]:
    """Solve a colour nonogram by depth-first search with probing (method ``"probing"``).

    Parameters
    ----------
    puzzle : ColourNonogram
        The clues.
    limits : Limits, optional
        The node limit is checked before each node; the time limit and cancellation also
        stop the kernels within a node, before their next line solve (:meth:`Budget.alarm`).
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.

    Returns
    -------
    Result of Grid
        As :meth:`cspsolve.results.Result.from_solutions`; ``stats.expanded`` counts probed
        nodes, ``propagations`` line solves (line-cache hits not counted), ``probes`` trials,
        ``backtracks`` dead nodes and colours refuted at branching; ``stats.extra`` has
        ``line_cache_hits``; ``solutions`` lists every solution found.
    """
    load_kernels()
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    keys = "".join(c.key for c in puzzle.colours)
    network = Network.build(puzzle)
    with budget.alarm(functools.partial(propagation.raise_stop, network.counters)):
        solutions, stopped = search(network, keys, budget, max_solutions=max_solutions)
    found = Result.from_solutions(
        budget.finish(), "probing", solutions, max_solutions=max_solutions, stopped=stopped
    )
    found.solutions = solutions
    return found
