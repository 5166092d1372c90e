"""Bit-packed keys, breadth-first heuristic search and BFIDA* against the test's own BFS.

The oracle is :mod:`.differential`'s breadth-first search (no code shared with the library).
Keys of several words are reached two ways: by packing small boards into narrow words
(``word_bits``), and by dense 9x9 boards whose keys need more than 62 bits.
"""

from __future__ import annotations

import csv
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.limits import Limits
from cspsolve.models.rushhour import bfs, parse, read
from cspsolve.models.rushhour.beam import plan
from cspsolve.models.rushhour.bfida import solve
from cspsolve.models.rushhour.board import Board, Piece, check
from cspsolve.models.rushhour.cluster import explore
from cspsolve.models.rushhour.deepening import _MOST_STRIDE, _TRUSTED, _stride
from cspsolve.models.rushhour.generate import hardest_start, jam, random_board, scramble
from cspsolve.models.rushhour.packed import (
    BEAM_SCORE,
    INFINITE,
    LEVELS,
    Packing,
    _estimates,
    estimates,
    search,
)
from cspsolve.models.rushhour.search import RushHourProblem, _clear_options, _owners, heuristic
from cspsolve.results import Stats, Status

from . import differential
from .conftest import DATA, cards
from .differential import Case, cases

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None)
WORD_BITS = st.sampled_from((62, 8, 4, 3))


def _oracle(board: Board, metric: str) -> differential.Oracle:
    return differential.explore(board, metric)


def _cluster(board: Board, metric: str) -> list[tuple[int, ...]]:
    """Every position reachable from the board's own, sorted (the oracle's BFS)."""
    graph = differential.Graph(board)
    cluster = differential.bfs(graph, [graph.start()], 1 if metric == "steps" else board.size)
    assert cluster is not None
    return sorted(cluster)


@given(case=cases(), word_bits=WORD_BITS, data=st.data())
@SETTINGS
def test_keys_round_trip(case: Case, word_bits: int, data: st.DataObject) -> None:
    board = case.board
    packing = Packing.of(board, word_bits=word_bits)
    assert all(int(b) <= word_bits for b in packing.bits)
    graph = differential.Graph(board)
    state = graph.start()
    for _ in range(data.draw(st.integers(0, 5))):
        options = list(graph.slides(state, board.size))
        if options:
            state = data.draw(st.sampled_from(options))
    key = packing.key(state)
    assert key.shape == (packing.words,) and (key >= 0).all()
    assert packing.offsets(key) == state
    assert packing.red_offsets(key[None, :])[0] == state[graph.red]


@pytest.mark.slow
@given(case=cases(), word_bits=WORD_BITS)
@SETTINGS
def test_whole_cluster_matches_breadth_first_search(case: Case, word_bits: int) -> None:
    board = case.board
    packing = Packing.of(board, word_bits=word_bits)
    graph = differential.Graph(board)
    expected = differential.bfs(graph, [graph.start()], board.size)
    assert expected is not None
    start = packing.key(graph.start())[None, :]
    layers = search(packing, start, budget=Limits().start(Stats()), stop_at_goal=False)
    assert layers.exhausted and layers.size == len(expected)
    found = {packing.offsets(k): layers.depth(i) for i, k in enumerate(layers.keys)}
    assert found == expected


@given(
    case=cases(),
    word_bits=WORD_BITS,
    heuristic=st.sampled_from(sorted(LEVELS)),
    metric=st.sampled_from(("moves", "steps")),
)
@SETTINGS
def test_bfida_is_optimal(case: Case, word_bits: int, heuristic: str, metric: str) -> None:
    board = case.board
    known = _oracle(board, metric)
    result = solve(board, metric=metric, heuristic=heuristic, word_bits=word_bits)
    if known.optimum is None:
        assert result.status == Status.UNSOLVABLE and result.solution is None
        return
    assert result.status == Status.OPTIMAL and result.solution is not None
    assert differential.replay(board, result.solution) is None
    assert differential.cost(result.solution, metric) == known.optimum == result.stats.cost
    assert result.proof["lower_bound"] == known.optimum


