"""The compact state of a Rush Hour board and a breadth-first search over its whole cluster.

A state is one integer: the offset of every piece along its axis, written in a mixed radix.
Pieces of the same orientation in the same row (or column) and wall-free segment can never pass
each other, so piece i only ever takes offsets ``low[i] .. low[i] + radix[i] - 1``, where
``low[i]`` adds up the lengths of the pieces before it in its segment; this keeps the key small
enough for 64 bits on every 6x6 board and on the larger course boards.

The "cluster" of a board is the set of states reachable from it (every move can be undone, so
it is the board's connected component of the state graph), the notion of Michael Fogleman's
database, https://www.michaelfogleman.com/rush/ ("cluster size"). :func:`explore` searches it
breadth first (Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., §3.4.1)
with a hand-written open-addressing hash table and move generation over an occupancy array;
the loops are compiled by numba (``cache=True``) and run in chunks (sized by
:class:`cspsolve.pacing.Pace`) between which the time and node limits are checked.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.pacing import Pace
from cspsolve.results import Stats, Status

from .board import Board, Move
from .pacing import Growth

__all__ = [
    "MEMORY",
    "Cluster",
    "Encoding",
    "explore",
    "goal_distances",
    "offset_ranges",
    "piece_axes",
    "wall_cells",
]

Int64s = npt.NDArray[np.int64]

MEMORY = 4 << 30
"""Bytes the arrays of :func:`explore` may grow to (4 GiB) before it stops with ``LIMIT``."""
_MAX_KEY = 1 << 62
"""The mixed-radix keys must stay below this (signed 64-bit arithmetic in compiled code)."""


@dataclass(frozen=True)
class Encoding:
    """The mixed-radix state key of a board's pieces.

    Attributes
    ----------
    board : Board
        The start position (its pieces give the order of the digits).
    horizontal, line, length : numpy.ndarray of int64, shape (pieces,)
        Each piece's axis (1 horizontal), fixed row (horizontal) or column (vertical), length.
    low, radix, weight : numpy.ndarray of int64, shape (pieces,)
        Smallest reachable offset, number of possible offsets, and the digit's place value.
    walls : numpy.ndarray of int64, shape (size * size,)
        1 where a cell is a wall.
    fits : bool
        False when the key would not fit in 62 bits (the compiled search cannot run).
    """

    board: Board
    horizontal: Int64s
    line: Int64s
    length: Int64s
    low: Int64s
    radix: Int64s
    weight: Int64s
    walls: Int64s
    fits: bool

    @classmethod
    def of(cls, board: Board) -> Encoding:
        """The encoding of ``board``'s pieces (see the module text for the offset ranges)."""
        low, high = offset_ranges(board)
        radix = [h - lo + 1 for lo, h in zip(low, high, strict=True)]
        weight, total = [], 1
        for r in radix:
            weight.append(min(total, _MAX_KEY))
            total *= r
        return cls(
            board,
            *piece_axes(board),
            np.array(low, dtype=np.int64),
            np.array(radix, dtype=np.int64),
            np.array(weight, dtype=np.int64),
            wall_cells(board, 1),
            total < _MAX_KEY,
        )

    def key(self, offsets: tuple[int, ...]) -> int:
        """The key of the state with these piece offsets."""
        return sum(
            (o - int(lo)) * int(w) for o, lo, w in zip(offsets, self.low, self.weight, strict=True)
        )

    def offsets(self, key: int) -> tuple[int, ...]:
        """The piece offsets of a key (inverse of :meth:`key`)."""
        return tuple(
            int(lo) + (key // int(w)) % int(r)
            for lo, w, r in zip(self.low, self.weight, self.radix, strict=True)
        )

    def board_of(self, key: int) -> Board:
        """The position a key stands for."""
        return self.board.with_offsets(self.offsets(key))

    def layout(self) -> tuple[Any, ...]:
        """The arrays the compiled kernels take, in their order."""
        red = self.board.red_index
        return (
            self.board.size,
            self.horizontal,
            self.line,
            self.length,
            self.low,
            self.radix,
            self.weight,
            self.walls,
            red,
            self.board.goal_offset,
        )


def piece_axes(board: Board) -> tuple[Int64s, Int64s, Int64s]:
    """Each piece's axis (1 horizontal), fixed row (horizontal) or column, and length; shape
    (pieces,) each."""
    pieces = board.pieces
    return (
        np.array([int(p.horizontal) for p in pieces], dtype=np.int64),
        np.array([p.row if p.horizontal else p.col for p in pieces], dtype=np.int64),
        np.array([p.length for p in pieces], dtype=np.int64),
    )


def wall_cells(board: Board, mark: int) -> Int64s:
    """The cells row by row, shape (size * size,): ``mark`` on a wall, else 0."""
    n = board.size
    walls = np.zeros(n * n, dtype=np.int64)
    for r, c in board.walls:
        walls[r * n + c] = mark
    return walls


def offset_ranges(board: Board) -> tuple[list[int], list[int]]:
    """Smallest and largest offset each piece can ever reach (walls and same-line pieces)."""
    n = board.size
    low = [0] * len(board.pieces)
    high = [0] * len(board.pieces)
    lines: dict[tuple[bool, int], list[int]] = {}
    for i, p in enumerate(board.pieces):
        lines.setdefault((p.horizontal, p.row if p.horizontal else p.col), []).append(i)
    for (horizontal, fixed), members in lines.items():
        blocked = sorted(
            c if horizontal else r for r, c in board.walls if (r if horizontal else c) == fixed
        )
        bounds = [-1, *blocked, n]
        for start, stop in itertools.pairwise(bounds):
            inside = sorted(
                (i for i in members if start < board.pieces[i].offset < stop),
                key=lambda i: board.pieces[i].offset,
            )
            before = start + 1
            after = stop - sum(board.pieces[i].length for i in inside)
            for i in inside:
                length = board.pieces[i].length
                low[i] = before
                high[i] = after
                before += length
                after += length
    return low, high


@dataclass
class Cluster:
    """The states found by :func:`explore`, in breadth-first order (state 0 is the start).

    Attributes
    ----------
    encoding : Encoding
        How keys map to positions.
    keys : numpy.ndarray of int64, shape (states,)
        The state keys.
    offsets : numpy.ndarray of int8, shape (states, pieces)
        The piece offsets of each state (the keys decoded).
    parent : numpy.ndarray of int64
        Index of the state each was first reached from (-1 for the start).
    piece, delta : numpy.ndarray of int64
        The move that first reached each state (piece index and signed distance).
    depth : numpy.ndarray of int64
        Distance from the start under the search's metric.
    degree : numpy.ndarray of int64
        Moves available in each expanded state (0 for states not expanded).
    goal : int
        Index of the first goal state found, -1 if none.
    complete : bool
        True when every reachable state was expanded (``keys`` is the whole cluster).
    full : bool
        True when the memory budget stopped the search.
    table_keys, table_ids : numpy.ndarray of int64
        The hash table from key to state index.
    """

    encoding: Encoding
    keys: Int64s
    offsets: npt.NDArray[np.int8]
    parent: Int64s
    piece: Int64s
    delta: Int64s
    depth: Int64s
    degree: Int64s
    goal: int
    complete: bool
    full: bool
    table_keys: Int64s
    table_ids: Int64s

    @property
    def size(self) -> int:
        """Number of states found."""
        return len(self.keys)

    def plan(self, index: int) -> list[Move]:
        """The moves from the start to state ``index`` along the search tree."""
        names = [p.name for p in self.encoding.board.pieces]
        moves = []
        while self.parent[index] >= 0:
            moves.append(Move(names[self.piece[index]], int(self.delta[index])))
            index = int(self.parent[index])
        return moves[::-1]

    def goal_mask(self) -> npt.NDArray[np.bool_]:
        """True for the goal states (red car at the exit) among :attr:`keys`."""
        enc = self.encoding
        red = enc.board.red_index
        offsets = enc.low[red] + (self.keys // enc.weight[red]) % enc.radix[red]
        return np.asarray(offsets == enc.board.goal_offset)


def _kernels() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """The compiled search, rehash and goal-distance kernels (numba is imported here)."""
    from ._kernels import bfs_chunk, rehash
    from ._kernels import goal_distances as distances

    return bfs_chunk, rehash, distances


def explore(
    board: Board,
    *,
    steps: bool = False,
    stop_at_goal: bool = True,
    limits: Limits | None = None,
    memory: int = MEMORY,
) -> tuple[Cluster | None, Stats, Status | None]:
    """Breadth-first search from ``board`` over compact states.

    Parameters
    ----------
    board : Board
        The start position.
    steps : bool
        Edges are one-cell slides (the ``steps`` metric) instead of slides of any distance.
    stop_at_goal : bool
        Stop when the first goal state is generated (its depth is then optimal); otherwise
        expand the whole cluster.
    limits : Limits, optional
        Time and node limits, checked between chunks of about
        :data:`cspsolve.pacing.TARGET` seconds.
    memory : int
        Bytes the state arrays and the hash table may take (``80 + pieces`` bytes a state of
        their capacity, which doubles): the search stops with ``LIMIT`` rather than grow past.

    Returns
    -------
    tuple of (Cluster or None, Stats, Status or None)
        The states found (``None`` when the key does not fit in 62 bits), the counters, and
        ``LIMIT``/``CANCELLED`` when a limit or the memory stopped the search (else ``None``).
        The search also stops with ``LIMIT`` rather than start doubling its arrays when that
        is predicted to outlast the time left (:class:`.pacing.Growth`).
    """
    bfs_chunk, rehash, _ = _kernels()
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    enc = Encoding.of(board)
    if not enc.fits:
        return None, budget.finish(), None
    capacity = 1 << 12
    table_keys = np.full(capacity * 2, -1, dtype=np.int64)
    table_ids = np.zeros(capacity * 2, dtype=np.int64)
    arrays = [np.zeros(capacity, dtype=np.int64) for _ in range(6)]
    keys, parent, piece, delta, depth, degree = arrays
    start = tuple(p.offset for p in board.pieces)
    keys[0] = enc.key(start)
    offsets = np.zeros((capacity, len(start)), dtype=np.int8)
    offsets[0] = start
    parent[0] = -1
    counters = np.zeros(4, dtype=np.int64)  # count, head, generated, max frontier
    counters[0] = 1
    table_keys, table_ids = rehash(table_keys, table_ids, keys, 1)
    goal = 0 if board.is_solved() else -1
    stopped: Status | None = None
    full = False
    most = len(board.pieces) * board.size
    pace, growth = Pace(budget), Growth(budget)
    while goal < 0 or not stop_at_goal:
        grow = counters[0] + most > len(keys)
        rebuild = 2 * (counters[0] + most) > len(table_keys)
        full = grow and 2 * len(keys) * (80 + len(start)) > memory
        if full or ((grow or rebuild) and not growth.affordable(2 * len(keys))):
            stopped = Status.LIMIT
            break
        if grow:
            with growth.timed():
                arrays = [np.resize(a, 2 * len(keys)) for a in arrays]
                keys, parent, piece, delta, depth, degree = arrays
                offsets = np.concatenate([offsets, np.zeros_like(offsets)])
        if rebuild:
            with growth.timed():
                table_keys = np.full(2 * len(table_keys), -1, dtype=np.int64)
                table_ids = np.zeros(len(table_keys), dtype=np.int64)
                table_keys, table_ids = rehash(table_keys, table_ids, keys, int(counters[0]))
        head = int(counters[1])
        found = bfs_chunk(
            table_keys,
            table_ids,
            keys,
            offsets,
            *arrays[1:],
            counters,
            pace.chunk(),
            stop_at_goal,
            steps,
            *enc.layout(),
        )
        pace.measured(int(counters[1]) - head)
        stats.expanded = int(counters[1])
        stats.generated = int(counters[2])
        stats.max_frontier = int(counters[3])
        if found >= 0 and goal < 0:
            goal = int(found)
        if counters[1] == counters[0]:
            break
        stopped = budget.exhausted()
        if stopped is not None:
            break
    count = int(counters[0])
    cluster = Cluster(  # views of the arrays (a copy would double the memory at the end)
        enc,
        keys[:count],
        offsets[:count],
        parent[:count],
        piece[:count],
        delta[:count],
        depth[:count],
        degree[:count],
        goal,
        bool(counters[1] == counters[0]),
        full,
        table_keys,
        table_ids,
    )
    if goal >= 0:
        stats.depth = int(cluster.depth[goal])
        stats.cost = int(cluster.depth[goal])
    return cluster, budget.finish(), stopped


@overload
def goal_distances(cluster: Cluster, *, steps: bool = ..., budget: None = ...) -> Int64s: ...


@overload
def goal_distances(cluster: Cluster, *, steps: bool = ..., budget: Budget) -> Int64s | None: ...


def goal_distances(
    cluster: Cluster, *, steps: bool = False, budget: Budget | None = None
) -> Int64s | None:
    """Distance from every state of a complete cluster to its nearest goal state.

    A breadth-first search started from all goal states at once (multi-source BFS); states
    that cannot reach a goal get -1. It runs in chunks (:class:`cspsolve.pacing.Pace`) between which
    ``budget``, when given, is asked; ``None`` when it ran out first.

    Raises
    ------
    OptionError
        If the cluster is not complete.
    """
    if not cluster.complete:
        raise OptionError("the cluster was not fully explored")
    _, _, kernel = _kernels()
    goals = np.flatnonzero(cluster.goal_mask()).astype(np.int64)
    dist = np.full(cluster.size, -1, dtype=np.int64)
    queue = np.zeros(cluster.size, dtype=np.int64)
    dist[goals] = 0
    queue[: len(goals)] = goals
    ends = np.array([0, len(goals)], dtype=np.int64)
    pace = None if budget is None else Pace(budget, counted=False)
    while ends[0] < ends[1]:
        head = int(ends[0])
        chunk = cluster.size if pace is None else pace.chunk()
        kernel(
            cluster.table_keys,
            cluster.table_ids,
            cluster.keys,
            cluster.offsets,
            dist,
            queue,
            ends,
            chunk,
            steps,
            *cluster.encoding.layout(),
        )
        if pace is not None and budget is not None:
            pace.measured(int(ends[0]) - head)
            if budget.exhausted() is not None:
                return None
    return dist
