"""The CP-SAT and python-constraint adapters, and the engine's MAC and GAC+A*, against
brute force."""

from __future__ import annotations

import functools
import itertools
import operator
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspsolve.csp.cpsat import APART_SIZE, Answer, solve_cpsat, solve_model
from cspsolve.csp.domains import Domain, ExplicitDomain
from cspsolve.csp.model import CSP, Constraint, Relation
from cspsolve.csp.python_constraint import solve_python_constraint
from cspsolve.csp.search import gac_astar, mac
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

Solver = Callable[..., Result[dict[Hashable, Any]]]

METHODS: dict[str, Solver] = {
    "cpsat": solve_cpsat,
    "python-constraint": solve_python_constraint,
    "mac": mac,
    "gac-astar": gac_astar,
}


def brute_force_count(csp: CSP) -> int:
    """Number of solutions, by checking every combination of values."""
    names = csp.variables
    count = 0
    for combo in itertools.product(*(csp.domains[v] for v in names)):  # type: ignore[call-overload]
        if csp.is_solution(dict(zip(names, combo, strict=True))):
            count += 1
    return count


# --- example CSPs -------------------------------------------------------------------------------

AUSTRALIA = ("WA", "NT", "SA", "Q", "NSW", "V", "T")
BORDERS = (
    ("WA", "NT"),
    ("WA", "SA"),
    ("NT", "SA"),
    ("NT", "Q"),
    ("SA", "Q"),
    ("SA", "NSW"),
    ("SA", "V"),
    ("Q", "NSW"),
    ("NSW", "V"),
)


def australia(colours: Sequence[str], fixed: Mapping[str, str] | None = None) -> CSP:
    """Map colouring of Australia (Russell & Norvig, AIMA, §6.1)."""
    fixed = fixed or {}
    domains: dict[Hashable, Domain] = {
        r: ExplicitDomain([fixed[r]] if r in fixed else colours) for r in AUSTRALIA
    }
    return CSP(domains, [Relation(a, b, operator.ne) for a, b in BORDERS])


def _queens_safe(distance: int, a: int, b: int) -> bool:
    return a != b and abs(a - b) != distance


def queens(n: int) -> CSP:
    """n queens, one per column; the value is the row."""
    domains: dict[Hashable, Domain] = {c: ExplicitDomain(range(n)) for c in range(n)}
    constraints = [
        Relation(c1, c2, functools.partial(_queens_safe, c2 - c1))
        for c1, c2 in itertools.combinations(range(n), 2)
    ]
    return CSP(domains, constraints)


EXAMPLES: dict[str, Callable[[], CSP]] = {
    "australia-3": lambda: australia("rgb"),
    "australia-2": lambda: australia("rg"),
    "australia-fixed": lambda: australia("rgb", {"WA": "r", "NT": "g", "T": "b"}),
    "queens-3": lambda: queens(3),
    "queens-4": lambda: queens(4),
    "queens-5": lambda: queens(5),
}


def check_against_brute_force(csp: CSP, name: str, solve: Solver) -> None:
    count = brute_force_count(csp)
    one = solve(csp)
    assert one.method == name
    assert one.status == (Status.SOLVED if count else Status.UNSOLVABLE)
    if count:
        assert one.solution is not None
        assert csp.is_solution(one.solution)
    else:
        assert one.solution is None
    two = solve(csp, max_solutions=2)
    assert two.status == one.status
    assert two.stats.extra["solutions"] == min(count, 2)
    if count:
        assert two.solution is not None
        assert csp.is_solution(two.solution)
        assert two.proof["unique"] == (count == 1)
    else:
        assert "unique" not in two.proof


@pytest.mark.parametrize("example", sorted(EXAMPLES))
@pytest.mark.parametrize("name", sorted(METHODS))
def test_examples_agree_with_brute_force(example: str, name: str) -> None:
    check_against_brute_force(EXAMPLES[example](), name, METHODS[name])


