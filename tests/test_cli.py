"""End-to-end tests of the ``cspsolve`` command, run as a subprocess (docs/design.md §11, §12).

Every run calls :func:`cspsolve.cli.main` in a fresh interpreter (no PATH needed) with a
``timeout`` so that a hang fails the test. Answers are checked with the independent
:func:`cspsolve.models.nonogram.board.check` against the puzzles read by
:func:`cspsolve.models.nonogram.io.formats.read`.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspsolve import cli, registry, tasks
from cspsolve.instances import ROOT
from cspsolve.models.nonogram import KIND, board
from cspsolve.models.nonogram.io import formats

from .conftest import run

DATA = Path(__file__).resolve().parent / "data" / "nonogram"
SAMPLES = sorted(
    p.name
    for p in DATA.iterdir()
    if p.suffix in (".nin", ".non", ".txt") and not p.stem.endswith("_solution")
)
METHODS = KIND.method_names
SHIPPED_NON = str(ROOT / "nonogram" / "duck.non")
SMALL = ("smile.non", "data148.nin", "test_pattern_09.txt", "test_pattern_13.txt")
"""Samples small enough for every method, python-constraint included."""

TOP_KEYS = {"kind", "file", "status", "method", "heuristic", "solution", "proof", "stats"}
STATS_KEYS = {"expanded", "generated", "max_frontier", "depth", "cost", "seconds"}
TIMEOUT = 60.0

LINE_ERROR = re.compile(r"^cspsolve: .+:\d+: .+$")
ERROR = re.compile(r"^cspsolve: .+$")


# --- helpers ----------------------------------------------------------------------------------


SAFE_PATH = ("-P",)
"""Keep the working directory off ``sys.path``: from the repository root, ``import cspsolve``
would otherwise find the source folder, which lacks ``cspsolve.models`` (it installs from
``models/``)."""


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stdout
    assert "Traceback" not in proc.stderr


def records(proc: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    """Every line of stdout parsed as one JSON object."""
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(isinstance(r, dict) for r in out)
    return out


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The single line written on stderr (asserting there is exactly one)."""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def assert_bad_input(proc: subprocess.CompletedProcess[str], pattern: str) -> None:
    """Exit 2, one stderr line matching ``pattern``, nothing on stdout, no traceback."""
    no_traceback(proc)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert re.fullmatch(pattern, one_error_line(proc)), proc.stderr
    assert proc.stdout == ""


def is_many(entries: list[formats.Entry]) -> bool:
    return len(entries) > 1 or entries[0].id is not None


def check_record(
    rec: dict[str, Any],
    path: Path,
    entry: formats.Entry,
    many: bool,
    method: str = "probing",
) -> tuple[str, ...]:
    """Assert ``rec`` is a solved nonogram in the layout of docs/design.md §12; return its grid."""
    assert set(rec) == TOP_KEYS | ({"id"} if many else set()), sorted(rec)
    assert rec["kind"] == "nonogram"
    assert rec["file"] == str(path)
    if many:
        assert rec["id"] == entry.id
    assert rec["status"] == "solved"
    assert rec["method"] == method
    assert rec["heuristic"] is None or isinstance(rec["heuristic"], str)
    assert isinstance(rec["proof"], dict)
    assert rec["proof"].get("unique") in (True, False, None)
    stats = rec["stats"]
    assert set(stats) >= STATS_KEYS, sorted(stats)
    for key in STATS_KEYS:
        assert isinstance(stats[key], int | float) and not isinstance(stats[key], bool), key
        assert stats[key] >= 0, key
    assert set(rec["solution"]) == {"grid"}
    grid = tuple(rec["solution"]["grid"])
    assert all(isinstance(row, str) and set(row) <= {"#", "."} for row in grid)
    assert board.check(entry.puzzle, grid) == []
    return grid


def write(tmp: Path, name: str, content: str | bytes) -> Path:
    path = tmp / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    return path


