"""Every Rush Hour method, ``analyze`` and ``verify`` keep within the time and node limits on
large boards (12x12, 44 pieces; a 9x9 board of 1,414,476 positions for ``analyze``).

Each run is a ``cspsolve`` command with ``--format json``; its own ``stats.seconds`` must stay
within the time limit plus :data:`MARGIN`, and its answer must be ``limit`` or right: a plan is
replayed by the checker written in the tests (:func:`.differential.replay`). The compiled
kernels are loaded (compiled on a fresh checkout) once before, so that the runs measure the
searches, not the compiler.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from cspsolve.limits import Limits
from cspsolve.models.rushhour import Move, Piece, read
from cspsolve.models.rushhour.analysis import analyze
from cspsolve.models.rushhour.board import Board
from cspsolve.models.rushhour.deepening import solve
from cspsolve.models.rushhour.packed import BEAM_SCORE, Packing, _estimates

from ...conftest import run
from . import differential
from .conftest import DATA

pytestmark = pytest.mark.slow

MARGIN = 0.5
"""Seconds a run may exceed its time limit."""
SECONDS = 2.0
"""The time limit of every run."""
NODES = 300
"""The node limit of the runs limited by nodes."""

SCRAMBLED = DATA / "scrambled12x12_44_s2.csv"
"""Solvable (a random walk from a solved board); no method proves its optimum in seconds."""
RANDOM = DATA / "random12x12_44_a.csv"
"""Not known to be solvable; at least 18 moves."""
LARGE_CLUSTER = DATA / "random9x9_24_a.csv"
"""Unsolvable; its cluster has 1,414,476 positions (about 4 s to analyze)."""

SEARCHES = ("bfida", "astar", "idastar", "greedy", "engine-bfs", "dfs", "cpsat")
"""Every method that takes a 12x12 board of 44 pieces (``bfs`` refuses it: its key does not
fit)."""


@pytest.fixture(scope="module", autouse=True)
def compiled() -> Iterator[None]:
    """Run every compiled kernel once on a small board, so that they are in numba's cache."""
    small = Board(6, (Piece("A", 2, 0, 2, True), Piece("B", 1, 3, 3, False)), frozenset(), "A")
    analyze(small, Limits())
    solve(small)
    packing = Packing.of(small)
    _estimates(packing, np.asarray(packing.start()), BEAM_SCORE, False)
    yield


def _json(*args: object) -> dict[str, Any]:
    proc = run(*args, "--format", "json")
    assert proc.returncode in (0, 1, 3), proc.stdout + proc.stderr
    record: dict[str, Any] = json.loads(proc.stdout)
    return record


def _right_or_limit(record: dict[str, Any], board: Board) -> None:
    """The answer is ``limit``, or a plan that replays to the exit."""
    if record["status"] == "limit":
        assert record["solution"] is None
        return
    assert record["status"] in ("solved", "optimal"), record["status"]
    moves = [Move.parse(m) for m in record["solution"]["moves"]]
    assert differential.replay(board, moves) is None


def test_methods_keep_within_the_time_limit() -> None:
    board = read(SCRAMBLED)[0].puzzle
    for method in SEARCHES:
        record = _json("solve", SCRAMBLED, "--method", method, "--time-limit", SECONDS)
        assert record["stats"]["seconds"] <= SECONDS + MARGIN, method
        _right_or_limit(record, board)


def test_methods_keep_within_the_node_limit() -> None:
    board = read(RANDOM)[0].puzzle
    for method in SEARCHES:
        record = _json("solve", RANDOM, "--method", method, "--max-nodes", NODES)
        assert record["stats"]["expanded"] <= NODES, method
        _right_or_limit(record, board)


def test_bfs_refuses_a_board_its_key_cannot_hold() -> None:
    proc = run("solve", RANDOM, "--method", "bfs", "--time-limit", SECONDS)
    assert proc.returncode == 2
    assert "do not fit the compiled search's 62-bit key" in proc.stderr


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
        _right_or_limit(record, read(path)[0].puzzle)