def test_examples_cover_every_case() -> None:
    """The examples include unsolvable, unique and non-unique problems (else the test is weak)."""
    counts = {name: brute_force_count(make()) for name, make in EXAMPLES.items()}
    assert counts["australia-2"] == 0
    assert counts["australia-fixed"] == 1
    assert counts["australia-3"] > 1
    assert counts["queens-4"] > 1
    assert counts["queens-3"] == 0


@pytest.mark.parametrize("name", sorted(METHODS))
def test_all_solutions_are_distinct(name: str) -> None:
    """With max_solutions above the count, every solution is found and the run says so."""
    csp = queens(5)
    count = brute_force_count(csp)
    result = METHODS[name](csp, max_solutions=count + 5)
    assert result.stats.extra["solutions"] == count


# --- random binary CSPs -------------------------------------------------------------------------


def _in_table(table: frozenset[tuple[int, int]], a: int, b: int) -> bool:
    return (a, b) in table


@st.composite
def binary_csps(draw: st.DrawFn) -> CSP:
    n = draw(st.integers(3, 5))
    values = {
        f"v{k}": draw(st.lists(st.integers(-3, 3), min_size=1, max_size=3, unique=True))
        for k in range(n)
    }
    domains: dict[Hashable, Domain] = {v: ExplicitDomain(vals) for v, vals in values.items()}
    names = list(values)
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(
                lambda p: p[0] != p[1]
            ),
            max_size=6,
        )
    )
    constraints: list[Constraint] = []
    for x, y in pairs:
        allowed = draw(st.sets(st.sampled_from(list(itertools.product(values[x], values[y])))))
        constraints.append(Relation(x, y, functools.partial(_in_table, frozenset(allowed))))
    return CSP(domains, constraints)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(binary_csps())
def test_random_binary_csps_agree_with_brute_force(csp: CSP) -> None:
    for name, solve in METHODS.items():
        check_against_brute_force(csp, name, solve)


# --- adapters' own behaviour --------------------------------------------------------------------


