"""The scripts of ``examples/`` run from any folder and print what they claim: each is run as a
user would (``python examples/NAME.py``, from a folder that is not the checkout), and its
output is checked against the kind's own checker or an independent count."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import cspsolve
from cspsolve.instances import ROOT as INSTANCES
from cspsolve.models import lightsout, nonogram, npuzzle, rushhour

from .conftest import COMPILING

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def output_of(script: str, folder: Path) -> list[str]:
    """The lines a script prints, run in ``folder``; it must exit with 0 and write nothing to
    stderr but the once-only notice that a kind's kernels are compiling (:data:`COMPILING`:
    whether a run compiles depends on what ran before it)."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)],
        cwd=folder,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert all(line.startswith(COMPILING) for line in done.stderr.splitlines()), done.stderr
    return done.stdout.splitlines()


def number_after(label: str, lines: list[str]) -> int:
    """The integer printed right after ``label`` on the first line holding it."""
    [found] = [m for line in lines if (m := re.search(re.escape(label) + r" (\d+)", line))][:1]
    return int(found.group(1))


def test_every_example_is_tested() -> None:
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert {path.stem for path in EXAMPLES.glob("*.py")} <= tested


def test_solve_nonogram(tmp_path: Path) -> None:
    lines = output_of("solve_nonogram.py", tmp_path)
    assert lines[0].startswith("solved by probing")
    grid = [line.replace("██", "#").replace(" ·", ".") for line in lines[1:16]]
    [puzzle] = cspsolve.read(INSTANCES / "nonogram" / "duck.non")
    assert nonogram.check(puzzle, grid) == []
    assert lines[-2:] == ["problems: none", "unique: True"]


def test_lightsout_minimum(tmp_path: Path) -> None:
    lines = output_of("lightsout_minimum.py", tmp_path)
    [board] = cspsolve.read(INSTANCES / "lightsout" / "classic-5x5.lo")
    fewest = min(sum(map(int.bit_count, s)) for s in lightsout.solutions(board))
    assert number_after("minimum presses:", lines) == fewest
    assert number_after("the smallest presses", lines) == fewest
    assert lines[-1].endswith(f"-> {fewest} presses")
    assert "lights left on: 0" in lines


def test_rushhour_plan(tmp_path: Path) -> None:
    lines = output_of("rushhour_plan.py", tmp_path)
    [plan_line] = [line for line in lines if " moves: " in line]
    count, moves = plan_line.split(" moves: ")
    plan = [rushhour.Move(m[0], int(m[1:])) for m in moves.split()]
    [board] = cspsolve.read(INSTANCES / "rushhour" / "card-32.txt")
    assert rushhour.check(board, plan) == []
    assert len(plan) == int(count) == number_after("optimal moves by analysis:", lines) == 49


def test_npuzzle_methods(tmp_path: Path) -> None:
    lines = output_of("npuzzle_methods.py", tmp_path)
    runs = [line.split() for line in lines if " moves, " in line]
    assert [run[0] for run in runs][:2] == ["bfs", "astar/misplaced"]
    optimal = {int(run[2]) for run in runs if run[1] == "optimal"}
    [greedy] = [int(run[2]) for run in runs if run[0].startswith("greedy")]
    assert len(runs) == 5 and optimal == {number_after("optimal length:", lines)}
    assert greedy >= min(optimal)
    # Breadth-first search expands the most: every other run is guided.
    assert max(int(run[4]) for run in runs) == int(runs[0][4])
    puzzle = npuzzle.Puzzle(rows=3, cols=3, start=(8, 1, 3, 4, 0, 2, 7, 6, 5))
    assert npuzzle.solvability(puzzle)[0]


def test_explain_nonogram(tmp_path: Path) -> None:
    lines = output_of("explain_nonogram.py", tmp_path)
    steps = [line for line in lines if re.match(r"\d+\. ", line)]
    assert [int(step.split(".")[0]) for step in steps] == list(range(1, len(steps) + 1))
    assert any("probe" in step for step in steps)
    assert any(line.startswith("The solution is unique") for line in lines)
    clues = [(3,), (1, 1), (5,), (1, 1), (1, 1)], [(4,), (1, 1), (1, 1), (1, 1), (4,)]
    puzzle = cspsolve.Nonogram(rows=clues[0], columns=clues[1])
    assert nonogram.check(puzzle, lines[-5:]) == []


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_an_example_says_how_to_run_it(script: str) -> None:
    text = (EXAMPLES / script).read_text(encoding="utf-8")
    assert f"python examples/{script}" in text.split('"""')[1]
