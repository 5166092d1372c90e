"""Bit-packed states of any width and breadth-first search over them, layer by layer.

A state is a row of ``words`` int64 values: each piece's offset, less the smallest offset it can
ever take (:func:`.cluster.offset_ranges`), in a field of ``ceil(log2(range))`` bits; fields
never straddle two words and a word holds at most 62 bits, so every word stays non-negative.
A 9x9 board of 26 pieces takes two words, a 12x12 board of 44 pieces three. States live in
flat numpy arrays (the key, the parent index, the move that reached it) and a hash table that
holds the keys themselves, with open addressing and linear probing (Knuth, *The Art of Computer
Programming*, vol. 3, §6.4, algorithm L), so that a look-up reads one row of memory: at most 55
bytes a state for two words (:meth:`Packing.state_bytes`), against hundreds for a Python tuple
in a set.

:func:`search` is breadth-first search from one or more sources, one layer (depth) at a time,
that keeps a new state only when its depth plus an admissible estimate of its distance to the
exit is within a bound (breadth-first heuristic search, Zhou & Hansen, "Breadth-first heuristic
search", *Artificial Intelligence* 170(4-5), 2006). With no bound and no estimate it is plain
breadth-first search over the whole cluster. The loops are compiled by numba (``cache=True``)
and run in chunks (sized by :class:`cspsolve.pacing.Pace`) between which the time and node limits,
cancellation and the memory budget are checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cspsolve.limits import Budget
from cspsolve.pacing import Pace
from cspsolve.results import Status

from .board import Board, Move
from .cluster import offset_ranges, piece_axes, wall_cells

__all__ = ["INFINITE", "LEVELS", "Layers", "Packing", "estimates", "search"]

Int64s = npt.NDArray[np.int64]

INFINITE = 1 << 30
"""The estimate of a position from which the exit can never be reached (as the kernels')."""
LEVELS = {"zero": 0, "blocking": 1, "blockers": 2, "union": 4}
"""The compiled estimates by heuristic name (those of :mod:`.search`)."""
BEAM_SCORE = 3
"""The compiled level that ranks a beam's layer: ``blocking`` plus, summed over the blockers,
each one's fewest second-level pieces. Summing can count a piece twice, so it is not
admissible; it only orders states, never prunes them (the form of ``saschazar21/rushhour``'s
"advanced" heuristic; :mod:`.search` keeps the admissible maximum)."""
WORD_BITS = 62
"""Bits of a key word used by fields."""
_MOST_STATES = (1 << 31) - 1
"""State indices are int32."""


@dataclass(frozen=True)
class Packing:
    """Where each piece's offset sits in a bit-packed key.

    Attributes
    ----------
    board : Board
        The start position (its pieces give the order of the fields).
    horizontal, line, length, low : numpy.ndarray of int64, shape (pieces,)
        Each piece's axis (1 horizontal), fixed row or column, length, smallest offset.
    word, shift, bits : numpy.ndarray of int64, shape (pieces,)
        The word of the key holding the piece's field, the field's lowest bit, its width.
    walls : numpy.ndarray of int64, shape (size * size,)
        -1 on a wall, else 0 (the kernels paint piece index + 1 over it).
    words : int
        Words per key.
    """

    board: Board
    horizontal: Int64s
    line: Int64s
    length: Int64s
    low: Int64s
    word: Int64s
    shift: Int64s
    bits: Int64s
    walls: Int64s
    words: int

    @classmethod
    def of(cls, board: Board, *, word_bits: int = WORD_BITS) -> Packing:
        """The packing of ``board``'s pieces into words of ``word_bits`` bits (1 to 62; small
        values exist to test keys of many words on small boards)."""
        low, high = offset_ranges(board)
        widths = [(h - lo).bit_length() for lo, h in zip(low, high, strict=True)]
        word, shift, used, words = [], [], 0, 1
        for width in widths:
            if used + width > word_bits:
                words, used = words + 1, 0
            word.append(words - 1)
            shift.append(used)
            used += width
        return cls(
            board,
            *piece_axes(board),
            np.array(low, dtype=np.int64),
            np.array(word, dtype=np.int64),
            np.array(shift, dtype=np.int64),
            np.array(widths, dtype=np.int64),
            wall_cells(board, -1),
            words,
        )

    def key(self, offsets: Sequence[int]) -> Int64s:
        """The key, shape (words,), of the state with these piece offsets."""
        key = np.zeros(self.words, dtype=np.int64)
        for i, o in enumerate(offsets):
            key[self.word[i]] += (o - int(self.low[i])) << int(self.shift[i])
        return key

    def start(self) -> Int64s:
        """The key of the board's own position, as the one source of a search: shape
        (1, words)."""
        return self.key([p.offset for p in self.board.pieces])[None, :]

    def offsets(self, key: Int64s) -> tuple[int, ...]:
        """The piece offsets of a key (inverse of :meth:`key`)."""
        return tuple(
            int(lo) + (int(key[w]) >> int(s)) % (1 << int(b))
            for lo, w, s, b in zip(self.low, self.word, self.shift, self.bits, strict=True)
        )

    def red_offsets(self, keys: Int64s) -> Int64s:
        """The red car's offset in each key of ``keys``, shape (states, words)."""
        red = self.board.red_index
        field = keys[:, self.word[red]] >> self.shift[red]
        return np.asarray(self.low[red] + (field & ((1 << self.bits[red]) - 1)))

    def layout(self) -> tuple[Any, ...]:
        """The arrays the compiled kernels take, in their order."""
        board = self.board
        return (
            board.size,
            self.horizontal,
            self.line,
            self.length,
            self.low,
            self.word,
            self.shift,
            self.bits,
            self.walls,
            board.red_index,
            board.goal_offset,
        )

    def state_bytes(self) -> int:
        """Bytes a state of the search's capacity costs: its key, parent and move, and the two
        rows of keys it has in the hash table (kept at most half full). Capacities are powers of
        two, so a search never holds more than twice its states' worth."""
        return 8 * self.words + 4 + 3 + 2 * 8 * self.words


def estimates(packing: Packing, keys: Int64s, heuristic: str, *, steps: bool = False) -> Int64s:
    """The compiled estimate ``heuristic`` (a name of :data:`LEVELS`) of each key of ``keys``,
    shape (states,); :data:`INFINITE` where the exit can never be reached."""
    return _estimates(packing, keys, LEVELS[heuristic], steps)


def _estimates(packing: Packing, keys: Int64s, level: int, steps: bool) -> Int64s:
    from ._kernels import packed_estimates

    board = packing.board
    return np.asarray(
        packed_estimates(
            keys,
            level,
            steps,
            board.size,
            *(packing.horizontal, packing.line, packing.length, packing.low),
            *(packing.word, packing.shift, packing.bits, packing.walls),
            board.red_index,
            board.goal_offset,
        )
    )


@dataclass
class Layers:
    """The states kept by :func:`search`, in breadth-first order (the sources first).

    Attributes
    ----------
    packing : Packing
        How keys map to positions.
    keys : numpy.ndarray of int64, shape (states, words)
        The keys.
    parent : numpy.ndarray of int32, shape (states,)
        Index of the state each was first reached from (-1 for a source).
    piece, delta : numpy.ndarray of int16 and int8, shape (states,)
        The move that first reached each state (piece index and signed distance).
    starts : list of int
        ``starts[d]`` is the index of the first state at depth ``d``; the last entry is the
        number of states.
    goal : int
        Index of the first goal state kept, -1 if none.
    exhausted : bool
        True when the search ran out of states to expand (neither a goal nor a limit stopped
        it).
    pruned : int
        New states left out because depth + estimate exceeded the bound.
    least_pruned : int
        The least depth + estimate among them (``INFINITE`` when none).
    stopped : Status or None
        ``LIMIT`` (time, nodes or memory) or ``CANCELLED`` when a limit stopped the search.
    full : bool
        True when ``max_states`` stopped it.
    """

    packing: Packing
    keys: Int64s
    parent: npt.NDArray[np.int32]
    piece: npt.NDArray[np.int16]
    delta: npt.NDArray[np.int8]
    starts: list[int]
    goal: int
    exhausted: bool
    pruned: int
    least_pruned: int
    stopped: Status | None
    full: bool = False

    @property
    def size(self) -> int:
        """Number of states kept."""
        return self.starts[-1]

    def plan(self, index: int) -> list[Move]:
        """The moves from a source to state ``index`` along the search tree."""
        names = [p.name for p in self.packing.board.pieces]
        moves = []
        while self.parent[index] >= 0:
            moves.append(Move(names[self.piece[index]], int(self.delta[index])))
            index = int(self.parent[index])
        return moves[::-1]

    def depth(self, index: int) -> int:
        """Depth of state ``index`` (its layer)."""
        return int(np.searchsorted(self.starts, index, side="right")) - 1


def _capacity(count: int) -> int:
    """The smallest power of two of at least ``count`` (and 4096)."""
    return max(4096, 1 << (count - 1).bit_length())


@dataclass
class _Arrays:
    """The growing arrays of one search."""

    keys: Int64s
    parent: npt.NDArray[np.int32]
    piece: npt.NDArray[np.int16]
    delta: npt.NDArray[np.int8]
    table: Int64s

    @classmethod
    def empty(cls, capacity: int, words: int) -> _Arrays:
        return cls(
            np.zeros((capacity, words), dtype=np.int64),
            np.full(capacity, -1, dtype=np.int32),
            np.zeros(capacity, dtype=np.int16),
            np.zeros(capacity, dtype=np.int8),
            _table(capacity, words),
        )

    def grow(self, capacity: int, count: int) -> None:
        """Room for ``capacity`` states (the first ``count`` kept), the table rebuilt twice
        that size; each old array is let go before the next new one is made."""
        keys = np.zeros((capacity, self.keys.shape[1]), dtype=np.int64)
        keys[:count] = self.keys[:count]
        self.keys = keys
        self.parent = np.resize(self.parent, capacity)
        self.piece = np.resize(self.piece, capacity)
        self.delta = np.resize(self.delta, capacity)
        self.rehash(count)

    def rehash(self, count: int) -> None:
        """The table rebuilt, of the same size, from the first ``count`` states (forgetting the
        keys a beam search left out)."""
        from ._kernels import packed_rehash

        capacity, words = self.keys.shape
        del self.table
        self.table = packed_rehash(_table(capacity, words), self.keys, count)


def _table(capacity: int, words: int) -> Int64s:
    """An empty hash table for ``capacity`` states: ``2 * capacity`` rows of -1."""
    return np.full((2 * capacity, words), -1, dtype=np.int64)


def _narrow(
    arrays: _Arrays,
    packing: Packing,
    first: int,
    count: int,
    width: int,
    steps: bool,
    budget: Budget,
) -> int | None:
    """Keep, of the states ``first..count-1``, the ``width`` of least :data:`BEAM_SCORE`, moved
    to the front in that order; return the new count, or ``None`` when ``budget`` ran out while
    the scores were computed (in chunks of :class:`cspsolve.pacing.Pace`, between which it is
    asked)."""
    pace = Pace(budget, counted=False)
    scores = np.empty(count - first, dtype=np.int64)
    done = 0
    while done < len(scores):
        part = slice(first + done, min(count, first + done + pace.chunk()))
        scores[done : done + part.stop - part.start] = _estimates(
            packing, arrays.keys[part], BEAM_SCORE, steps
        )
        pace.measured(part.stop - part.start)
        done += part.stop - part.start
        if budget.exhausted() is not None:
            return None
    keep = np.argsort(scores, kind="stable")[:width]
    layer = slice(first, count)
    for column in (arrays.keys, arrays.parent, arrays.piece, arrays.delta):
        column[first : first + width] = column[layer][keep]
    return first + width


def search(
    packing: Packing,
    sources: Int64s,
    *,
    budget: Budget,
    level: int = 0,
    bound: int = INFINITE,
    steps: bool = False,
    stop_at_goal: bool = True,
    max_states: int | None = None,
    width: int | None = None,
) -> Layers:
    """Breadth-first search from ``sources``, keeping states within ``bound`` (module text).

    Parameters
    ----------
    packing : Packing
        The board's packing.
    sources : numpy.ndarray of int64, shape (states, words)
        Keys of the states at depth 0 (distinct).
    budget : Budget
        The run's time, node and cancellation account; its stats count ``expanded`` and
        ``generated`` and are updated after every chunk.
    level : int
        The estimate: 0 none, 1 ``blocking``, 2 ``blockers`` (see :data:`LEVELS`).
    bound : int
        States whose depth plus estimate exceeds it are not kept (their descendants are not
        searched); sources are always kept.
    steps : bool
        Edges are one-cell slides instead of slides of any distance.
    stop_at_goal : bool
        Stop at the first goal state kept; otherwise run until nothing is left to expand.
    max_states : int, optional
        Stop with ``LIMIT`` rather than grow the arrays past room for this many states (the
        memory budget; room doubles, from a power of two); at most ``2**31 - 1`` in any case
        (state indices are int32).
    width : int, optional
        Beam search: of each new layer keep only the ``width`` states of least
        :data:`BEAM_SCORE` (the earlier found first among equals); the others stay in the hash
        table, so they are not kept again until the table, full, is rebuilt from the kept
        states. The first goal is then not optimal in general, and a search that runs out of
        states proves nothing.

    Returns
    -------
    Layers
        The states kept, the first goal, and why the search ended.
    """
    from ._kernels import packed_layer, packed_rehash

    layout = packing.layout()
    goal_offset = packing.board.goal_offset
    max_states = min(max_states or _MOST_STATES, _MOST_STATES)
    most = len(packing.board.pieces) * packing.board.size
    arrays = _Arrays.empty(_capacity(2 * (len(sources) + most)), packing.words)
    arrays.keys[: len(sources)] = sources
    packed_rehash(arrays.table, arrays.keys, len(sources))
    goals = np.flatnonzero(packing.red_offsets(sources) == goal_offset)
    goal = int(goals[0]) if len(goals) else -1
    counters = np.array([len(sources), 0, 0, 0, INFINITE, len(sources)], dtype=np.int64)
    starts = [0, len(sources)]
    stopped: Status | None = None
    full = False
    stats = budget.stats
    expanded, generated = stats.expanded, stats.generated
    pace = Pace(budget)
    while not (goal >= 0 and stop_at_goal) and stopped is None:
        end = starts[-1]
        while counters[1] < end and stopped is None and not (goal >= 0 and stop_at_goal):
            if counters[0] + most > len(arrays.keys):
                wanted = 2 * len(arrays.keys)
                if wanted > max_states:
                    stopped, full = Status.LIMIT, True
                    break
                arrays.grow(wanted, int(counters[0]))
                counters[5] = counters[0]
            elif counters[5] + most > len(arrays.table) // 2:
                arrays.rehash(int(counters[0]))
                counters[5] = counters[0]
            head = int(counters[1])
            found = packed_layer(
                arrays.table,
                arrays.keys,
                arrays.parent,
                arrays.piece,
                arrays.delta,
                counters,
                end,
                pace.chunk(),
                len(starts) - 2,
                bound,
                level,
                stop_at_goal,
                steps,
                *layout,
            )
            if found >= 0 and goal < 0:
                goal = int(found)
            pace.measured(int(counters[1]) - head)
            stats.expanded = expanded + int(counters[1])
            stats.generated = generated + int(counters[2])
            stopped = budget.exhausted()
        if stopped is not None or (goal >= 0 and stop_at_goal):
            break
        if counters[0] == end:
            break
        starts.append(int(counters[0]))
        if width is not None and starts[-1] - end > width:
            narrowed = _narrow(arrays, packing, end, starts[-1], width, steps, budget)
            if narrowed is None:
                stopped = budget.exhausted() or Status.LIMIT
                break
            starts[-1] = narrowed
            counters[0] = narrowed
        stats.max_frontier = max(stats.max_frontier, starts[-1] - starts[-2])
    count = int(counters[0])
    if starts[-1] != count:
        starts.append(count)
    return Layers(
        packing,
        arrays.keys[:count],
        arrays.parent[:count],
        arrays.piece[:count],
        arrays.delta[:count],
        starts,
        goal,
        stopped is None and not (goal >= 0 and stop_at_goal),
        int(counters[3]),
        int(counters[4]),
        stopped,
        full,
    )
