"""The Rush Hour grade: the same words in ``explain`` and ``analyze``, on the scale of the
board's size.

The in-repository cards (``tests/data/rushhour/cards.tsv``) carry their published optima and
ThinkFun's bands: the easiest Beginner card (9 moves) must grade ``easy``, the Expert card
card-32 (49 moves) the top grade.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cspsolve import plans, tasks
from cspsolve.models.rushhour import Board, grading
from cspsolve.models.rushhour.kind import KIND

from .conftest import board, cards

INSTANCES = Path(__file__).resolve().parents[3] / "instances" / "rushhour"

CARDS = {row["card"]: row for row in cards()}


def graded(puzzle: Board) -> tuple[str | None, str | None]:
    """The grade ``explain`` and ``analyze`` give ``puzzle``."""
    return tasks.explain(KIND, puzzle).summary["grade"], tasks.analyze(KIND, puzzle)["grade"]


@pytest.mark.parametrize("name", sorted(p.name for p in INSTANCES.iterdir() if p.suffix != ".md"))
def test_shipped_boards_grade_alike_in_explain_and_analyze(name: str) -> None:
    explained, analyzed = graded(KIND.read(INSTANCES / name)[0].puzzle)
    assert explained == analyzed and explained in plans.GRADES


@pytest.mark.parametrize("card", sorted(CARDS))
def test_cards_grade_alike_by_their_published_optimum(card: str) -> None:
    row = CARDS[card]
    puzzle = board(row["board"])
    expected = grading.grade(puzzle, int(row["optimal_moves"]))
    assert graded(puzzle) == (expected, expected)


def test_the_scale_spans_the_cards_from_beginner_to_expert() -> None:
    assert graded(board(CARDS["Card-1"]["board"])) == ("easy", "easy")
    assert graded(board(CARDS["Card-32"]["board"])) == (plans.GRADES[-1], plans.GRADES[-1])


def test_an_unsolvable_board_grades_unsolvable() -> None:
    walled = Board.from_rows(["......", "......", "AA.x..", "......", "......", "......"])
    assert graded(walled) == ("unsolvable", "unsolvable")


def test_the_scale_grows_with_the_board() -> None:
    six = Board.from_rows(["......", "......", "AA....", "......", "......", "......"])
    walled = Board.from_rows(["x.....", "......", "AA....", "......", "......", "......"])
    nine = Board.from_rows([".........", "AA.......", *["........."] * 7])
    assert grading.scale(six) == grading.HARDEST < grading.scale(walled) == grading.HARDEST_WALLED
    assert grading.scale(six) < grading.scale(nine)
