"""Puzzles that once got a wrong answer or crashed the process, kept in
``tests/data/nonogram/regressions``.

- ``random-*.non`` (random grids of density 0.55, clues derived; lines of 65 to 130 cells, or
  columns that long): the default method called them unsolvable, and 30x70 corrupted memory,
  when a line of at most 62 cells read stale words of a longer line's narrowed bit sets.
- ``sum-mismatch-13x13.non``: the row clues fill 114 cells, the column clues 113; CP-SAT's
  automata alone needed over a hundred thousand branches to refute it.
- ``mac-stopped-25x25.non`` (made by ``cspsolve generate nonogram --grade probing``): three
  solutions, the first of which the engine's MAC finds within 30 nodes and the second at node
  37; the default method, in a process that had not loaded its kernels, called it unique,
  because the plain-Python MAC it tries first for 30 nodes took a search stopped after one
  solution for a finished one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cspsolve.models.nonogram import KIND, cpsat, solve
from cspsolve.models.nonogram.board import check
from cspsolve.models.nonogram.io import formats
from cspsolve.results import Status

from ...conftest import run

DATA = Path(__file__).resolve().parents[2] / "data" / "nonogram" / "regressions"
LONG_LINES = sorted(DATA.glob("random-*.non"))
MISMATCH = DATA / "sum-mismatch-13x13.non"
MAC_STOPPED = DATA / "mac-stopped-25x25.non"


@pytest.mark.slow
@pytest.mark.parametrize("path", LONG_LINES, ids=lambda p: p.stem)
@pytest.mark.parametrize("method", ["probing", "cpsat"])
def test_long_lines_are_solved_and_settled_alike(path: Path, method: str) -> None:
    [entry] = formats.read(path)
    result = solve(entry.puzzle, method, unique=True)
    reference = cpsat.solve(entry.puzzle, max_solutions=2)
    assert result.status is Status.SOLVED, result.message
    assert result.solution is not None and check(entry.puzzle, result.solution) == []
    assert result.proof["unique"] is reference.proof["unique"] is not None


@pytest.mark.slow
@pytest.mark.parametrize("path", LONG_LINES, ids=lambda p: p.stem)
def test_the_command_solves_long_lines_without_crashing(path: Path) -> None:
    proc = run("solve", path, "--format", "json")
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-500:])


@pytest.mark.parametrize("method", KIND.method_names)
def test_totals_that_differ_are_unsolvable_for_every_method_with_the_reason(method: str) -> None:
    [entry] = formats.read(MISMATCH)
    result = solve(entry.puzzle, method, unique=True)
    assert result.status is Status.UNSOLVABLE
    assert result.message == "the row clues fill 114 cells, the column clues 113"


def test_cpsat_refutes_totals_that_differ_without_search() -> None:
    [entry] = formats.read(MISMATCH)
    result = cpsat.solve(entry.puzzle, max_solutions=2)
    assert result.status is Status.UNSOLVABLE
    assert result.stats.extra["branches"] == 0


def test_a_search_stopped_after_one_solution_proves_no_uniqueness() -> None:
    from cspsolve.models.nonogram import solver

    [entry] = formats.read(MAC_STOPPED)
    listed = cpsat.solve(entry.puzzle, max_solutions=3)
    assert len(set(listed.solutions)) == 3 and not any(
        check(entry.puzzle, s) for s in listed.solutions
    )
    for nodes in range(1, 45):  # stopped at any allowance, or two solutions found: no answer
        assert solver.python_mac(entry.puzzle, max_solutions=2, nodes=nodes) is None
    done = run("solve", MAC_STOPPED, "--unique", "--format", "json")  # a process of its own
    assert json.loads(done.stdout)["proof"]["unique"] is False
