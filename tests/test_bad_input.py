"""Bad input ends in one line on stderr and exit 2, within seconds, for every command.

Each case is a file a user may hand us by mistake or malice: JSON nested 100,000 levels deep,
a 5,000-digit number, a device linked under a puzzle's name, a sparse 3 GB file, a named pipe,
a file out of reach. Every run is a fresh ``cspsolve`` process with a timeout, so a hang fails.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cspsolve import inputs
from cspsolve.errors import InputError
from cspsolve.instances import ROOT

from .conftest import run
from .test_cli import assert_bad_input, one_error_line

QUICK = 20.0
"""Seconds a bad file may take to be refused, start-up of a fresh interpreter included."""

DEEP = 100_000

HINT = "; read as {} by its content (name the kind with --kind if it is another)"
"""How an error ends when the file's kind was told by its content (``.json`` is no kind's own)."""


def hinted(kind: str) -> str:
    """The pattern of :data:`HINT` for ``kind``."""
    return re.escape(HINT.format(kind))


def deep_npuzzle(path: Path) -> None:
    path.write_text('{"n": 3, "start": ' + "[" * DEEP + "]" * DEEP + "}")


def deep_lightsout(path: Path) -> None:
    path.write_text('{"variant": "sigma", "rows": ' + "[" * DEEP + "]" * DEEP + "}")


def long_number(path: Path) -> None:
    path.write_text('{"n": 3, "start": [[' + "7" * 5000 + ", 1, 2], [3, 4, 5], [6, 8, 0]]}")


def device(target: str) -> Callable[[Path], None]:
    def link(path: Path) -> None:
        path.symlink_to(target)

    return link


def sparse(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(3 << 30)


def pipe(path: Path) -> None:
    os.mkfifo(path)


BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "deep.json": (deep_npuzzle, r"JSON nested deeper than \d+ levels" + hinted("npuzzle")),
    "deep-rows.json": (deep_lightsout, r"JSON nested deeper than \d+ levels" + hinted("lightsout")),
    "digits.json": (
        long_number,
        r"a number too long \(5,000 digits, at most [\d,]+\)" + hinted("npuzzle"),
    ),
    "zero.non": (device("/dev/zero"), r"is a device or special file, not a regular file"),
    "random.non": (device("/dev/urandom"), r"is a device or special file, not a regular file"),
    "sparse.non": (sparse, r"is 3,221,225,472 bytes; puzzle files are limited to 64 MiB"),
    "pipe.non": (pipe, r"is a named pipe, not a regular file"),
}


@pytest.fixture
def bad_folder(tmp_path: Path) -> Path:
    """A folder holding every bad file and one good puzzle."""
    for name, (make, _) in BAD_FILES.items():
        make(tmp_path / name)
    (tmp_path / "good.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    return tmp_path


@pytest.mark.parametrize("command", ["solve", "verify", "analyze"])
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_one_line_and_exit_2(bad_folder: Path, name: str, command: str) -> None:
    path = bad_folder / name
    started = time.perf_counter()
    proc = run(command, path, timeout=QUICK)
    assert time.perf_counter() - started < QUICK
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}: {BAD_FILES[name][1]}")


def test_a_named_kind_does_not_open_a_pipe(bad_folder: Path) -> None:
    path = bad_folder / "pipe.non"
    proc = run("solve", path, "--kind", "lightsout", timeout=QUICK)
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}: is a named pipe.*")


def test_batch_records_bad_files_and_goes_on(
    bad_folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path_factory.mktemp("out") / "results.sqlite"
    proc = run("batch", bad_folder, "--out", out, "--workers", "1", timeout=120)
    assert proc.returncode == 0, proc.stderr
    with sqlite3.connect(out) as db:
        rows = dict(db.execute("SELECT file, status FROM results"))
    assert rows[str(bad_folder / "good.non")] in ("optimal", "solved")
    for name in BAD_FILES:
        assert rows[str(bad_folder / name)] == "error", name


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file whatever its mode")
def test_batch_notes_an_unreadable_folder(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    locked.chmod(0)
    try:
        proc = run("batch", tmp_path, "--out", tmp_path / "r.sqlite", "--workers", "1")
    finally:
        locked.chmod(0o755)
    assert proc.returncode == 0
    assert f"{locked}: Permission denied" in proc.stderr


def test_a_file_out_of_reach_is_an_input_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "locked" / "a.non"

    def denied(self: Path, *args: object, **kwargs: object) -> os.stat_result:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "stat", denied)
    with pytest.raises(InputError, match=r"a\.non: permission denied"):
        inputs.read_text(path)


def test_a_file_over_the_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.non"
    path.write_text("x" * 100)
    monkeypatch.setattr(inputs, "MAX_BYTES", 10)
    with pytest.raises(InputError, match="puzzle files are limited to 0 MiB"):
        inputs.read_text(path)


def test_binary_data_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "a.non"
    path.write_bytes(b"width 1\nheight 1\n\0\n")
    with pytest.raises(InputError, match=r"a\.non:3: binary data"):
        inputs.read_text(path)


# --- kind detection honours the extension first -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("path.edges", "0 1\n1 2\nlit: 0\n"),  # an edge list, not a .nin nonogram
        ("board.json", '{"board": "010/101/010"}'),  # the README's own Lights Out JSON
    ],
)
def test_a_lights_out_file_is_recognised_without_kind(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    proc = run("solve", path, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert '"kind": "lightsout"' in proc.stdout


# --- a file of many puzzles: a broken one spoils only itself ------------------------------------

CARDS = ("ooBoCCooBoooAABoooDDDooEoooooEoooooE", "ooBoooooBooCooBAACDDDEoCoooEFFoooooo")
"""Card-1 and Card-2 of ``tests/data/rushhour/cards.tsv``."""

MANY: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    "nonogram": (
        "tournament.txt",  # read as a tournament by its content
        "$1\n1\n1\n$2\n1\nx\n1\n1\n$3\n2\n0\n1\n1\n",
        (),
        r"6: puzzle \$2: run length 'x' is not a whole number",
    ),
    "rushhour": (
        "boards.txt",
        f"{CARDS[0]}\n{CARDS[0][:-1]}?\n{CARDS[1]}\n",
        (),
        r"2: puzzle 2: unknown character '\?' \(use o \. x A-Z\)",
    ),
    "npuzzle": (
        "boards.korf",
        "1 1 0 2 3\n2 1 2 x 0\n3 2 1 0 3\n",
        ("--method", "bfs"),
        r"2: puzzle 2: 'x' is not a tile number \(0 or \. = blank\)",
    ),
}
"""A file of three puzzles of each kind whose second is broken: its name, its text, options
of ``solve``, and the end of the error line (after ``FILE:``)."""


def many(folder: Path, kind: str) -> Path:
    """The file of :data:`MANY` of ``kind``, written in ``folder``."""
    name, text, _, _ = MANY[kind]
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def unstamped(line: str) -> dict[str, object]:
    """A JSON record of ``solve`` without its counters and times."""
    record: dict[str, object] = json.loads(line)
    record.pop("stats")
    return record


@pytest.mark.parametrize("kind", sorted(MANY))
def test_solve_works_on_each_puzzle_of_a_file_on_its_own(tmp_path: Path, kind: str) -> None:
    path = many(tmp_path, kind)
    _, _, options, error = MANY[kind]
    expected = rf"cspsolve: {re.escape(str(path))}:{error}"
    proc = run("solve", path, *options, "--format", "json")
    assert proc.returncode == 2, proc.stderr
    assert re.fullmatch(expected, one_error_line(proc)), proc.stderr
    solved = [unstamped(line) for line in proc.stdout.splitlines()]
    assert [(r["kind"], r["id"]) for r in solved] == [(kind, 1), (kind, 3)]
    alone = run("solve", f"{path}#1", f"{path}#3", *options, "--format", "json")
    assert alone.returncode == 0, alone.stderr
    assert [unstamped(line) for line in alone.stdout.splitlines()] == solved
    assert_bad_input(run("solve", f"{path}#2", *options), expected)


def test_batch_stores_one_error_row_for_a_broken_puzzle(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles"
    folder.mkdir()
    paths = {kind: many(folder, kind) for kind in MANY}
    out = tmp_path / "results.sqlite"
    proc = run("batch", folder, "--out", out, "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    with sqlite3.connect(out) as db:
        rows = db.execute("SELECT kind, file, puzzle, status, error FROM results").fetchall()
    for kind, path in paths.items():
        mine = [row for row in rows if row[1] == str(path)]
        assert {row[0] for row in mine} == {kind}
        found = {puzzle: (status, error) for _, _, puzzle, status, error in mine}
        assert sorted(found) == ["1", "2", "3"]
        assert found["1"][0] in ("solved", "optimal") and found["3"][0] in ("solved", "optimal")
        status, error = found["2"]
        assert status == "error"
        assert re.fullmatch(rf"{re.escape(str(path))}:{MANY[kind][3]}", error), error


# --- options --------------------------------------------------------------------------------------

EIGHT = ROOT / "npuzzle" / "easy8.txt"
CARD = ROOT / "rushhour" / "card-32.txt"


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_time_limit_must_be_a_finite_number_of_seconds(value: str) -> None:
    proc = run("solve", EIGHT, "--time-limit", value)
    assert_bad_input(proc, r"cspsolve: .*--time-limit.*")


def test_compare_refuses_an_unknown_method() -> None:
    proc = run("compare", EIGHT, "--methods", "bogus,astar")
    expected = r"cspsolve: --methods/--heuristics: unknown method 'bogus' for npuzzle; choose .+"
    assert_bad_input(proc, expected)


def test_analyze_stopped_by_a_limit_exits_3() -> None:
    proc = run("analyze", CARD, "--max-nodes", "10", "--format", "json")
    assert proc.returncode == 3, proc.stderr
    assert '"status": "limit"' in proc.stdout


@pytest.mark.slow
def test_the_picture_of_a_move_puzzle_shows_start_and_solution(tmp_path: Path) -> None:
    """Two boards side by side: the picture is wide, and each half is drawn (several colours
    across its middle), not blank space."""
    from PIL import Image

    out = tmp_path / "card.png"
    proc = run("solve", CARD, "--image", out)
    assert proc.returncode == 0, proc.stderr
    with Image.open(out) as image:
        assert image.width > 1.4 * image.height
        pixels = image.convert("RGB")
        for half in (range(image.width // 2), range(image.width // 2, image.width)):
            assert len({pixels.getpixel((x, image.height // 3)) for x in half}) > 3


# --- the README's library snippet, as written -----------------------------------------------------


@pytest.mark.slow
def test_the_readme_library_snippet_runs_from_the_repository_root() -> None:
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Library", 1)[1]
    snippet = section.split("```python", 1)[1].split("```", 1)[0]
    proc = subprocess.run(
        [sys.executable, "-c", snippet],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_an_error_quoting_a_huge_token_stays_short(tmp_path: Path) -> None:
    path = tmp_path / "tour.txt"
    path.write_text("$" + "9" * 100_000 + "\n")
    proc = run("solve", path)
    expected = rf"cspsolve: {re.escape(str(path))}:1: .{{1,200}}\.\.\.{hinted('nonogram')}"
    assert_bad_input(proc, expected)
    message = proc.stderr.strip().split(": ", 2)[2]
    assert len(message) <= 200


@pytest.mark.parametrize(
    ("kind", "name", "text"),
    [
        ("nonogram", "odd.txt", "$1\n1\n1\n1\n"),  # a tournament puzzle of 3 clue lines
        ("npuzzle", "tiles.txt", "1 2 3\n4 0 x\n7 8 6\n"),
    ],
)
def test_a_file_read_by_its_content_hints_at_kind(
    tmp_path: Path, kind: str, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    proc = run("solve", path)
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}:\d+: .+{hinted(kind)}")
    named = run("solve", path, "--kind", kind)
    assert_bad_input(named, rf"cspsolve: {re.escape(str(path))}:\d+: .+")
    assert "--kind" not in named.stderr  # the kind was given: no hint
    assert one_line(named) + HINT.format(kind) == one_line(proc)


def test_a_file_of_a_kind_s_own_extension_gets_no_hint(tmp_path: Path) -> None:
    path = tmp_path / "odd.non"
    path.write_text("$1\n1\n1\n1\n")
    proc = run("solve", path)
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}:\d+: .+")
    assert "--kind" not in proc.stderr


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    return proc.stderr.strip()


def test_a_row_of_digits_longer_than_python_converts_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "ones.txt"
    path.write_text("1" * 70_000 + "\n")  # read as tile numbers, it once crashed the reader
    proc = run("solve", path)
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}: cannot tell the puzzle kind.*")


# --- JSON puzzle files: a byte-order mark is read, a key given twice is refused ---------------

JSON_PUZZLES = {
    "lightsout": ROOT / "lightsout" / "all-on-7x7.json",
    "npuzzle": ROOT / "npuzzle" / "worst8.json",
}
"""A JSON puzzle of every kind whose JSON format is read by :func:`cspsolve.inputs.parse_json`."""

DUPLICATED = {
    "lightsout": ('{"variant": "sigma-plus", "rows": ["#.", ".#"], "rows": ["##", "##"]}', "rows"),
    "npuzzle": ('{"n": 2, "start": [[1, 2], [3, 0]], "goal": [1, 2, 3, 0], "n": 3}', "n"),
}


def solved(path: Path, kind: str) -> dict[str, object]:
    """The JSON record of ``cspsolve solve PATH``, without the file name."""
    proc = run("solve", path, "--kind", kind, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    record: dict[str, object] = json.loads(proc.stdout)
    record.pop("file")
    record.pop("stats")
    return record


@pytest.mark.parametrize("kind", sorted(JSON_PUZZLES))
def test_a_json_puzzle_with_a_byte_order_mark_is_read_as_without(kind: str, tmp_path: Path) -> None:
    original = JSON_PUZZLES[kind]
    marked = tmp_path / original.name
    marked.write_bytes(b"\xef\xbb\xbf" + original.read_bytes())
    assert solved(marked, kind) == solved(original, kind)


@pytest.mark.parametrize("kind", sorted(DUPLICATED))
def test_a_json_key_given_twice_is_bad_input(kind: str, tmp_path: Path) -> None:
    text, key = DUPLICATED[kind]
    path = tmp_path / "twice.json"
    path.write_text(text)
    assert json.loads(text)  # Python's own reader takes the last value silently
    proc = run("solve", path, "--kind", kind)
    expected = rf"cspsolve: {re.escape(str(path))}: the key '{key}' is given twice in one object"
    assert_bad_input(proc, expected)


def test_keys_are_unique_per_object_not_per_file() -> None:
    text = '{"a": {"x": 1, "y": [{"x": 2}, {"x": 3}]}, "x": 4}'
    assert inputs.parse_json(text, "f.json") == json.loads(text)
    with pytest.raises(InputError, match=r"^f\.json: the key 'x' is given twice in one object$"):
        inputs.parse_json('{"a": [{"x": 1, "y": 2, "x": 1}]}', "f.json")
