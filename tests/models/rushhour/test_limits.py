"""``analyze`` and ``verify`` keep within the time limit on large Rush Hour boards (12x12, 44
pieces; a 9x9 board of 1,414,476 positions for ``analyze``).

The limits contract of every method (``tests/contract/``) runs on the 12x12 board of 44
pieces. Each run here is a ``cspsolve`` command with ``--format json``; its own
``stats.seconds`` must stay within the time limit plus :data:`.checks.MARGIN`, and its answer
must be ``limit`` or right (:func:`tests.contract.checks.assert_record_within`). The compiled
kernels are loaded (compiled on a fresh checkout) once before, so that the runs measure the
searches, not the compiler.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cspsolve import registry, tasks
from cspsolve.models.rushhour import Piece, read
from cspsolve.models.rushhour.board import Board

from ...conftest import run
from ...contract.checks import MARGIN, assert_record_within
from .conftest import DATA

pytestmark = pytest.mark.slow

SECONDS = 2.0
"""The time limit of every run."""

SCRAMBLED = DATA / "scrambled12x12_44_s2.csv"
"""Solvable (a random walk from a solved board); no method proves its optimum in seconds."""
RANDOM = DATA / "random12x12_44_a.csv"
"""Not known to be solvable; at least 18 moves."""
LARGE_CLUSTER = DATA / "random9x9_24_a.csv"
"""Unsolvable; its cluster has 1,414,476 positions (about 4 s to analyze)."""


@pytest.fixture(scope="module", autouse=True)
def compiled() -> Iterator[None]:
    """Run the compiled methods and the analysis once on a small board, so that their kernels
    are in numba's cache."""
    kind = registry.get("rushhour")
    small = Board(6, (Piece("A", 2, 0, 2, True), Piece("B", 1, 3, 3, False)), frozenset(), "A")
    tasks.analyze(kind, small)
    for method in kind.methods:
        if method.backend == "compiled":
            tasks.solve(kind, small, request=tasks.Request(method.name))
    yield


def _json(*args: object) -> dict[str, Any]:
    proc = run(*args, "--format", "json")
    assert proc.returncode in (0, 1, 3), proc.stdout + proc.stderr
    record: dict[str, Any] = json.loads(proc.stdout)
    return record


def test_analyze_keeps_within_the_time_limit() -> None:
    record = _json("analyze", LARGE_CLUSTER, "--time-limit", SECONDS)["analysis"]
    assert record["seconds"] <= SECONDS + MARGIN
    if record["complete"]:
        assert record["cluster_size"] == 1_414_476 and record["optimal_moves"] is None
    else:
        assert record["status"] == "limit"
    proc = run("analyze", RANDOM, "--time-limit", SECONDS)
    assert proc.returncode == 2 and "too large for cluster analysis" in proc.stderr


def test_verify_keeps_within_the_time_limit() -> None:
    for path in (SCRAMBLED, RANDOM):
        record = _json("verify", path, "--method", "bfida", "--time-limit", SECONDS)
        spent = record["stats"]["seconds"] + record["reference"]["stats"]["seconds"]
        assert spent <= SECONDS + MARGIN
        assert_record_within("rushhour", read(path)[0].puzzle, record, SECONDS)