@pytest.mark.slow
@given(
    case=cases(),
    heuristic=st.sampled_from(sorted(LEVELS)),
    metric=st.sampled_from(("moves", "steps")),
)
@SETTINGS
def test_every_compiled_estimate_is_admissible(case: Case, heuristic: str, metric: str) -> None:
    """Over the whole cluster, each estimate is at most the true distance to the nearest goal
    (the oracle's breadth-first search from every goal at once)."""
    board = case.board
    graph = differential.Graph(board)
    longest = 1 if metric == "steps" else board.size
    states = _cluster(board, metric)
    goals = [s for s in states if graph.is_goal(s)]
    distance = differential.bfs(graph, goals, longest) if goals else {}
    assert distance is not None
    packing = Packing.of(board)
    keys = np.array([packing.key(s) for s in states], dtype=np.int64)
    found = estimates(packing, keys, heuristic, steps=metric == "steps")
    for state, h in zip(states, found, strict=True):
        assert 0 <= h <= distance.get(state, INFINITE), (state, h)


def _compiled_and_python(board: Board, states: list[tuple[int, ...]], metric: str) -> None:
    """Every compiled estimate equals :mod:`.search`'s Python heuristic of its name."""
    packing = Packing.of(board)
    keys = np.array([packing.key(s) for s in states], dtype=np.int64)
    problem = RushHourProblem(board, metric)
    for name in LEVELS:
        python = heuristic(name, problem)
        found = estimates(packing, keys, name, steps=metric == "steps")
        for state, h in zip(states, found, strict=True):
            expected = python(state)
            assert (h >= INFINITE) if expected == float("inf") else h == expected, (name, state)


@pytest.mark.slow
@given(case=cases(), metric=st.sampled_from(("moves", "steps")))
@SETTINGS
def test_compiled_estimates_are_the_python_heuristics(case: Case, metric: str) -> None:
    _compiled_and_python(case.board, _cluster(case.board, metric), metric)


@pytest.mark.slow
@given(seed=st.integers(0, 10**6))
@settings(max_examples=10, deadline=None, derandomize=True, database=None)
def test_compiled_estimates_on_boards_of_many_pieces(seed: int) -> None:
    """Boards of more than 62 pieces, whose piece sets take two words, along a random walk."""
    rng = random.Random(seed)
    board = random_board(rng, 16, 90, exit_row=7, trucks=0.3, red_col=0)
    assert len(board.pieces) > 62
    problem = RushHourProblem(board)
    state = problem.initial
    states = [state]
    for _ in range(200):
        _, state, _ = rng.choice(list(problem.successors(state)))
        states.append(state)
    _compiled_and_python(board, states, rng.choice(("moves", "steps")))


@pytest.mark.slow
@given(case=cases(), metric=st.sampled_from(("moves", "steps")))
@SETTINGS
def test_beam_score_sums_what_blockers_maximises(case: Case, metric: str) -> None:
    """The beam's score is ``blocking`` plus every blocker's fewest second-level pieces, summed
    (recomputed here from :mod:`.search`'s Python heuristics over the whole cluster)."""
    board = case.board
    problem = RushHourProblem(board, metric)
    blocking = heuristic("blocking", problem)
    states = _cluster(board, metric)
    packing = Packing.of(board)
    keys = np.array([packing.key(s) for s in states], dtype=np.int64)
    found = _estimates(packing, keys, BEAM_SCORE, metric == "steps")
    for state, score in zip(states, found, strict=True):
        first = blocking(state)
        if first == float("inf"):
            assert score >= INFINITE
            continue
        ahead = [
            i
            for i, p in enumerate(board.pieces)
            if not p.horizontal
            and p.col >= state[board.red_index] + board.pieces[board.red_index].length
            and state[i] <= board.exit_row < state[i] + p.length
        ]
        owner = _owners(problem, state)
        options = [_clear_options(problem, state, owner, i) for i in ahead]
        second = [min(len(found) for _, found in clear) for clear in options]
        assert score == first + sum(second), (state, score)


