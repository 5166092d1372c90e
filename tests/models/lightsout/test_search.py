"""A*, IDA*, CP-SAT and the algebra agree on the fewest presses; heuristics are admissible
and consistent; every press set is replayed to all-off by the independent checker."""

from __future__ import annotations

from hypothesis import given, settings

from cspsolve.limits import Limits
from cspsolve.models.lightsout import algebra, cpsat, search
from cspsolve.models.lightsout.board import LightsOut, check
from cspsolve.results import Status

from .strategies import boards


@settings(max_examples=60, deadline=None)
@given(boards)
def test_methods_agree_on_the_minimum(puzzle: LightsOut) -> None:
    exact = algebra.minimum(puzzle)
    results = [cpsat.solve(puzzle, limits=Limits(time_limit=30))]
    results += [search.solve(puzzle, method="astar", name=h) for h in search.HEURISTICS]
    results.append(search.solve(puzzle, method="idastar", name="packing"))
    for result in results:
        if exact.status is Status.UNSOLVABLE:
            assert result.status is Status.UNSOLVABLE, result.method
            continue
        assert result.status is Status.OPTIMAL, result.method
        assert result.stats.cost == exact.stats.cost, result.method
        assert check(puzzle, result.solution) == []
    if exact.solution is not None:
        assert check(puzzle, exact.solution) == []


@settings(max_examples=60, deadline=None)
@given(boards)
def test_heuristics_are_admissible_and_consistent(puzzle: LightsOut) -> None:
    problem = search.PressOrder(puzzle)
    best = algebra.minimum(puzzle)
    for name in search.HEURISTICS:
        h = search.heuristic(puzzle, name)
        assert h.__name__ == name
        if best.solution is not None:
            assert h(problem.initial) <= best.stats.cost
        frontier, seen = [problem.initial], {problem.initial}
        while frontier and len(seen) < 2000:
            state = frontier.pop()
            assert h(state) >= 0 and (h(state) == 0) == (state[0] == 0)
            for _, child, cost in problem.successors(state):
                assert h(state) <= cost + h(child)
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)


def test_sigma_plus_families_tile_like_a_perfect_code() -> None:
    puzzle = LightsOut((0,) * 10, 10)
    groups = search.families(puzzle)
    assert sum(g.bit_count() for g in groups) == 100
    for g in groups:
        used = 0
        cell = g
        while cell:
            low = cell & -cell
            togglers = puzzle.toggles(low.bit_length() - 1)
            assert not used & togglers
            used |= togglers
            cell ^= low


def test_search_plan_is_the_press_set() -> None:
    puzzle = LightsOut((0b010, 0b111, 0b010), 3)
    result = search.solve(puzzle, method="astar", name="packing")
    assert result.solution == (0, 0b010, 0) and result.heuristic == "packing"
    assert result.stats.cost == 1


def test_node_limit_stops_the_search() -> None:
    puzzle = LightsOut(((1 << 7) - 1,) * 7, 7)
    assert (
        search.solve(puzzle, method="astar", name="lit", limits=Limits(max_nodes=10)).status
        is Status.LIMIT
    )
