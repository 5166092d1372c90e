"""The ``cspsolve`` command on sliding-tile files, each run in a fresh interpreter."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from cspsolve.instances import ROOT
from cspsolve.models.npuzzle import read
from cspsolve.models.npuzzle.board import check

from ...conftest import run as cli_run

EXAMPLES = ROOT / "npuzzle"
LINE_ERROR = re.compile(r"^cspsolve: .+:\d+: .+$")


def run(
    *args: object, cache: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``cspsolve ARGS...`` with its pattern databases cached in ``cache``."""
    env = None if cache is None else {"CSPSOLVE_CACHE": str(cache)}
    return cli_run(*args, timeout=timeout, env=env)


def test_solve_json_plan_replays(pdb_cache: Path) -> None:
    path = EXAMPLES / "worst8.json"
    proc = run("solve", path, "--format", "json", cache=pdb_cache)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["kind"] == "npuzzle" and record["status"] == "optimal"
    assert record["solution"]["count"] == len(record["solution"]["moves"]) == 31
    assert check(read(path)[0].puzzle, record["solution"]["moves"]) == []


def test_solve_korf_lines_one_record_each() -> None:
    path = EXAMPLES / "korf15-easy.korf"
    proc = run("solve", f"{path}#79", "--heuristic", "manhattan", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (record,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert record["id"] == 79 and record["solution"]["count"] == 42
    assert record["method"] == "tile-idastar" and record["heuristic"] == "manhattan"


def test_unsolvable_exits_1_with_the_parity_explanation() -> None:
    proc = run("solve", EXAMPLES / "unsolvable8.json", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    record = json.loads(proc.stdout)
    assert record["status"] == "unsolvable" and "inversion" in record["message"]
    assert record["stats"]["expanded"] == 0


@pytest.mark.parametrize(
    "text, line",
    [
        ('{\n  "n": 3,\n  "start": [[1, 2, 3], [4, 5, 6], [7, 8, 8]]\n}\n', 3),
        ('{\n  "n": 3,\n  "start": [[1, 2, 3], [4, 5, 6]]\n}\n', 3),
        ('{\n  "n": 2,\n  "start": [[1, 2], [3, 0]],\n  "goal": [[1, 2, 3]]\n}\n', 4),
        ('{\n  "n": 2,\n  "start": [[1, "two"], [3, 0]]\n}\n', 3),
        ("1 2 3\n4 5 6\n7 8 x\n", 3),
    ],
)
def test_bad_input_exits_2_with_file_and_line(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / ("board.json" if text.startswith("{") else "board.txt")
    path.write_text(text, encoding="utf-8")
    proc = run("solve", path, "--kind", "npuzzle")
    assert proc.returncode == 2
    assert LINE_ERROR.match(proc.stderr.strip()), proc.stderr
    assert f"{path}:{line}:" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_compare_analyze_verify(pdb_cache: Path) -> None:
    path = EXAMPLES / "easy8.txt"
    proc = run("compare", path, "--format", "json", "--time-limit", "5", cache=pdb_cache)
    assert proc.returncode == 0, proc.stderr
    runs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert {(r["method"], r["heuristic"]) for r in runs} >= {("astar", "manhattan"), ("bfs", None)}
    assert all(r["solution"]["count"] == 2 for r in runs if r["status"] == "optimal")
    analysis = json.loads(run("analyze", path, "--format", "json", cache=pdb_cache).stdout)
    assert analysis["analysis"]["solvable"] is True
    assert analysis["analysis"]["optimal_length"] == 2
    verified = run("verify", path, "--format", "json", cache=pdb_cache)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["agree"] is True


def test_unknown_heuristic_is_a_usage_error() -> None:
    proc = run("solve", EXAMPLES / "easy8.txt", "--heuristic", "euclid")
    assert proc.returncode == 2 and "unknown heuristic" in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("method", ["tile-idastar", "idastar"])
def test_time_limit_covers_building_the_databases(tmp_path: Path, method: str) -> None:
    """With an empty cache a 24-puzzle needs some 26 million database entries (~25 s) first:
    the 1 s limit stops the build (exit 3, the reason given, the build announced); the
    timeout only guards against a hang."""
    path = Path(__file__).resolve().parents[2] / "data" / "npuzzle" / "twentyfour-four-moves.json"
    args = ("solve", path, "--method", method, "--time-limit", "1", "--format", "json")
    proc = run(*args, cache=tmp_path / "empty", timeout=20)
    assert proc.returncode == 3, proc.stderr
    record = json.loads(proc.stdout)
    assert record["status"] == "limit" and record["solution"] is None
    assert "while building the pattern databases" in record["message"]
    assert "building pattern databases first: 25,806,000 entries" in proc.stderr
