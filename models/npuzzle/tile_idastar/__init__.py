"""IDA* specialised for sliding tiles, compiled with numba: the ``tile-idastar`` method.

Its parts: the search state (:mod:`.walk`), the search on one core (:mod:`.serial`) and the
search split over processes (:mod:`.split`); this front sets up the heuristic and picks.

The same algorithm as :func:`cspsolve.search.idastar` (Korf, "Depth-first iterative-deepening:
an optimal admissible tree search", Artificial Intelligence 27 (1985) 97-109) on a board held
in arrays and changed in place, with the heuristic updated incrementally: a move changes one
tile, so only that tile's pattern is looked up again (and the reflected board's). The blank
never moves straight back (parent pruning), nor completes a duplicate move sequence of up to
:data:`.move_pruning.DEPTH` moves (Taylor & Korf's finite-state machine,
:mod:`.move_pruning`: a shortest plan to every board is kept); moves are tried in the order
U, L, R, D.
The heuristic is additive pattern databases (:mod:`.pdb`) or, with one pattern per tile, the
Manhattan distance. Both are admissible and consistent, so the first plan found is optimal.

With a weight ``w > 1`` it is weighted IDA* (the cost bound is on ``f = g + w h``; Korf,
"Linear-space best-first search", Artificial Intelligence 62 (1993) 41-78, §2, and Pohl's
weighting, "Heuristic search viewed as path finding in a graph", Artificial Intelligence 1
(1970)): every node of an optimal path has ``f <= w C*``, so no threshold passes ``w C*`` before
a goal is found, and the plan costs at most ``w`` times the optimum. The result is then
``SOLVED`` with that bound in ``proof``.

With ``limits.workers > 1`` or a ``limits.scheduler``, each iteration is split into subtrees
searched by worker processes (:mod:`.split`), from :class:`.walk.Walk` states like the one-core
search's (:mod:`.serial`).

The search runs in chunks of nodes so that time and node limits, cancellation and progress
reports are honoured between chunks (sized by :class:`cspsolve.pacing.Pace` to some 20 ms each,
however busy the cores). The time limit and cancellation also cover building or reading the
pattern databases (:class:`.pdb.BuildStoppedError`).
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status
from cspsolve.search import Tally

from .. import pdb
from ..board import MOVES, Puzzle, solvability
from ..pdb import BuildStoppedError, PatternDatabases
from .serial import search
from .walk import Walk

__all__ = ["HEURISTICS", "run", "solve"]

HEURISTICS = ("manhattan", "pdb")
"""Heuristics this solver computes incrementally."""


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
        :mod:`.split`): filled with the nodes expanded in each subtree per f-limit.

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
    if limits.parallel:
        from . import split

        manhattan = heuristic == "manhattan"
        found = split.search(puzzle, dbs, manhattan, walk, budget, tally, subtrees)
    else:
        found = search(walk, budget, tally)
    if isinstance(found, Status):
        return Result(found, None, budget.finish(), "tile-idastar", heuristic)
    result.solution = _moves(found, puzzle.cols)
    stats.depth = stats.cost = len(found) - 1
    budget.finish()
    return _bounded(result, w, h0)


def _bounded(result: Result[list[str]], weight: Fraction, h0: int) -> Result[list[str]]:
    """``result`` of a weighted search with its bound in ``proof`` (unchanged when ``w = 1``)."""
    if weight != 1:
        cost = int(result.stats.cost)
        result.proof["suboptimality_bound"] = float(weight)
        result.proof["lower_bound"] = max(h0, math.ceil(cost / weight))
    return result


def run(
    puzzle: Puzzle, /, *, heuristic: str | None, options: Any, limits: Limits | None
) -> Result[list[str]]:
    """The ``tile-idastar`` method: :func:`solve` with ``heuristic`` and the options'
    ``partition`` and weight (1 when not given)."""
    assert heuristic is not None
    w = options.weight_for("tile-idastar") or 1
    return solve(puzzle, heuristic, limits=limits, partition=options.partition, weight=w)
