"""Time and node limits are honoured by every phase of the methods, from a cold cache.

The limits contract of every method (``tests/contract/``) runs on the 24-puzzle, from a cold
cache. Each run here starts from an empty pattern-database cache (a fresh ``CSPSOLVE_CACHE``
under ``tmp_path``) with ``--time-limit 2`` on a hard board of each size where the code takes
another path: the 15-puzzle (the 6-6-3 databases, tables of regions for the blank), the
24-puzzle's 6-6-6-6 databases, a 3x4 and a 4x5 board (the generic partition) and a 9x8 board
(72 cells: a placement no longer packs into 64 bits, so the databases ignore the blank). They
run the default ``tile-idastar``, whose databases (built by the same code for the engine's
informed searches) are what depends on the size, and ``cpsat``, whose models grow with the
board and the horizon (the 9x8 board's first, at horizon 150, has some 55,000 Booleans, built
step by step within the limit). Each run must report, in its own ``stats.seconds``
(``--format json``), at most the limit + 0.5 s, and either status ``limit`` with no plan or a
plan that the differential module's replay takes to the goal
(:func:`tests.contract.checks.assert_record_within`), of the known optimal length when the
status says ``optimal``; a lower bound in ``proof`` must not pass the known optimum.

The runs go through the command line in this process (click's runner: no interpreter start-up
per run); one runs the installed console script. A build cut short must leave no broken cache:
files are checked against their sidecar's SHA-256 here, and a build cut at chosen points
(while searching, while writing the file) is followed by a complete one.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from cspsolve import registry
from cspsolve.cli import cli
from cspsolve.results import Status

from ...contract.checks import MARGIN, assert_record_within
from .differential import DATA, replay_json, scrambled
from .test_cli import run as run_console

pytestmark = pytest.mark.slow

LIMIT = 2.0


# --- boards -----------------------------------------------------------------------------------


def _korf_row(table: str, ident: int | None = None) -> tuple[int, list[int]]:
    """(optimal length, tiles) of an instance of a table of ``tests/data`` (the longest when
    ``ident`` is None)."""
    rows = [line.split("\t") for line in (DATA / table).read_text().splitlines()[1:]]
    chosen = max(rows, key=lambda r: int(r[1])) if ident is None else rows[ident - 1]
    return int(chosen[1]), [int(t) for t in chosen[2].split()]


def _json_board(folder: Path, name: str, rows: int, cols: int, start: list[int]) -> Path:
    """A JSON file of the board (goal ``1 2 ... 0``, or Korf's when ``start`` holds it)."""
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"rows": rows, "cols": cols, "start": start}), encoding="utf-8")
    return path


def _korf_file(folder: Path, table: str, ident: int | None = None) -> tuple[Path, int]:
    optimum, tiles = _korf_row(table, ident)
    path = folder / "board.korf"
    path.write_text(" ".join(map(str, tiles)) + "\n", encoding="utf-8")
    return path, optimum


# --- checking ---------------------------------------------------------------------------------


def assert_in_time(record: dict[str, Any], path: Path, optimum: int | None) -> None:
    """The run kept to the limit, and answered ``limit`` or a right plan
    (:func:`tests.contract.checks.assert_record_within`), of the known optimal length when it
    says ``optimal``, with no lower bound past it."""
    assert_record_within("npuzzle", registry.load(str(path))[1][0].puzzle, record, LIMIT)
    bound = record["proof"].get("lower_bound")
    if optimum is not None:
        assert bound is None or bound <= optimum, record
        assert record["status"] != "optimal" or record["solution"]["count"] == optimum, record


