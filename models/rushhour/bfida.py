"""The ``bfida`` method: BFIDA* for an optimal plan, beam search for a plan when a limit stops it.

The exact search is breadth-first iterative-deepening A* over bit-packed positions of any width
(:mod:`.deepening`; Zhou & Hansen, "Breadth-first heuristic search", *Artificial Intelligence*
170(4-5), 2006, §4), pruning by an admissible estimate (``blockers`` by default). It gets
:data:`EXACT_SHARE` of a time limit; when a limit other than cancellation stops it, with the
lower bound it proved, beam search (:mod:`.beam`) spends the rest looking for a plan, and the
result gives that plan (status ``solved``, or ``optimal`` when its length meets the proven
bound) beside the bound.
"""

from __future__ import annotations

import dataclasses

from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .beam import plan
from .board import Board, Move, merged
from .deepening import MEMORY, _optimal_plan, check_options, runner
from .deepening import solve as deepen

__all__ = ["EXACT_SHARE", "run", "solve"]

EXACT_SHARE = 0.8
"""The share of a time limit the exact search may spend before beam search takes the rest."""


def solve(
    board: Board,
    *,
    metric: str = "moves",
    heuristic: str = "blockers",
    limits: Limits | None = None,
    memory: int = MEMORY,
    word_bits: int | None = None,
) -> Result[list[Move]]:
    """An optimal plan by BFIDA*, or beam search's plan beside the bound it proved (module text).

    Parameters
    ----------
    board : Board
        The start position.
    metric : str
        ``"moves"`` (a slide of any distance costs 1) or ``"steps"`` (one cell costs 1).
    heuristic : str
        ``"blockers"``, ``"union"``, ``"blocking"`` or ``"zero"`` (plain breadth-first search).
    limits : Limits, optional
        Time and node limits (nodes count expansions over all iterations), cancellation.
    memory : int
        Bytes the kept states may take (:meth:`.packed.Packing.state_bytes` each).
    word_bits : int, optional
        Bits per key word (default 62; smaller values test keys of many words).

    Returns
    -------
    Result
        ``OPTIMAL`` with the plan and ``proof["lower_bound"]`` equal to its cost;
        ``UNSOLVABLE``; ``SOLVED`` with a plan of beam search and the lower bound proven; or
        ``LIMIT``/``CANCELLED`` with the lower bound proven so far. ``stats.extra`` holds
        ``iterations``, ``bound`` (the last one searched), ``states`` (the most kept at once)
        and, after a beam search, ``beam_width``.

    Raises
    ------
    OptionError
        For an unknown heuristic or metric.
    """
    check_options("bfida", heuristic, metric)
    stats = Stats()
    limits = limits or Limits()
    overall = limits.start(stats)
    deepened = deepen(
        board,
        metric=metric,
        heuristic=heuristic,
        limits=_exact_share(limits),
        memory=memory,
        word_bits=word_bits,
        stats=stats,
    )
    if deepened.why is None:
        return deepened.result
    return _with_beam(deepened.result, deepened.why, board, overall, metric, deepened.most)


run = runner(solve)
"""The ``bfida`` method's runner."""


def _exact_share(limits: Limits) -> Limits:
    """``limits`` with :data:`EXACT_SHARE` of its time limit."""
    if limits.time_limit is None:
        return limits
    return dataclasses.replace(limits, time_limit=EXACT_SHARE * limits.time_limit)


def _with_beam(
    stopped: Result[list[Move]], why: str, board: Board, overall: Budget, metric: str, most: int
) -> Result[list[Move]]:
    """``stopped`` (a limit's result with its proven bound; ``why`` the exact search stopped),
    or beam search's plan beside the bound when one is found within the rest of ``overall``."""
    if stopped.status is Status.CANCELLED or overall.exhausted() is not None:
        overall.finish()
        return stopped
    found = plan(board, budget=overall, steps=metric == "steps", max_states=most)
    stats = overall.finish()
    stats.extra["beam_width"] = found.width
    if found.moves is None:
        return stopped
    proven = stopped.proof["lower_bound"]
    stats.cost = stats.depth = len(found.moves)
    if len(found.moves) == proven:
        return _optimal_plan(found.moves, stats)
    message = (
        f"the exact search stopped ({why}); a plan of {len(found.moves)} {metric} by beam "
        f"search (width {found.width}); every plan has at least {proven} {metric}"
    )
    result = Result(Status.SOLVED, merged(found.moves), stats, message=message)
    result.proof["lower_bound"] = proven
    return result
