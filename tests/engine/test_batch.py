"""Batch runs (:mod:`cspsolve.batch`): planning, storing, resuming, sharding, Dask.

Every stored solution is checked with the nonogram's independent checker
(:func:`cspsolve.models.nonogram.board.check`); fake kinds registered for one test stand for
kinds that fail or overrun their limits.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cspsolve import batch, registry
from cspsolve.models.nonogram import board
from cspsolve.models.nonogram.io import formats
from cspsolve.results import Result, Status
from cspsolve.tasks import Request

from ..stubs import stub_kind

DATA = Path(__file__).resolve().parents[1] / "data" / "nonogram"
FILES = ("smile.non", "data148.nin", "test_pattern_09.txt", "tournament_sample.txt")
"""Small puzzles: 3 single-puzzle files and a tournament file of three 25x25 puzzles."""
PUZZLES = 6
DEFAULT = Request()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of puzzle files, a nested one, a note no kind reads and a broken .non file."""
    root = tmp_path / "puzzles"
    (root / "nested").mkdir(parents=True)
    for name in FILES[:3]:
        shutil.copy(DATA / name, root / name)
    shutil.copy(DATA / FILES[3], root / "nested" / FILES[3])
    (root / "README.md").write_text("Puzzles for the batch tests.\n")
    (root / "broken.non").write_text("width 3\nheight x\n")
    (root / ".hidden.non").write_text("not even read\n")
    return root


def rows(path: Path) -> list[dict[str, Any]]:
    """Every row of a results file, sorted by key."""
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    found = [dict(r) for r in db.execute("SELECT * FROM results ORDER BY file, puzzle, method")]
    db.close()
    return found


def check_solutions(found: list[dict[str, Any]]) -> None:
    """Each solved row's grid satisfies its puzzle's clues."""
    for row in found:
        if row["status"] == batch.ERROR:
            continue
        entries = formats.read(row["file"])
        entry = entries[0] if row["puzzle"] == "" else formats.select(entries, row["puzzle"], "")
        grid = tuple(json.loads(row["solution"])["grid"])
        assert row["status"] == "solved"
        assert board.check(entry.puzzle, grid) == [], row["file"]


def test_plan_walks_folders_and_keeps_bad_files_as_errors(folder: Path) -> None:
    plan = batch.plan([folder], [DEFAULT])
    names = sorted((Path(j.file).name, j.puzzle) for j in plan.jobs)
    expected = [("broken.non", ""), ("smile.non", ""), ("data148.nin", "")]
    expected += [("test_pattern_09.txt", "Smile")]  # a picross-solver grid has a name
    expected += [(FILES[3], str(i)) for i in (1, 2, 3)]
    assert names == sorted(expected)
    (broken,) = (j for j in plan.jobs if j.error)
    assert Path(broken.file).name == "broken.non"
    assert "\n" not in broken.error and ":2:" in broken.error
    assert [Path(note.split(":")[0]).name for note in plan.skipped] == ["README.md"]


def test_a_broken_puzzle_of_a_file_is_a_job_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("$1\n1\n1\n$2\n1\nx\n1\n1\n$3\n0\n1\n0\n1\n")
    jobs = batch.plan([path], [DEFAULT]).jobs
    error = f"{path}:6: puzzle $2: run length 'x' is not a whole number"
    assert [(j.puzzle, j.error) for j in jobs] == [("1", ""), ("2", error), ("3", "")]
    rows = [batch.run_job(job).row for job in jobs]
    assert [(r["status"], r["error"]) for r in rows] == [
        ("solved", None),
        (batch.ERROR, error),
        ("solved", None),
    ]


def test_plan_keeps_only_the_kind_asked_for(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.kinds(), "fakekind", stub_kind("fakekind", lambda p: None))
    (folder / "one.fakekind").write_text("x\n")
    everything = batch.plan([folder], [DEFAULT])
    only_fake = batch.plan([folder], [DEFAULT], kind="fakekind")
    assert {j.kind for j in everything.jobs} == {"nonogram", "fakekind"}
    assert [Path(j.file).name for j in only_fake.jobs] == ["one.fakekind"]
    nonogram_files = {j.file for j in everything.jobs if j.kind == "nonogram"}
    assert len(only_fake.skipped) == len(everything.skipped) + len(nonogram_files)


