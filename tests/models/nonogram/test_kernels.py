"""The kernels with numba's internals (:mod:`cspsolve.models.nonogram._kernels`) and without:
the same answers and the same search, node for node.

The fallback runs in a child process with ``CSPSOLVE_NUMBA_INTERNALS=0`` (this file run as a
script), compiled afresh there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cspsolve.models.nonogram import _kernels
from cspsolve.models.nonogram.board import Nonogram, clue_of
from cspsolve.models.nonogram.search.portfolio import solve_probing


def puzzles() -> list[Nonogram]:
    """Random grids' clues, most with several solutions, and one with lines of 70 cells (two
    words, the multi-word line solver)."""
    rng = np.random.default_rng(11)
    shapes = [(8, 8, 0.3)] * 10 + [(12, 12, 0.5)] * 10 + [(4, 70, 0.6)]
    out = []
    for height, width, density in shapes:
        grid = rng.random((height, width)) < density
        out.append(Nonogram([clue_of(row) for row in grid], [clue_of(col) for col in grid.T]))
    return out


def answers() -> list[list[Any]]:
    """For each puzzle, deciding uniqueness: status, the grid, and the search's counts."""
    out = []
    for puzzle in puzzles():
        result = solve_probing(puzzle, max_solutions=2)
        stats = result.stats
        counts = [stats.expanded, stats.backtracks, stats.propagations, stats.probes]
        out.append([result.status.value, result.solution, result.proof["unique"], counts])
    return out


def test_the_pinned_numba_has_the_internals() -> None:
    if os.environ.get("CSPSOLVE_NUMBA_INTERNALS") == "0":
        pytest.skip("the internals are switched off")
    assert _kernels.INTERNALS


@pytest.mark.slow
def test_the_fallback_gives_the_same_answers_and_search() -> None:
    env = dict(os.environ, CSPSOLVE_NUMBA_INTERNALS="0")
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve())],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    fallback = json.loads(proc.stdout)
    assert fallback == json.loads(json.dumps(answers()))


if __name__ == "__main__":
    assert not _kernels.INTERNALS
    print(json.dumps(answers()))
