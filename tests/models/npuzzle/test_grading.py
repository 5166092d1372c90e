"""The sliding-tile grade: its scale against breadth-first search, its words the same in
``explain`` and ``analyze``.

The diameters of the small boards come from the breadth-first tables of :mod:`.differential`
(written in the tests, from the goal's blank in a corner); the half-turn distance from tiles
moved here one by one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cspsolve import plans, tasks
from cspsolve.models.npuzzle import grading
from cspsolve.models.npuzzle.kind import KIND

from .differential import distances

INSTANCES = Path(__file__).resolve().parents[3] / "instances" / "npuzzle"


@pytest.mark.parametrize(("rows", "cols"), [(1, 5), (4, 1), (2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_the_scale_of_a_small_board_is_its_diameter(rows: int, cols: int) -> None:
    corner = rows * cols - 1
    assert grading.scale(rows, cols) == max(distances(rows, cols, corner).values())


@given(rows=st.integers(1, 9), cols=st.integers(1, 9))
def test_half_turn_distance_moves_every_tile_to_the_opposite_cell(rows: int, cols: int) -> None:
    total = 0
    for cell in range(rows * cols - 1):  # the blank (last cell) is not counted
        r, c = divmod(cell, cols)
        total += abs(rows - 1 - 2 * r) + abs(cols - 1 - 2 * c)
    assert grading.half_turn_distance(rows, cols) == total


def test_the_estimate_is_within_a_fifth_of_every_known_diameter() -> None:
    for (rows, cols), diameter in grading.DIAMETERS.items():
        if rows * cols >= 6:
            estimate = grading.ESTIMATE_FACTOR * grading.half_turn_distance(rows, cols)
            assert 0.8 <= estimate / diameter <= 1.2, (rows, cols)
    assert grading.scale(4, 5) == grading.scale(5, 4) > grading.scale(4, 4)


def explained_and_analyzed(name: str) -> tuple[str | None, str | None]:
    """The grade ``explain`` and ``analyze`` give the board of instance ``name``."""
    puzzle = KIND.read(INSTANCES / name)[0].puzzle
    explained = tasks.explain(KIND, puzzle).summary["grade"]
    analyzed = tasks.analyze(KIND, puzzle)["grade"]
    return explained, analyzed


@pytest.mark.parametrize("name", ["easy8.txt", "worst8.json", "small2x4.txt", "unsolvable8.json"])
def test_explain_and_analyze_grade_in_the_same_words(name: str) -> None:
    explained, analyzed = explained_and_analyzed(name)
    assert explained == analyzed and explained in (*plans.GRADES, "unsolvable")


def test_the_hardest_eight_puzzle_is_the_top_grade() -> None:
    assert explained_and_analyzed("worst8.json") == (plans.GRADES[-1], plans.GRADES[-1])
