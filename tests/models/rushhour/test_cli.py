"""The ``cspsolve`` command on Rush Hour files, in a fresh interpreter (like tests/test_cli.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cspsolve import registry
from cspsolve.instances import ROOT
from cspsolve.models.rushhour import HEURISTICS, Move, check, pictures, read

from ...conftest import run

SHIPPED = sorted(p for p in (ROOT / "rushhour").iterdir() if p.suffix in (".rh", ".txt", ".csv"))
CARD = "ooBoooooBooCooBAACDDDEoCoooEFFoooooo"  # Card-2, 16 moves (tests/data/rushhour)


@pytest.mark.slow
def test_shipped_examples_are_detected_attributed_and_solved() -> None:
    attribution = (ROOT / "rushhour" / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert len(SHIPPED) >= 3
    for path in SHIPPED:
        assert f"`{path.name}`" in attribution
        assert registry.detect(path) == "rushhour"
    proc = run("solve", "--format", "json", *SHIPPED)
    assert proc.returncode == 0, proc.stderr
    for path, line in zip(SHIPPED, proc.stdout.splitlines(), strict=True):
        record = json.loads(line)
        moves = [Move.parse(m) for m in record["solution"]["moves"]]
        assert record["status"] == "optimal" and record["solution"]["count"] == len(moves)
        assert check(read(path)[0].puzzle, moves) == []


def test_solve_json_steps_metric(tmp_path: Path) -> None:
    path = tmp_path / "card.txt"
    path.write_text(CARD + "\n")
    moves = json.loads(run("solve", path, "--format", "json").stdout)
    steps = json.loads(run("solve", path, "--format", "json", "--metric", "steps").stdout)
    assert moves["stats"]["cost"] == 16 and moves["solution"]["count"] == 16
    assert steps["stats"]["cost"] == 39


@pytest.mark.slow
def test_database_file_gives_one_object_per_line(tmp_path: Path) -> None:
    path = tmp_path / "db.txt"
    path.write_text(f"16 {CARD} 377\n16 {CARD} 377\n")
    records = [
        json.loads(line) for line in run("solve", path, "--format", "json").stdout.splitlines()
    ]
    assert [r["id"] for r in records] == [1, 2]
    picked = json.loads(run("analyze", f"{path}#2", "--format", "json").stdout)
    assert picked["analysis"]["optimal_moves"] == 16
    assert picked["analysis"]["cluster_size"] == 377
    assert picked["analysis"]["goal_states"] == picked["analysis"]["distance_histogram"][0]


def test_verify_reports_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "card.txt"
    path.write_text(CARD + "\n")
    proc = run("verify", path, "--format", "json")
    record = json.loads(proc.stdout)
    assert proc.returncode == 0 and record["agree"] is True
    assert record["reference"]["proof"]["lower_bound"] == 16


@pytest.mark.parametrize(
    ("text", "line"),
    [("ooo\nAAB\nooo\n", 2), ("oBo\nAAB\nBoo\n", 1), ("Aoo\nAoo\nooo\n", 1)],
)
def test_bad_input_exit_2(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "bad.rh"
    path.write_text(text)
    proc = run("solve", path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"cspsolve: {path}:{line}: ")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_unsolvable_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "stuck.rh"
    path.write_text("oooBoo\noooBoo\nAAoCCo\noooooo\noooooo\noooooo\n")
    proc = run("solve", path)
    assert proc.returncode == 1 and "no plan" in proc.stdout


@pytest.mark.slow
def test_compare_runs_every_method(tmp_path: Path) -> None:
    path = tmp_path / "card.txt"
    path.write_text(CARD + "\n")
    methods = "bfs,astar,engine-bfs,greedy,cpsat"
    proc = run("compare", path, "--format", "json", "--time-limit", "20", "--methods", methods)
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert {r["method"] for r in records} == set(methods.split(","))
    assert {r["heuristic"] for r in records if r["method"] == "astar"} == set(HEURISTICS)
    optimal = {r["stats"]["cost"] for r in records if r["status"] == "optimal"}
    assert optimal == {16} and len(records) == 4 + len(HEURISTICS)


def test_solve_text_counts_the_moves_and_reads_the_notation_once() -> None:
    lines = run("solve", ROOT / "rushhour" / "walls.rh").stdout.splitlines()
    counted = next(k for k, line in enumerate(lines) if line.endswith(" moves:"))
    moves = lines[counted + 1].split()
    assert lines[counted] == f"{len(moves)} moves:" == "11 moves:"
    assert lines.count(pictures.LEGEND) == 1 and lines[counted + 2] == pictures.LEGEND
    assert "D+1" in pictures.LEGEND and "right or down" in pictures.LEGEND
