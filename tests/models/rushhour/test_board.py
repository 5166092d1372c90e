"""Boards, moves and the independent plan checker."""

from __future__ import annotations

import pytest

from cspsolve.errors import PuzzleError
from cspsolve.models.rushhour import Board, Move, Piece, check, replay

RED = Piece("A", 2, 0, 2, True)


def test_move_text_round_trips() -> None:
    for text in ("A+2", "B-1", "AB+10"):
        assert str(Move.parse(text)) == text
    for bad in ("A+0", "A2", "+2", "A*1"):
        with pytest.raises(PuzzleError):
            Move.parse(bad)


@pytest.mark.parametrize(
    ("pieces", "walls", "message"),
    [
        ((RED, Piece("B", 0, 0, 1, False)), (), "length 1"),
        ((RED, Piece("B", 0, 4, 3, True)), (), "leaves the board"),
        ((RED, Piece("B", 1, 1, 2, False)), (), "overlaps"),
        ((RED,), ((2, 1),), "overlaps a wall"),
        ((Piece("A", 0, 0, 2, False),), (), "must be horizontal"),
        ((Piece("B", 0, 0, 2, True),), (), "no red car"),
    ],
)
def test_invalid_boards_are_refused(
    pieces: tuple[Piece, ...], walls: tuple[tuple[int, int], ...], message: str
) -> None:
    with pytest.raises(PuzzleError, match=message):
        Board(6, pieces, frozenset(walls), "A")


def test_check_replays_cell_by_cell() -> None:
    b = Board(6, (RED, Piece("B", 1, 3, 2, False)), frozenset({(0, 3)}), "A")
    assert check(b, [Move("B", 2), Move("A", 4)]) == []
    assert "runs into 'B'" in check(b, [Move("A", 4)])[0]
    assert "runs into 'x'" in check(b, [Move("B", -1)])[0]
    assert "not at the exit" in check(b, [Move("B", 2)])[0]
    assert "no piece C" in check(b, [Move("C", 1)])[0]
    final = replay(b, [Move("B", 2), Move("A", 3)])[-1]
    assert final.piece("A").col == 3 and final.piece("B").row == 3