def test_run_stores_every_job_once_and_resumes(folder: Path, tmp_path: Path) -> None:
    plan = batch.plan([folder], [DEFAULT, Request("cpsat")], time_limit=30)
    assert len(plan.jobs) == 2 * (PUZZLES + 1)
    store = batch.Store(tmp_path / "r.sqlite")
    first = plan.jobs[:5]
    with ThreadPoolExecutor(2) as pool:
        assert batch.run(first, pool, store) == (5, 0)
        seen: list[str] = []
        ran, skipped = batch.run(plan.jobs, pool, store, on_outcome=lambda o: seen.append(o.status))
    assert (ran, skipped) == (len(plan.jobs) - 5, 5)
    assert len(seen) == ran
    found = rows(tmp_path / "r.sqlite")
    assert len(found) == len(plan.jobs)
    assert {(r["file"], r["puzzle"], r["method"]) for r in found} == {
        (j.file, j.puzzle, j.method) for j in plan.jobs
    }
    assert {r["solved_by"] for r in found if r["status"] == "solved"} == {"probing", "cpsat"}
    errors = [r for r in found if r["status"] == batch.ERROR]
    assert [Path(r["file"]).name for r in errors] == ["broken.non"] * 2
    assert all(r["error"].startswith(f"{r['file']}:2: ") for r in errors)
    check_solutions(found)
    for row in found:
        if row["status"] == "solved":
            stats = json.loads(row["stats"])
            assert stats["seconds"] == pytest.approx(row["seconds"], abs=1e-5)
    with ThreadPoolExecutor(1) as pool:
        assert batch.run(plan.jobs, pool, store) == (0, len(plan.jobs))
    assert rows(tmp_path / "r.sqlite") == found


def test_a_stored_key_is_never_written_twice(folder: Path, tmp_path: Path) -> None:
    job = next(j for j in batch.plan([folder], [DEFAULT]).jobs if not j.error)
    store = batch.Store(tmp_path / "r.sqlite")
    outcome = batch.run_job(job)
    assert store.add(outcome) is True
    assert store.add(outcome) is False
    assert len(rows(tmp_path / "r.sqlite")) == 1


def test_other_options_are_other_rows(folder: Path) -> None:
    (a,) = batch.plan([folder / "smile.non"], [DEFAULT], time_limit=5).jobs
    (b,) = batch.plan([folder / "smile.non"], [DEFAULT], time_limit=6).jobs
    (c,) = batch.plan(
        [folder / "smile.non"], [Request(options={"unique": True})], time_limit=5
    ).jobs
    assert len({a.key, b.key, c.key}) == 3
    assert a.key[:3] == b.key[:3] == c.key[:3]


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_shards_split_the_puzzles(folder: Path, count: int) -> None:
    whole = batch.plan([folder], [DEFAULT, Request("mac")])
    parts = [
        batch.plan([folder], [DEFAULT, Request("mac")], shard=(k, count)) for k in range(count)
    ]
    keys = [j.key for part in parts for j in part.jobs]
    assert sorted(keys) == sorted(j.key for j in whole.jobs)
    for part in parts:  # both methods of a puzzle fall in the same shard
        puzzles = {(j.file, j.puzzle) for j in part.jobs}
        assert len(part.jobs) == 2 * len(puzzles)


# --- every puzzle its own row: repeated ids, files reached twice ------------------------------

KORF = "1 1 0 2 3 4 5 6 7 8\n2 1 2 0 3 4 5 6 7 8\n"
"""Two 8-puzzles, Korf's instance numbers 1 and 2: one move and two moves from the goal. (No
reader accepts an id twice in one file; :func:`batch.puzzle_names` is tested for that case.)"""


ids = st.one_of(st.none(), st.integers(0, 4), st.sampled_from(["a", "1@2", "1@1", "@", "2@1"]))


@given(st.lists(st.builds(SimpleNamespace, id=ids), min_size=1, max_size=8))
def test_puzzle_names_are_unique_and_keep_the_ids_that_are(entries: list[Any]) -> None:
    names = batch.puzzle_names(entries)
    assert len(set(names)) == len(names) == len(entries)
    given_ids = [str(e.id) for e in entries if e.id is not None]
    for entry, name in zip(entries, names, strict=True):
        if entry.id is not None and given_ids.count(str(entry.id)) == 1 and "@" not in name:
            assert name == str(entry.id)
        if entry.id is not None:
            assert name.startswith(str(entry.id))


