"""Time and node limits on large nonograms, for every method, ``--unique`` and ``analyze``.

Each puzzle is built here from a seeded random grid, so it has a solution (the grid, or
another one). A run must stop within the time limit plus :data:`MARGIN` by its own
``stats.seconds``, with status ``limit`` or a right answer: a grid is checked against the
clues by :func:`runs_match`, written here. The sizes are those where the solvers change path:
lines over 64 cells (bit sets of several words) and 200 x 200 (one probing round of the fast
solver took 22 s, CP-SAT's presolve overran its limit by seconds).
"""

from __future__ import annotations

import itertools
import json
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.colour.board import Colour, ColourNonogram
from cspsolve.models.nonogram.kind import KIND
from cspsolve.results import Result, Status

from ...conftest import run

pytestmark = pytest.mark.slow

LIMIT = 0.5
"""Seconds each run is allowed."""
MARGIN = 0.5
"""Seconds a run may overrun its limit (the project's promise)."""
PALETTE = (
    Colour(".", "white", "#ffffff"),
    Colour("r", "red", "#ff0000"),
    Colour("g", "green", "#00ff00"),
    Colour("b", "blue", "#0000ff"),
)


def random_grid(size: int, seed: int, fill: float, keys: str = "#") -> list[str]:
    """A ``size`` x ``size`` grid, each cell ``.`` with probability ``1 - fill``, else one of
    ``keys`` at random."""
    rng = random.Random(seed)
    return [
        "".join(rng.choice(keys) if rng.random() < fill else "." for _ in range(size))
        for _ in range(size)
    ]


def runs(line: str) -> list[tuple[int, str]]:
    """The blocks of a line: (length, key) of every run of cells other than ``.``."""
    return [(len(list(cells)), key) for key, cells in itertools.groupby(line) if key != "."]


def columns(grid: Sequence[str]) -> list[str]:
    """The columns of ``grid``, top to bottom."""
    return ["".join(row[j] for row in grid) for j in range(len(grid[0]))]


def puzzle_of(grid: Sequence[str]) -> Nonogram:
    """The black-and-white nonogram whose picture is ``grid``."""
    rows = [tuple(n for n, _ in runs(line)) for line in grid]
    return Nonogram(rows=rows, columns=[tuple(n for n, _ in runs(line)) for line in columns(grid)])


def colour_puzzle_of(grid: Sequence[str]) -> ColourNonogram:
    """The colour nonogram (colours of :data:`PALETTE`) whose picture is ``grid``."""
    index = {c.key: i for i, c in enumerate(PALETTE)}

    def clue(line: str) -> tuple[tuple[int, int], ...]:
        return tuple((n, index[key]) for n, key in runs(line))

    return ColourNonogram(
        tuple(map(clue, grid)), tuple(map(clue, columns(grid))), PALETTE, title="random"
    )


def runs_match(puzzle: Nonogram | ColourNonogram, grid: Sequence[str]) -> bool:
    """Whether ``grid`` has the puzzle's size and its lines' blocks are the clues."""
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        return False
    keys = [c.key for c in puzzle.colours] if isinstance(puzzle, ColourNonogram) else ".#"

    def blocks(line: str) -> tuple[Any, ...]:
        found = runs(line)
        if isinstance(puzzle, ColourNonogram):
            return tuple((n, keys.index(key)) for n, key in found)
        return tuple(n for n, key in found if key == "#")

    if any(ch not in keys for row in grid for ch in row):
        return False
    return [blocks(r) for r in grid] == list(puzzle.rows) and [
        blocks(c) for c in columns(grid)
    ] == list(puzzle.columns)


def assert_within_limit(result: Result[Any], puzzle: Nonogram | ColourNonogram) -> None:
    """The run kept its limit and answered right, or stopped at the limit."""
    assert result.stats.seconds <= LIMIT + MARGIN, result.stats.seconds
    if result.status is Status.SOLVED:
        assert result.solution is not None and runs_match(puzzle, result.solution)
    else:
        assert result.status is Status.LIMIT, result.status


def solve(
    puzzle: Nonogram | ColourNonogram, method: str, *, unique: bool, **limits: Any
) -> Result[Any]:
    """Solve as ``cspsolve solve`` does."""
    request = tasks.Request(method, options={"unique": unique})
    return tasks.solve(KIND, puzzle, request=request, limits=Limits(**limits))


MULTI_WORD = puzzle_of(random_grid(70, 1, 0.5))
"""70 x 70: lines of two words in the fast solver's bit sets."""
LARGE = puzzle_of(random_grid(200, 3, 0.5))
"""The 200 x 200 puzzle of the trust issue."""
DENSE = {size: puzzle_of(random_grid(size, 5, 0.96)) for size in (70, 200)}
"""Nearly full grids: few patterns a line, which python-constraint accepts."""
COLOUR = colour_puzzle_of(random_grid(200, 7, 0.6, "rgb"))
"""200 x 200 in three colours."""


@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("method", ["probing", "cpsat", "mac", "gac-astar"])
@pytest.mark.parametrize("puzzle", [MULTI_WORD, LARGE], ids=["70x70", "200x200"])
def test_time_limit(puzzle: Nonogram, method: str, unique: bool) -> None:
    assert_within_limit(solve(puzzle, method, unique=unique, time_limit=LIMIT), puzzle)


@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("size", sorted(DENSE))
def test_time_limit_python_constraint(size: int, unique: bool) -> None:
    puzzle = DENSE[size]
    result = solve(puzzle, "python-constraint", unique=unique, time_limit=LIMIT)
    assert_within_limit(result, puzzle)


@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("method", ["probing", "cpsat"])
def test_time_limit_colour(method: str, unique: bool) -> None:
    assert_within_limit(solve(COLOUR, method, unique=unique, time_limit=LIMIT), COLOUR)


@pytest.mark.parametrize("method", ["probing", "mac", "gac-astar"])
def test_node_limit(method: str) -> None:
    result = solve(MULTI_WORD, method, unique=True, time_limit=LIMIT, max_nodes=2)
    assert_within_limit(result, MULTI_WORD)
    assert result.stats.expanded <= 2


@pytest.mark.parametrize("method", ["probing", "cpsat", "mac"])
@pytest.mark.parametrize("puzzle", [LARGE, COLOUR], ids=["200x200", "colour"])
def test_analyze(puzzle: Nonogram | ColourNonogram, method: str) -> None:
    if method == "mac" and isinstance(puzzle, ColourNonogram):
        pytest.skip("mac refuses colour puzzles")
    request = tasks.Request(method)
    analysis = tasks.analyze(KIND, puzzle, request=request, limits=Limits(time_limit=LIMIT))
    assert analysis["seconds"] <= LIMIT + MARGIN
    assert analysis["status"] in ("limit", "solved")


def test_cancellation_stops_a_probing_round() -> None:
    cancel = threading.Event()
    timer = threading.Timer(LIMIT, cancel.set)
    timer.start()
    result = solve(LARGE, "probing", unique=False, cancel=cancel)
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
    out = json.loads(proc.stdout)
    assert out["stats"]["seconds"] <= LIMIT + MARGIN
    if out["status"] == "solved":
        assert runs_match(LARGE, out["solution"]["grid"])
    else:
        assert out["status"] == "limit"
