"""Search over a CSP with GAC at every node: depth-first MAC and best-first GAC + A*.

Both branch by domain splitting on the variable chosen by :func:`select_variable`: the
smallest domain in bits divided by one plus the wipe-outs met at that variable so far
(*dom/wdeg*, a conflict-directed refinement of the fail-first *dom* heuristic of Haralick &
Elliott 1980, "Increasing tree search efficiency for constraint satisfaction problems",
*Artificial Intelligence* 14(3)). Every node is made GAC (:func:`propagate`) before it
is tested or expanded, so a node whose domains are all single values is a solution.

Limits are checked before each expansion, so ``Limits(max_nodes=n)`` expands at most ``n``
nodes (the goal test of a node is not an expansion); the time limit and cancellation are also
checked within every propagation (:func:`~cspsolve.csp.gac.propagate`).

``max_solutions=2`` decides uniqueness: the search goes on after the first solution and
``proof["unique"]`` tells whether a second one exists (``None`` when a limit stopped it first).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Hashable

from cspsolve.csp.domains import Domain, log_size
from cspsolve.csp.gac import CHECK_EVERY, StopPropagationError, propagate
from cspsolve.csp.model import CSP, Assignment, Domains
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

__all__ = ["Assignment", "gac_astar", "mac", "select_variable"]


def select_variable(
    csp: CSP,
    domains: Domains,
    *,
    weights: dict[Hashable, int] | None = None,
    budget: Budget | None = None,
) -> Hashable | None:
    """Return the unfixed variable to branch on, or ``None`` when every variable is fixed.

    Without ``weights``: the smallest domain (*dom*). With ``weights`` (wipe-outs per variable,
    see :func:`~cspsolve.csp.gac.propagate`): the smallest ``log2 |D| / (1 + weight)``, the
    *dom/wdeg* rule of Boussemart, Hemery, Lecoutre & Sais 2004, "Boosting systematic search
    by weighting constraints", *ECAI*, with weights kept on variables and domain sizes taken in
    bits (implicit domains can hold 10^55 values). Ties go to the first variable of the CSP.

    Given a ``budget``, the time limit and cancellation are checked every
    :data:`~cspsolve.csp.gac.CHECK_EVERY` variables (an implicit domain may take milliseconds
    to count), and :class:`~cspsolve.csp.gac.StopPropagationError` raised when they stop the run.
    """
    best: Hashable | None = None
    best_score = math.inf
    for k, v in enumerate(csp.variables):
        if budget is not None and not (k + 1) % CHECK_EVERY:
            _check(budget)
        d = domains[v]
        n = d.size()
        if n <= 1:
            continue
        score = float(n) if weights is None else math.log2(n) / (1 + weights.get(v, 0))
        if score < best_score:
            best, best_score = v, score
    return best


def _check(budget: Budget) -> None:
    """Raise :class:`StopPropagationError` when the time is up or the run cancelled."""
    stopped = budget.interrupted()
    if stopped:
        raise StopPropagationError(stopped)


def _assignment(csp: CSP, domains: Domains) -> Assignment:
    return {v: domains[v].value() for v in csp.variables}


def _branch(
    domains: Domains, var: Hashable, part: Domain
) -> tuple[Domains, dict[Hashable, Domain]]:
    child = dict(domains)
    child[var] = part
    return child, {var: domains[var]}


def mac(csp: CSP, *, limits: Limits | None = None, max_solutions: int = 1) -> Result[Assignment]:
    """Depth-first search Maintaining Arc Consistency (MAC).

    Sabin & Freuder 1994, "Contradicting conventional wisdom in constraint satisfaction",
    *PPCP/ECAI*; generalised arc consistency at every node as in Bessière & Régin 1996.

    Parameters
    ----------
    csp : CSP
        The problem.
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.

    Returns
    -------
    Result
        ``solution`` is the first assignment found; status ``solved``, ``unsolvable`` (search
        exhausted without one), ``limit`` or ``cancelled``. ``stats.backtracks`` counts the
        branches wiped out by propagation.
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    solutions: list[Assignment] = []
    try:
        stopped = _depth_first(csp, budget, solutions, max_solutions)
    except StopPropagationError as e:
        stopped = e.status
    return Result.from_solutions(
        budget.finish(), "mac", solutions, max_solutions=max_solutions, stopped=stopped
    )


