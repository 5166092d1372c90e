"""``anytime`` with its lanes in two processes (``workers=2``) and on a Dask cluster gives the
answers of one process: the same status, and the same optimal length, which is breadth-first
search's (:func:`.differential.explore`)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings

from cspsolve.models.rushhour.board import Board
from cspsolve.results import Status

from .differential import Case, cases, explore, replay
from .test_anytime import anytime, assert_sound, card


def assert_same(board: Board, **parallel: Any) -> None:
    """``anytime`` on one core and with ``parallel`` limits agree with each other and with
    breadth-first search."""
    known = explore(board, "moves")
    one, two = anytime(board), anytime(board, **parallel)
    for result in (one, two):
        assert_sound(board, "moves", known, result)
    assert one.status is two.status
    assert one.stats.cost == two.stats.cost
    if two.solution is not None:
        assert replay(board, two.solution) is None


@settings(max_examples=10, deadline=None)
@given(case=cases())
def test_two_workers_give_the_answer_of_one(case: Case) -> None:
    assert_same(case.board, workers=2)


def test_two_workers_prove_the_optimum_of_a_card() -> None:
    assert_same(card("Card-32"), workers=2)


def test_a_dask_cluster_gives_the_answer_of_one_process(dask_scheduler: str) -> None:
    board = card("Card-18")
    result = anytime(board, workers=2, scheduler=dask_scheduler)
    assert_sound(board, "moves", explore(board, "moves"), result)
    assert result.status is Status.OPTIMAL
