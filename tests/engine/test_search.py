"""The state-space search algorithms against networkx shortest paths on random graphs."""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Status
from cspsolve.search import astar, bfs, dfs, greedy, idastar, iddfs

Plan = list[tuple[int, int]]


@dataclass
class GraphProblem:
    """Walk a weighted digraph from ``start`` to ``goal``; an action is the edge taken."""

    graph: nx.DiGraph
    start: int
    goal: int
    calls: int = 0

    @property
    def initial(self) -> int:
        return self.start

    def actions(self, state: int) -> Iterator[tuple[int, int]]:
        self.calls += 1
        for nxt in sorted(self.graph.successors(state)):
            yield (state, nxt)

    def result(self, state: int, action: tuple[int, int]) -> int:
        assert action[0] == state
        return action[1]

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def cost(self, state: int, action: tuple[int, int], nxt: int) -> float:
        return float(self.graph.edges[action]["weight"])


@dataclass
class UnitGraphProblem:
    """The same walk with every step costing 1 (no ``cost``: the engine's default)."""

    graph: nx.DiGraph
    start: int
    goal: int
    seen: list[int] = field(default_factory=list)

    @property
    def initial(self) -> int:
        return self.start

    def actions(self, state: int) -> list[int]:
        return sorted(self.graph.successors(state))

    def result(self, state: int, action: int) -> int:
        return action

    def is_goal(self, state: int) -> bool:
        return state == self.goal


@st.composite
def graphs(draw: st.DrawFn) -> tuple[nx.DiGraph, int, int]:
    n = draw(st.integers(2, 12))
    edges = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 9)),
            max_size=4 * n,
        )
    )
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        if u != v:
            g.add_edge(u, v, weight=w)
    return g, draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))


def distances_to(graph: nx.DiGraph, goal: int, weight: str | None) -> dict[int, float]:
    lengths = nx.single_source_dijkstra_path_length(graph.reverse(), goal, weight=weight)
    return {n: float(d) for n, d in lengths.items()}


def replay_cost(graph: nx.DiGraph, start: int, goal: int, plan: Plan) -> float:
    """Check the plan is a walk from start to goal; return its cost."""
    state, total = start, 0.0
    for u, v in plan:
        assert u == state and graph.has_edge(u, v)
        total += graph.edges[u, v]["weight"]
        state = v
    assert state == goal
    return total


def oracle(graph: nx.DiGraph, start: int, goal: int, weight: str | None) -> float | None:
    try:
        return float(nx.shortest_path_length(graph, start, goal, weight=weight))
    except nx.NetworkXNoPath:
        return None


def exact(graph: nx.DiGraph, goal: int) -> Callable[[int], float]:
    """The perfect heuristic (admissible and consistent), infinite where the goal is cut off."""
    dist = distances_to(graph, goal, "weight")
    return lambda s: dist.get(s, float("inf"))


def half_exact(graph: nx.DiGraph, goal: int) -> Callable[[int], float]:
    """Admissible, and inconsistent where it jumps between neighbours (0 on odd states)."""
    dist = distances_to(graph, goal, "weight")
    return lambda s: 0.0 if s % 2 else dist.get(s, 0.0)


def zero(state: Any) -> float:
    return 0.0


def check_cheapest(result: Result[Any], graph: nx.DiGraph, start: int, goal: int) -> None:
    best = oracle(graph, start, goal, "weight")
    if best is None:
        assert result.status is Status.UNSOLVABLE
        assert result.solution is None
        return
    assert result.status is Status.OPTIMAL
    assert result.solution is not None
    assert replay_cost(graph, start, goal, result.solution) == best == result.stats.cost
    assert result.stats.depth == len(result.solution)


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_astar_is_optimal_with_admissible_heuristics(case: tuple[nx.DiGraph, int, int]) -> None:
    graph, start, goal = case
    for heuristic in (zero, exact(graph, goal), half_exact(graph, goal)):
        check_cheapest(astar(GraphProblem(graph, start, goal), heuristic), graph, start, goal)
    for graph_search in (True, False):
        if oracle(graph, start, goal, "weight") is not None or graph_search:
            result = astar(GraphProblem(graph, start, goal), zero, graph=graph_search)
            check_cheapest(result, graph, start, goal)


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_idastar_is_optimal(case: tuple[nx.DiGraph, int, int]) -> None:
    graph, start, goal = case
    for heuristic in (zero, exact(graph, goal), half_exact(graph, goal)):
        check_cheapest(idastar(GraphProblem(graph, start, goal), heuristic), graph, start, goal)