def cli_json(cache: Path, *args: object) -> tuple[int, dict[str, Any]]:
    """``cspsolve ARGS... --format json`` in this process, databases cached in ``cache``:
    the exit code and the one JSON record."""
    result = CliRunner().invoke(
        cli, [*map(str, args), "--format", "json"], env={"CSPSOLVE_CACHE": str(cache)}
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    (line,) = result.stdout.splitlines()
    record: dict[str, Any] = json.loads(line)
    return result.exit_code, record


def assert_cache_whole(cache: Path) -> None:
    """Every file of the cache is a database with its sidecar, whose SHA-256 and size match;
    no temporary file is left (once builds stopped in the background reach their next check,
    which removes the file they were writing)."""
    if not cache.exists():
        return
    deadline = time.monotonic() + 5
    while any(cache.glob("tmp*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    names = {p.name for p in cache.iterdir()}
    stems = {Path(n).stem for n in names}
    assert names == {f"{s}{x}" for s in stems for x in (".npy", ".json")}, sorted(names)
    for stem in stems:
        info = json.loads((cache / f"{stem}.json").read_text(encoding="utf-8"))
        table = np.load(cache / f"{stem}.npy")
        assert table.dtype == np.uint8 and table.size == info["size"]
        assert hashlib.sha256(table.tobytes()).hexdigest() == info["sha256"], stem


# --- the runs ---------------------------------------------------------------------------------


@pytest.fixture
def cold(tmp_path: Path) -> Iterator[Path]:
    """An empty cache folder, checked whole after the test."""
    cache = tmp_path / "cache"
    yield cache
    assert_cache_whole(cache)


@pytest.mark.parametrize(
    "size, method, extra",
    [
        ("15", "tile-idastar", ()),
        ("24", "tile-idastar", ("--partition", "6-6-6-6")),
        ("3x4", "tile-idastar", ()),
        ("4x5", "tile-idastar", ()),
        ("9x8", "tile-idastar", ()),
        ("15", "cpsat", ()),
        ("24", "cpsat", ("--heuristic", "pdb")),
        ("9x8", "cpsat", ()),
    ],
)
def test_other_sizes_from_a_cold_cache(
    tmp_path: Path, cold: Path, size: str, method: str, extra: tuple[str, ...]
) -> None:
    optimum: int | None = None
    if size == "15":
        path, optimum = _korf_file(tmp_path, "korf100.tsv")
    elif size == "24":
        path, optimum = _korf_file(tmp_path, "korf-felner50.tsv", 1)
    else:
        rows, cols = map(int, size.split("x"))
        path = _json_board(tmp_path, size, rows, cols, scrambled(rows, cols, 400, seed=rows))
    args = ("--method", method, "--time-limit", LIMIT, *extra)
    code, record = cli_json(cold, "solve", path, *args)
    assert code in (0, 3)
    assert_in_time(record, path, optimum)


def test_console_script_twentyfour_puzzle_from_a_cold_cache(tmp_path: Path, cold: Path) -> None:
    """The installed command, as a user runs it: the default method on a 24-puzzle."""
    path, _ = _korf_file(tmp_path, "korf-felner50.tsv", 1)
    proc = run_console("solve", path, "--time-limit", LIMIT, "--format", "json", cache=cold)
    assert proc.returncode == 3, proc.stderr
    assert_in_time(json.loads(proc.stdout), path, None)


@pytest.mark.parametrize("method", ["tile-idastar", "astar", "bfs"])
def test_node_limit(tmp_path: Path, cold: Path, method: str) -> None:
    """A node limit stops the search (a build is stopped by the time limit only)."""
    path, optimum = _korf_file(tmp_path, "korf100.tsv")
    args = ("--method", method, "--max-nodes", 2000, "--time-limit", LIMIT)
    if method != "bfs":
        args = (*args, "--heuristic", "manhattan")
    code, record = cli_json(cold, "solve", path, *args)
    assert code == 3 and record["status"] == "limit"
    assert record["stats"]["expanded"] <= 2000
    assert_in_time(record, path, optimum)


def test_analyze_from_a_cold_cache(tmp_path: Path, cold: Path) -> None:
    path, _ = _korf_file(tmp_path, "korf-felner50.tsv", 1)
    code, record = cli_json(cold, "analyze", path, "--time-limit", LIMIT)
    assert code == 3, record
    analysis = record["analysis"]
    assert analysis["solvable"] is True and analysis["optimal_length"] is None
    assert analysis["status"] == "limit" and analysis["seconds"] <= LIMIT + MARGIN


def test_verify_from_a_cold_cache(tmp_path: Path, cold: Path) -> None:
    """Both runs together keep within the limit (the reference gets what the first left)."""
    path, _ = _korf_file(tmp_path, "korf-felner50.tsv", 1)
    code, record = cli_json(cold, "verify", path, "--time-limit", LIMIT)
    assert code == 3 and record["agree"] is None
    both = record["stats"]["seconds"] + record["reference"]["stats"]["seconds"]
    assert both <= LIMIT + MARGIN, record


# --- the cache after a cut ------------------------------------------------------------------


PATTERN = (1, 2, 3, 4, 5)
"""A 4x4 pattern of 524,160 entries: large enough to be cached."""


def _cut_after(calls: int) -> Any:
    """A ``stop`` check that answers ``limit`` from its ``calls``-th call on."""
    count = [0]

    def stop() -> Status | None:
        count[0] += 1
        return Status.LIMIT if count[0] >= calls else None

    return stop


def test_a_cut_build_or_write_leaves_no_broken_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut while searching (after a few checks) and while writing the file (once a temporary
    file exists): nothing broken is left, and the next run builds the same complete database
    as a build into another empty cache."""
    from cspsolve.models.npuzzle import pdb

    monkeypatch.setattr(pdb, "_SLICE", 1 << 12)  # many checks while writing and reading
    monkeypatch.setenv("CSPSOLVE_CACHE", str(tmp_path / "reference"))
    reference = pdb.load(4, 4, pattern=PATTERN, blank=0)
    cache = tmp_path / "cut"
    monkeypatch.setenv("CSPSOLVE_CACHE", str(cache))

    def writing() -> Status | None:
        return Status.LIMIT if any(cache.glob("tmp*")) else None

    for stop in (_cut_after(1), _cut_after(3), writing):
        with pytest.raises(pdb.BuildStoppedError):
            pdb.load(4, 4, pattern=PATTERN, blank=0, stop=stop)
        assert_cache_whole(cache)
        assert not any(cache.glob("*.npy"))
    again = pdb.load(4, 4, pattern=PATTERN, blank=0)
    assert np.array_equal(again, reference)
    assert_cache_whole(cache)
    pdb._RECENT.clear()  # read the file again, cut while reading: the cache stays whole
    with pytest.raises(pdb.BuildStoppedError, match="reading"):
        pdb.load(4, 4, pattern=PATTERN, blank=0, stop=_cut_after(5))
    assert_cache_whole(cache)
    assert np.array_equal(pdb.load(4, 4, pattern=PATTERN, blank=0), reference)


def test_a_cut_run_then_a_complete_one_is_right(tmp_path: Path) -> None:
    """A 15-puzzle cut by the limit while its 5-5-5 databases are built, then solved: the
    cache is whole after each, and the plan is optimal (Korf's instance, known length)."""
    path, optimum = _korf_file(tmp_path, "korf100.tsv", 79)  # 42 moves
    cache = tmp_path / "cache"
    args = ("solve", path, "--partition", "5-5-5")
    code, cut = cli_json(cache, *args, "--time-limit", 0.2)
    assert code == 3 and cut["status"] == "limit" and cut["stats"]["seconds"] <= 0.2 + MARGIN
    assert_cache_whole(cache)
    code, solved = cli_json(cache, *args)
    assert code == 0 and solved["status"] == "optimal"
    assert replay_json(registry.load(str(path))[1][0].puzzle, solved["solution"]) is None
    assert solved["solution"]["count"] == optimum
    assert_cache_whole(cache)