@given(case=cases(), nodes=st.integers(1, 300))
@SETTINGS
def test_a_stopped_search_proves_a_true_lower_bound(case: Case, nodes: int) -> None:
    known = _oracle(case.board, "moves")
    result = solve(case.board, limits=Limits(max_nodes=nodes))
    bound = result.proof.get("lower_bound")
    if result.status == Status.LIMIT:
        assert result.solution is None and bound is not None
        assert known.optimum is None or bound <= known.optimum
    elif known.optimum is not None:
        assert result.status == Status.OPTIMAL and bound == known.optimum


def test_the_bound_is_raised_only_as_far_as_trusted_growth_and_time_reach() -> None:
    """Past a small iteration the bound goes to the proven one; past a large one it goes as
    far as the growth aims, and no farther than the time left is predicted to reach."""
    big = 100 * _TRUSTED
    assert _stride([(0, 1, 0.1), (12, 10, 0.1)], 13, None) == 0
    assert _stride([(10, big, 1.0), (11, 2 * big, 2.0)], 12, None) == 1  # 2x a unit: 4x in 2
    assert _stride([(10, big, 1.0), (11, big, 1.0)], 12, None) == _MOST_STRIDE
    assert _stride([(10, big, 1.0), (11, big, 1.0)], 12, 0.5) == 0
    assert _stride([(10, big, 1.0), (11, 2 * big, 2.0)], 12, 10.0) == 1
    assert _stride([(10, big, 1.0), (11, 2 * big, 2.0)], 12, 7.0) == 0  # 8 s predicted


def test_memory_budget_stops_with_a_lower_bound() -> None:
    board = parse(cards()[-1]["board"], fmt="string")[0].puzzle
    result = solve(board, memory=2_000)
    assert result.status in (Status.LIMIT, Status.SOLVED) and "memory budget" in result.message
    assert 1 <= result.proof["lower_bound"] <= int(cards()[-1]["optimal_moves"])


@given(case=cases(), metric=st.sampled_from(("moves", "steps")))
@SETTINGS
def test_beam_search_plans_are_real_and_never_beat_the_optimum(case: Case, metric: str) -> None:
    board = case.board
    known = _oracle(board, metric)
    found = plan(board, budget=Limits().start(Stats()), steps=metric == "steps", width=4)
    if known.optimum is None:
        assert found.moves is None
        return
    assert found.moves is not None
    assert differential.replay(board, found.moves) is None
    assert differential.cost(found.moves, metric) >= known.optimum


@given(case=cases())
@SETTINGS
def test_after_the_memory_budget_a_beam_plan_stands_beside_a_true_bound(case: Case) -> None:
    board = case.board
    known = _oracle(board, "moves")
    result = solve(board, memory=1_000)
    bound = result.proof.get("lower_bound")
    if known.optimum is None:
        assert result.status in (Status.UNSOLVABLE, Status.LIMIT) and result.solution is None
        return
    assert bound is not None and bound <= known.optimum
    if result.status in (Status.SOLVED, Status.OPTIMAL):
        assert result.solution is not None
        assert differential.replay(board, result.solution) is None
        cost = differential.cost(result.solution, "moves")
        assert cost >= known.optimum and (result.status == Status.SOLVED) == (cost > bound)
    else:
        assert result.status == Status.LIMIT and result.solution is None


