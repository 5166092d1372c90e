"""The ``cdcl`` method's solution lists against brute force and against ``probing``, with a
clause store small enough to grow and clause deletion at every restart, so that every path of
:mod:`cspsolve.models.nonogram.search.cdcl` runs (the differential suite checks uniqueness
on every size, :mod:`.differential`)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Nonogram, check
from cspsolve.models.nonogram.search import cdcl
from cspsolve.models.nonogram.search.portfolio import solve_probing

from .conftest import all_solutions
from .differential import clued

LISTED = 40
"""Solutions asked for: more than most random puzzles below have."""


@pytest.fixture
def cramped(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A clause store of one slot and room for one clause, learnt clauses deleted at every
    restart, restarts every few conflicts; the returned list counts the store's growths."""
    grown: list[int] = []
    growing = cdcl.Learning.grown

    def counted(learning: cdcl.Learning) -> cdcl.Learning:
        grown.append(len(learning.start))
        return growing(learning)

    monkeypatch.setattr(cdcl.Learning, "grown", counted)
    monkeypatch.setattr(cdcl, "_SLOTS", 1)
    monkeypatch.setattr(cdcl, "_ARENA", 1)
    monkeypatch.setattr(cdcl, "_FIRST_REDUCTION", 0)
    monkeypatch.setattr(cdcl, "_RESTART_UNIT", 3)
    return grown


def _picture(seed: int, height: int, width: int) -> Nonogram:
    rng = random.Random(seed)
    density = rng.uniform(0.2, 0.6)
    return clued(
        [
            "".join("#" if rng.random() < density else "." for _ in range(width))
            for _ in range(height)
        ]
    )


def _listed(puzzle: Nonogram, wanted: int) -> list[tuple[str, ...]]:
    result = cdcl.solve_cdcl(puzzle, limits=Limits(time_limit=60), max_solutions=wanted)
    assert result.status.name in ("SOLVED", "UNSOLVABLE"), result.status
    assert len(set(result.solutions)) == len(result.solutions), "a solution listed twice"
    for grid in result.solutions:
        assert not check(puzzle, grid), grid
    return result.solutions


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.integers(1, 4))
def test_every_solution_of_tiny_puzzles(seed: int, height: int, width: int) -> None:
    puzzle = _picture(seed, height, width)
    assert sorted(_listed(puzzle, 2**height * width + 1)) == sorted(all_solutions(puzzle))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("shape", [(12, 12), (20, 16), (3, 70), (70, 3), (2, 130)])
def test_lists_agree_with_probing_in_a_cramped_store(
    cramped: list[int], seed: int, shape: tuple[int, int]
) -> None:
    puzzle = _picture(seed, *shape)
    listed = _listed(puzzle, LISTED)
    probed = solve_probing(puzzle, max_solutions=LISTED).solutions
    assert len(listed) == len(probed)
    if len(probed) < LISTED:
        assert set(listed) == set(probed)
    assert cramped, "the store never grew"


def test_a_hard_puzzle_restarts_and_deletes_clauses(cramped: list[int]) -> None:
    """A random 25x25 picture that takes hundreds of conflicts (uniqueness decided as by
    probing)."""
    puzzle = _picture(7, 25, 25)
    result = cdcl.solve_cdcl(puzzle, limits=Limits(time_limit=60), max_solutions=2)
    probed = solve_probing(puzzle, max_solutions=2)
    assert result.proof["unique"] == probed.proof["unique"]
    assert result.stats.extra["restarts"] > 10
    assert result.stats.extra["clauses"] < result.stats.backtracks


def test_the_node_limit_counts_decisions() -> None:
    puzzle = _picture(7, 25, 25)
    result = cdcl.solve_cdcl(puzzle, limits=Limits(max_nodes=5), max_solutions=2)
    assert (result.status.name, result.stats.expanded) == ("LIMIT", 5)


SEARCH_AFTER_LOADING = """
import json
import random
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.search import cdcl
cdcl.load_kernels()
kernels = (cdcl.run, cdcl.reduce_clauses)
before = [len(k.signatures) for k in kernels]
cdcl._SLOTS, cdcl._ARENA, cdcl._FIRST_REDUCTION, cdcl._RESTART_UNIT = 1, 1, 0, 3
rng = random.Random(7)
grid = ["".join("#" if rng.random() < 0.35 else " " for _ in range(20)) for _ in range(20)]
columns = ["".join(column) for column in zip(*grid)]
clues = [[tuple(map(len, line.split())) for line in lines] for lines in (grid, columns)]
result = cdcl.solve_cdcl(Nonogram(rows=clues[0], columns=clues[1]), max_solutions=50)
print(json.dumps([before, [len(k.signatures) for k in kernels], result.stats.extra["restarts"]]))
"""
"""In a fresh process: load the kernels, count their compiled signatures, search with a store
that grows and clause deletion at every restart, count again."""


def test_loading_compiles_what_the_search_runs() -> None:
    """After :func:`cdcl.load_kernels`, a search that grows its store and deletes clauses
    compiles nothing more (the time limit would pay for it)."""
    done = subprocess.run(
        [sys.executable, "-P", "-c", SEARCH_AFTER_LOADING], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    before, after, restarts = json.loads(done.stdout.splitlines()[-1])
    assert before == after and min(before) > 0, done.stdout
    assert restarts > 0, done.stdout
