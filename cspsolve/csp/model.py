"""Constraint networks: :class:`Constraint`, :class:`Relation` and :class:`CSP`.

The constraint graph of a :class:`CSP` is a :class:`networkx.Graph` with one node per variable
and an edge wherever two variables share a constraint; the edge attribute ``"constraints"``
lists those constraints. GAC propagation (:mod:`cspsolve.csp.gac`) walks its neighbourhoods.
"""

from __future__ import annotations

import functools
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cspsolve.csp.domains import Domain, ExplicitDomain
from cspsolve.errors import PuzzleError

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["CSP", "Assignment", "Constraint", "Domains", "Relation", "explicit_values"]

Domains = dict[Hashable, Domain]
"""The current domain of every variable: one search node of a CSP."""

Assignment = dict[Hashable, Any]
"""A value for every variable of a CSP."""


class Constraint(ABC):
    """A constraint over the variables of ``scope``.

    Subclasses give :meth:`revise` (the GAC propagator) and :meth:`is_satisfied` (the check of a
    full assignment, used by the adapters and by tests).

    Parameters
    ----------
    scope : sequence of hashable
        The variables the constraint is on, in the order :meth:`is_satisfied` takes their values.
    """

    def __init__(self, scope: Sequence[Hashable]) -> None:
        self.scope: tuple[Hashable, ...] = tuple(scope)

    @abstractmethod
    def revise(self, var: Hashable, domain: Domain, domains: Mapping[Hashable, Domain]) -> Domain:
        """Remove from ``domain`` (of ``var``) the values that have no support in this constraint.

        A *support* of a value ``a`` of ``var`` is an assignment of the other variables of the
        scope, each from its domain in ``domains``, that satisfies the constraint together with
        ``a`` (Mackworth 1977, "Consistency in networks of relations", *Artificial Intelligence*
        8(1); generalised to n-ary constraints by Mohr & Masini 1988).

        Returns
        -------
        Domain
            ``domain`` itself when nothing was removed, otherwise the smaller domain (possibly
            empty).
        """

    @abstractmethod
    def is_satisfied(self, values: Sequence[Any]) -> bool:
        """True when the values (in scope order) satisfy the constraint."""

    def may_lose_support(
        self, changed: Hashable, old: Domain, new: Domain, other: Hashable
    ) -> bool:
        """Whether narrowing ``changed`` from ``old`` to ``new`` can take supports from ``other``.

        GAC re-queues ``(other, self)`` only when this is true. The default, always true, is
        safe; constraints that know better (e.g. the crossing of two nonogram lines, which looks
        at one cell) say so to save work.
        """
        return True


class Relation(Constraint):
    """A binary constraint given by a predicate, for explicit domains.

    Parameters
    ----------
    x, y : hashable
        The two variables.
    predicate : callable
        ``predicate(a, b)`` is true when ``x = a`` and ``y = b`` are compatible.
    """

    def __init__(self, x: Hashable, y: Hashable, predicate: Callable[[Any, Any], bool]) -> None:
        super().__init__((x, y))
        self.predicate = predicate

    def revise(self, var: Hashable, domain: Domain, domains: Mapping[Hashable, Domain]) -> Domain:
        """Keep the values of ``var`` with a supporting value in the other variable's domain.

        Raises
        ------
        TypeError
            If a domain is not an :class:`ExplicitDomain`.
        """
        x, y = self.scope
        other = domains[y if var == x else x]
        if not isinstance(domain, ExplicitDomain) or not isinstance(other, ExplicitDomain):
            raise TypeError("Relation needs explicit domains")
        if var == x:
            return domain.keep(a for a in domain if any(self.predicate(a, b) for b in other))
        return domain.keep(b for b in domain if any(self.predicate(a, b) for a in other))

    def is_satisfied(self, values: Sequence[Any]) -> bool:
        """True when ``predicate(*values)``."""
        a, b = values
        return bool(self.predicate(a, b))


