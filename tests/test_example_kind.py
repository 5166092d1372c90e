"""A new kind is one package: the example ``queens`` kind (``tests/kinds/queens``) goes
through every command of the command line, and is found as a package under ``models/``."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import cli, registry, tasks
from cspsolve.errors import OptionError

from .conftest import run
from .kinds.queens.kind import KIND, Queens, check

KINDS = Path(__file__).resolve().parent / "kinds"
ENV = {registry.EXTRA_KINDS_ENV: "queens.kind", "PYTHONPATH": str(KINDS)}


def queens(*args: object) -> Any:
    return run(*args, env=ENV)


def board(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n")
    return path


def brute_force(puzzle: Queens) -> list[tuple[int, ...]]:
    """Every solution, by trying every permutation of the columns."""
    return [p for p in itertools.permutations(range(puzzle.n)) if not check(puzzle, p)]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "open": board(tmp_path / "open.queens", ["." * 6] * 6),
        "stuck": board(tmp_path / "stuck.queens", ["Q...", "....", "....", "...."]),
    }


@pytest.mark.slow
def test_solve_compare_verify_analyze_and_batch_through_the_cli(
    files: dict[str, Path], tmp_path: Path
) -> None:
    solved = queens("solve", files["open"], "--format", "json")
    assert solved.returncode == 0, solved.stderr
    record = json.loads(solved.stdout)
    assert record["kind"] == "queens" and record["method"] == "dfs"
    assert check(Queens((None,) * 6), tuple(record["solution"]["columns"])) == []
    assert queens("solve", files["stuck"], "--method", "cpsat").returncode == 1
    compared = queens("compare", files["open"], "--format", "json")
    assert [json.loads(line)["method"] for line in compared.stdout.splitlines()] == [
        "dfs",
        "cpsat",
    ]
    for name in files:
        verified = queens("verify", files[name], "--format", "json")
        assert json.loads(verified.stdout)["agree"] is True, verified.stdout
    analysis = json.loads(queens("analyze", files["stuck"], "--format", "json").stdout)
    assert analysis["analysis"] == {"queens": 4, "given": 1}
    listed = queens("methods", "--format", "json").stdout.splitlines()
    assert "queens" in [json.loads(line)["kind"] for line in listed]
    out = tmp_path / "r.sqlite"
    assert queens("batch", tmp_path, "--out", out, "--workers", "1").returncode == 0
    with sqlite3.connect(out) as db:
        statuses = dict(db.execute("SELECT puzzle || file, status FROM results"))
    assert sorted(statuses.values()) == ["solved", "unsolvable"]


def test_bad_options_and_files_are_one_line_errors(files: dict[str, Path], tmp_path: Path) -> None:
    assert "--unique does not apply to queens" in queens("solve", files["open"], "--unique").stderr
    heuristic = queens("solve", files["open"], "--heuristic", "manhattan")
    assert heuristic.returncode == 2 and "unknown heuristic" in heuristic.stderr
    bad = board(tmp_path / "bad.queens", ["Q.", "..."])
    assert queens("solve", bad).stderr.strip() == f"cspsolve: {bad}:2: expected 2 of '.' or 'Q'"


def test_explain_through_the_cli(files: dict[str, Path], tmp_path: Path) -> None:
    explained = queens("explain", files["open"], "--format", "json")
    assert explained.returncode == 0, explained.stderr
    records = [json.loads(line) for line in explained.stdout.splitlines()]
    assert all(r["kind"] == "queens" and r["file"] == str(files["open"]) for r in records)
    steps, summary = records[:-1], records[-1]
    assert [r["step"] for r in steps] == list(range(1, 7)) and summary["type"] == "summary"
    placed = tuple(r["column"] for r in steps)
    assert [r["row"] for r in steps] == list(range(6)) and check(Queens((None,) * 6), placed) == []
    assert summary["solution"] == {"columns": list(placed)}
    text = queens("explain", files["stuck"], "--frames")
    assert text.returncode == 1 and "no placement works" in text.stdout
    gif = tmp_path / "why.gif"
    assert queens("explain", files["open"], "--image", gif).returncode == 0 and gif.exists()
    wrong = queens("explain", files["open"], "--image", tmp_path / "why.txt")
    assert wrong.returncode == 2 and "unknown image format '.txt'" in wrong.stderr


def test_a_kind_that_explains_nothing_says_so() -> None:
    silent = dataclasses.replace(KIND, explain=None)
    with pytest.raises(OptionError, match="cannot be explained"):
        tasks.explain(silent, Queens((None,)))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.lists(st.none() | st.integers(0, n - 1), min_size=n, max_size=n)
    )
)
def test_both_methods_agree_with_brute_force(given_columns: list[int | None]) -> None:
    puzzle = Queens(tuple(given_columns))
    expected = brute_force(puzzle)
    for method in KIND.method_names:
        result = tasks.solve(KIND, puzzle, request=tasks.Request(method))
        if expected:
            assert result.solution in expected, method
        else:
            assert result.status.value == "unsolvable", method


def test_a_package_under_models_is_a_kind_with_no_other_line(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    models = importlib.import_module("cspsolve.models")
    monkeypatch.setattr(models, "__path__", [*models.__path__, str(KINDS)])
    registry.kinds.cache_clear()
    try:
        assert "cspsolve.models.queens.kind" in registry._modules()
        assert "queens" in registry.names()
        result = CliRunner().invoke(cli.cli, ["solve", str(files["open"]), "--format", "json"])
        assert result.exit_code == 0 and json.loads(result.output)["kind"] == "queens"
    finally:
        registry.kinds.cache_clear()
