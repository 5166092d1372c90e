"""End-to-end tests of ``cspsolve batch``, ``solve --image``, ``graph`` and ``compare --plot``.

Batches run the command in a fresh interpreter (one of them is killed with SIGKILL midway and
run again); commands that need a fake kind (one without a constraint graph, one whose puzzles
cannot be drawn) run in this process through click's test runner. Stored solutions are checked
with :func:`cspsolve.models.nonogram.board.check`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner
from PIL import Image

from cspsolve import cli, registry, render
from cspsolve.models.nonogram import board
from cspsolve.models.nonogram import kind as nonogram
from cspsolve.models.nonogram.io import formats

from .conftest import command, run
from .stubs import stub_kind

DATA = Path(__file__).resolve().parent / "data" / "nonogram"
TOURNAMENT = DATA / "tournament_sample.txt"
TIMEOUT = 120.0


def stored(path: Path) -> list[tuple[str, str, str, str]]:
    """(file, puzzle, status, solution) of every row, in insertion order."""
    db = sqlite3.connect(path, timeout=30)  # wait out the writer's commits
    try:
        query = "SELECT file, puzzle, status, solution FROM results ORDER BY rowid"
        return [tuple(r) for r in db.execute(query)]
    except sqlite3.OperationalError as e:  # the table is not created yet
        assert "no such table" in str(e), e
        return []
    finally:
        db.close()


def check_rows(rows: list[tuple[str, str, str, str]]) -> None:
    """Every row is a solved tournament puzzle whose grid fits its clues."""
    entries = {str(e.id): e.puzzle for e in formats.read(TOURNAMENT)}
    for _, puzzle, status, solution in rows:
        assert status == "solved"
        assert board.check(entries[puzzle], tuple(json.loads(solution)["grid"])) == []


# --- batch ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_killed_batch_resumes_with_every_result_once(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    copies = 200
    for i in range(copies):
        shutil.copy(TOURNAMENT, folder / f"t{i:03}.txt")
    expected = {(str(folder / f"t{i:03}.txt"), str(p)) for i in range(copies) for p in (1, 2, 3)}
    out = tmp_path / "results.sqlite"
    args = ("batch", folder, "--out", out, "--workers", 1, "--method", "mac", "--unique")
    child = subprocess.Popen(
        command(*args, "--format", "json"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + TIMEOUT
    while len(stored(out)) < 10 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert child.poll() is None, "the batch ended before it could be killed"
    os.killpg(child.pid, signal.SIGKILL)
    child.wait(timeout=TIMEOUT)
    before = stored(out)
    assert 10 <= len(before) < len(expected)

    proc = run(*args, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["jobs"] == len(expected)
    assert summary["already_done"] == len(before)
    assert summary["ran"] == len(expected) - len(before)
    after = stored(out)
    assert after[: len(before)] == before  # nothing lost
    assert len(after) == len(expected)  # nothing twice
    assert {(f, p) for f, p, _, _ in after} == expected
    check_rows(after)


@pytest.mark.slow
def test_batch_through_a_dask_scheduler(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    for name in ("data148.nin", "smile.non", "tournament_sample.txt"):
        shutil.copy(DATA / name, tmp_path / name)
    out, by_pool = tmp_path / "dask.sqlite", tmp_path / "pool.sqlite"
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        proc = run("batch", tmp_path, "--out", out, "--scheduler", cluster.scheduler_address)
    assert proc.returncode == 0, proc.stderr
    assert run("batch", tmp_path, "--out", by_pool, "--workers", 2).returncode == 0
    rows = stored(out)
    assert len(rows) == 5
    assert sorted(rows) == sorted(stored(by_pool))


@pytest.mark.slow
def test_summary_totals_by_kind_and_status(tmp_path: Path) -> None:
    shutil.copy(TOURNAMENT, tmp_path / "t.txt")
    (tmp_path / "bad.non").write_text("width 2\n")
    (tmp_path / "notes.md").write_text("not a puzzle\n")
    out = tmp_path / "r.sqlite"
    proc = run("batch", tmp_path, "--out", out, "--workers", 1)
    assert proc.returncode == 0
    assert proc.stderr.count("\n") == 1 and "notes.md" in proc.stderr  # the skipped file
    totals = run("batch", "--summary", out, "--format", "json")
    assert json.loads(totals.stdout) == [
        {"kind": "nonogram", "status": "error", "count": 1, "seconds": pytest.approx(0, abs=1)},
        {"kind": "nonogram", "status": "solved", "count": 3, "seconds": pytest.approx(0, abs=30)},
    ]
    table = run("batch", "--summary", out)
    assert "nonogram" in table.stdout and "solved" in table.stdout and "error" in table.stdout


@pytest.mark.slow
def test_every_job_has_its_row_when_ids_repeat_across_files(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(TOURNAMENT, tmp_path / folder / "t.txt")
        (tmp_path / folder / "two.korf").write_text("1 1 0 2 3 4 5 6 7 8\n2 1 2 0 3 4 5 6 7 8\n")
        (tmp_path / folder / "twice.korf").write_text("1 1 0 2 3 4 5 6 7 8\n1 1 2 0 3 4 5 6 7 8\n")
        (tmp_path / folder / "bad.non").write_text("width 2\n")
    out = tmp_path / "r.sqlite"
    args = ("batch", tmp_path / "a", tmp_path / "b", "--out", out, "--format", "json")
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["jobs"], summary["ran"], summary["already_done"]) == (16, 16, 0)
    db = sqlite3.connect(out)
    found = db.execute("SELECT file, puzzle, status, cost, error FROM results").fetchall()
    db.close()
    assert len(found) == 16
    puzzles = {(Path(f).parent.name, Path(f).name, p) for f, p, *_ in found}
    for folder in ("a", "b"):
        assert {p for d, n, p in puzzles if (d, n) == (folder, "t.txt")} == {"1", "2", "3"}
        assert {p for d, n, p in puzzles if (d, n) == (folder, "two.korf")} == {"1", "2"}
        assert {p for d, n, p in puzzles if (d, n) == (folder, "twice.korf")} == {"1@1", "1@2"}
    costs = {(Path(f).parent.name, p): c for f, p, _, c, _ in found if f.endswith("two.korf")}
    assert costs == {("a", "1"): 1, ("a", "2"): 2, ("b", "1"): 1, ("b", "2"): 2}
    errors = [(f, e) for f, _, s, _, e in found if s == "error"]  # bad.non; twice.korf's line 2
    assert sorted((Path(f).parent.name, Path(f).name) for f, _ in errors) == [
        (d, n) for d in ("a", "b") for n in ("bad.non", "twice.korf")
    ]
    assert all(e.startswith(f"{f}:") for f, e in errors)
    twice = [(f, e) for f, e in errors if f.endswith("twice.korf")]
    assert all(e == f"{f}:2: puzzle 1: given twice (first on line 1)" for f, e in twice)
    again = json.loads(run(*args).stdout)
    assert (again["jobs"], again["ran"], again["already_done"]) == (16, 0, 16)


@pytest.mark.slow
def test_shards_together_cover_the_batch(tmp_path: Path) -> None:
    for name in ("data148.nin", "smile.non", "tournament_sample.txt", "test_pattern_09.txt"):
        shutil.copy(DATA / name, tmp_path / name)
    out = tmp_path / "r.sqlite"
    for k in (1, 2):
        proc = run("batch", tmp_path, "--out", out, "--shard", f"{k}/2", "--format", "json")
        assert proc.returncode == 0, proc.stderr
    assert len(stored(out)) == 6
    again = json.loads(run("batch", tmp_path, "--out", out, "--format", "json").stdout)
    assert (again["ran"], again["already_done"]) == (0, 6)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "needs PATH"),
        ((DATA,), "needs PATH"),
        ((DATA, "--out", "x.sqlite", "--shard", "0/2"), "--shard 0/2"),
        ((DATA, "--out", "x.sqlite", "--shard", "3/2"), "--shard 3/2"),
        ((DATA, "--out", "x.sqlite", "--method", "nope"), "unknown method 'nope'"),
        ((DATA, "--out", "x.sqlite", "--workers", 2, "--scheduler", "tcp://a:1"), "exclude"),
        (("--summary", "missing.sqlite"), "no such file"),
        (("--summary", TOURNAMENT), "not a usable SQLite file"),
    ],
)
def test_bad_batch_usage_exits_2(tmp_path: Path, args: tuple[object, ...], message: str) -> None:
    proc = subprocess.run(
        command("batch", *args), capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT
    )
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr.splitlines()[-1]
    assert not (tmp_path / "x.sqlite").exists()


# --- pictures ---------------------------------------------------------------------------------


def expected_size(source: Path, grid: list[str]) -> tuple[int, int]:
    """The image size of a solved nonogram, from its scenes' layout."""
    puzzle = formats.read(source)[0].puzzle
    assert board.check(puzzle, tuple(grid)) == []
    at = render.layout(nonogram.scenes(puzzle, tuple(grid)))
    return at.width, at.height


