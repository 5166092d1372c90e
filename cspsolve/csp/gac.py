"""Generalised arc consistency (GAC) by a revise queue over the constraint graph.

This is AC-3 (Mackworth 1977, "Consistency in networks of relations", *Artificial Intelligence*
8(1):99-118) generalised to n-ary constraints (GAC-3, Mackworth 1977b; see also Bessière,
"Constraint propagation", *Handbook of Constraint Programming*, 2006, §3.3), organised by
variable: the queue holds variables, each with the constraints it must be revised against.
When a revise narrows a variable, only the neighbours (in the constraint graph) whose supports
can change, as told by :meth:`CSP.arcs_losing_support`, are queued again.

Given a :class:`~cspsolve.limits.Budget`, propagation asks it every :data:`CHECK_EVERY`
revisions whether the time is up or the run cancelled
(:meth:`~cspsolve.limits.Budget.interrupted`; the node limit counts expansions, not revisions),
and raises :class:`StopPropagationError` if so: one propagation of a large network (a nonogram
of 200 x 200 cells) can take seconds.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from cspsolve.csp.domains import Domain
from cspsolve.csp.model import CSP, Constraint, Domains
from cspsolve.limits import Budget
from cspsolve.results import Stats, Status

__all__ = ["CHECK_EVERY", "StopPropagationError", "propagate"]

CHECK_EVERY = 16
"""Revisions between two looks at the budget during a propagation."""


class StopPropagationError(Exception):
    """A propagation stopped by its budget; ``status`` is ``LIMIT`` or ``CANCELLED``."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.value)
        self.status = status


def propagate(
    csp: CSP,
    domains: Domains,
    *,
    changed: Mapping[Hashable, Domain] | None = None,
    stats: Stats | None = None,
    conflicts: dict[Hashable, int] | None = None,
    budget: Budget | None = None,
) -> bool:
    """Make ``domains`` generalised arc consistent, in place.

    Parameters
    ----------
    csp : CSP
        The constraint network.
    domains : dict
        The current domain of every variable; narrowed in place.
    changed : mapping of variable to Domain, optional
        The variables narrowed since ``domains`` was last consistent, each with its domain
        before narrowing; only arcs into their neighbours that may have lost support are revised
        at first. ``None`` revises every arc (initial propagation).
    stats : Stats, optional
        ``propagations`` counts the calls of ``revise``.
    conflicts : dict, optional
        Counts, per variable, the wipe-outs met while revising it (the weights of the
        conflict-directed variable ordering in :mod:`cspsolve.csp.search`).
    budget : Budget, optional
        Asked every :data:`CHECK_EVERY` revisions whether the time is up or the run cancelled.

    Returns
    -------
    bool
        False when some domain was wiped out (no solution extends ``domains``), else True.

    Raises
    ------
    StopPropagationError
        When ``budget`` says the time is up or the run cancelled; ``domains`` is then partly
        narrowed, and ``stats`` has not counted the revisions of this call.
    """
    pending: dict[Hashable, dict[Constraint, None]] = {}
    if changed is None:
        for v in csp.variables:
            if domains[v].is_empty():
                return False
            pending[v] = dict.fromkeys(csp.constraints_on[v])
    else:
        for v, before in changed.items():
            d = domains[v]
            if d.is_empty():
                return False
            _queue_neighbours(csp, pending, v, before, d)
    revisions = 0
    while pending:
        var = next(iter(pending))
        arcs = pending.pop(var)
        old = domains[var]
        new = old
        for c in arcs:
            new = c.revise(var, new, domains)
            revisions += 1
            if budget is not None and not revisions % CHECK_EVERY:
                stopped = budget.interrupted()
                if stopped:
                    raise StopPropagationError(stopped)
        if new is old:
            continue
        if new.is_empty():
            if stats is not None:
                stats.propagations += revisions
            if conflicts is not None:
                conflicts[var] = conflicts.get(var, 0) + 1
            return False
        if new == old:
            continue
        domains[var] = new
        _queue_neighbours(csp, pending, var, old, new)
    if stats is not None:
        stats.propagations += revisions
    return True


def _queue_neighbours(
    csp: CSP,
    pending: dict[Hashable, dict[Constraint, None]],
    var: Hashable,
    old: Domain,
    new: Domain,
) -> None:
    """Queue ``(neighbour, constraint)`` for every arc that may have lost support."""
    for other, c in csp.arcs_losing_support(var, old, new):
        pending.setdefault(other, {})[c] = None