@pytest.mark.slow
@given(case=cases())
@SETTINGS
def test_hardest_start_is_the_farthest_position(case: Case) -> None:
    board = case.board
    graph = differential.Graph(board)
    cluster = differential.bfs(graph, [graph.start()], board.size)
    assert cluster is not None
    goals = [s for s in cluster if graph.is_goal(s)]
    found = hardest_start(board, max_states=100_000)
    if not goals:
        assert found is None
        return
    distance = differential.bfs(graph, goals, board.size)
    assert distance is not None and found is not None
    state = tuple(p.offset for p in found.board.pieces)
    assert distance[state] == found.moves == max(distance.values())
    assert found.cluster_size == len(cluster) and found.goal_states == len(goals)


@pytest.mark.slow
def test_jam_reports_proven_optima_in_range() -> None:
    found = []
    for seed in range(10):
        rng = random.Random(seed)
        start = random_board(rng, 6, 10, exit_row=2, trucks=0.3, red_col=1)
        jammed = jam(start, rng, moves=(5, 8), states=2_000, max_states=1 << 16, tries=300)
        if jammed is None:
            continue
        board = jammed.board
        assert [p.name for p in board.pieces] == [p.name for p in start.pieces]
        assert board.pieces[board.red_index] == start.pieces[start.red_index]
        assert differential.explore(board, "moves").optimum == jammed.moves
        found.append(jammed.moves)
    assert len(found) >= 5 and all(5 <= m <= 8 for m in found), found


@pytest.mark.slow
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
@SETTINGS
def test_scrambled_boards_reach_the_exit(seed: int, steps: int) -> None:
    """A walk from a solved board ends where the oracle finds a plan, the pieces on their
    lines, with no fewer ``blockers`` than the start."""
    rng = random.Random(seed)
    solved = random_board(rng, 6, 10, exit_row=2, trucks=0.3)
    board = scramble(solved, rng, steps)
    assert [(p.name, p.horizontal, p.length) for p in board.pieces] == [
        (p.name, p.horizontal, p.length) for p in solved.pieces
    ]
    assert [p.row if p.horizontal else p.col for p in board.pieces] == [
        p.row if p.horizontal else p.col for p in solved.pieces
    ]
    assert differential.explore(board, "moves").optimum is not None
    blockers = heuristic("blockers", RushHourProblem(board))
    start = heuristic("blockers", RushHourProblem(solved))
    assert blockers(tuple(p.offset for p in board.pieces)) >= start(
        tuple(p.offset for p in solved.pieces)
    )


def _dense_board(seed: int, most: int) -> Board:
    """A random 9x9 board of 30 pieces, the red car on the left, whose key needs more than 62
    bits and whose cluster holds at most ``most`` positions."""
    rng = random.Random(seed)
    while True:
        board = random_board(rng, 9, 30, exit_row=4, trucks=0.3, red_col=0)
        if Packing.of(board).words < 2:
            continue
        graph = differential.Graph(board)
        if differential.bfs(graph, [graph.start()], board.size, most) is not None:
            return board


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_dense_boards_of_wide_keys(seed: int) -> None:
    board = _dense_board(seed, most=3_000)
    packing = Packing.of(board)
    assert int(np.sum(packing.bits)) > 62
    graph = differential.Graph(board)
    expected = differential.bfs(graph, [graph.start()], board.size)
    start = packing.key(graph.start())[None, :]
    layers = search(packing, start, budget=Limits().start(Stats()), stop_at_goal=False)
    found = {packing.offsets(k): layers.depth(i) for i, k in enumerate(layers.keys)}
    assert found == expected
    for metric in ("moves", "steps"):
        known = _oracle(board, metric)
        result = solve(board, metric=metric)
        if known.optimum is None:
            assert result.status == Status.UNSOLVABLE
            continue
        assert result.status == Status.OPTIMAL and result.solution is not None
        assert differential.replay(board, result.solution) is None
        assert differential.cost(result.solution, metric) == known.optimum