@pytest.mark.slow
def test_solve_image_writes_png_svg_and_gif(tmp_path: Path) -> None:
    source = DATA / "smile.non"
    sizes = set()
    for suffix in ("png", "svg", "gif"):
        image = tmp_path / f"smile.{suffix}"
        proc = run("solve", source, "--image", image, "--format", "json")
        assert proc.returncode == 0, proc.stderr
        size = expected_size(source, json.loads(proc.stdout)["solution"]["grid"])
        if suffix == "svg":
            root = ET.parse(image).getroot()
            width, height = (float(root.attrib[k].removesuffix("pt")) for k in ("width", "height"))
            sizes.add((round(width * render.DPI / 72), round(height * render.DPI / 72)))
            continue
        with Image.open(image) as picture:
            assert picture.format == suffix.upper()
            assert getattr(picture, "n_frames", 1) == 1
            sizes.add(picture.size)
    assert sizes == {size}


@pytest.mark.slow
def test_solve_image_of_a_multi_puzzle_file_numbers_the_files(tmp_path: Path) -> None:
    proc = run("solve", TOURNAMENT, "--image", tmp_path / "t.png")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-1.png", "t-2.png", "t-3.png"]
    assert [line for line in proc.stdout.splitlines() if line.startswith("image: ")] == [
        f"image: {tmp_path / f't-{i}.png'}" for i in (1, 2, 3)
    ]