def _depth_first(
    csp: CSP, budget: Budget, solutions: list[Assignment], max_solutions: int
) -> Status | None:
    """The search of :func:`mac`: solutions are appended to ``solutions``; returns the
    budget's stop status, if any.

    Raises
    ------
    StopPropagationError
        When the budget stops a propagation.
    """
    stats = budget.stats
    domains = dict(csp.domains)
    weights: dict[Hashable, int] = {}
    if not propagate(csp, domains, stats=stats, budget=budget):
        return None
    stack: list[tuple[Domains, dict[Hashable, Domain], int]] = [(domains, {}, 0)]
    while stack:
        node, changed, depth = stack.pop()
        if changed and not propagate(
            csp, node, changed=changed, stats=stats, conflicts=weights, budget=budget
        ):
            stats.backtracks += 1
            continue
        stats.depth = max(stats.depth, depth)
        var = select_variable(csp, node, weights=weights, budget=budget)
        if var is None:
            solutions.append(_assignment(csp, node))
            if len(solutions) >= max_solutions:
                break
            continue
        stopped = budget.exhausted()
        if stopped:
            return stopped
        stats.expanded += 1
        parts = node[var].split()
        stats.generated += len(parts)
        stack.extend((*_branch(node, var, p), depth + 1) for p in reversed(parts))
        stats.max_frontier = max(stats.max_frontier, len(stack))
    return None


def uncertainty(csp: CSP, domains: Domains, *, budget: Budget | None = None) -> float:
    """Remaining uncertainty: the sum over variables of ``log2 |domain|`` (0 at a solution).

    Given a ``budget``, checked as by :func:`select_variable`.
    """
    total = 0.0
    for k, v in enumerate(csp.variables):
        if budget is not None and not (k + 1) % CHECK_EVERY:
            _check(budget)
        total += log_size(domains[v])
    return total


def gac_astar(
    csp: CSP, *, limits: Limits | None = None, max_solutions: int = 1
) -> Result[Assignment]:
    """Best-first search over GAC-propagated states (A*-GAC).

    Each node is a consistent set of domains; ``g`` is the number of splitting decisions taken
    to reach it and ``h`` its remaining uncertainty, ``sum(log2 |D(v)|)`` over variables
    (:func:`uncertainty`); nodes are expanded by smallest ``f = g + h``, ties by smaller ``h``,
    then newest first. Every child is propagated when generated (its ``h`` needs it); children
    wiped out count as backtracks. Splits partition the domains, so no state is met twice and
    no closed set is kept. This is the "A*-GAC" scheme of K. Downing's lecture notes for the
    NTNU course IT3105 (the design of our founding nonogram example), on A* as in Hart, Nilsson
    & Raphael 1968, "A formal basis for the heuristic determination of minimum cost paths",
    *IEEE Trans. SSC* 4(2).

    Parameters
    ----------
    csp : CSP
        The problem.
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.

    Returns
    -------
    Result
        As :func:`mac`.
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    solutions: list[Assignment] = []
    try:
        stopped = _best_first(csp, budget, solutions, max_solutions)
    except StopPropagationError as e:
        stopped = e.status
    return Result.from_solutions(
        budget.finish(), "gac-astar", solutions, max_solutions=max_solutions, stopped=stopped
    )


def _best_first(
    csp: CSP, budget: Budget, solutions: list[Assignment], max_solutions: int
) -> Status | None:
    """The search of :func:`gac_astar`, as :func:`_depth_first` for :func:`mac`."""
    stats = budget.stats
    domains = dict(csp.domains)
    tie = itertools.count()
    weights: dict[Hashable, int] = {}
    if not propagate(csp, domains, stats=stats, budget=budget):
        return None
    h = uncertainty(csp, domains, budget=budget)
    frontier: list[tuple[float, float, int, int, Domains]] = [(h, h, 0, 0, domains)]
    while frontier:
        _, h, _, depth, node = heapq.heappop(frontier)
        stats.depth = max(stats.depth, depth)
        var = select_variable(csp, node, weights=weights, budget=budget)
        if var is None:
            solutions.append(_assignment(csp, node))
            if len(solutions) >= max_solutions:
                break
            continue
        stopped = budget.exhausted()
        if stopped:
            return stopped
        stats.expanded += 1
        for part in node[var].split():
            stats.generated += 1
            child, changed = _branch(node, var, part)
            if not propagate(
                csp, child, changed=changed, stats=stats, conflicts=weights, budget=budget
            ):
                stats.backtracks += 1
                continue
            hc = uncertainty(csp, child, budget=budget)
            heapq.heappush(frontier, (depth + 1 + hc, hc, -next(tie), depth + 1, child))
        stats.max_frontier = max(stats.max_frontier, len(frontier))
    return None