def _large_boards() -> list[dict[str, str]]:
    """The rows of ``tests/data/rushhour/large.tsv``."""
    with (DATA / "large.tsv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_large_boards_are_of_the_course_kind() -> None:
    """Our generated boards (``tests/data/rushhour/large.tsv``) read as course CSV, with the
    sizes and piece counts stated, the red car on the middle row, and keys of 1-2 words on 9x9
    (2 on most, so that the benchmark's 9x9 boards take the multi-word path) and 3 on 12x12."""
    rows = _large_boards()
    assert len(rows) >= 4
    words = []
    for row in rows:
        board = read(DATA / row["board_file"])[0].puzzle
        assert board.size == int(row["size"]) and len(board.pieces) == int(row["pieces"])
        assert board.red == "X" and board.exit_row == (board.size + 1) // 2 - 1
        words.append((board.size, Packing.of(board).words))
    nine = [w for size, w in words if size == 9]
    assert set(nine) <= {1, 2} and nine.count(2) > len(nine) / 2
    assert all(w == 3 for size, w in words if size == 12)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["jammed9x9_24_s4.csv", "jammed9x9_24_s5.csv"])
def test_bfida_solves_the_jammed_9x9_boards_optimally(name: str) -> None:
    """9x9 boards of 24 pieces of the course's kind: BFIDA* finds the optimum that the
    generator's breadth-first search proved (``large.tsv``), and the oracle replays its plan."""
    (row,) = [row for row in _large_boards() if row["board_file"] == name]
    board = read(DATA / name)[0].puzzle
    result = solve(board, limits=Limits(time_limit=120))
    assert result.status == Status.OPTIMAL and result.solution is not None
    assert differential.replay(board, result.solution) is None
    assert differential.cost(result.solution, "moves") == int(row["optimal_moves"])


@pytest.mark.slow
def test_beam_search_plans_the_scrambled_12x12_board() -> None:
    """The 12x12 board of 44 pieces that exact search cannot finish in a minute gets a real
    plan from beam search."""
    board = read(DATA / "scrambled12x12_44_s2.csv")[0].puzzle
    found = plan(board, budget=Limits(time_limit=120).start(Stats()))
    assert found.moves is not None and check(board, found.moves) == []


def test_plans_name_pieces_past_the_127th() -> None:
    """Piece indices are stored in 16 bits: the red car as piece 134 of a 24x24 board."""
    cars = [
        Piece(f"C{k}", row, col, 2, False)
        for k, (row, col) in enumerate(
            (row, col) for row in (0, 2, 4, 6, 8, 12, 14, 16, 18, 20, 22) for col in range(12)
        )
    ]
    blocker = Piece("B", 9, 20, 2, False)
    red = Piece("X", 10, 0, 2, True)
    board = Board(24, (*cars, blocker, red), frozenset(), "X")
    result = solve(board)
    assert result.status == Status.OPTIMAL and result.solution is not None
    assert [str(m) for m in result.solution] in (["B-1", "X+22"], ["B+2", "X+22"])
    assert check(board, result.solution) == []


@given(case=cases(), metric=st.sampled_from(("moves", "steps")))
@SETTINGS
def test_both_breadth_first_searches_count_alike(case: Case, metric: str) -> None:
    # bfs runs in plain Python (bfs.search) at first and compiled (cluster.explore) beyond:
    # the same search must report the same counters and plan length either way.
    board = case.board
    stats = Stats()
    outcome = bfs.search(board, Limits().start(stats), steps=metric == "steps", most=math.inf)
    assert outcome is not None
    found, compiled, stopped = explore(board, steps=metric == "steps")
    assert found is not None and stopped is None
    if outcome.plan == []:
        return  # solved at the start: neither search expands a node
    assert (stats.expanded, stats.generated, stats.max_frontier) == (
        compiled.expanded,
        compiled.generated,
        compiled.max_frontier,
    )
    plan = found.plan(found.goal) if found.goal >= 0 else None
    assert (outcome.plan is None) == (plan is None)
    assert outcome.plan is None or plan is None or len(outcome.plan) == len(plan)