def non_text(rows: list[tuple[int, ...]], columns: list[tuple[int, ...]]) -> str:
    return formats.write_non(board.Nonogram(rows=rows, columns=columns))


def count_solutions(puzzle: board.Nonogram, stop: int = 2) -> int:
    """Brute force: every row's patterns, crossed (tiny puzzles only)."""
    per_row = [
        [
            "".join(cells)
            for cells in itertools.product("#.", repeat=puzzle.width)
            if board.clue_of(c == "#" for c in cells) == clue
        ]
        for clue in puzzle.rows
    ]
    found = 0
    for grid in itertools.product(*per_row):
        if not board.check(puzzle, grid):
            found += 1
            if found >= stop:
                break
    return found


def _drawn_row(line: str, label: str, margin: int, width: int) -> str | None:
    """The ``#``/``.`` row drawn on ``line`` after its clue ``label``, or None if it is not one.

    Cells are ``k`` characters wide for some ``k >= 2``: ``█`` * k filled, ``·`` right-aligned
    empty; the clue label is right-aligned in ``margin`` characters, then a space.
    """
    if not line.startswith(label.rjust(margin) + " "):
        return None
    cells = line[margin + 1 :]
    k, rest = divmod(len(cells), width)
    if rest or k < 2:
        return None
    chunks = [cells[i : i + k] for i in range(0, len(cells), k)]
    draw = {"█" * k: "#", "·".rjust(k): "."}
    if not all(c in draw for c in chunks):
        return None
    return "".join(draw[c] for c in chunks)


def drawn_grid(lines: list[str], start: int, puzzle: board.Nonogram) -> tuple[str, ...]:
    """Read back the grid drawn after line ``start``, each row after its clue label."""
    labels = [" ".join(map(str, clue)) for clue in puzzle.rows]
    margin = max(len(label) for label in labels)
    rows: list[str] = []
    for line in lines[start + 1 :]:
        if len(rows) == puzzle.height:
            break
        row = _drawn_row(line, labels[len(rows)], margin, puzzle.width)
        if row is not None:
            rows.append(row)
    return tuple(rows)


# --- solve on the samples ---------------------------------------------------------------------


