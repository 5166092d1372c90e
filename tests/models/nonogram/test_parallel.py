"""The probing search split over processes (:mod:`cspsolve.models.nonogram.search.split`).

The runs here split at once (``warmup=0``: the one-core start would settle these small puzzles
before any process starts), or after a start of milliseconds. The oracle is
:func:`every_solution`, written here: row patterns stacked top to bottom, each column's runs so
far checked against its clue. A split run that lists up to :data:`CAP` solutions must list
exactly the oracle's, which checks that the tasks partition the tree (no solution lost, none
counted twice) and that the parent knows when the tree is exhausted; the one-core run must
agree too.
"""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Clue, Grid, Nonogram
from cspsolve.models.nonogram.kind import KIND
from cspsolve.models.nonogram.search.portfolio import solve_probing
from cspsolve.models.nonogram.search.split import solve_split
from cspsolve.results import Status

from .differential import runs, runs_match

CAP = 40
"""Most solutions a listing run is asked for."""
MARGIN = 0.5
"""Seconds a run may overrun its time limit."""


def puzzle_of(grid: list[str]) -> Nonogram:
    """The nonogram whose picture is ``grid``."""
    columns = ["".join(row[j] for row in grid) for j in range(len(grid[0]))]
    return Nonogram(tuple(map(runs, grid)), tuple(map(runs, columns)))


def random_grid(width: int, height: int, fill: float, seed: int) -> list[str]:
    """A seeded random grid, each cell filled with probability ``fill``."""
    rng = random.Random(seed)
    return [
        "".join("#" if rng.random() < fill else "." for _ in range(width)) for _ in range(height)
    ]


def _patterns(clue: Clue, width: int) -> list[str]:
    """Every row of ``width`` cells whose runs are ``clue``."""
    return [
        row
        for row in ("".join(cells) for cells in itertools.product(".#", repeat=width))
        if runs(row) == clue
    ]


def _prefix_fits(column: str, clue: Clue) -> bool:
    """Whether the top cells ``column`` of a column can still end with the runs ``clue``."""
    done = runs(column)
    if not done:
        return True
    closed = done if column.endswith(".") else done[:-1]
    if tuple(clue[: len(closed)]) != closed or len(done) > len(clue):
        return False
    if not column.endswith("."):
        return done[-1] <= clue[len(done) - 1]
    return True


def every_solution(puzzle: Nonogram, cap: int) -> list[Grid]:
    """The puzzle's solutions (up to ``cap``), by stacking row patterns and pruning on the
    columns' runs so far."""
    rows = [_patterns(clue, puzzle.width) for clue in puzzle.rows]
    found: list[Grid] = []

    def extend(grid: list[str]) -> None:
        if len(found) >= cap:
            return
        if len(grid) == puzzle.height:
            if runs_match(puzzle, tuple(grid)):
                found.append(tuple(grid))
            return
        for row in rows[len(grid)]:
            grid.append(row)
            columns = ["".join(r[j] for r in grid) for j in range(puzzle.width)]
            if all(_prefix_fits(c, clue) for c, clue in zip(columns, puzzle.columns, strict=True)):
                extend(grid)
            grid.pop()

    extend([])
    return found


