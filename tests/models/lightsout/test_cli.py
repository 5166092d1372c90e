"""The ``cspsolve`` command on Lights Out boards, run in a fresh interpreter (DESIGN.md §3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cspsolve import registry
from cspsolve.instances import ROOT
from cspsolve.models.lightsout import formats
from cspsolve.models.lightsout.board import LightsOut, check

SHIPPED = ROOT / "lightsout"
BOARDS = sorted(p for p in SHIPPED.iterdir() if p.suffix in (".lo", ".json", ".edges", ".txt"))


def run(*args: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CSPSOLVE_DEBUG"}
    return subprocess.run(
        [sys.executable, "-P", "-c", "from cspsolve.cli import main; main()", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def presses(record: dict[str, object]) -> tuple[int, ...]:
    solution = record["solution"]
    assert isinstance(solution, dict)
    rows: dict[int, int] = {}
    for r, c in solution["presses"]:
        rows[r] = rows.get(r, 0) | 1 << c
    assert solution["count"] == len(solution["presses"])
    return tuple(rows.get(r, 0) for r in range(max(rows, default=-1) + 1))


def test_shipped_boards_are_attributed_and_detected() -> None:
    attribution = (SHIPPED / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert len(BOARDS) >= 6
    for path in BOARDS:
        assert f"`{path.name}`" in attribution
        assert registry.detect(path) == "lightsout", path.name


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.name)
def test_solve_json_replays_to_all_off(path: Path) -> None:
    done = run("solve", path, "--format", "json")
    record = json.loads(done.stdout)
    puzzle = formats.read(path)[0].puzzle
    if record["status"] == "unsolvable":
        assert done.returncode == 1 and "quiet pattern" in record["message"]
        return
    assert done.returncode == 0 and record["status"] == "optimal"
    assert record["proof"]["minimum"] is True and "nullity" in record["proof"]
    found = presses(record)
    found += (0,) * (puzzle.rows - len(found))
    assert check(puzzle, found) == []


def test_variant_and_torus_options_change_the_board(tmp_path: Path) -> None:
    path = tmp_path / "allon.lo"
    formats.write(LightsOut((0b1111,) * 4, 4), path)
    plain = json.loads(run("solve", path, "--format", "json").stdout)
    sigma = json.loads(run("solve", path, "--variant", "sigma", "--format", "json").stdout)
    torus = json.loads(run("analyze", path, "--torus", "--format", "json").stdout)
    assert plain["solution"]["count"] == 4 and sigma["solution"]["count"] == 6
    assert torus["analysis"]["nullity"] == 0  # 4x4 torus: OEIS A165738(4) = 0
    graph = run("solve", SHIPPED / "petersen.edges", "--torus")
    assert graph.returncode == 2 and "graph" in graph.stderr


def test_kind_option_reads_plain_grids(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("010\n111\n010\n", encoding="utf-8")
    assert run("solve", path).returncode == 2  # ambiguous without --kind
    done = run("solve", path, "--kind", "lightsout", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["solution"] == {
        "presses": [[1, 1]],
        "count": 1,
    }


def test_analyze_verify_and_compare() -> None:
    board = SHIPPED / "classic-5x5.lo"
    analysis = json.loads(run("analyze", board, "--format", "json").stdout)["analysis"]
    assert analysis["nullity"] == 2 and analysis["solvable"] is True
    assert analysis["solvable_states"] == 2**23 and analysis["solutions_per_state"] == 4
    verify = run("verify", board, "--format", "json")
    assert verify.returncode == 0 and json.loads(verify.stdout)["agree"] is True
    compare = run("compare", board, "--format", "json")
    runs = [json.loads(line) for line in compare.stdout.splitlines()]
    assert {(r["method"], r["heuristic"]) for r in runs} >= {("astar", "packing"), ("cpsat", None)}
    assert len({r["stats"]["cost"] for r in runs}) == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [("010\n01\n", 2), ("010\n0z0\n", 2), ("variant: sigma-x\n01\n", 1), ("\n", 1)],
)
def test_bad_input_exits_2_with_the_line(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "bad.lo"
    path.write_text(text, encoding="utf-8")
    done = run("solve", path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"cspsolve: {path}:{line}: ") and "Traceback" not in done.stderr