@settings(max_examples=150, deadline=None)
@given(graphs(), st.sampled_from([1.5, 2.0, 5.0]))
def test_weighted_astar_stays_within_its_bound(
    case: tuple[nx.DiGraph, int, int], weight: float
) -> None:
    graph, start, goal = case
    result = astar(GraphProblem(graph, start, goal), half_exact(graph, goal), weight=weight)
    best = oracle(graph, start, goal, "weight")
    if best is None:
        assert result.status is Status.UNSOLVABLE
        return
    assert result.status is Status.SOLVED
    assert result.method == "weighted-astar"
    assert result.proof["suboptimality_bound"] == weight
    assert result.solution is not None
    assert best <= replay_cost(graph, start, goal, result.solution) <= weight * best


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_fewest_steps_by_bfs_and_iddfs(case: tuple[nx.DiGraph, int, int]) -> None:
    graph, start, goal = case
    best = oracle(graph, start, goal, None)
    for search in (bfs, iddfs):
        result = search(UnitGraphProblem(graph, start, goal))
        if best is None:
            assert result.status is Status.UNSOLVABLE, search
            continue
        assert result.status is Status.OPTIMAL, search
        assert result.solution is not None
        assert len(result.solution) == best == result.stats.cost
        walk = [start, *result.solution]
        assert walk[-1] == goal
        assert all(graph.has_edge(u, v) for u, v in itertools.pairwise(walk))


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_bfs_with_step_costs_does_not_claim_optimal(case: tuple[nx.DiGraph, int, int]) -> None:
    graph, start, goal = case
    result = bfs(GraphProblem(graph, start, goal))
    if oracle(graph, start, goal, None) is None:
        assert result.status is Status.UNSOLVABLE
    elif start != goal:
        assert result.status is Status.SOLVED
        assert result.solution is not None
        assert len(result.solution) == oracle(graph, start, goal, None)


@settings(max_examples=150, deadline=None)
@given(graphs(), st.booleans())
def test_dfs_and_greedy_find_a_plan_exactly_when_there_is_one(
    case: tuple[nx.DiGraph, int, int], graph_search: bool
) -> None:
    graph, start, goal = case
    reachable = oracle(graph, start, goal, None) is not None
    for result in (
        dfs(GraphProblem(graph, start, goal), graph=graph_search),
        greedy(GraphProblem(graph, start, goal), exact(graph, goal), graph=graph_search)
        if graph_search or reachable
        else None,
    ):
        if result is None:
            continue
        if not reachable:
            assert result.status is Status.UNSOLVABLE
            continue
        assert result.status in (Status.SOLVED, Status.OPTIMAL) and result.solution is not None
        replay_cost(graph, start, goal, result.solution)
        assert result.proof["search"] == ("graph" if graph_search else "tree")


@settings(max_examples=150, deadline=None)
@given(graphs(), st.integers(0, 6), st.booleans())
def test_depth_limited_dfs_reports_cutoff(
    case: tuple[nx.DiGraph, int, int], limit: int, graph_search: bool
) -> None:
    graph, start, goal = case
    best = oracle(graph, start, goal, None)
    result = dfs(UnitGraphProblem(graph, start, goal), depth_limit=limit, graph=graph_search)
    if best is not None and best <= limit:
        assert result.solution is not None and len(result.solution) <= limit
    elif best is None and start != goal:
        assert result.status in (Status.UNSOLVABLE, Status.LIMIT)
    else:
        assert result.status is Status.LIMIT
        assert result.stats.extra["cutoff"] == 1


