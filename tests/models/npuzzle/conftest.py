"""Shared fixtures of the sliding-tile tests: a pattern-database cache kept in pytest's cache
folder (built once, reused by later runs; empty on CI; the user's cache of :func:`.pdb.cache_dir`
when pytest runs with ``-p no:cacheprovider``), and the exact distance of every 8-puzzle state
by breadth-first search."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

from cspsolve.models.npuzzle.board import Puzzle, default_goal
from cspsolve.models.npuzzle.pdb import cache_dir
from cspsolve.models.npuzzle.search import SlidingTileProblem

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "npuzzle"


@pytest.fixture(scope="session", autouse=True)
def pdb_cache(request: pytest.FixtureRequest) -> Iterator[Path]:
    """Point ``CSPSOLVE_CACHE`` at a folder of pytest's cache (else the user's cache) for the
    whole session."""
    cache = getattr(request.config, "cache", None)
    folder = cache_dir() if cache is None else Path(cache.mkdir("npuzzle-pdb"))
    patch = pytest.MonkeyPatch()
    patch.setenv("CSPSOLVE_CACHE", str(folder))
    yield folder
    patch.undo()


@pytest.fixture(scope="session")
def eight_distances() -> dict[bytes, int]:
    """Exact distance to the everyday goal of all 181,440 reachable 8-puzzle states (BFS)."""
    problem = SlidingTileProblem(Puzzle(3, 3, default_goal(9)))
    goal = problem.goal
    distance = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        d = distance[state] + 1
        for _, nxt, _ in problem.successors(state):
            if nxt not in distance:
                distance[nxt] = d
                queue.append(nxt)
    assert len(distance) == 181_440
    return distance