class CSP:
    """A constraint satisfaction problem: variables, their initial domains, constraints.

    Parameters
    ----------
    domains : mapping of hashable to Domain
        Every variable with its initial domain; the mapping's order is the variables' order
        (used to break ties in variable selection).
    constraints : iterable of Constraint
        Each constraint's scope must name known variables.

    Raises
    ------
    PuzzleError
        If a constraint names an unknown variable.

    Notes
    -----
    The constraint graph (:attr:`graph`, a :class:`networkx.Graph`) is built only when asked
    for: propagation needs only :meth:`arcs_losing_support`, which models may answer directly.
    """

    def __init__(
        self, domains: Mapping[Hashable, Domain], constraints: Iterable[Constraint]
    ) -> None:
        self.domains: Domains = dict(domains)
        self.variables: tuple[Hashable, ...] = tuple(self.domains)
        self.constraints: list[Constraint] = list(constraints)
        self.constraints_on: dict[Hashable, list[Constraint]] = {v: [] for v in self.variables}
        for c in self.constraints:
            for v in c.scope:
                if v not in self.constraints_on:
                    raise PuzzleError(f"constraint on unknown variable {v!r}")
                self.constraints_on[v].append(c)

    @functools.cached_property
    def graph(self) -> nx.Graph:
        """The constraint graph, built on first use (a 512x512 nonogram has 262,144 edges).

        Variables are nodes; an edge ``u - v`` lists in its attribute ``"constraints"`` the
        constraints that ``u`` and ``v`` share.
        """
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(self.variables)
        for c in self.constraints:
            for u, v in itertools.combinations(c.scope, 2):
                if graph.has_edge(u, v):
                    graph[u][v]["constraints"].append(c)
                else:
                    graph.add_edge(u, v, constraints=[c])
        return graph

    @functools.cached_property
    def arcs(self) -> dict[Hashable, list[tuple[Hashable, list[Constraint]]]]:
        """Adjacency of :attr:`graph` as plain lists of ``(neighbour, constraints)``.

        The GAC queue walks it often; built on first use.
        """
        graph = self.graph
        return {
            v: [(w, data["constraints"]) for w, data in graph[v].items()] for v in self.variables
        }

    def arcs_losing_support(
        self, var: Hashable, old: Domain, new: Domain
    ) -> Iterator[tuple[Hashable, Constraint]]:
        """The arcs ``(other, constraint)`` to revise after ``var`` narrowed from ``old``.

        The default walks the neighbours of ``var`` in the constraint graph and keeps the arcs
        whose constraint says :meth:`Constraint.may_lose_support`. Models with many neighbours
        per variable may override it to find the affected arcs directly.
        """
        for other, constraints in self.arcs[var]:
            for c in constraints:
                if c.may_lose_support(var, old, new, other):
                    yield other, c

    def is_solution(self, assignment: Mapping[Hashable, Any]) -> bool:
        """True when ``assignment`` gives every variable a value of its initial domain and the
        values satisfy every constraint."""
        if set(assignment) != set(self.variables):
            return False
        if any(assignment[v] not in d for v, d in self.domains.items()):
            return False
        return all(c.is_satisfied([assignment[v] for v in c.scope]) for c in self.constraints)


def explicit_values(csp: CSP) -> dict[Hashable, tuple[Hashable, ...]]:
    """Return the values of every variable's domain, in domain order.

    Raises
    ------
    TypeError
        If a domain is not an :class:`~cspsolve.csp.domains.ExplicitDomain`.
    """
    values: dict[Hashable, tuple[Hashable, ...]] = {}
    for v, d in csp.domains.items():
        if not isinstance(d, ExplicitDomain):
            raise TypeError(
                f"variable {v!r} has a {type(d).__name__}, not an ExplicitDomain: "
                "only explicit CSPs can be handed to an external solver"
            )
        values[v] = d.values
    return values
