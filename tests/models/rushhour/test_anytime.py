"""The ``anytime`` method against breadth-first search written in the tests, and its limits.

Every plan must replay to the exit (:func:`.differential.replay`), the lower bound it reports
must never exceed the oracle's optimum (:func:`.differential.explore`), ``optimal`` must come
with exactly that optimum, and an unsolvable board must never get a plan. Node limits stop it
at every point of its lanes (a plan found, the bound part-way), and the time limit and
cancellation hold on a 12x12 board of 44 pieces.
"""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.rushhour import kind, read
from cspsolve.models.rushhour.anytime import solve
from cspsolve.models.rushhour.beam import shortcut
from cspsolve.models.rushhour.board import Board, Move, merged
from cspsolve.results import Result, Status
from cspsolve.tasks import Request

from .conftest import DATA, board, cards
from .differential import Case, Graph, Oracle, cases, cost, explore, replay

SCRAMBLED = DATA / "scrambled12x12_44_s2.csv"
"""Solvable by construction; beam search finds a plan of 20 moves, so the optimum is at most
20."""
SCRAMBLED_PLAN = 20
MARGIN = 0.5
"""Seconds a run may exceed its time limit."""


def anytime(
    board: Board, metric: str = "moves", heuristic: str | None = None, **limits: object
) -> Result[list[Move]]:
    """``anytime`` on ``board`` through the kind, as the command line runs it."""
    request = Request("anytime", heuristic, {"metric": metric})
    return tasks.solve(kind.KIND, board, request=request, limits=Limits(**limits))  # type: ignore[arg-type]


def assert_sound(board: Board, metric: str, known: Oracle, result: Result[list[Move]]) -> None:
    """Whatever ``result`` says agrees with the oracle ``known``: a plan replays and costs what
    it says, the lower bound is at most the optimum, ``optimal`` is the optimum, and only an
    unsolvable board is called so."""
    bound = result.proof.get("lower_bound")
    if known.optimum is None:
        assert result.solution is None and not result.status.has_solution
        assert result.status in (Status.UNSOLVABLE, Status.LIMIT), result.status
        return
    assert result.status is not Status.UNSOLVABLE
    assert bound is not None and bound <= known.optimum, (bound, known.optimum)
    if result.solution is not None:
        assert replay(board, result.solution) is None
        assert result.stats.cost == cost(result.solution, metric) >= known.optimum
    if result.status is Status.OPTIMAL:
        assert result.stats.cost == known.optimum == bound


@settings(max_examples=30, deadline=None)
@given(
    case=cases(),
    metric=st.sampled_from(("moves", "steps")),
    heuristic=st.sampled_from(("blockers", "union", "zero")),
)
def test_anytime_ends_at_the_optimum_or_unsolvable(case: Case, metric: str, heuristic: str) -> None:
    known = explore(case.board, metric)
    result = anytime(case.board, metric, heuristic)
    assert_sound(case.board, metric, known, result)
    expected = Status.UNSOLVABLE if known.optimum is None else Status.OPTIMAL
    assert result.status is expected, (result.status, result.message)


@settings(max_examples=30, deadline=None)
@given(case=cases(), nodes=st.integers(0, 400))
def test_a_node_limit_leaves_every_answer_sound(case: Case, nodes: int) -> None:
    known = explore(case.board, "moves")
    result = anytime(case.board, max_nodes=nodes)
    assert_sound(case.board, "moves", known, result)
    assert result.stats.expanded <= nodes or result.status in (Status.OPTIMAL, Status.UNSOLVABLE)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_time_limit_holds_on_a_12x12_board(workers: int) -> None:
    board = read(SCRAMBLED)[0].puzzle
    began = time.perf_counter()
    result = anytime(board, time_limit=1.0, workers=workers)
    assert time.perf_counter() - began <= 1.0 + MARGIN
    assert result.stats.seconds <= 1.0 + MARGIN
    assert result.status in (Status.LIMIT, Status.SOLVED), result.status
    assert 0 < result.proof["lower_bound"] <= SCRAMBLED_PLAN
    if result.solution is not None:
        assert replay(board, result.solution) is None


@pytest.mark.parametrize("workers", [1, 2])
def test_cancellation_stops_both_lanes(workers: int) -> None:
    board = read(SCRAMBLED)[0].puzzle
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    began = time.perf_counter()
    result = anytime(board, cancel=cancel, workers=workers)
    timer.join()
    assert time.perf_counter() - began <= 0.3 + MARGIN
    assert result.status is Status.CANCELLED and result.solution is None


def test_the_node_limit_counts_both_processes() -> None:
    board = read(SCRAMBLED)[0].puzzle
    result = anytime(board, max_nodes=300, workers=2)
    assert result.stats.expanded <= 300
    assert result.status is Status.LIMIT and result.solution is None


@pytest.mark.parametrize("nodes", [2_000, 5_000, 10_000, 20_000])
def test_a_plan_found_before_the_limit_is_kept_beside_the_bound(nodes: int) -> None:
    """Card 18 (40 moves) with beams from 4 states wide: their first plans are long, and a
    node limit stops the bound below 40; the best plan then comes beside the bound."""
    board = card("Card-18")
    result = solve(board, width=4, limits=Limits(max_nodes=nodes))
    assert result.status is Status.SOLVED, result.status
    assert_sound(board, "moves", Oracle(40, 0), result)
    assert result.proof["lower_bound"] < result.stats.cost
    assert result.stats.expanded <= nodes


def card(name: str) -> Board:
    """The board of a card of ``cards.tsv``."""
    (row,) = [r for r in cards() if r["card"] == name]
    return board(row["board"])


def test_the_explanation_says_how_the_optimum_was_proven() -> None:
    board = card("Card-18")
    request = Request("anytime", None, {"metric": "moves"})
    explanation = tasks.explain(kind.KIND, board, request=request)
    assert explanation.result.status is Status.OPTIMAL
    assert "BFIDA*'s iterations proved every plan at least 40 moves long" in " ".join(
        explanation.proof
    )


@settings(max_examples=25, deadline=None)
@given(case=cases(), steps=st.booleans(), data=st.data())
def test_shortcut_keeps_a_walk_legal_and_its_end(
    case: Case, steps: bool, data: st.DataObject
) -> None:
    """A random walk of slides (one-cell steps with ``steps``), shortened, is still legal in
    the board's state graph (written in the tests), ends where the walk ends, and costs no
    more."""
    graph = Graph(case.board)
    longest = 1 if steps else case.board.size
    state, walk = graph.start(), []
    for _ in range(data.draw(st.integers(0, 40))):
        options = list(graph.slides(state, longest))
        if not options:
            break
        after = data.draw(st.sampled_from(options))
        walk.append(_move(graph, state, after))
        state = after
    short = shortcut(case.board, walk, steps=steps)
    assert len(short) <= len(walk)
    at = graph.start()
    for move in short:
        assert abs(move.delta) == 1 or not steps
        after = _after(graph, at, move)
        assert after in set(graph.slides(at, longest)), (move, walk, short)
        at = after
    assert at == state
    assert len(merged(short)) == len(short) or steps
    assert sum(abs(m.delta) for m in merged(short)) == len(short) or not steps


def _move(graph: Graph, before: tuple[int, ...], after: tuple[int, ...]) -> Move:
    (i,) = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    return Move(graph.board.pieces[i].name, after[i] - before[i])


def _after(graph: Graph, state: tuple[int, ...], move: Move) -> tuple[int, ...]:
    i = [p.name for p in graph.board.pieces].index(move.piece)
    return (*state[:i], state[i] + move.delta, *state[i + 1 :])
