"""Board validation, the solvability rule against brute force, and the plan checker."""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.errors import PuzzleError
from cspsolve.models.npuzzle.board import (
    MOVES,
    Puzzle,
    apply,
    check,
    default_goal,
    korf_goal,
    solvability,
)
from cspsolve.models.npuzzle.search import SlidingTileProblem


def reachable(rows: int, cols: int, goal: tuple[int, ...]) -> set[bytes]:
    """Every board from which ``goal`` can be reached (moves are reversible), by BFS."""
    problem = SlidingTileProblem(Puzzle(rows, cols, goal, goal))
    seen = {problem.initial}
    queue = deque(seen)
    while queue:
        for _, nxt, _ in problem.successors(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (1, 4), (4, 1), (2, 4)])
def test_solvability_rule_matches_brute_force(rows: int, cols: int) -> None:
    cells = rows * cols
    for goal in (default_goal(cells), korf_goal(cells), (1, 0, *range(2, cells))):
        ok_states = reachable(rows, cols, goal)
        for start in itertools.permutations(range(cells)):
            ok, why = solvability(Puzzle(rows, cols, start, goal))
            assert ok == (bytes(start) in ok_states), (start, goal, why)
            assert why.startswith("solvable" if ok else "unsolvable")


def test_explanation_names_inversions_and_blank_row() -> None:
    # the 15-puzzle with 14 and 15 swapped (Sam Loyd's): 1 inversion, blank on its goal row
    start = (*range(1, 14), 15, 14, 0)
    ok, why = solvability(Puzzle(4, 4, start))
    assert not ok
    assert "1 inversion and" in why and "0 rows from its goal row" in why


@pytest.mark.parametrize(
    "rows, cols, start, goal, message",
    [
        (3, 3, (1, 2, 3, 4, 5, 6, 7, 8), (), "8 cells, expected 9"),
        (3, 3, (1, 1, 3, 4, 5, 6, 7, 8, 0), (), "tile 1 twice"),
        (3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 9), (), "outside 0..8"),
        (1, 1, (0,), (), "too small"),
        (2, 2, (1, 2, 3, 0), (1, 2, 3, 4), "goal holds 4"),
    ],
)
def test_bad_boards(
    rows: int, cols: int, start: tuple[int, ...], goal: tuple[int, ...], message: str
) -> None:
    with pytest.raises(PuzzleError, match=message):
        Puzzle(rows, cols, start, goal)


def test_check_reports_illegal_and_short_plans() -> None:
    puzzle = Puzzle(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))
    assert check(puzzle, ["R"]) == []
    assert check(puzzle, ["D"]) == [
        "move 1 (D): move D takes the blank off the board from row 2, column 1"
    ]
    assert check(puzzle, []) == ["after 0 moves the board is not the goal"]
    assert check(puzzle, ["X"])[0].startswith("move 1 (X): unknown move")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(2, 4),
    st.lists(st.sampled_from(sorted(MOVES)), max_size=40),
)
def test_random_walks_are_solvable_and_replay(rows: int, cols: int, walk: list[str]) -> None:
    """A board reached from the goal by legal moves is solvable; the reversed walk replays."""
    goal = default_goal(rows * cols)
    tiles = goal
    done: list[str] = []
    for move in walk:
        try:
            tiles = apply(Puzzle(rows, cols, tiles, goal), tiles, move=move)
        except ValueError:
            continue
        done.append(move)
    puzzle = Puzzle(rows, cols, tiles, goal)
    assert solvability(puzzle)[0]
    back = {"U": "D", "D": "U", "L": "R", "R": "L"}
    assert check(puzzle, [back[m] for m in reversed(done)]) == []
