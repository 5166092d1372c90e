"""IDA* specialised for sliding tiles, compiled with numba: the ``tile-idastar`` method.

The same algorithm as :func:`cspsolve.search.idastar` (Korf, "Depth-first iterative-deepening:
an optimal admissible tree search", Artificial Intelligence 27 (1985) 97-109) on a board held
in arrays and changed in place, with the heuristic updated incrementally: a move changes one
tile, so only that tile's pattern is looked up again (and the reflected board's). The blank
never moves straight back (parent pruning); moves are tried in the order U, L, R, D.
The heuristic is additive pattern databases (:mod:`.pdb`) or, with one pattern per tile, the
Manhattan distance. Both are admissible and consistent, so the first plan found is optimal.

With a weight ``w > 1`` it is weighted IDA* (the cost bound is on ``f = g + w h``; Korf,
"Linear-space best-first search", Artificial Intelligence 62 (1993) 41-78, §2, and Pohl's
weighting, "Heuristic search viewed as path finding in a graph", Artificial Intelligence 1
(1970)): every node of an optimal path has ``f <= w C*``, so no threshold passes ``w C*`` before
a goal is found, and the plan costs at most ``w`` times the optimum. The result is then
``SOLVED`` with that bound in ``proof``.

With ``limits.workers > 1`` or a ``limits.scheduler``, each iteration is split into subtrees
searched by worker processes (:mod:`.splitida`), from :class:`Walk` states like this one's.

The search runs in chunks of nodes so that time and node limits, cancellation and progress
reports are honoured between chunks (sized by :class:`cspsolve.pacing.Pace` to some 20 ms each,
however busy the cores). The time limit and cancellation also cover building or reading the
pattern databases (:class:`.pdb.BuildStoppedError`).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.pacing import Pace
from cspsolve.results import Result, Stats, Status
from cspsolve.search import Tally

from . import pdb
from .board import MOVES, Puzzle, solvability
from .pdb import BuildStoppedError, PatternDatabases, adjacency

__all__ = ["DONE", "FOUND", "HEURISTICS", "PAUSED", "Walk", "solve"]

HEURISTICS = ("manhattan", "pdb")
"""Heuristics this solver computes incrementally."""

_NO_BOUND = np.iinfo(np.int64).max


def _moves(cells: list[int], cols: int) -> list[str]:
    """Blank cells along the path → move names (from the row and column steps: on a board of
    one column a step of one cell is a move down, not right)."""
    names = {step: name for name, step in MOVES.items()}
    return [names[b // cols - a // cols, b % cols - a % cols] for a, b in itertools.pairwise(cells)]


def solve(
    puzzle: Puzzle,
    heuristic: str = "pdb",
    *,
    limits: Limits | None = None,
    partition: str | None = None,
    weight: Fraction | float = 1,
    tally: Tally | None = None,
    subtrees: dict[int, list[int]] | None = None,
) -> Result[list[str]]:
    """Solve a solvable puzzle with the compiled IDA*: optimally, or within ``weight`` times
    the optimum.

    Parameters
    ----------
    puzzle : Puzzle
        Any board; an unsolvable one is reported by :func:`.board.solvability` without a
        search (IDA* alone would never stop on it).
    heuristic : {"pdb", "manhattan"}
    limits : Limits, optional
    partition : str, optional
        A name of :data:`.pdb.PARTITIONS` that fits the board (:func:`.pdb.partition`).
    weight : Fraction or float
        ``w >= 1``, a float read as the decimal it prints as; above 1, weighted IDA* on
        ``f = g + w h`` (in integers: the denominator of ``w`` must be at most 10^6).
    tally : dict, optional
        Filled with the nodes expanded per f-limit (in ``g_weight * f`` units, the f-limit
        itself when ``weight`` is 1), as the engine's :func:`cspsolve.search.idastar` does:
        what a proof of optimality rests on. Its counts add up to ``stats.expanded``.
    subtrees : dict, optional
        With the search split over workers (``limits.workers > 1`` or ``limits.scheduler``,
        :mod:`.splitida`): filled with the nodes expanded in each subtree per f-limit.

    Returns
    -------
    Result
        ``OPTIMAL`` with the moves (``SOLVED`` when ``weight > 1``, with ``proof``
        ``{"suboptimality_bound": w, "lower_bound": L}``: the plan costs at most ``w`` times
        the optimum, and the optimum is at least ``L = max(h0, ceil(cost / w))``),
        ``UNSOLVABLE`` (with the reason as ``message``), or
        ``LIMIT`` / ``CANCELLED`` (with a ``message`` when the limit came while the pattern
        databases were being built). ``stats.extra`` holds ``iterations``, ``initial_h`` and
        ``database_seconds`` (getting the databases: built, read from the cache or reused);
        split over workers, also ``split_depth`` and ``subtrees`` (when the plan is not found
        above the split).

    Raises
    ------
    OptionError
        For another heuristic, a partition that does not fit, or a weight below 1 or with a
        larger denominator.
    """
    if heuristic not in HEURISTICS:
        raise OptionError(f"tile-idastar computes {', '.join(HEURISTICS)}, not {heuristic!r}")
    w = Fraction(repr(weight)) if isinstance(weight, float) else Fraction(weight)
    if w < 1 or w.denominator > 10**6:
        raise OptionError(f"the weight must be >= 1 with a denominator <= 10^6, not {weight}")
    solvable, why = solvability(puzzle)
    if not solvable:
        return Result(Status.UNSOLVABLE, None, Stats(), "tile-idastar", heuristic, message=why)
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    chosen = None if heuristic == "manhattan" else pdb.partition(puzzle, partition)
    started = time.perf_counter()
    try:
        dbs = PatternDatabases.for_puzzle(
            puzzle, chosen=chosen, manhattan=heuristic == "manhattan", stop=budget.exhausted
        )
    except BuildStoppedError as halt:
        finished = budget.finish()
        return Result(halt.status, None, finished, "tile-idastar", heuristic, message=str(halt))
    stats.extra["database_seconds"] = time.perf_counter() - started
    g_weight, h_weight = w.denominator, w.numerator
    walk = Walk(dbs, puzzle.cols, puzzle.start, [puzzle.start.index(0)], g_weight, h_weight)
    h0 = walk.h
    stats.extra["initial_h"] = h0
    status = Status.OPTIMAL if w == 1 else Status.SOLVED
    result: Result[list[str]] = Result(status, [], stats, "tile-idastar", heuristic)
    if puzzle.start == puzzle.goal:
        budget.finish()
        return _bounded(result, w, h0)
    limits = budget.limits
    if limits.workers > 1 or limits.scheduler is not None:
        from . import splitida

        manhattan = heuristic == "manhattan"
        found = splitida.search(puzzle, dbs, manhattan, walk, budget, tally, subtrees)
    else:
        found = _serial(walk, budget, tally)
    if isinstance(found, Status):
        return Result(found, None, budget.finish(), "tile-idastar", heuristic)
    result.solution = _moves(found, puzzle.cols)
    stats.depth, stats.cost = len(found) - 1, float(len(found) - 1)
    budget.finish()
    return _bounded(result, w, h0)


def _serial(walk: Walk, budget: Budget, tally: Tally | None) -> list[int] | Status:
    """IDA* on one core from ``walk``'s root: the blank cells of the plan found, or the status
    the limits stopped it with; ``budget.stats`` counts the nodes."""
    stats = budget.stats
    bound = walk.h_weight * walk.h
    walk.fit(bound)
    iterations = 1
    pace = Pace(budget, first=1 << 12, largest=1 << 22)
    started_at = 0  # expansions before the current iteration
    while True:
        code = walk.run(bound, pace.chunk())
        pace.measured(walk.expanded + iterations - stats.expanded)
        stats.generated = walk.generated
        stats.expanded = walk.expanded + iterations
        stats.max_frontier = max(stats.max_frontier, walk.deepest)
        stats.extra["iterations"] = iterations
        if tally is not None:
            tally[float(bound)] = stats.expanded - started_at
        if code == FOUND:
            return walk.path()
        stopped = budget.exhausted()
        if stopped is not None:
            return stopped
        if code == DONE:
            bound = walk.restart()
            iterations += 1
            started_at = stats.expanded
            walk.fit(bound)


FOUND, DONE, PAUSED = 1, 0, -1
"""What :meth:`Walk.run` returns: the goal found, the (sub)tree searched, the budget spent."""


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
        the move back to the previous cell is never tried).
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
        from ._kernels import pdb_value

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
        self.stack = np.zeros((max(256, 2 * len(path)), 4), np.int64)
        self.stack[: self.floor + 1, 1] = path
        self.depth = np.array([self.floor], np.int64)
        self.counters = np.array([0, 0, _NO_BOUND], np.int64)
        self.adjacent = adjacency(len(tiles) // cols, cols)

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
        from ._kernels import ida_iteration

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
        return (
            self.tiles,
            self.where,
            self.rwhere,
            self.parts,
            self.rparts,
            self.totals,
            self.stack,
            self.depth,
            self.counters,
        )

    def resume(self, state: tuple[np.ndarray, ...]) -> None:
        """Stand where the walk that gave ``state`` (:meth:`state`) paused."""
        (
            self.tiles,
            self.where,
            self.rwhere,
            self.parts,
            self.rparts,
            self.totals,
            self.stack,
            self.depth,
            self.counters,
        ) = state


def _bounded(result: Result[list[str]], weight: Fraction, h0: int) -> Result[list[str]]:
    """``result`` of a weighted search with its bound in ``proof`` (unchanged when ``w = 1``)."""
    if weight != 1:
        cost = int(result.stats.cost)
        result.proof["suboptimality_bound"] = float(weight)
        result.proof["lower_bound"] = max(h0, math.ceil(cost / weight))
    return result
