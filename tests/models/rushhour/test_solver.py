"""Search, heuristics, cluster analysis and CP-SAT on the in-repository cards.

Published optima and cluster sizes come from ``tests/data/rushhour/cards.tsv``; every plan is
replayed by the independent :func:`check`; heuristics are checked against exact distances from
a multi-source breadth-first search, and those distances against networkx.
"""

from __future__ import annotations

import subprocess
import sys
from unittest.mock import patch

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import search as engine
from cspsolve import tasks
from cspsolve.models.rushhour import (
    HEURISTICS,
    RushHourProblem,
    analyze,
    bfs,
    check,
    heuristic,
    parse,
    state_graph,
)
from cspsolve.models.rushhour import kind as rushhour
from cspsolve.models.rushhour.cluster import Encoding, explore, goal_distances
from cspsolve.models.rushhour.cpsat import plan_within
from cspsolve.results import Status
from cspsolve.tasks import Request

from . import differential
from .conftest import board, cards

CARDS = {row["card"]: row for row in cards()}
SMALL = ("Card-1", "Card-2", "Card-10")


@pytest.mark.parametrize("name", list(CARDS))
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_bfs_is_optimal_and_plans_replay(name: str, metric: str) -> None:
    row = CARDS[name]
    b = board(row["board"])
    result = tasks.solve(rushhour.KIND, b, request=Request(None, None, {"metric": metric}))
    assert result.status == Status.OPTIMAL and result.solution is not None
    assert check(b, result.solution) == []
    expected = row["optimal_moves"] if metric == "moves" else row["min_unit_steps"]
    assert result.stats.cost == int(expected)