def test_files_sharing_ids_keep_every_row(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(DATA / FILES[3], tmp_path / folder / "t.txt")
        (tmp_path / folder / "two.korf").write_text(KORF)
    plan = batch.plan([tmp_path], [DEFAULT], time_limit=30)
    assert len(plan.jobs) == 2 * (3 + 2)
    out = tmp_path / "r.sqlite"
    with ThreadPoolExecutor(2) as pool:
        assert batch.run(plan.jobs, pool, batch.Store(out)) == (len(plan.jobs), 0)
        found = rows(out)
        assert len(found) == len(plan.jobs)
        assert batch.run(plan.jobs, pool, batch.Store(out)) == (0, len(plan.jobs))
    assert rows(out) == found
    korf = [
        (Path(r["file"]).parent.name, r["puzzle"], r["cost"])
        for r in found
        if r["kind"] == "npuzzle"
    ]
    assert sorted(korf) == [("a", "1", 1), ("a", "2", 2), ("b", "1", 1), ("b", "2", 2)]
    check_solutions([r for r in found if r["kind"] == "nonogram"])


def test_a_file_reached_twice_is_planned_once(folder: Path) -> None:
    smile = folder / "smile.non"
    (folder / "link.non").symlink_to(smile)
    plan = batch.plan([smile, smile, folder], [DEFAULT])
    assert [j.file for j in plan.jobs].count(str(smile)) == 1
    assert not any(Path(j.file).name == "link.non" for j in plan.jobs)
    assert f"{smile}: given twice, planned once" in plan.skipped
    assert f"{folder / 'link.non'}: the same file as {smile}, planned once" in plan.skipped
    assert f"{smile}: given twice, planned once" in plan.skipped


# --- fake kinds: errors and overruns ---------------------------------------------------------


def job_for(tmp_path: Path, solve: Any, time_limit: float | None = None) -> batch.Job:
    (tmp_path / "p.fakekind").write_text("text")
    registry.kinds()["fakekind"] = stub_kind("fakekind", solve)
    (job,) = batch.plan([tmp_path / "p.fakekind"], [DEFAULT], time_limit=time_limit).jobs
    return job


@pytest.fixture(autouse=True)
def _forget_fake_kinds() -> Any:
    yield
    registry.kinds().pop("fakekind", None)


def test_a_failing_solver_becomes_an_error_row(tmp_path: Path) -> None:
    def refuse(puzzle: Any) -> Result[Any]:
        raise ValueError("no such thing\nsecond line")

    def crash(puzzle: Any) -> Result[Any]:
        return {}["missing"]  # type: ignore[no-any-return]

    file = str(tmp_path / "p.fakekind")
    refused = batch.run_job(job_for(tmp_path, refuse)).row
    assert (refused["status"], refused["error"]) == (batch.ERROR, f"{file}: no such thing")
    crashed = batch.run_job(job_for(tmp_path, crash)).row
    assert crashed["status"] == batch.ERROR
    assert crashed["error"].startswith(f"{file}: KeyError")


def test_hard_timeout_stops_a_solver_that_ignores_its_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "GRACE", 0.2)

    def overrun(puzzle: Any) -> Result[Any]:
        time.sleep(30)
        return Result(Status.SOLVED, "late")

    started = time.perf_counter()
    row = batch.run_job(job_for(tmp_path, overrun, time_limit=0.1)).row
    assert time.perf_counter() - started < 10
    assert row["status"] == "limit"
    assert row["error"].startswith(f"{tmp_path / 'p.fakekind'}: hard timeout")


def test_hard_timeout_leaves_a_solver_within_its_limit_alone(tmp_path: Path) -> None:
    row = batch.run_job(job_for(tmp_path, lambda p: Result(Status.SOLVED, p), 5.0)).row
    assert (row["status"], json.loads(row["solution"]), row["error"]) == ("solved", "text", None)


# --- executors -------------------------------------------------------------------------------


def comparable(found: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = (
        "file",
        "puzzle",
        "kind",
        "method",
        "options",
        "status",
        "solved_by",
        "solution",
        "error",
    )
    return [tuple(r[k] for k in keys) for r in found]


def test_dask_local_cluster_gives_the_rows_of_a_process_pool(folder: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    plan = batch.plan([folder], [DEFAULT], time_limit=30)
    with ProcessPoolExecutor(2) as pool:
        batch.run(plan.jobs, pool, batch.Store(tmp_path / "pool.sqlite"))
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        ran = batch.run(plan.jobs, client.get_executor(), batch.Store(tmp_path / "dask.sqlite"))
    assert ran == (len(plan.jobs), 0)
    pool_rows, dask_rows = rows(tmp_path / "pool.sqlite"), rows(tmp_path / "dask.sqlite")
    assert len(pool_rows) == PUZZLES + 1
    assert comparable(dask_rows) == comparable(pool_rows)
    check_solutions(dask_rows)
