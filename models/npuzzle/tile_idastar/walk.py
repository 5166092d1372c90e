"""The compiled IDA*'s search state (:class:`Walk`): a board, its heuristic parts, the stack
of moves and the counters in numpy arrays that :func:`._kernels.ida_iteration` changes in
place, so that an iteration can be paused, sent to another process and resumed there.

Shared by the one-core search (:mod:`.serial`) and the split one (:mod:`.split`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..move_pruning import automaton, directions
from ..pdb import PatternDatabases, adjacency

__all__ = ["DONE", "FOUND", "PAUSED", "Walk"]

_NO_BOUND = np.iinfo(np.int64).max
"""The counters' "no f cut off yet"."""

FOUND, DONE, PAUSED = 1, 0, -1
"""What :meth:`Walk.run` returns: the goal found, the (sub)tree searched, the budget spent."""


_STATE = ("tiles", "where", "rwhere", "parts", "rparts", "totals", "stack", "depth", "counters")
"""The arrays of a :class:`Walk` that a paused walk resumes from."""


class Walk:
    """The compiled IDA*'s search state below one node: the board and its heuristic parts,
    the stack of moves (the path to the node first) and the counters, in numpy arrays that
    :func:`._kernels.ida_iteration` changes in place.

    Parameters
    ----------
    dbs : PatternDatabases
    cols : int
        Columns of the board.
    tiles : sequence of int
        The node's board.
    path : sequence of int
        The blank's cells from the start to the node (the node's depth is ``len(path) - 1``;
        the move back to the previous cell is never tried). The duplicate-move automaton
        (:func:`..move_pruning.automaton`) starts at the node, in its state 0.
    g_weight, h_weight : int
        ``f = g_weight * g + h_weight * h`` (weighted IDA* when ``h_weight > g_weight``).
    """

    def __init__(
        self,
        dbs: PatternDatabases,
        cols: int,
        tiles: Sequence[int],
        path: Sequence[int],
        g_weight: int = 1,
        h_weight: int = 1,
    ) -> None:
        from .._kernels import pdb_value

        self.dbs, self.cols = dbs, cols
        self.g_weight, self.h_weight = g_weight, h_weight
        self.floor = len(path) - 1
        self.tiles = np.array(tiles, np.int64)
        self.where, self.rwhere = dbs.where(tiles)
        lookup = (dbs.members, dbs.sizes, dbs.offsets, dbs.table, dbs.cells)
        self.parts = np.empty(len(dbs.sizes), np.int64)
        self.rparts = np.empty(len(dbs.sizes), np.int64)
        self.totals = np.array(
            [
                pdb_value(self.where, *lookup, self.parts),
                pdb_value(self.rwhere, *lookup, self.rparts),
            ]
        )
        self.stack = np.zeros((max(256, 2 * len(path)), 5), np.int64)
        self.stack[: self.floor + 1, 1] = path
        self.depth = np.array([self.floor], np.int64)
        self.counters = np.array([0, 0, _NO_BOUND], np.int64)
        rows = len(tiles) // cols
        self.adjacent = adjacency(rows, cols)
        self.direction = directions(rows, cols, self.adjacent)
        self.pruning = automaton()

    @property
    def h(self) -> int:
        """The heuristic value of the node the walk stands on."""
        return int(max(self.totals) if self.dbs.reflect else self.totals[0])

    @property
    def generated(self) -> int:
        """Nodes generated so far."""
        return int(self.counters[0])

    @property
    def expanded(self) -> int:
        """Nodes expanded so far (the root of the walk not counted)."""
        return int(self.counters[1])

    @property
    def next_bound(self) -> int | None:
        """The least f above the bound met so far (the next iteration's bound), or None."""
        value = int(self.counters[2])
        return None if value == _NO_BOUND else value

    @property
    def deepest(self) -> int:
        """The depth the walk stands at."""
        return int(self.depth[0])

    def fit(self, bound: int) -> None:
        """Make the stack deep enough for paths of cost up to ``bound``."""
        while bound // self.g_weight + 2 > len(self.stack):
            self.stack = np.vstack([self.stack, np.zeros_like(self.stack)])

    def run(self, bound: int, chunk: int) -> int:
        """Search (or go on searching) below the walk's root with cost bound ``bound`` for up
        to ``chunk`` nodes: :data:`FOUND`, :data:`DONE` or :data:`PAUSED`."""
        from .._kernels import ida_iteration

        dbs = self.dbs
        return int(
            ida_iteration(
                self.tiles,
                self.where,
                self.rwhere,
                self.parts,
                self.rparts,
                self.totals,
                self.stack,
                self.depth,
                bound,
                self.adjacent,
                self.direction,
                self.pruning,
                dbs.members,
                dbs.pattern_of,
                dbs.sizes,
                dbs.offsets,
                dbs.table,
                dbs.rcell,
                dbs.rtile,
                dbs.reflect,
                self.g_weight,
                self.h_weight,
                chunk,
                self.counters,
                self.floor,
            )
        )

    def path(self) -> list[int]:
        """The blank's cells from the start to where the walk stands (the goal after
        :data:`FOUND`)."""
        return [int(c) for c in self.stack[: self.deepest + 1, 1]]

    def restart(self) -> int:
        """Prepare the next iteration from the walk's root; return its bound (the least f
        cut off by the one just done)."""
        bound = int(self.counters[2])
        self.counters[2] = _NO_BOUND
        self.stack[self.floor, 0] = 0
        return bound

    def state(self) -> tuple[np.ndarray, ...]:
        """The arrays that a paused walk resumes from (:meth:`resume`), without the
        databases: what a task sends back."""
        return tuple(getattr(self, name) for name in _STATE)

    def resume(self, state: tuple[np.ndarray, ...]) -> None:
        """Stand where the walk that gave ``state`` (:meth:`state`) paused."""
        for name, array in zip(_STATE, state, strict=True):
            setattr(self, name, array)
