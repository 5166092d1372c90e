"""Time and node limits on large Lights Out boards: every method stops within the limit.

The limits contract of every method (``tests/contract/``) runs on all-on 64 x 64 (a group
handed to CP-SAT). Here each run gets a small ``--time-limit`` on a board where the code takes
a long or a different path: all-on 991 x 991 (nullity 640: a group of quiet patterns too large
to enumerate, local search) and 2048 x 2048 (the largest board read, nullity 1056), a random
1000 x 1000 board (nullity 0), a random 500 x 2000 board (wider than tall: solved transposed)
and a random 128 x 128 torus (Gauss-Jordan elimination on the largest general board). The
run's own ``stats.seconds`` must be at most the limit + 0.5 s, and its answer either ``limit``
or a press set that the checker written here (the press rule on a numpy 0/1 grid, for boards
of millions of cells) finds to turn every light off. Every board here is solvable by
construction (all-on sigma-plus boards always are; the random ones are made by pressing
random cells of a dark board), so ``unsolvable`` is always wrong.

The boards are written to files and read back as the command line reads them; one run goes
through the command line itself. The in-process runs start with OR-Tools and the compiled
kernel of :mod:`.algebra` loaded (as after any earlier run in the same process): loading a
library is not a phase the solvers can interrupt, and these tests are about the solvers'
phases.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.lightsout import algebra, formats
from cspsolve.models.lightsout.board import LightsOut
from cspsolve.models.lightsout.kind import KIND
from cspsolve.results import Result, Status

from ...conftest import run
from ...contract.checks import MARGIN

pytestmark = pytest.mark.slow

LIMIT = 1.0
"""The time limit of the in-process runs (seconds)."""

WALL_MARGIN = 1.0
"""How far past the limit the whole call may go (it also covers the work around the run)."""

METHODS = ("algebra", "astar", "idastar", "cpsat")

Grid = NDArray[np.uint8]


def toggled(presses: Grid, *, torus: bool) -> Grid:
    """The lights a sigma-plus press set toggles: each pressed cell and its four neighbours."""
    out = presses.copy()
    if torus:
        for axis in (0, 1):
            out ^= np.roll(presses, 1, axis) ^ np.roll(presses, -1, axis)
        return out
    out[1:] ^= presses[:-1]
    out[:-1] ^= presses[1:]
    out[:, 1:] ^= presses[:, :-1]
    out[:, :-1] ^= presses[:, 1:]
    return out


def grid(rows: tuple[int, ...], cols: int) -> Grid:
    """Packed rows as a 0/1 matrix (bit ``c`` of row ``r`` is cell ``(r, c)``)."""
    width = (cols + 7) // 8
    raw = np.frombuffer(b"".join(row.to_bytes(width, "little") for row in rows), np.uint8)
    return np.unpackbits(raw.reshape(len(rows), width), axis=1, bitorder="little")[:, :cols]


def text(lights: Grid, *, torus: bool = False) -> str:
    """The grid file of a board."""
    head = "torus: yes\n" if torus else ""
    return head + "".join("".join(map(str, row)) + "\n" for row in lights.tolist())


def random_solvable(rows: int, cols: int, seed: int, *, torus: bool = False) -> Grid:
    """The lights left by pressing random cells of a dark board (so it is solvable)."""
    presses = np.random.default_rng(seed).integers(0, 2, (rows, cols), dtype=np.uint8)
    return toggled(presses, torus=torus)


BOARDS: dict[str, Callable[[], str]] = {
    "all-on-991": lambda: text(np.ones((991, 991), np.uint8)),
    "all-on-2048": lambda: text(np.ones((2048, 2048), np.uint8)),
    "random-1000": lambda: text(random_solvable(1000, 1000, 1)),
    "random-500x2000": lambda: text(random_solvable(500, 2000, 2)),
    "torus-128": lambda: text(random_solvable(128, 128, 3, torus=True), torus=True),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("limits")
    paths = {}
    for name, make in BOARDS.items():
        paths[name] = folder / f"{name}.lo"
        paths[name].write_text(make(), encoding="utf-8")
    return paths


@pytest.fixture(scope="module")
def boards(files: dict[str, Path]) -> dict[str, LightsOut]:
    importlib.import_module("ortools.sat.python.cp_model")
    # all-on 30 x 30 has 20 quiet patterns: its minimum loads the compiled kernel
    assert algebra.minimum(LightsOut(((1 << 30) - 1,) * 30, 30)).status is Status.OPTIMAL
    return {name: formats.read(path)[0].puzzle for name, path in files.items()}


def assert_right(puzzle: LightsOut, status: Status, presses: tuple[int, ...] | None) -> None:
    """``limit``, or a press set that turns every light off (checked here)."""
    assert status is not Status.UNSOLVABLE, "every board here is solvable"
    if status is Status.LIMIT:
        return
    assert status in (Status.OPTIMAL, Status.SOLVED) and presses is not None, status
    lights = grid(puzzle.lights, puzzle.cols)
    left = lights ^ toggled(grid(presses, puzzle.cols), torus=puzzle.torus)
    assert not left.any(), f"{int(left.sum())} lights left on"


def solve(puzzle: LightsOut, method: str, limits: Limits) -> tuple[Result[tuple[int, ...]], float]:
    start = time.perf_counter()
    result = tasks.solve(KIND, puzzle, request=tasks.Request(method=method), limits=limits)
    return result, time.perf_counter() - start


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", ["all-on-991", "all-on-2048", "random-1000"])
def test_solve_stops_at_the_time_limit(
    boards: dict[str, LightsOut], name: str, method: str
) -> None:
    puzzle = boards[name]
    result, wall = solve(puzzle, method, Limits(time_limit=LIMIT))
    assert result.stats.seconds <= LIMIT + MARGIN, result.stats
    assert wall <= LIMIT + WALL_MARGIN
    assert_right(puzzle, result.status, result.solution)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", ["random-500x2000", "torus-128"])
def test_solve_stops_at_the_time_limit_on_other_paths(
    boards: dict[str, LightsOut], name: str, method: str
) -> None:
    puzzle = boards[name]
    result, wall = solve(puzzle, method, Limits(time_limit=LIMIT / 2))
    assert result.stats.seconds <= LIMIT / 2 + MARGIN, result.stats
    assert wall <= LIMIT / 2 + WALL_MARGIN
    assert_right(puzzle, result.status, result.solution)


def test_a_node_limit_with_a_time_limit_stops_the_local_search(
    boards: dict[str, LightsOut],
) -> None:
    puzzle = boards["all-on-991"]
    result, _ = solve(puzzle, "algebra", Limits(time_limit=LIMIT, max_nodes=100))
    assert result.stats.seconds <= LIMIT + MARGIN
    assert result.stats.expanded <= 100
    assert_right(puzzle, result.status, result.solution)


@pytest.mark.parametrize("name", [*BOARDS])
def test_analyze_stops_at_the_time_limit(boards: dict[str, LightsOut], name: str) -> None:
    puzzle = boards[name]
    start = time.perf_counter()
    analysis = tasks.analyze(KIND, puzzle, limits=Limits(time_limit=LIMIT / 2))
    assert time.perf_counter() - start <= LIMIT / 2 + MARGIN
    assert analysis.get("status") in (None, "limit")
    assert analysis["solvable"] in (True, None), "every board here is solvable"
    if analysis.get("status") is None:
        assert analysis["solvable"] is True and analysis["min_presses"] is not None


def test_the_command_line_stops_at_the_time_limit(files: dict[str, Path]) -> None:
    path = files["all-on-991"]
    done = run("solve", path, "--time-limit", "2", "--format", "json", timeout=120)
    record = json.loads(done.stdout)
    assert record["stats"]["seconds"] <= 2 + MARGIN, record["stats"]
    assert done.returncode in (0, 3)
    presses: list[int] = [0] * 991
    for r, c in (record.get("solution") or {}).get("presses", []):
        presses[r] |= 1 << c
    puzzle = formats.read(path)[0].puzzle
    solution = tuple(presses) if record.get("solution") else None
    assert_right(puzzle, Status(record["status"]), solution)
