"""IDA* on one core, the serial part of ``tile-idastar``: iterations from the root of a
:class:`.walk.Walk`, each bound the least ``f`` the last one cut off (Korf, "Depth-first
iterative-deepening: an optimal admissible tree search", Artificial Intelligence 27 (1985)
97-109), run in chunks of nodes sized by :class:`cspsolve.pacing.Pace` between which the limits
are checked.
"""

from __future__ import annotations

from cspsolve.limits import Budget
from cspsolve.pacing import Pace
from cspsolve.results import Status
from cspsolve.search import Tally

from .walk import DONE, FOUND, Walk

__all__ = ["search"]


def search(walk: Walk, budget: Budget, tally: Tally | None) -> list[int] | Status:
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
