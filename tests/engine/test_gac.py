"""GAC propagation and the constraint graph, against brute force on small random CSPs."""

from __future__ import annotations

import itertools
import operator
import threading
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.csp import CSP, ExplicitDomain, Relation, propagate
from cspsolve.csp.gac import StopPropagationError
from cspsolve.limits import Limits
from cspsolve.results import Stats, Status


@st.composite
def binary_csps(draw: st.DrawFn) -> CSP:
    """Random CSPs of 2-5 variables with domains from 0..3 and random binary relations."""
    n = draw(st.integers(2, 5))
    domains = {
        f"x{i}": ExplicitDomain(draw(st.lists(st.integers(0, 3), min_size=1, max_size=4)))
        for i in range(n)
    }
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] < p[1]),
            max_size=6,
        )
    )
    constraints = []
    for i, j in pairs:
        allowed = frozenset(
            draw(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=10))
        )
        constraints.append(Relation(f"x{i}", f"x{j}", lambda a, b, ok=allowed: (a, b) in ok))
    return CSP(domains, constraints)


def fixpoint_by_sweeps(csp: CSP) -> dict[Hashable, set[int]] | None:
    """The GAC closure by repeated full sweeps over every constraint (no queue)."""
    values = {v: set(d) for v, d in csp.domains.items()}  # type: ignore[call-overload]
    changed = True
    while changed:
        changed = False
        for c in csp.constraints:
            x, y = c.scope
            for var, other, first in ((x, y, True), (y, x, False)):
                keep = {
                    a
                    for a in values[var]
                    if any(c.is_satisfied((a, b) if first else (b, a)) for b in values[other])
                }
                if keep != values[var]:
                    values[var] = keep
                    changed = True
        if any(not s for s in values.values()):
            return None
    return values


def solutions(csp: CSP) -> list[dict[Hashable, int]]:
    names = list(csp.variables)
    out = []
    for combo in itertools.product(*(list(csp.domains[v]) for v in names)):  # type: ignore[call-overload]
        assignment = dict(zip(names, combo, strict=True))
        if csp.is_solution(assignment):
            out.append(assignment)
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(binary_csps())
def test_propagate_reaches_the_gac_fixpoint(csp: CSP) -> None:
    domains = dict(csp.domains)
    stats = Stats()
    consistent = propagate(csp, domains, stats=stats)
    expected = fixpoint_by_sweeps(csp)
    if expected is None:
        assert not consistent
    else:
        assert consistent
        assert {v: set(d) for v, d in domains.items()} == expected  # type: ignore[call-overload]
    # No solution is ever lost.
    for solution in solutions(csp):
        assert consistent
        assert all(solution[v] in domains[v] for v in csp.variables)


@settings(max_examples=100, deadline=None)
@given(binary_csps())
def test_incremental_propagation_matches_full(csp: CSP) -> None:
    """Narrowing one variable then propagating only from it equals propagating everything."""
    domains = dict(csp.domains)
    if not propagate(csp, domains):
        return
    var = csp.variables[0]
    before = domains[var]
    assert isinstance(before, ExplicitDomain)
    narrowed = ExplicitDomain(list(before)[:1])
    incremental = dict(domains)
    incremental[var] = narrowed
    ok_incremental = propagate(csp, incremental, changed={var: before})
    full = dict(csp.domains)
    full[var] = narrowed
    ok_full = propagate(csp, full)
    assert ok_incremental == ok_full
    if ok_full:
        assert incremental == full


def test_constraint_graph_has_an_edge_per_shared_constraint() -> None:
    c1 = Relation("a", "b", lambda x, y: x != y)
    c2 = Relation("b", "a", lambda x, y: x < y)
    c3 = Relation("b", "c", lambda x, y: x != y)
    csp = CSP({v: ExplicitDomain([1, 2]) for v in "abcd"}, [c1, c2, c3])
    assert set(csp.graph.nodes) == set("abcd")
    assert {frozenset(e) for e in csp.graph.edges} == {frozenset("ab"), frozenset("bc")}
    assert csp.graph["a"]["b"]["constraints"] == [c1, c2]
    assert list(csp.graph.neighbors("d")) == []


def chain(n: int) -> CSP:
    """x0 < x1 < ... < x(n-1) over 0..n-1: GAC fixes every variable, after many revisions."""
    domains = {f"x{i}": ExplicitDomain(range(n)) for i in range(n)}
    constraints = [Relation(f"x{i}", f"x{i + 1}", operator.lt) for i in range(n - 1)]
    return CSP(domains, constraints)


def test_propagation_stops_when_the_budget_says_so() -> None:
    cancel = threading.Event()
    cancel.set()
    for limits, status in (
        (Limits(time_limit=0), Status.LIMIT),
        (Limits(cancel=cancel), Status.CANCELLED),
    ):
        csp = chain(30)
        domains = dict(csp.domains)
        with pytest.raises(StopPropagationError) as stopped:
            propagate(csp, domains, budget=limits.start(Stats()))
        assert stopped.value.status is status


def test_propagation_ignores_the_node_limit() -> None:
    csp = chain(30)
    free, limited = dict(csp.domains), dict(csp.domains)
    assert propagate(csp, free)
    assert propagate(csp, limited, budget=Limits(max_nodes=0).start(Stats()))
    assert limited == free
    assert all(list(limited[f"x{i}"]) == [i] for i in range(30))  # type: ignore[call-overload]
