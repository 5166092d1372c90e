"""The ``cspsolve`` command on the nonogram additions of issue 3: webpbn XML, Tatham game IDs,
``analyze`` on the fast solver, the default method. Each run is a fresh interpreter."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from cspsolve.models.nonogram import check, kind, read

from ...conftest import run

DATA = Path(__file__).resolve().parents[2] / "data" / "nonogram"


def test_solve_xml_and_tatham_by_the_default_method() -> None:
    puzzle = read(DATA / "smile.non")[0].puzzle
    for name in ("smile.xml", "smile.tatham"):
        proc = run("solve", DATA / name, "--unique", "--format", "json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["method"] == "probing"
        assert out["proof"]["unique"] is True
        assert check(puzzle, out["solution"]["grid"]) == []


def test_analyze_reports_line_logic_uniqueness_and_effort() -> None:
    proc = run("analyze", DATA / "test_pattern_13.txt", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    analysis = json.loads(proc.stdout)["analysis"]
    # Flip: 4 cells stay open under line logic, two solutions (data README, CP-SAT).
    assert analysis["line_solvable"] is False
    assert analysis["fixed_by_line_logic"] == analysis["cells"] - 4
    assert analysis["unique"] is False
    assert analysis["expanded"] >= 2 and analysis["probes"] > 0


def test_analyze_line_solvable_puzzle() -> None:
    proc = run("analyze", DATA / "data000.nin", "--format", "json")
    analysis = json.loads(proc.stdout)["analysis"]
    assert analysis["line_solvable"] is True and analysis["unique"] is True
    assert analysis["fixed_by_line_logic"] == analysis["cells"] == 100
    assert analysis["probes"] == 0


def test_entity_bomb_is_refused_with_its_line(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.xml"
    levels = ['<!ENTITY a0 "ha">'] + [
        f'<!ENTITY a{i} "{"".join(f"&a{i - 1};" for _ in range(10))}">' for i in range(1, 10)
    ]
    bomb.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE puzzleset [\n'
        + "\n".join(levels)
        + "\n]>\n<puzzleset><title>&a9;</title></puzzleset>\n"
    )
    proc = run("solve", bomb)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"cspsolve: {bomb}:2: ")
    assert "refused" in proc.stderr and "Traceback" not in proc.stderr


def test_convert_non_to_tatham_and_back(tmp_path: Path) -> None:
    out = tmp_path / "smile.tatham"
    assert run("convert", DATA / "smile.non", out).returncode == 0
    assert out.read_text() == (DATA / "smile.tatham").read_text()
    back = tmp_path / "back.non"
    assert run("convert", out, back).returncode == 0
    assert read(back)[0].puzzle.rows == read(DATA / "smile.non")[0].puzzle.rows


@pytest.mark.slow
def test_graph_draws_the_complete_bipartite_line_graph(tmp_path: Path) -> None:
    puzzle = read(DATA / "smile.non")[0].puzzle
    graph = kind.constraint_graph(puzzle)
    expected = nx.complete_bipartite_graph(puzzle.height, puzzle.width)
    assert nx.is_isomorphic(graph, expected)
    out = tmp_path / "graph.png"
    proc = run("graph", DATA / "smile.non", "--image", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"{puzzle.height + puzzle.width} variables" in proc.stdout


def test_explain_unfold_shows_the_same_steps_when_nothing_is_folded() -> None:
    """The duck needs no refutation: --unfold changes nothing, and both list every step."""
    folded = run("explain", "instances/nonogram/duck.non")
    unfolded = run("explain", "instances/nonogram/duck.non", "--unfold")
    assert folded.returncode == unfolded.returncode == 0, folded.stderr + unfolded.stderr
    steps = [
        [line for line in proc.stdout.splitlines() if line.split(".")[0].strip().isdigit()]
        for proc in (folded, unfolded)
    ]
    assert steps[0] == steps[1] and steps[0][0].startswith(" 1. row")
