"""Every heuristic against the exact distances of all 181,440 8-puzzle states (BFS).

Admissible: h(s) <= d(s) for every state. Consistent, where claimed: h(s) <= 1 + h(s') for
every move s -> s'. The pattern databases are checked with a real 4-4 partition (admissible
only: the minimum over the blank's regions is not consistent), and the 8-puzzle's default
database (one pattern of all 8 tiles) must equal the exact distance.
"""

from __future__ import annotations

import numpy as np
import pytest

from cspsolve.errors import OptionError
from cspsolve.models.npuzzle.board import Puzzle, default_goal
from cspsolve.models.npuzzle.pdb import partition
from cspsolve.models.npuzzle.search import (
    HEURISTICS,
    PatternDatabaseHeuristic,
    SlidingTileProblem,
    heuristic,
)

GOAL = Puzzle(3, 3, default_goal(9))


def values(h: object, states: list[bytes]) -> np.ndarray:
    assert callable(h)
    return np.array([h(s) for s in states])


@pytest.fixture(scope="module")
def space(eight_distances: dict[bytes, int]) -> tuple[list[bytes], np.ndarray, np.ndarray]:
    """All states, their exact distances, and every move as a pair of state indices."""
    states = list(eight_distances)
    index = {s: i for i, s in enumerate(states)}
    problem = SlidingTileProblem(GOAL)
    edges = np.array(
        [(i, index[nxt]) for i, s in enumerate(states) for _, nxt, _ in problem.successors(s)]
    )
    return states, np.array([eight_distances[s] for s in states]), edges


CHECKED = [*HEURISTICS, "pdb 4-4"]


@pytest.mark.slow
@pytest.mark.parametrize("name", CHECKED)
def test_admissible_and_consistent(
    name: str, space: tuple[list[bytes], np.ndarray, np.ndarray]
) -> None:
    states, exact, edges = space
    if name == "pdb 4-4":
        h = PatternDatabaseHeuristic(GOAL, chosen=((0, 1, 2, 3), (4, 5, 6, 7)))
    else:
        h = heuristic(name, GOAL)
    assert h.__name__ == name.split()[0]
    hv = values(h, states)
    assert (hv <= exact).all(), f"{name} overestimates {int((hv > exact).sum())} states"
    assert hv[exact == 0].tolist() == [0]
    if name != "pdb 4-4":
        assert (hv[edges[:, 0]] <= 1 + hv[edges[:, 1]]).all(), f"{name} is not consistent"
    assert (hv > 0).sum() == len(states) - 1  # only the goal scores 0


def test_heuristics_are_ordered_as_documented(
    space: tuple[list[bytes], np.ndarray, np.ndarray],
) -> None:
    """misplaced <= manhattan <= linear conflict, and linear conflict beats Manhattan often."""
    states, _, _ = space
    sample = states[::97]
    mis, md, lc = (values(heuristic(n, GOAL), sample) for n in HEURISTICS[:3])
    assert (mis <= md).all() and (md <= lc).all()
    assert (lc > md).mean() > 0.3


@pytest.mark.slow
def test_default_8_puzzle_database_is_exact(
    space: tuple[list[bytes], np.ndarray, np.ndarray],
) -> None:
    states, exact, _ = space
    assert partition(GOAL) == ((0, 1, 2, 3, 4, 5, 6, 7),)
    assert (values(heuristic("pdb", GOAL), states) == exact).all()


def test_linear_conflict_counts_removals_not_pairs() -> None:
    """Row 3 2 1 in the goal row 1 2 3: two tiles must leave (4 moves), not three pairs (6)."""
    puzzle = Puzzle(3, 3, (3, 2, 1, 4, 5, 6, 7, 8, 0))
    state = bytes(puzzle.start)
    assert heuristic("manhattan", puzzle)(state) == 4
    assert heuristic("linear-conflict", puzzle)(state) == 4 + 2 * 2


def test_gaschnig_counts_swaps_with_the_blank() -> None:
    """Blank home, two tiles swapped: three swaps (blank in, tile, blank back)."""
    puzzle = Puzzle(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    assert heuristic("gaschnig", puzzle)(bytes(puzzle.start)) == 3


def test_unknown_heuristic() -> None:
    with pytest.raises(OptionError, match="unknown heuristic"):
        heuristic("euclid", GOAL)
