"""Time limits on the nonograms where the solvers change path, ``--unique``, ``analyze``,
cancellation and the command line.

The limits contract of every method (``tests/contract/``) runs on a 70x70 puzzle; here the
sizes are those where the code takes other paths: 200 x 200 (one probing round of the fast
solver took 22 s, CP-SAT's presolve overran its limit by seconds), colour, and dense grids that
python-constraint takes (few fill patterns a line). Each puzzle is the picture of a seeded
random grid, so it has a solution; a run must keep to the limit and answer ``limit`` or right
(:func:`tests.contract.checks.assert_within`).
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.colour_board import ColourNonogram
from cspsolve.models.nonogram.kind import KIND
from cspsolve.results import Result, Status

from ...conftest import run
from ...contract.checks import MARGIN, assert_record_within, assert_within
from .colour_differential import PALETTE, blocks
from .differential import clued

pytestmark = pytest.mark.slow

LIMIT = 0.5
"""Seconds each run is allowed."""


def random_grid(size: int, seed: int, fill: float, keys: str = "#") -> list[str]:
    """A ``size`` x ``size`` grid, each cell ``.`` with probability ``1 - fill``, else one of
    ``keys`` at random."""
    rng = random.Random(seed)
    return [
        "".join(rng.choice(keys) if rng.random() < fill else "." for _ in range(size))
        for _ in range(size)
    ]


def colour_puzzle_of(grid: list[str]) -> ColourNonogram:
    """The colour nonogram (colours of :data:`.colour_differential.PALETTE`) whose picture is
    ``grid``."""
    columns = ["".join(row[j] for row in grid) for j in range(len(grid[0]))]
    return ColourNonogram(tuple(map(blocks, grid)), tuple(map(blocks, columns)), PALETTE)


def solve(
    puzzle: Nonogram | ColourNonogram, method: str, *, unique: bool, **limits: Any
) -> Result[Any]:
    """Solve as ``cspsolve solve`` does."""
    request = tasks.Request(method, options={"unique": unique})
    return tasks.solve(KIND, puzzle, request=request, limits=Limits(**limits))


LARGE = clued(random_grid(200, 3, 0.5))
"""The 200 x 200 puzzle of the trust issue."""
DENSE = {size: clued(random_grid(size, 5, 0.96)) for size in (70, 200)}
"""Nearly full grids: few patterns a line, which python-constraint accepts."""
COLOUR = colour_puzzle_of(random_grid(200, 7, 0.6, "rgb"))
"""200 x 200 in three colours."""


@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("method", ["probing", "cdcl", "cpsat", "sat", "mac", "gac-astar"])
def test_time_limit_200x200(method: str, unique: bool) -> None:
    assert_within(KIND, LARGE, solve(LARGE, method, unique=unique, time_limit=LIMIT), LIMIT)


@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("size", sorted(DENSE))
def test_time_limit_python_constraint(size: int, unique: bool) -> None:
    puzzle = DENSE[size]
    result = solve(puzzle, "python-constraint", unique=unique, time_limit=LIMIT)
    assert_within(KIND, puzzle, result, LIMIT)


@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("method", ["probing", "cpsat"])
def test_time_limit_colour(method: str, unique: bool) -> None:
    assert_within(KIND, COLOUR, solve(COLOUR, method, unique=unique, time_limit=LIMIT), LIMIT)


@pytest.mark.parametrize("method", ["probing", "cpsat", "mac"])
@pytest.mark.parametrize("puzzle", [LARGE, COLOUR], ids=["200x200", "colour"])
def test_analyze(puzzle: Nonogram | ColourNonogram, method: str) -> None:
    if method == "mac" and isinstance(puzzle, ColourNonogram):
        pytest.skip("mac refuses colour puzzles")
    request = tasks.Request(method)
    analysis = tasks.analyze(KIND, puzzle, request=request, limits=Limits(time_limit=LIMIT))
    assert analysis["seconds"] <= LIMIT + MARGIN
    assert analysis["status"] in ("limit", "solved")


@pytest.mark.parametrize("method", ["probing", "cdcl", "sat"])
def test_cancellation_stops_a_search(method: str) -> None:
    cancel = threading.Event()
    timer = threading.Timer(LIMIT, cancel.set)
    timer.start()
    result = solve(LARGE, method, unique=False, cancel=cancel)
    timer.join()
    assert result.status is Status.CANCELLED
    assert result.stats.seconds <= LIMIT + MARGIN


def test_command_line(tmp_path: Path) -> None:
    lines = ["width 200", "height 200", "", "rows"]
    lines += [",".join(map(str, clue)) or "0" for clue in LARGE.rows]
    lines += ["", "columns"]
    lines += [",".join(map(str, clue)) or "0" for clue in LARGE.columns]
    path = tmp_path / "random200.non"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = run("solve", path, "--time-limit", LIMIT, "--format", "json")
    assert proc.returncode in (0, 3), proc.stderr
    assert_record_within("nonogram", LARGE, json.loads(proc.stdout), LIMIT)