def grid_problem(n: int) -> UnitGraphProblem:
    """An n-by-n grid walk from a corner to the far corner (many paths, no dead ends)."""
    g = nx.DiGraph(nx.convert_node_labels_to_integers(nx.grid_2d_graph(n, n), ordering="sorted"))
    return UnitGraphProblem(g, 0, n * n - 1)


SEARCHES: list[Callable[..., Result[Any]]] = [
    bfs,
    dfs,
    iddfs,
    lambda p, limits: greedy(p, zero, limits=limits),
    lambda p, limits: astar(p, zero, limits=limits),
    lambda p, limits: idastar(p, zero, limits=limits),
]


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("max_nodes", [0, 1, 7, 100])
def test_node_limit_is_exact(search: Callable[..., Result[Any]], max_nodes: int) -> None:
    result = search(grid_problem(30), limits=Limits(max_nodes=max_nodes))
    assert result.status is Status.LIMIT
    assert result.stats.expanded == max_nodes
    assert result.solution is None


@pytest.mark.parametrize("search", SEARCHES)
def test_cancellation(search: Callable[..., Result[Any]]) -> None:
    cancel = threading.Event()
    cancel.set()
    result = search(grid_problem(30), limits=Limits(cancel=cancel))
    assert result.status is Status.CANCELLED


@pytest.mark.parametrize("search", SEARCHES)
def test_time_limit(search: Callable[..., Result[Any]]) -> None:
    result = search(grid_problem(30), limits=Limits(time_limit=0))
    assert result.status is Status.LIMIT


@pytest.mark.parametrize("search", SEARCHES)
def test_progress_is_reported_with_live_stats(search: Callable[..., Result[Any]]) -> None:
    seen: list[int] = []
    limits = Limits(progress=lambda stats: seen.append(stats.expanded), progress_interval=0)
    result = search(grid_problem(8), limits=limits)
    assert result.status in (Status.SOLVED, Status.OPTIMAL)
    assert seen and seen == sorted(seen)


def test_statistics_of_a_known_space() -> None:
    """BFS on a 5-by-5 grid walk: every state but the goal region is expanded once."""
    result = bfs(grid_problem(5))
    assert result.status is Status.OPTIMAL
    assert result.stats.cost == result.stats.depth == 8
    assert 0 < result.stats.expanded < 25
    assert result.stats.generated >= result.stats.expanded
    assert result.stats.max_frontier >= 1
    assert result.to_json()["stats"]["cost"] == 8


def test_heuristic_name_is_reported() -> None:
    def manhattan(state: int) -> float:
        return 0.0

    result = astar(grid_problem(3), manhattan)
    assert result.heuristic == "manhattan"
    assert bfs(grid_problem(3)).heuristic is None


def test_weight_below_one_is_refused() -> None:
    with pytest.raises(OptionError, match="weight"):
        astar(grid_problem(3), zero, weight=0.5)


def test_goal_at_start_is_an_empty_plan() -> None:
    problem = UnitGraphProblem(nx.DiGraph([(0, 1)]), 0, 0)
    for search in SEARCHES:
        result = search(problem, limits=None)
        assert result.solution == [] and result.status.has_solution


def test_graph_dfs_without_a_depth_limit_expands_each_state_once() -> None:
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(6, 6), ordering="sorted")
    graph = nx.DiGraph(grid)
    nx.set_edge_attributes(graph, 1, "weight")
    problem = GraphProblem(graph, 0, -1)  # no goal: the whole space is searched
    result = dfs(problem)
    assert result.status is Status.UNSOLVABLE
    assert problem.calls == graph.number_of_nodes()


@pytest.mark.parametrize(
    "search",
    [astar, greedy, lambda p, h: astar(p, h, weight=2.0)],
    ids=["astar", "greedy", "weighted-astar"],
)
def test_best_first_never_expands_a_dead_end(search: Callable[..., Result[Any]]) -> None:
    problem = grid_problem(6)
    problem.goal = -1  # unreachable

    def dead_but_the_start(state: int) -> float:
        return 0.0 if state == problem.start else math.inf

    result = search(problem, dead_but_the_start)
    assert result.status is Status.UNSOLVABLE
    assert result.stats.expanded == 1
