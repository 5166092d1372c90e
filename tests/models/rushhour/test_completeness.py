"""Every method that claims completeness ends with ``unsolvable`` exactly when no plan exists.

The oracle is the breadth-first search written in the tests (:func:`.differential.explore`,
which shares no code with the library's searches): a board is unsolvable when no position of
its cluster has the red car at the exit. The boards are small (4x4 and 5x5, walls allowed) so
that many are unsolvable without the red car being walled in, which every method answers at
once; those boards are left out here, as the property is about the searches.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.rushhour import Board, Piece, kind
from cspsolve.models.rushhour.board import walled_in
from cspsolve.models.rushhour.search import METRICS
from cspsolve.results import Status
from cspsolve.tasks import Request

from ...conftest import run
from . import differential
from .conftest import board

MOST_POSITIONS = 400
"""Largest cluster of a drawn board."""

UNSOLVABLE_224 = "oFFooCoooxoCoDDooooooAAEoooooEoooooE"
"""A 6x6 board whose cluster has 224 positions and no goal: the truck E, below the red car's
row, can only leave it upwards, where the car C, stuck in column 6, stands for good. No
horizontal piece or wall is in the red car's way, so no method answers without a search."""

COMPLETE = [
    (method.name, h)
    for method in kind.KIND.methods
    if method.complete
    for h in (method.heuristics or (None,))
]
"""Every complete method with each of its heuristics."""


@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    """A random 4x4 or 5x5 board of at most :data:`MOST_POSITIONS` positions whose red car is
    not walled in. A vertical piece across the red car's row in the last column comes first
    and another piece in that column second (when they fit), then pieces at random: many
    boards are unsolvable without any piece being stuck at the start."""
    size = draw(st.sampled_from((4, 5, 5)))
    cells = st.integers(0, size - 1)
    red = Piece("A", draw(cells), draw(st.integers(0, size - 2)), 2, True)
    taken = set(red.cells())
    walls = {c for c in draw(st.lists(st.tuples(cells, cells), max_size=3)) if c not in taken}
    taken |= walls
    pieces = [red]
    spots = st.tuples(st.booleans(), st.sampled_from((2, 2, 3)), cells, cells)
    length = draw(st.sampled_from((2, 3)))
    blocker = (False, length, red.row - draw(st.integers(0, length - 1)), size - 1)
    jammer = (False, 2, draw(cells), size - 1)
    for horizontal, length, row, col in [
        blocker,
        jammer,
        *draw(st.lists(spots, max_size=3 * size)),
    ]:
        piece = Piece(differential.NAMES[len(pieces) - 1], row, col, length, horizontal)
        body = piece.cells()
        if all(0 <= r < size and 0 <= c < size and (r, c) not in taken for r, c in body):
            pieces.append(piece)
            taken.update(body)
    drawn = Board(size, tuple(pieces), frozenset(walls), "A")
    assume(walled_in(drawn) is None)
    graph = differential.Graph(drawn)
    assume(differential.bfs(graph, [graph.start()], size, MOST_POSITIONS) is not None)
    return drawn


@given(drawn=small_boards(), metric=st.sampled_from(METRICS))
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_complete_methods_say_unsolvable_exactly_when_no_plan_exists(
    drawn: Board, metric: str
) -> None:
    known = differential.explore(drawn, metric)
    for name, h in COMPLETE:
        request = Request(name, h, {"metric": metric})
        result = tasks.solve(kind.KIND, drawn, request=request, limits=Limits(time_limit=60))
        assert (result.status is Status.UNSOLVABLE) == (known.optimum is None), (name, h)
        if known.optimum is not None:
            assert result.solution is not None, (name, h, result.status)
            assert differential.replay(drawn, result.solution) is None, (name, h)


@pytest.mark.parametrize(("name", "h"), COMPLETE)
def test_a_board_of_224_positions_without_a_goal_is_unsolvable(name: str, h: str | None) -> None:
    unsolvable = board(UNSOLVABLE_224)
    assert differential.explore(unsolvable, "moves") == differential.Oracle(None, 224)
    result = tasks.solve(kind.KIND, unsolvable, request=Request(name, h), limits=Limits(60))
    assert result.status is Status.UNSOLVABLE


@pytest.mark.slow
def test_verify_settles_an_unsolvable_board_of_more_than_60_positions(tmp_path: Path) -> None:
    path = tmp_path / "unsolvable.txt"
    path.write_text(UNSOLVABLE_224 + "\n", encoding="utf-8")
    for method in ("idastar", "astar"):
        done = run("verify", path, "--method", method)
        assert done.returncode == 1, done.stdout + done.stderr
        assert ": agree" in done.stdout.splitlines()[0]
        assert "reference (cpsat): unsolvable" in done.stdout
