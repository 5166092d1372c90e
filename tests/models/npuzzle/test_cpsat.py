"""The CP-SAT model of sliding tiles (``--method cpsat``) against breadth-first search.

The differential test draws a board size (every size of :data:`.differential.SIZES`, and 3x4
and 4x3), a random goal, and a start that the blank's random walk from the goal reaches (so
every case is solvable; the unsolvable ones meet CP-SAT in :mod:`.differential`'s test). The
oracle is a bidirectional breadth-first search written here, sharing no code with the library:
the 3x4 board's 239,500,800 positions are too many for a search of the whole graph, so the walk
stays short enough (:data:`WALKS`) for the two frontiers to meet. CP-SAT must find a plan that
:func:`.differential.replay` takes to the goal, of the oracle's length, proven optimal, with
every horizon it calls infeasible below the optimum and of the optimum's parity.

``CSPSOLVE_FUZZ=N`` (or ``pytest --fuzz N``) draws N cases.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from cspsolve import registry, tasks
from cspsolve.cli import cli
from cspsolve.instances import ROOT
from cspsolve.limits import Limits
from cspsolve.models.npuzzle import cpsat, kind
from cspsolve.models.npuzzle.board import Puzzle
from cspsolve.results import Result, Stats, Status
from cspsolve.tasks import Request

from ...fuzzing import differential
from .differential import SIZES, neighbours, replay, successors

WALKS = {12: 60}
"""Longest random walk of the blank per board of that many cells (default :data:`WALK`)."""
WALK = 80
"""Longest random walk on boards of at most 9 cells: any 2x4 or 3x3 distance in reach."""
ORACLE_STATES = 2_000_000
"""Most positions the oracle keeps: a walk whose ends lie farther apart is drawn again."""


def distance(puzzle: Puzzle) -> int | None:
    """The fewest moves from start to goal by bidirectional breadth-first search (a layer of
    the smaller frontier at a time); ``None`` when more than :data:`ORACLE_STATES` positions
    would be kept."""
    adjacent = neighbours(puzzle.rows, puzzle.cols)
    start, goal = bytes(puzzle.start), bytes(puzzle.goal)
    if start == goal:
        return 0
    seen = [{start: 0}, {goal: 0}]
    frontier = [[start], [goal]]
    while frontier[0] and frontier[1]:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        mine, other = seen[side], seen[1 - side]
        layer: list[bytes] = []
        best = None
        for board in frontier[side]:
            d = mine[board] + 1
            for key in successors(board, adjacent):
                if key in other:
                    total = d + other[key]
                    best = total if best is None else min(best, total)
                if key not in mine:
                    mine[key] = d
                    layer.append(key)
        if best is not None:
            return best
        if len(mine) + len(other) > ORACLE_STATES:
            return None
        frontier[side] = layer
    return None


@st.composite
def walked(draw: st.DrawFn) -> Puzzle:
    """A random size and goal, and a start the blank's random walk from the goal reaches."""
    rows, cols = draw(st.sampled_from((*SIZES, (3, 4), (4, 3))))
    goal = draw(st.permutations(range(rows * cols)))
    steps = draw(st.integers(0, WALKS.get(rows * cols, WALK)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    board, adjacent = list(goal), neighbours(rows, cols)
    for _ in range(steps):
        blank = board.index(0)
        cell = rng.choice(adjacent[blank])
        board[blank], board[cell] = board[cell], 0
    return Puzzle(rows, cols, tuple(board), tuple(goal))


@pytest.mark.slow
@differential(ci=30)
@given(puzzle=walked(), heuristic=st.sampled_from(kind.CPSAT_HEURISTICS))
def test_cpsat_finds_the_optimum_of_breadth_first_search(puzzle: Puzzle, heuristic: str) -> None:
    best = distance(puzzle)
    if best is None:
        return  # beyond the oracle (a long walk on a 3x4 board): nothing to compare
    request = Request("cpsat", heuristic)
    result = tasks.solve(kind.KIND, puzzle, request=request, limits=Limits(time_limit=120))
    assert result.status is Status.OPTIMAL, (result.status, result.message)
    assert result.solution is not None and replay(puzzle, result.solution) is None
    assert len(result.solution) == result.stats.cost == best
    assert result.proof["lower_bound"] == best
    for horizon in result.proof["infeasible"]:
        assert horizon < best and (best - horizon) % 2 == 0, result.proof


def test_plan_within_is_exact_at_the_optimum() -> None:
    """A horizon of the optimum has a plan; one move fewer has none (the parity rule lowers
    it to two fewer, which the model proves infeasible)."""
    puzzle = Puzzle.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    best = distance(puzzle)
    assert best == 2
    below, at = cpsat.plan_within(puzzle, best - 1), cpsat.plan_within(puzzle, best)
    assert below.status == "infeasible" and below.plan is None
    assert at.status == "feasible" and at.plan is not None and replay(puzzle, at.plan) is None
    longer = cpsat.plan_within(puzzle, best + 6)
    assert longer.plan is not None and replay(puzzle, longer.plan) is None
    assert len(longer.plan) <= best + 6


def test_an_estimate_that_overestimates_claims_no_optimum() -> None:
    """Deepening from 6 on a 2-move board: the plan found is not called optimal, and no bound
    is claimed."""
    puzzle = Puzzle.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    result = cpsat.solve(puzzle, estimate=6)
    assert result.status is Status.SOLVED and result.stats.cost == 2
    assert "lower_bound" not in result.proof and "not admissible" in (result.message or "")


def test_the_worst_eight_puzzle_is_proven_optimal(eight_distances: dict[bytes, int]) -> None:
    """31 moves, the 8-puzzle's largest distance: every odd horizon from the Manhattan
    distance to 29 is proven infeasible."""
    path = ROOT / "npuzzle" / "worst8.json"
    [entry] = kind.KIND.read(path)
    result = tasks.solve(kind.KIND, entry.puzzle, request=Request("cpsat"))
    assert eight_distances[bytes(entry.puzzle.start)] == 31
    assert result.status is Status.OPTIMAL and result.stats.cost == 31
    assert result.proof["infeasible"] == list(range(21, 31, 2))
    assert result.heuristic == "manhattan"


def test_an_unsolvable_board_is_answered_by_parity_before_any_model() -> None:
    puzzle = Puzzle(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    result = tasks.solve(kind.KIND, puzzle, request=Request("cpsat"))
    assert result.status is Status.UNSOLVABLE and result.stats.probes == 0
    assert "inversion" in (result.message or "")


def test_a_model_too_large_is_not_built() -> None:
    """A scrambled 32 x 32 board: the first model would have millions of Booleans; the run
    says so at once, with the Manhattan distance as its bound."""
    rng = random.Random(5)
    board, adjacent = [*range(1, 1024), 0], neighbours(32, 32)
    for _ in range(20_000):
        blank = board.index(0)
        cell = rng.choice(adjacent[blank])
        board[blank], board[cell] = board[cell], 0
    puzzle = Puzzle(32, 32, tuple(board))
    result = cpsat.solve(puzzle, limits=Limits(time_limit=10))
    assert result.status is Status.LIMIT and result.stats.seconds < 5
    assert f"more than {cpsat.MAX_LITERALS:,}" in (result.message or "")
    assert result.proof["lower_bound"] == cpsat.first_horizon(puzzle)


def test_a_stopped_run_reports_the_bound_it_proved() -> None:
    """Korf's 15-puzzle 1 (57 moves) in 3 s: the horizons proven infeasible, each below 57,
    and the bound after the last."""
    tiles = (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)
    puzzle = Puzzle(4, 4, tiles, tuple(range(16)))
    result = cpsat.solve(puzzle, limits=Limits(time_limit=3))
    assert result.status is Status.LIMIT and result.solution is None
    assert result.stats.seconds <= 3.5
    infeasible = result.proof["infeasible"]
    assert all(h < 57 for h in infeasible)
    assert result.proof["lower_bound"] == (infeasible[-1] + 2 if infeasible else 41)
    if infeasible:
        assert f"horizons up to {infeasible[-1]} proven infeasible" in (result.message or "")


def test_a_cancelled_run_stops() -> None:
    import threading

    tiles = (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)
    puzzle = Puzzle(4, 4, tiles, tuple(range(16)))
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    result = cpsat.solve(puzzle, limits=Limits(cancel=cancel))
    assert result.status is Status.CANCELLED and result.stats.seconds < 1.5


# --- verify -----------------------------------------------------------------------------------


def test_verify_checks_the_search_against_cpsat() -> None:
    puzzle = Puzzle(3, 3, (0, 3, 7, 2, 8, 4, 1, 6, 5))
    best = distance(puzzle)
    report = tasks.verify(kind.KIND, puzzle)
    assert report.agree is True, report.problems
    assert report.search.method == "astar" and report.reference.method == "cpsat"
    assert report.reference.proof["lower_bound"] == report.search.stats.cost == best
    assert f"cpsat proves that no solution costs less than {best}" in " ".join(report.words())


def test_cpsat_catches_a_plan_called_optimal_that_is_not() -> None:
    """A search that called a 4-move plan optimal where 2 moves do: CP-SAT finds the shorter
    plan and the two disagree."""
    puzzle = Puzzle.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    detour = ["U", "D", "D", "R"]
    claimed = Result(Status.OPTIMAL, detour, Stats(cost=4, depth=4), "astar")
    confirm = kind.KIND.method("cpsat").confirm
    assert confirm is not None
    reference = confirm(puzzle, claimed, options=kind.SlidingTileOptions(), limits=None)
    reference.method = "cpsat"
    agree, problems = tasks.agreement(kind.KIND, puzzle, claimed, reference)
    assert agree is False and reference.stats.cost == 2, problems


def test_cpsat_proves_a_claimed_optimum_too_short() -> None:
    """A search that called 2 moves optimal where 4 are needed: CP-SAT proves every horizon
    up to 2 infeasible, and the bound it proves is one of the problems found."""
    puzzle = Puzzle.from_rows([[0, 1, 3], [4, 2, 5], [7, 8, 6]])
    claimed = Result(Status.OPTIMAL, ["R", "D"], Stats(cost=2, depth=2), "astar")
    confirm = kind.KIND.method("cpsat").confirm
    assert confirm is not None
    reference = confirm(puzzle, claimed, options=kind.SlidingTileOptions(), limits=None)
    reference.method = "cpsat"
    assert reference.status is Status.LIMIT and reference.proof["lower_bound"] == 4
    assert "2 was the last horizon asked for" in (reference.message or "")
    agree, problems = tasks.agreement(kind.KIND, puzzle, claimed, reference)
    assert agree is False
    assert "astar found cost 2, below the bound 4 cpsat proves" in problems


@pytest.mark.slow
def test_verify_of_a_fifteen_puzzle_reports_the_bound_cpsat_proved() -> None:
    """Within a 4 s limit the search finds the optimum (42 moves) and CP-SAT proves a bound
    no higher, said in words and in JSON. A solve first builds the pattern databases (on a
    fresh cache they take longer than the limit) and loads the compiled search."""
    path = ROOT / "npuzzle" / "korf15-easy.korf"
    _, [entry] = registry.load(f"{path}#79")
    assert tasks.solve(kind.KIND, entry.puzzle).stats.cost == 42
    result = CliRunner().invoke(
        cli, ["verify", f"{path}#79", "--time-limit", "4", "--format", "json"]
    )
    record = json.loads(result.stdout)
    assert record["status"] == "optimal"
    bound = record["reference"]["proof"]["lower_bound"]
    cost = record["stats"]["cost"]
    assert bound <= cost
    if record["agree"] is None:
        assert result.exit_code == 3
        assert f"no solution costs less than {bound}" in " ".join(record["words"])
    else:
        assert record["agree"] is True and bound == cost


# --- explain and the constraint graph ---------------------------------------------------------


def test_explain_names_the_infeasible_horizons() -> None:
    puzzle = Puzzle.from_rows([[0, 1, 3], [4, 2, 5], [7, 8, 6]])
    best = distance(puzzle)
    explanation = kind.KIND.explain(
        puzzle, method="cpsat", heuristic=None, options=kind.SlidingTileOptions(), limits=None
    )
    assert explanation.summary["cost"] == best == len(explanation.steps)
    infeasible = explanation.summary["infeasible"]
    assert infeasible == list(range(cpsat.first_horizon(puzzle), best, 2))
    words = " ".join(explanation.proof)
    assert f"At horizon {best} it found a plan" in words
    if infeasible:
        assert f"infeasible at horizon{'s' * (len(infeasible) > 1)} " in words


def test_the_constraint_graph_links_each_time_and_each_step(tmp_path: Path) -> None:
    puzzle = Puzzle.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]])  # Manhattan 2: horizon 2
    graph = kind.KIND.constraint_graph
    assert graph is not None
    network = graph(puzzle)
    assert network.number_of_nodes() == 9  # one time between start and goal
    assert nx.density(network) == 1.0
    bigger = graph(Puzzle.from_rows([[0, 1, 3], [4, 2, 5], [7, 8, 6]]))  # horizon 4
    assert bigger.number_of_nodes() == 27 and nx.is_connected(bigger)
    assert not bigger.has_edge(("tile", 1, 1), ("tile", 2, 3))
    image = tmp_path / "graph.svg"
    ran = CliRunner().invoke(
        cli, ["graph", str(ROOT / "npuzzle" / "worst8.json"), "--image", image]
    )
    assert ran.exit_code == 0 and image.stat().st_size > 0
    assert "180 variables" in ran.output


def test_a_graph_too_large_is_refused_in_one_line(tmp_path: Path) -> None:
    board = tmp_path / "big.json"
    start = [*range(1, 400), 0]
    start[0], start[398] = start[398], start[0]
    board.write_text(json.dumps({"rows": 20, "cols": 20, "start": start}), encoding="utf-8")
    ran = CliRunner().invoke(cli, ["graph", str(board), "--image", str(tmp_path / "g.png")])
    assert ran.exit_code == 2
    assert "variables; it is drawn up to 20,000" in ran.output