class _Range:
    """An implicit domain: a range of ints, never listed."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and 0 <= value < self.n

    def is_empty(self) -> bool:
        return self.n == 0

    def size(self) -> int:
        return self.n

    def split(self) -> Sequence[Domain]:
        return [ExplicitDomain([v]) for v in range(self.n)]

    def value(self) -> Any:
        return 0


@pytest.mark.parametrize("solve", [solve_cpsat, solve_python_constraint])
def test_non_explicit_domain_is_a_type_error(solve: Solver) -> None:
    csp = CSP({"x": _Range(3), "y": ExplicitDomain([1, 2])}, [])
    with pytest.raises(TypeError, match="ExplicitDomain"):
        solve(csp)


def test_table_cap() -> None:
    csp = queens(5)  # every constraint has 5 * 5 = 25 combinations
    with pytest.raises(OptionError, match="max_table"):
        solve_cpsat(csp, max_table=24)
    assert solve_cpsat(csp, max_table=25).status == Status.SOLVED


@pytest.mark.parametrize("solve", [solve_cpsat, solve_python_constraint])
def test_bad_max_solutions(solve: Solver) -> None:
    with pytest.raises(OptionError, match="max_solutions"):
        solve(queens(4), max_solutions=0)


@pytest.mark.parametrize("solve", [solve_cpsat, solve_python_constraint])
def test_limits(solve: Solver) -> None:
    assert solve(queens(4), limits=Limits(time_limit=0)).status == Status.LIMIT
    cancel = threading.Event()
    cancel.set()
    assert solve(queens(4), limits=Limits(cancel=cancel)).status == Status.CANCELLED


def test_cpsat_stats_and_workers() -> None:
    csp = queens(6)
    result = solve_cpsat(csp, max_solutions=2, workers=2)
    assert result.status == Status.SOLVED
    assert result.solution is not None and csp.is_solution(result.solution)
    assert result.proof["unique"] == (brute_force_count(csp) == 1)
    assert {"conflicts", "branches", "solutions"} <= set(result.stats.extra)
    assert result.stats.seconds > 0
    with pytest.raises(OptionError, match="workers"):
        solve_cpsat(csp, workers=0)


@pytest.mark.parametrize("name", ["cpsat", "python-constraint"])
def test_degenerate_csps(name: str) -> None:
    """Empty domains, no variables, and single-valued variables."""
    solve = METHODS[name]
    empty = CSP({"x": ExplicitDomain([]), "y": ExplicitDomain([1])}, [])
    assert solve(empty).status == Status.UNSOLVABLE
    nothing = solve(CSP({}, []), max_solutions=2)
    assert nothing.status == Status.SOLVED and nothing.solution == {}
    assert nothing.proof["unique"] is True
    fixed = CSP({"x": ExplicitDomain([1]), "y": ExplicitDomain([2])}, [])
    one = solve(fixed, max_solutions=2)
    assert one.solution == {"x": 1, "y": 2} and one.proof["unique"] is True


def test_unorderable_values() -> None:
    """Values of different, incomparable types (python-constraint never sorts them)."""
    values: list[Hashable] = [None, "a", (1, 2), frozenset({3})]
    csp = CSP(
        {"x": ExplicitDomain(values), "y": ExplicitDomain(values)},
        [Relation("x", "y", operator.ne)],
    )
    for solve in (solve_cpsat, solve_python_constraint):
        result = solve(csp, max_solutions=2)
        assert result.solution is not None and csp.is_solution(result.solution)
        assert result.proof["unique"] is False


def test_python_constraint_stops_mid_search_at_the_time_limit() -> None:
    """Pigeonhole (10 pigeons, 9 holes) has no solution and takes python-constraint far longer
    than the limit (about 2 s for 9 pigeons here); the run must stop near the limit, from
    inside the search."""
    pigeons = [f"p{i}" for i in range(10)]
    csp = CSP(
        {p: ExplicitDomain(range(9)) for p in pigeons},
        [Relation(a, b, operator.ne) for a, b in itertools.combinations(pigeons, 2)],
    )
    result = solve_python_constraint(csp, limits=Limits(time_limit=0.3))
    assert result.status is Status.LIMIT
    assert 0.3 <= result.stats.seconds < 3.0
    assert result.stats.extra["constraint_checks"] > 1024


def alternating(n: int) -> tuple[Any, list[Any]]:
    """A CP-SAT model of ``n`` Booleans, the first true, each unlike the next: one solution."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(n)]
    model.add(x[0] == 1)
    for a, b in itertools.pairwise(x):
        model.add(a + b == 1)
    return model, x


def test_forked_cpsat_solve_reads_as_the_solver() -> None:
    model, x = alternating(APART_SIZE)
    here, outcome = solve_model(model, Limits().start(Stats()))
    assert outcome is Status.SOLVED and not isinstance(here, Answer)
    apart, outcome = solve_model(model, Limits(time_limit=60).start(Stats()))
    assert outcome is Status.SOLVED and isinstance(apart, Answer)
    for i, var in enumerate(x):
        assert apart.boolean_value(var) == here.boolean_value(var) == (i % 2 == 0)
        assert apart.boolean_value(~var) == (i % 2 == 1)
        assert apart.value(var) == here.value(var)
    model.add(x[-1] == x[-2])  # now infeasible
    assert solve_model(model, Limits(time_limit=60).start(Stats()))[1] is None


def test_forked_cpsat_solve_keeps_the_limits() -> None:
    model, _ = alternating(APART_SIZE)
    assert solve_model(model, Limits(time_limit=0).start(Stats())) == (None, Status.LIMIT)
    cancel = threading.Event()
    cancel.set()
    assert solve_model(model, Limits(cancel=cancel).start(Stats())) == (None, Status.CANCELLED)