@st.composite
def searched(draw: st.DrawFn) -> Nonogram:
    """Random puzzles of 5 to 9 cells a side, sparse to middling (most need search), one clue in
    five changed by one (often unsolvable)."""
    width, height = draw(st.integers(5, 9)), draw(st.integers(5, 9))
    grid = random_grid(width, height, draw(st.floats(0.25, 0.5)), draw(st.integers(0, 2**32)))
    puzzle = puzzle_of(grid)
    if draw(st.integers(0, 4)) == 0:
        rows = list(puzzle.rows)
        k = draw(st.integers(0, height - 1))
        clue = [*rows[k], 1] if sum(rows[k]) + len(rows[k]) + 1 <= width else list(rows[k][1:])
        rows[k] = tuple(clue)
        puzzle = Nonogram(tuple(rows), puzzle.columns)
    return puzzle


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 3)])
def test_the_oracle_finds_what_enumerating_every_grid_finds(width: int, height: int) -> None:
    grids = [
        tuple("".join(cells[r * width : (r + 1) * width]) for r in range(height))
        for cells in itertools.product(".#", repeat=width * height)
    ]
    for seed in range(8):
        puzzle = puzzle_of(random_grid(width, height, 0.5, seed))
        assert every_solution(puzzle, 10**6) == [g for g in grids if runs_match(puzzle, g)]


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(puzzle=searched(), warmup=st.sampled_from([0.0, 0.002]))
def test_two_workers_list_exactly_the_solutions(puzzle: Nonogram, warmup: float) -> None:
    # A short one-core start may find solutions that the tasks find again.
    known = every_solution(puzzle, CAP + 1)
    for wanted in (2, CAP):
        split = solve_split(
            puzzle,
            limits=Limits(workers=2, time_limit=20),
            max_solutions=wanted,
            warmup=warmup,
            spread=1,
        )
        one = solve_probing(puzzle, limits=Limits(time_limit=20), max_solutions=wanted)
        for result in (split, one):
            assert result.status is (Status.SOLVED if known else Status.UNSOLVABLE)
            assert result.proof.get("unique") == (len(known) == 1 if known else None)
            assert all(runs_match(puzzle, grid) for grid in result.solutions)
            assert len(result.solutions) == min(wanted, len(known))
            if len(known) <= CAP and wanted == CAP:
                assert sorted(result.solutions) == sorted(known)


def test_the_kind_takes_two_workers_and_gives_the_one_core_answer() -> None:
    puzzle = puzzle_of(random_grid(20, 20, 0.5, 3))
    one = tasks.solve(KIND, puzzle, request=tasks.Request(options={"unique": True}))
    two = tasks.solve(
        KIND, puzzle, request=tasks.Request(options={"unique": True}), limits=Limits(workers=2)
    )
    assert (two.status, two.proof["unique"]) == (one.status, one.proof["unique"])
    assert two.solution is not None and runs_match(puzzle, two.solution)


def _endless() -> Nonogram:
    """A sparse 20 x 20 puzzle: far too many solutions to list them all."""
    return puzzle_of(random_grid(20, 20, 0.25, 7))


def test_a_split_run_stops_at_its_time_limit() -> None:
    limit = 1.0
    result = solve_split(
        _endless(),
        limits=Limits(time_limit=limit, workers=2),
        max_solutions=10**6,
        warmup=0,
        spread=1,
    )
    assert result.stats.seconds <= limit + MARGIN
    # One process of the pool takes tasks; the parent's portfolio searched beside it.
    assert result.stats.extra["tasks"] >= 1
    assert result.stats.extra["portfolio_nodes"] > 0
    assert result.status in (Status.LIMIT, Status.SOLVED)  # SOLVED: some of them listed
    puzzle = _endless()
    assert all(runs_match(puzzle, grid) for grid in result.solutions[:50])


def test_a_split_run_counts_the_nodes_of_every_task() -> None:
    result = solve_split(
        _endless(), limits=Limits(max_nodes=60, workers=2), max_solutions=10**6, warmup=0, spread=1
    )
    assert result.stats.expanded <= 60
    assert result.stats.extra["tasks"] >= 1


def test_a_split_run_stops_when_cancelled() -> None:
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    started = time.perf_counter()
    result = solve_split(
        _endless(), limits=Limits(cancel=cancel, workers=2), max_solutions=10**6, warmup=0, spread=1
    )
    timer.cancel()
    assert cancel.is_set()
    assert time.perf_counter() - started < 0.3 + 2 * MARGIN + 1.0
    assert result.stats.extra["tasks"] >= 1


def test_a_dask_cluster_gives_the_one_core_answer(dask_scheduler: str) -> None:
    puzzle = puzzle_of(random_grid(9, 9, 0.5, 2))  # 28 solutions, split over tasks
    known = every_solution(puzzle, CAP + 1)
    limits = Limits(workers=2, scheduler=dask_scheduler, time_limit=60)
    result = solve_split(puzzle, limits=limits, max_solutions=CAP, warmup=0, spread=1)
    one = solve_probing(puzzle, max_solutions=CAP)
    assert result.stats.extra["tasks"] >= 1
    assert sorted(result.solutions) == sorted(one.solutions) == sorted(known)