def test_a_small_search_runs_without_loading_the_compiled_code() -> None:
    code = (
        "import sys; from cspsolve import tasks; from cspsolve.instances import ROOT; "
        "from cspsolve.models.rushhour import kind, read; "
        "b = read(ROOT / 'rushhour' / 'card-32.txt')[0].puzzle; "
        "r = tasks.solve(kind.KIND, b); "
        "print(r.status.value, r.stats.cost, sorted({'numba', 'numpy'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["optimal", "49", "[]"], done.stderr


def test_every_board_of_at_most_6x6_fits_the_compiled_key() -> None:
    # At most n * n / 2 pieces, each of at most n - 1 offsets (a car: n - 2 + 1).
    n = bfs.ALWAYS_FITS
    assert (n - 1) ** (n * n // 2) < 2**62


@pytest.mark.slow
@given(case=differential.cases())
def test_boards_the_size_check_passes_fit_the_compiled_key(case: differential.Case) -> None:
    if case.board.size <= bfs.ALWAYS_FITS:
        assert Encoding.of(case.board).fits


@pytest.mark.parametrize("plain", [0, 1024, bfs.QUICK_EXPANSIONS])
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_bfs_hands_a_search_over_to_the_compiled_code(plain: int, metric: str) -> None:
    # Card-32 needs 13,320 expansions: none, some or all of them in plain Python.
    row = CARDS["Card-32"]
    b = board(row["board"])
    with patch.object(bfs, "_plain_budget", return_value=plain):
        result = tasks.solve(rushhour.KIND, b, request=Request("bfs", None, {"metric": metric}))
    assert result.status == Status.OPTIMAL and result.solution is not None
    assert check(b, result.solution) == []
    expected = row["optimal_moves"] if metric == "moves" else row["min_unit_steps"]
    assert result.stats.cost == int(expected)


@pytest.mark.parametrize("name", list(CARDS))
def test_analysis_matches_published_cluster(name: str) -> None:
    row = CARDS[name]
    facts = analyze(board(row["board"]))
    assert facts["cluster_size"] == int(row["cluster_size"])
    assert facts["optimal_moves"] == int(row["optimal_moves"])
    assert facts["optimal_steps"] == int(row["min_unit_steps"])
    assert sum(facts["distance_histogram"]) == facts["cluster_size"]
    assert facts["distance_histogram"][0] == facts["goal_states"]
    assert facts["hardest_start"]["optimal_moves"] == len(facts["distance_histogram"]) - 1
    hardest = tasks.solve(rushhour.KIND, board(facts["hardest_start"]["board"]), request=Request())
    assert hardest.stats.cost == facts["hardest_start"]["optimal_moves"]


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_heuristics_never_overestimate(name: str, metric: str) -> None:
    b = board(CARDS[name]["board"])
    cluster, _, _ = explore(b, stop_at_goal=False)
    assert cluster is not None
    exact = goal_distances(cluster, steps=metric == "steps")
    problem = RushHourProblem(b, metric)
    for h in map(lambda n: heuristic(n, problem), HEURISTICS):
        for offsets, distance in zip(cluster.offsets, exact, strict=True):
            assert h(tuple(int(o) for o in offsets)) <= distance, h.__name__


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("h", HEURISTICS)
def test_astar_is_optimal(name: str, h: str) -> None:
    row = CARDS[name]
    b = board(row["board"])
    for metric, column in (("moves", "optimal_moves"), ("steps", "min_unit_steps")):
        result = tasks.solve(rushhour.KIND, b, request=Request("astar", h, {"metric": metric}))
        assert result.status == Status.OPTIMAL and result.heuristic == h
        assert result.stats.cost == int(row[column])
        assert result.solution is not None and check(b, result.solution) == []


@pytest.mark.parametrize("h", ["blocking", "blockers"])
def test_idastar_is_optimal(h: str) -> None:
    b = board(CARDS["Card-1"]["board"])
    result = tasks.solve(rushhour.KIND, b, request=Request("idastar", h))
    assert result.status == Status.OPTIMAL and result.stats.cost == 9
    assert result.solution is not None and check(b, result.solution) == []


def test_engine_bfs_and_greedy_and_dfs_find_legal_plans() -> None:
    row = CARDS["Card-2"]
    b = board(row["board"])
    for method in ("engine-bfs", "greedy", "dfs"):
        result = tasks.solve(rushhour.KIND, b, request=Request(method))
        assert result.solution is not None and check(b, result.solution) == []
        assert result.stats.cost >= int(row["optimal_moves"])
    moves = tasks.solve(rushhour.KIND, b, request=Request("engine-bfs"))
    assert moves.status == Status.OPTIMAL
    steps = tasks.solve(rushhour.KIND, b, request=Request("engine-bfs", None, {"metric": "steps"}))
    assert steps.status == Status.SOLVED  # slides of unequal cost: BFS is not optimal


@given(st.lists(st.integers(min_value=0, max_value=1000), max_size=30))
@settings(max_examples=40, deadline=None)
def test_every_position_of_a_cluster_shares_its_size(walk: list[int]) -> None:
    row = CARDS["Card-17"]
    problem = RushHourProblem(board(row["board"]))
    state = problem.initial
    for pick in walk:
        options = list(problem.successors(state))
        state = options[pick % len(options)][1]
    b = problem.board.with_offsets(state)
    cluster, _, _ = explore(b, stop_at_goal=False)
    assert cluster is not None and cluster.size == int(row["cluster_size"])
    result = tasks.solve(rushhour.KIND, b, request=Request())
    assert result.solution is not None and check(b, result.solution) == []


def test_state_graph_distances_agree_with_networkx() -> None:
    graph = state_graph(board(CARDS["Card-10"]["board"]))
    assert graph.number_of_nodes() == int(CARDS["Card-10"]["cluster_size"])
    goals = [n for n, goal in graph.nodes(data="goal") if goal]
    lengths = nx.multi_source_dijkstra_path_length(graph, goals)
    assert all(lengths[n] == d for n, d in graph.nodes(data="distance"))
    assert lengths[0] == int(CARDS["Card-10"]["optimal_moves"])


@pytest.mark.parametrize("name", ["Card-1", "Card-10"])
def test_cpsat_proves_the_optimum(name: str) -> None:
    row = CARDS[name]
    b = board(row["board"])
    for metric, column in (("moves", "optimal_moves"), ("steps", "min_unit_steps")):
        optimum = int(row[column])
        assert plan_within(b, optimum - 1, metric=metric).status == "infeasible"
        found = plan_within(b, optimum, metric=metric)
        assert found.plan is not None and check(b, found.plan) == []


def test_verify_reports_the_lower_bound() -> None:
    report = tasks.verify(rushhour.KIND, board(CARDS["Card-1"]["board"]), request=Request())
    assert report.agree is True and report.problems == []
    assert report.reference.proof["lower_bound"] == int(CARDS["Card-1"]["optimal_moves"])


def test_cpsat_method_deepens_to_the_optimum() -> None:
    b = board(CARDS["Card-1"]["board"])
    result = tasks.solve(rushhour.KIND, b, request=Request("cpsat"))
    assert result.status == Status.OPTIMAL and result.solution is not None
    assert result.stats.cost == 9 and check(b, result.solution) == []


def test_unsolvable_board_is_proven_by_both() -> None:
    b = parse("ooBooo\nooBooo\nAABooo\nooxooo\noooooo\nDDoooo\n")[0].puzzle  # B stuck
    result = tasks.solve(rushhour.KIND, b, request=Request())
    assert result.status == Status.UNSOLVABLE and "none of the 5 reachable" in result.message
    report = tasks.verify(rushhour.KIND, b, request=Request())
    assert report.agree is True and report.reference.status == Status.UNSOLVABLE
    assert engine.bfs(RushHourProblem(b)).status == Status.UNSOLVABLE


WALLED_IN = {
    "horizontal C": "oooBoo\noooBoo\nAAoCCo\noooooo\noooooo\noooooo\n",
    "wall": "oooBoo\noooBoo\nAAoxoo\noooooo\noooooo\nCCoooo\n",
}


@pytest.mark.parametrize("text", WALLED_IN.values(), ids=WALLED_IN.keys())
@pytest.mark.parametrize("method", rushhour.KIND.method_names)
def test_walled_in_red_car_is_unsolvable_at_once(method: str, text: str) -> None:
    """A horizontal piece or a wall ahead of the red car never leaves: no search needed (the
    engine's A* with the blocking heuristics took minutes on such boards, DFS longer)."""
    result = tasks.solve(rushhour.KIND, parse(text)[0].puzzle, request=Request(method))
    assert result.status == Status.UNSOLVABLE and result.stats.expanded == 0
    assert "between the red car and the exit" in result.message


def test_verify_bounds_a_walled_in_board_by_its_whole_cluster() -> None:
    b = parse(WALLED_IN["horizontal C"])[0].puzzle
    positions = differential.explore(b, "moves").cluster  # the test's own breadth-first search
    report = tasks.verify(rushhour.KIND, b, request=Request())
    assert report.agree is True and report.reference.status == Status.UNSOLVABLE
    assert report.reference.proof["lower_bound"] == positions > 1


def test_scenes_show_every_position() -> None:
    b = board(CARDS["Card-1"]["board"])
    plan = tasks.solve(rushhour.KIND, b, request=Request()).solution
    assert plan is not None
    scenes = rushhour.scenes(b, plan)
    assert len(scenes) == len(plan) + 1
    exit_row = scenes[-1].texts[b.exit_row]
    assert exit_row[-2:] == ("A", "A") and scenes[0].texts[b.exit_row].count("A") == 2
    assert all((b.exit_row, b.size - 1, "E") in s.walls for s in scenes)
    assert "move 9 of 9: A+" in scenes[-1].caption


def test_the_cluster_search_stops_at_its_memory_budget() -> None:
    b = board(cards()[-1]["board"])
    whole, _, stopped = explore(b, stop_at_goal=False)
    assert stopped is None and whole is not None and whole.size > 4096
    cluster, _, stopped = explore(b, stop_at_goal=False, memory=1)
    assert stopped is Status.LIMIT and cluster is not None and not cluster.complete
    assert cluster.size < whole.size