def test_samples_found() -> None:
    assert {".nin", ".non", ".txt"} <= {Path(s).suffix for s in SAMPLES}
    assert "tournament_sample.txt" in SAMPLES


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES)
def test_solve_text_draws_the_grid(sample: str) -> None:
    path = DATA / sample
    entries = formats.read(path)
    proc = run("solve", path)
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    at = 0
    for entry in entries:
        title = f"{path}#{entry.id}" if is_many(entries) else str(path)
        header = f"{title}: {entry.puzzle.width}x{entry.puzzle.height}"
        at = next(k for k in range(at, len(lines)) if lines[k].startswith(header))
        grid = drawn_grid(lines, at, entry.puzzle)
        assert len(grid) == entry.puzzle.height, proc.stdout
        assert board.check(entry.puzzle, grid) == []
        at += 1


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES)
def test_solve_json_layout(sample: str) -> None:
    path = DATA / sample
    entries = formats.read(path)
    proc = run("solve", path, "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    recs = records(proc)
    assert len(recs) == len(entries)
    for rec, entry in zip(recs, entries, strict=True):
        check_record(rec, path, entry, is_many(entries))


@pytest.mark.parametrize(
    ("sample", "key", "wanted"),
    [
        ("tournament_sample.txt", "2", 2),
        ("test_pattern_13.txt", "Flip", "Flip"),
        ("test_pattern_05.txt", "Katakana", "Katakana"),
        ("test_pattern_13.txt", "1", "Flip"),  # a 1-based index in a file of named grids
    ],
)
def test_selector_picks_one_puzzle(sample: str, key: str, wanted: int | str) -> None:
    path = DATA / sample
    entry = next(e for e in formats.read(path) if e.id == wanted)
    proc = run("solve", f"{path}#{key}", "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    [rec] = records(proc)
    check_record(rec, path, entry, many=True)


@pytest.fixture(scope="module")
def cpsat_unique() -> dict[tuple[str, Any], bool]:
    """``proof.unique`` of every sample puzzle by ``--method cpsat --unique``."""
    paths = [DATA / s for s in SAMPLES]
    proc = run("solve", *paths, "--method", "cpsat", "--unique", "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    return {(r["file"], r.get("id")): r["proof"]["unique"] for r in records(proc)}


@pytest.mark.slow
@pytest.mark.parametrize("method", ["gac-astar", "mac"])
def test_unique_agrees_with_cpsat(method: str, cpsat_unique: dict[tuple[str, Any], bool]) -> None:
    paths = [DATA / s for s in SAMPLES]
    proc = run("solve", *paths, "--method", method, "--unique", "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    recs = records(proc)
    found = {(r["file"], r.get("id")): r["proof"]["unique"] for r in recs}
    assert found == cpsat_unique
    assert set(found.values()) <= {True, False}
    by_path = {path: formats.read(path) for path in paths}
    for rec in recs:
        entries = by_path[Path(rec["file"])]
        entry = next(e for e in entries if e.id == rec.get("id"))
        check_record(rec, Path(rec["file"]), entry, is_many(entries), method)
    # What the sample files themselves say.
    assert found[str(DATA / "smile.non"), None] is True
    assert found[str(DATA / "test_pattern_13.txt"), "Flip"] is False  # "It has two solutions"
    assert found[str(DATA / "test_pattern_05.txt"), "Katakana"] is False  # "not unique"


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_every_method_solves(method: str) -> None:
    paths = [DATA / s for s in SMALL]
    proc = run("solve", *paths, "--method", method, "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    recs = records(proc)
    expected = [(p, e) for p in paths for e in formats.read(p)]
    assert len(recs) == len(expected)
    for rec, (path, entry) in zip(recs, expected, strict=True):
        check_record(rec, path, entry, is_many(formats.read(path)), method)


# --- exit codes 1 and 3 -----------------------------------------------------------------------

SUM_MISMATCH = ([(1,), (1,)], [(2,), (1,)])
NO_GRID_TINY = ([(2,), ()], [(2,), ()])
NO_GRID_SEARCH = ([(1, 1), (1,), (2,), (2,)], [(2,), (1,), (1, 1), (1, 1)])
"""Totals agree, no grid exists, and propagation at the root does not show it."""


def assert_unsolvable(rec: dict[str, Any], path: Path) -> None:
    assert set(rec) - {"message"} == TOP_KEYS
    assert rec["file"] == str(path)
    assert rec["status"] == "unsolvable"
    assert rec["solution"] is None


def test_sum_mismatch_is_unsolvable(tmp_path: Path) -> None:
    rows, columns = SUM_MISMATCH
    assert sum(map(sum, rows)) != sum(map(sum, columns))
    path = write(tmp_path, "sums.non", non_text(rows, columns))
    proc = run("solve", path, "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 1, proc.stderr
    [rec] = records(proc)
    assert_unsolvable(rec, path)
    text = run("solve", path)
    no_traceback(text)
    assert text.returncode == 1
    assert "unsolvable" in text.stdout


@pytest.mark.parametrize("method", METHODS)
def test_no_grid_is_unsolvable(tmp_path: Path, method: str) -> None:
    paths = []
    for name, (rows, columns) in (("tiny.non", NO_GRID_TINY), ("search.non", NO_GRID_SEARCH)):
        puzzle = board.Nonogram(rows=rows, columns=columns)
        assert sum(map(sum, rows)) == sum(map(sum, columns))
        assert count_solutions(puzzle) == 0
        paths.append(write(tmp_path, name, non_text(rows, columns)))
    proc = run("solve", *paths, "--method", method, "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 1, proc.stderr
    recs = records(proc)
    assert len(recs) == 2
    for rec, path in zip(recs, paths, strict=True):
        assert_unsolvable(rec, path)
        assert rec["method"] == method


NEEDS_SEARCH = DATA / "tournament_sample.txt"
"""Puzzle ``$3`` of it is not solved by propagation alone (and has two solutions)."""


@pytest.mark.slow
@pytest.mark.parametrize("limit", [["--max-nodes", "0"], ["--time-limit", "0"]])
def test_limit_reached(limit: list[str]) -> None:
    proc = run("solve", f"{NEEDS_SEARCH}#3", *limit, "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 3, proc.stderr
    [rec] = records(proc)
    assert set(rec) - {"message"} == TOP_KEYS | {"id"}
    assert rec["id"] == 3
    assert rec["status"] == "limit"
    assert rec["solution"] is None


def test_a_time_limit_of_0_stops_every_kind_at_once() -> None:
    """Each kind's default method on a puzzle it settles at once (Lights Out's algebra, the
    nonogram's probing both answered before they looked at the clock): status limit, exit 3."""
    shipped = ["lightsout/classic-5x5.lo", "nonogram/duck.non", "rushhour/walls.rh"]
    shipped.append("npuzzle/easy8.txt")
    proc = run("solve", *(ROOT / name for name in shipped), "--time-limit", "0", "--format", "json")
    assert proc.returncode == 3, proc.stderr
    found = [(rec["kind"], rec["status"], rec["solution"]) for rec in records(proc)]
    assert found == [(name.split("/")[0], "limit", None) for name in shipped]


@pytest.mark.slow
def test_exit_code_priority(tmp_path: Path) -> None:
    """Several files: bad input (2) over limit (3) over unsolvable (1) over solved (0)."""
    unsolvable = write(tmp_path, "no.non", non_text(*NO_GRID_TINY))
    missing = tmp_path / "missing.non"
    smile = DATA / "smile.non"
    assert run("solve", smile, unsolvable, "--format", "json").returncode == 1
    limited = run("solve", unsolvable, f"{NEEDS_SEARCH}#3", "--max-nodes", "0", "--format", "json")
    assert limited.returncode == 3
    assert [r["status"] for r in records(limited)] == ["unsolvable", "limit"]
    bad = run("solve", smile, missing, "--format", "json")
    no_traceback(bad)
    assert bad.returncode == 2
    assert re.fullmatch(rf"cspsolve: {re.escape(str(missing))}: .+", one_error_line(bad))
    [rec] = records(bad)
    check_record(rec, smile, formats.read(smile)[0], many=False)


# --- bad input: exit 2 and one line on stderr -------------------------------------------------

BAD_FILES = [
    # (name, content, line of the problem or None for the whole file)
    ("count.non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n", 7),
    ("count.nin", "2 2\n1\n1\n1\n", 4),
    ("count.txt", "GRID A\nROWS\nCOLUMNS\n[ 1 ]\n", 2),
    ("tournament_odd.txt", "$1\n1\n1\n1\n", 1),
    ("nan.non", "width 2\nheight 2\nrows\n1\n1,a\ncolumns\n1\n1\n", 5),
    ("nan.nin", "2 2\n1\n1 x\n1\n1\n", 3),
    ("nan_tournament.txt", "$1\n1\n1\n1\nx\n", 5),
    ("nan_picross.txt", "GRID A\nROWS\n[ one ]\nCOLUMNS\n[ 1 ]\n", 3),
    ("size.non", "width two\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n", 1),
    ("negative.non", "width -2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n", 1),
    ("negative.nin", "2 -2\n1\n1\n1\n1\n", 1),
    ("negative_run.nin", "2 2\n1\n-1\n1\n1\n", 3),
    ("zero.non", "width 0\nheight 2\nrows\n1\n1\ncolumns\n", 1),
    ("fit.non", "width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n", 4),
    ("fit.nin", "2 2\n1\n1 1\n1\n1\n", 3),
    ("fit_tournament.txt", "$1\n3\n1\n1\n1\n", 2),
    ("fit_picross.txt", "GRID A\nROWS\n[ 3 ]\nCOLUMNS\n[ 1 ]\n", 3),
    ("no_columns.non", "width 2\nheight 2\nrows\n1\n1\n", 5),
    ("no_size.non", "rows\n1\n", 1),
    ("no_columns.txt", "GRID A\nROWS\n[ 1 ]\n", 3),
    ("empty.non", "", None),
    ("empty.nin", "", None),
    ("blank.txt", "\n  \n\t\n", None),
    ("binary.non", bytes(range(256)) * 2, None),
    ("binary.txt", b"$1\n1\0\n1\n", None),
    ("latin1.nin", "2 2\n1\n1\n1\n1\n# caf\xe9\n".encode("latin-1"), None),
    ("unknown.txt", "hello world\n", None),
]


@pytest.mark.parametrize(("name", "content", "line"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file(tmp_path: Path, name: str, content: str | bytes, line: int | None) -> None:
    path = write(tmp_path, name, content)
    proc = run("solve", path, "--format", "json")
    where = f":{line}" if line is not None else ""
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}{where}: (?!\d+: ).+")
    if line is not None:
        assert LINE_ERROR.fullmatch(one_error_line(proc))


@pytest.mark.parametrize("command", ["solve", "verify"])
def test_missing_file(tmp_path: Path, command: str) -> None:
    path = tmp_path / "nowhere.non"
    assert_bad_input(run(command, path), rf"cspsolve: {re.escape(str(path))}: .+")


def test_verify_bad_file(tmp_path: Path) -> None:
    name, content, line = BAD_FILES[0]
    path = write(tmp_path, name, content)
    assert_bad_input(run("verify", path), rf"cspsolve: {re.escape(str(path))}:{line}: .+")


def test_folder(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles.non"
    folder.mkdir()
    for target in (tmp_path, folder):
        assert_bad_input(run("solve", target), rf"cspsolve: {re.escape(str(target))}: .+")


@pytest.mark.parametrize(
    ("sample", "key"),
    [("tournament_sample.txt", "9"), ("test_pattern_13.txt", "Nope"), ("data000.nin", "2")],
)
def test_unknown_key(sample: str, key: str) -> None:
    path = DATA / sample
    proc = run("solve", f"{path}#{key}")
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}: .*{re.escape(key)}.*")


def test_unknown_method() -> None:
    proc = run("solve", DATA / "smile.non", "--method", "simulated-annealing")
    assert_bad_input(proc, r"cspsolve: .*simulated-annealing.*")
    assert all(m in proc.stderr for m in METHODS)


def test_unknown_kind() -> None:
    proc = run("solve", DATA / "smile.non", "--kind", "sudoku")
    assert_bad_input(proc, r"cspsolve: .*sudoku.*")


# --- convert never overwrites its input -------------------------------------------------------


@pytest.mark.parametrize("spelling", ["same", "dotted", "link"])
def test_convert_refuses_to_overwrite_its_input(tmp_path: Path, spelling: str) -> None:
    source = tmp_path / "duck.non"
    original = Path(SHIPPED_NON).read_bytes()
    source.write_bytes(original)
    target = {"same": source, "dotted": tmp_path / "." / "duck.non", "link": tmp_path / "l.non"}
    if spelling == "link":
        target["link"].symlink_to(source)
    proc = run("convert", source, target[spelling])
    expected = rf"cspsolve: {re.escape(str(target[spelling]))}: is the input file .+"
    assert_bad_input(proc, expected)
    assert source.read_bytes() == original


def test_convert_refuses_a_puzzle_of_a_file_into_that_file(tmp_path: Path) -> None:
    source = tmp_path / "t.txt"
    source.write_bytes((DATA / "tournament_sample.txt").read_bytes())
    assert_bad_input(run("convert", f"{source}#2", source), r"cspsolve: .+: is the input file .+")
    assert source.read_bytes() == (DATA / "tournament_sample.txt").read_bytes()


def test_convert_into_another_file_keeps_the_clues(tmp_path: Path) -> None:
    target = tmp_path / "duck.nin"
    proc = run("convert", SHIPPED_NON, target)
    assert proc.returncode == 0, proc.stderr
    written, shipped = formats.read(target)[0].puzzle, formats.read(SHIPPED_NON)[0].puzzle
    assert (written.rows, written.columns) == (shipped.rows, shipped.columns)


# --- fuzzing: any file content ----------------------------------------------------------------

_TOKENS = [
    *("width 2", "height 2", "width 3", "height 1", "rows", "columns", 'title "x"'),
    *('goal "0110"', "$1", "$2", "GRID a", "ROWS", "COLUMNS", "[ 1 ]", "[ ]", "[ 2 1 ]"),
    *("2 2", "3 1", "1", "2", "1 1", "1,1", "0", "3", "-1", "99999", "1\t1", "", " ", "x"),
]
_LINES = st.lists(st.one_of(st.sampled_from(_TOKENS), st.text(max_size=6)), max_size=16).map(
    "\n".join
)
_CONTENT = st.one_of(
    _LINES.map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.text(max_size=80).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.binary(max_size=80),
)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(non=_CONTENT, nin=_CONTENT, txt=_CONTENT)
def test_any_content_is_handled(non: bytes, nin: bytes, txt: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = [
            write(Path(folder), f"fuzz.{ext}", data)
            for ext, data in (("non", non), ("nin", nin), ("txt", txt))
        ]
        started = time.monotonic()
        proc = run("solve", *paths, "--time-limit", "5", "--format", "json", timeout=40)
        elapsed = time.monotonic() - started
        no_traceback(proc)
        assert proc.returncode in (0, 1, 2, 3), proc.stderr
        assert elapsed < 25
        errors = proc.stderr.splitlines()
        assert all(ERROR.fullmatch(line) for line in errors), proc.stderr
        recs = records(proc)
        codes = []
        for path in paths:
            mine = [r for r in recs if r["file"] == str(path)]
            failed = [e for e in errors if e.startswith(f"cspsolve: {path}")]
            assert len(failed) + bool(mine) == 1, (path, failed, mine)  # an error xor answers
            if failed:
                codes.append(2)
                continue
            entries = formats.read(path)
            assert len(mine) == len(entries)
            for rec, entry in zip(mine, entries, strict=True):
                status = rec["status"]
                codes.append({"solved": 0, "unsolvable": 1, "limit": 3}[status])
                if status == "solved":
                    check_record(rec, path, entry, is_many(entries))
                elif status == "unsolvable":
                    small = entry.puzzle.width * entry.puzzle.height <= 16
                    assert not small or count_solutions(entry.puzzle, 1) == 0
        worst = min(codes, key=(2, 3, 1, 0).index)
        assert proc.returncode == worst


# --- help, start-up, verify -------------------------------------------------------------------

EXIT_PHRASES = ("0 solved", "1 unsolvable", "2 bad input", "3 limit")


def _help_text(*args: str) -> str:
    proc = run(*args, "--help")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())


def test_main_help() -> None:
    text = _help_text()
    for phrase in (*EXIT_PHRASES, "solve", "verify", "FILE#KEY"):
        assert phrase in text, phrase


EXIT_CODES = {
    0: "solved",
    1: "unsolvable",
    2: "bad input or usage",
    3: "limit reached",
    4: "disagreement",
    70: "internal error",
    130: "interrupted",
}


def test_main_help_and_the_module_say_what_every_exit_code_means() -> None:
    text = _help_text()
    module = " ".join((cli.__doc__ or "").split())
    for code, meaning in EXIT_CODES.items():
        assert f" {code} {meaning}" in text, (code, text)
        assert re.search(rf"- {code}: [^-]*{meaning.split()[0]}", module), (code, module)


def test_an_unexpected_exception_is_one_line_and_exit_70(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug\nsecond line")

    monkeypatch.delenv("CSPSOLVE_DEBUG", raising=False)
    monkeypatch.setattr(tasks, "solve", broken)
    monkeypatch.setattr(sys, "argv", ["cspsolve", "solve", SHIPPED_NON])
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 70
    err = capsys.readouterr().err
    assert err.startswith("cspsolve: internal error: RuntimeError: a bug")
    assert "CSPSOLVE_DEBUG=1" in err and "Traceback" not in err


def test_solve_help_names_its_options() -> None:
    text = _help_text("solve")
    for phrase in ("cspsolve methods", "--method", "--heuristic", "--unique", "--time-limit"):
        assert phrase in text, phrase


def test_methods_lists_every_kind_with_its_methods() -> None:
    proc = run("methods")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    for kind in registry.names():
        assert kind in proc.stdout
        for method in registry.get(kind).method_names:
            assert method in proc.stdout, method


def test_option_of_another_kind_is_refused() -> None:
    proc = run("solve", SHIPPED_NON, "--variant", "sigma")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "cspsolve: --variant does not apply to nonogram puzzles"


@pytest.mark.slow
def test_analyze_json_has_the_design_keys() -> None:
    proc = run("analyze", SHIPPED_NON, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["kind"] == "nonogram"
    assert {"line_solvable", "unique"} <= set(record["analysis"])


def test_compare_runs_every_method() -> None:
    proc = run("compare", SHIPPED_NON, "--format", "json", "--time-limit", "30")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert {r["method"] for r in records} >= {"gac-astar", "mac", "cpsat"}
    grids = {tuple(r["solution"]["grid"]) for r in records}
    assert len(grids) == 1


def test_solve_help_lists_exit_codes() -> None:
    text = _help_text("solve")
    for phrase in EXIT_PHRASES:
        assert phrase in text, phrase


def test_verify_help() -> None:
    text = _help_text("verify")
    for phrase in ("CP-SAT", "Exit codes", "0 the answers agree", "2 bad input", "4 the answers"):
        assert phrase in text, phrase


def test_import_is_light() -> None:
    heavy = ("ortools", "numba", "numpy", "matplotlib", "networkx", "dask", "constraint", "rich")
    code = (
        "import json, sys\n"
        "import cspsolve.cli\n"
        f"heavy = {heavy!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    proc = subprocess.run(
        [sys.executable, *SAFE_PATH, "-c", code],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


@pytest.mark.parametrize(
    ("sample", "unique"), [("smile.non", True), ("test_pattern_13.txt", False)]
)
def test_verify(sample: str, unique: bool) -> None:
    path = DATA / sample
    entries = formats.read(path)
    proc = run("verify", path, "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    [rec] = records(proc)
    assert rec["agree"] is True
    assert rec["kind"] == "nonogram"
    assert rec["file"] == str(path)
    assert rec["status"] == "solved"
    assert rec["proof"]["unique"] is unique
    assert board.check(entries[0].puzzle, rec["solution"]["grid"]) == []
    cpsat = rec["reference"]
    assert isinstance(cpsat, dict)
    assert cpsat["method"] == "cpsat"
    assert cpsat["status"] == "solved"
    assert cpsat["proof"]["unique"] is unique
    assert board.check(entries[0].puzzle, cpsat["solution"]["grid"]) == []
    if unique:
        assert cpsat["solution"] == rec["solution"]


def test_the_uniqueness_verdict_shows_only_when_asked_for() -> None:
    plain, asked = run("solve", SHIPPED_NON), run("solve", SHIPPED_NON, "--unique")
    assert plain.returncode == asked.returncode == 0
    assert "unique" not in plain.stdout.splitlines()[-1]
    assert asked.stdout.splitlines()[-1].endswith(", unique")