def test_solve_image_with_an_unknown_extension_exits_2(tmp_path: Path) -> None:
    proc = run("solve", DATA / "smile.non", "--image", tmp_path / "smile.jpg")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "unknown image format '.jpg'" in proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_compare_plot(tmp_path: Path) -> None:
    plot = tmp_path / "c.png"
    proc = run("compare", DATA / "smile.non", "--methods", "mac,cpsat", "--plot", plot)
    assert proc.returncode == 0, proc.stderr
    with Image.open(plot) as picture:
        assert picture.format == "PNG"
    assert run("compare", DATA / "smile.non", "--plot", tmp_path / "c.gif").returncode == 2


# --- fake kinds, in this process ----------------------------------------------------------------


def _echo(puzzle: str) -> Any:
    from cspsolve.results import Result, Status

    return Result(Status.SOLVED, puzzle)


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Register the fake kind; return a fake puzzle file."""
    monkeypatch.setitem(registry.kinds(), "fake", stub_kind("fake", _echo))
    path = tmp_path / "p.fake"
    path.write_text("abc")
    return path


def invoke(*args: object) -> Any:
    return CliRunner().invoke(cli.cli, [str(a) for a in args], catch_exceptions=False)


def test_a_puzzle_that_cannot_be_drawn_exits_2(fake: Path, tmp_path: Path) -> None:
    result = invoke("solve", fake, "--image", tmp_path / "p.png")
    assert result.exit_code == 2
    assert "cannot draw" in result.output and "a stub puzzle has no grid" in result.output
    assert not (tmp_path / "p.png").exists()


def test_graph_of_a_kind_without_one_exits_2(fake: Path, tmp_path: Path) -> None:
    result = invoke("graph", fake, "--image", tmp_path / "g.png")
    assert result.exit_code == 2
    assert "fake has no constraint graph" in result.output
    assert not (tmp_path / "g.png").exists()


def test_graph_draws_the_kinds_constraint_graph(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graphed = dataclasses.replace(registry.get("fake"), constraint_graph=nx.cycle_graph)
    monkeypatch.setitem(registry.kinds(), "fake", graphed)
    result = invoke("graph", fake, "--image", tmp_path / "g.png")
    assert result.exit_code == 0, result.output
    assert "3 variables, 3 edges" in result.output  # cycle_graph("abc")
    with Image.open(tmp_path / "g.png") as picture:
        assert picture.format == "PNG"
    bad = invoke("graph", fake, "--image", tmp_path / "g.gif")
    assert bad.exit_code == 2 and "unknown image format '.gif'" in bad.output
