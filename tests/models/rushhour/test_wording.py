"""Counts in messages agree with their number: ``1 move``, ``2 moves``."""

from __future__ import annotations

import pytest

from cspsolve import tasks
from cspsolve.errors import InputError
from cspsolve.models.rushhour import Board, Move, Piece, check, cpsat, kind, parse
from cspsolve.tasks import Request

RED = Piece("A", 2, 0, 2, True)


def noun(count: int, singular: str) -> str:
    """The expected words, written out: ``1 move``, ``2 moves``."""
    return f"{count} {singular}" if count == 1 else f"{count} {singular}s"


@pytest.mark.parametrize("count", [1, 2])
def test_counts_take_the_plural_only_when_not_one(count: int) -> None:
    others = (Piece("B", 0, 5, 2, False),)[: count - 1]
    board = Board(6, (RED, *others), frozenset(), "A")
    assert kind.describe(board) == f"6x6, {noun(count, 'piece')}"
    short = [Move("A", 1)] * count
    assert check(board, short) == [f"after {noun(count, 'move')} the red car A is not at the exit"]
    assert f"\n{noun(count, 'move')}:\n" in kind.draw(board, short)
    bounded = cpsat.solve(board, metric="steps", stop=count)  # the red car needs 4 steps
    assert bounded.message == f"no plan of at most {noun(count, 'step')} (proven); stopped there"
    row = "." * count
    with pytest.raises(InputError, match=f"row has {noun(count, 'cell')};"):
        parse(f"AA.\n{row}\n...\n", "t.txt", fmt="grid")


def test_a_board_where_nothing_moves_is_not_one_of_1_positions() -> None:
    pieces = (Piece("A", 1, 0, 2, True), Piece("B", 0, 2, 2, False))  # B held by a wall
    stuck = Board(3, pieces, frozenset({(2, 2)}), "A")
    result = tasks.solve(kind.KIND, stuck, request=Request())
    assert result.message == "no plan: no piece can move, and the red car is not at the exit"


def test_no_bound_is_claimed_before_the_first_horizon_is_settled() -> None:
    board = Board(6, (RED,), frozenset(), "A")
    result = cpsat.solve(board, metric="moves", stop=-1)
    assert result.proof["lower_bound"] == 0 and "-1" not in result.message
