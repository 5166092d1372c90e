"""Tests for cspsolve.models.nonogram.io.formats: readers, sniffing, selection, .non writer."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspsolve.errors import InputError, OptionError
from cspsolve.inputs import BrokenEntry
from cspsolve.models.nonogram.board import Nonogram, check, clue_of
from cspsolve.models.nonogram.io import formats
from cspsolve.models.nonogram.io.formats import Entry, parse, read, select, sniff, write_non

DATA = Path(__file__).resolve().parents[2] / "data" / "nonogram"
SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "nonogram"


def _error(text: str, fmt: str | None = None, source: str = "t.txt") -> InputError:
    """Parse ``text`` expecting an InputError, and return it."""
    with pytest.raises(InputError) as info:
        parse(text, source, fmt=fmt)
    return info.value


def _first_error(text: str, fmt: str) -> InputError:
    """The error reading ``text`` gives: the file's, else its first broken puzzle's."""
    try:
        entries = parse(text, "t.txt", fmt=fmt)
    except InputError as err:
        return err
    broken = [e.error for e in entries if isinstance(e, BrokenEntry)]
    assert broken, entries
    return broken[0]


def _one(text: str, fmt: str) -> Nonogram:
    entries = parse(text, "t", fmt=fmt)
    assert len(entries) == 1
    return entries[0].puzzle


def _grid_solution(lines: list[str]) -> dict[int, list[str]]:
    """Read a tournament solution file: ``$N`` then rows of tab-separated 0/1."""
    grids: dict[int, list[str]] = {}
    current: list[str] = []
    for line in lines:
        if line.startswith("$"):
            current = grids.setdefault(int(line[1:]), [])
        elif line.strip():
            current.append("".join("#" if x == "1" else "." for x in line.split()))
    return grids


# --- .non -------------------------------------------------------------------------------------

NON_TEXT = """catalogue "webpbn.com #1"
title "Tom &amp; Jerry &copy;"
by "Someone"
license CC-BY-4.0
width 3
height 2

rows
1,1
3

columns
2
1
2

goal "101111"
"""


def test_non_small_exact() -> None:
    [entry] = parse(NON_TEXT, "a.non")
    assert entry.id is None
    assert entry.line == 1
    p = entry.puzzle
    assert p.rows == ((1, 1), (3,))
    assert p.columns == ((2,), (1,), (2,))
    assert p.title == "Tom & Jerry \u00a9"
    assert p.goal == ("#.#", "###")


def test_non_empty_clue_as_blank_line_and_as_zero() -> None:
    text = "width 2\nheight 3\nrows\n1\n\n0\ncolumns\n1\n0\n"
    p = _one(text, "non")
    assert p.rows == ((1,), (), ())
    assert p.columns == ((1,), ())


def test_non_goal_unquoted_and_keys_in_any_order() -> None:
    text = "height 1\nwidth 2\ngoal 10\ncolumns\n1\n0\nrows\n1\n\n\n"
    p = _one(text, "non")
    assert p.goal == ("#.",)
    assert p.rows == ((1,),)
    assert p.columns == ((1,), ())


def test_non_entry_line_is_first_nonblank_line() -> None:
    [entry] = parse("\n\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n", "a.non")
    assert entry.line == 3


def test_non_spaces_around_commas() -> None:
    assert _one("width 5\nheight 1\nrows\n1 , 2\ncolumns\n1\n0\n1\n1\n0\n", "non").rows == ((1, 2),)


def test_own_non_file() -> None:
    [entry] = read(DATA / "smile.non")
    p = entry.puzzle
    assert p.title == "Smile & wave"
    assert p.rows == ((1, 1), (1, 1), (), (1, 1), (3,))
    assert p.columns == ((1,), (2, 1), (1,), (2, 1), (1,))
    assert p.goal is not None
    assert check(p, p.goal) == []


# --- .nin -------------------------------------------------------------------------------------


def test_nin_small_exact() -> None:
    p = _one("3 2\n1 1\n3\n2\n1\n2\n", "nin")
    assert (p.width, p.height) == (3, 2)
    assert p.rows == ((1, 1), (3,))
    assert p.columns == ((2,), (1,), (2,))
    assert p.title == ""


def test_nin_empty_clues_and_trailing_blank_lines() -> None:
    p = _one("2 2\n0\n\n0\n0\n\n\n", "nin")
    assert p.rows == ((), ())
    assert p.columns == ((), ())


def test_nin_jwilk_copies() -> None:
    expected = {"data000": (10, 10), "data066": (15, 15), "data110": (20, 15)}
    expected |= {"data122": (15, 15), "data148": (8, 9)}
    for name, size in expected.items():
        [entry] = read(DATA / f"{name}.nin")
        assert (entry.puzzle.width, entry.puzzle.height) == size
    p = read(DATA / "data000.nin")[0].puzzle
    assert p.rows[:4] == ((1,), (4,), (4, 1), (8,))
    assert p.columns[-1] == (2, 2)


# --- tournament -------------------------------------------------------------------------------


def test_tournament_small_columns_first() -> None:
    text = "$7\n2\n1\n1\n2\n$8\n1\t1\n\n1\n0\n1\n1\n"
    first, second = parse(text, "t.txt")
    assert (first.id, first.line) == (7, 1)
    assert first.puzzle.columns == ((2,), (1,))
    assert first.puzzle.rows == ((1,), (2,))
    assert (second.id, second.line) == (8, 6)
    assert second.puzzle.columns == ((1, 1), (), (1,))
    assert second.puzzle.rows == ((), (1,), (1,))


def test_tournament_sample_file_and_its_solutions() -> None:
    entries = read(DATA / "tournament_sample.txt")
    assert [e.id for e in entries] == [1, 2, 3]
    assert all((e.puzzle.width, e.puzzle.height) == (25, 25) for e in entries)
    lines = (DATA / "tournament_sample_solution.txt").read_text().splitlines()
    solutions = _grid_solution(lines)
    for entry in entries:
        assert isinstance(entry.id, int)
        assert check(entry.puzzle, solutions[entry.id]) == []
    # the transposed reading (rows first) does not fit: the file is read columns first
    p = entries[0].puzzle
    swapped = Nonogram(rows=p.columns, columns=p.rows)
    assert check(swapped, solutions[1]) != []


# --- picross-solver .txt ----------------------------------------------------------------------

PICROSS_TEXT = """# two grids
GRID First one
ROWS
[ 1 1 ]
[ ]
# a comment inside
COLUMNS
[ 1 ]
[ 0 ]
[1]

GRID Second
ROWS
[ 2 ]
COLUMNS
[ 1 ]
[ 1 ]
"""


def test_picross_small_exact() -> None:
    first, second = parse(PICROSS_TEXT, "p.txt")
    assert (first.id, first.line) == ("First one", 2)
    assert first.puzzle.rows == ((1, 1), ())
    assert first.puzzle.columns == ((1,), (), (1,))
    assert first.puzzle.title == "First one"
    assert (second.id, second.line) == ("Second", 12)
    assert second.puzzle.rows == ((2,),)


def test_picross_without_grid_line() -> None:
    [entry] = parse("# c\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n", "p.txt")
    assert entry.id is None
    assert entry.line == 2
    assert entry.puzzle.rows == ((1,),)


def test_picross_copies() -> None:
    names = {
        "test_pattern_05.txt": ("Katakana", 13, 13),
        "test_pattern_09.txt": ("Smile", 4, 2),
        "test_pattern_13.txt": ("Flip", 6, 4),
    }
    for file, (name, width, height) in names.items():
        [entry] = read(DATA / file)
        assert entry.id == name
        assert (entry.puzzle.width, entry.puzzle.height) == (width, height)
    flip = read(DATA / "test_pattern_13.txt")[0].puzzle
    assert flip.rows == ((2, 3), (3,), (1, 1, 1), (1, 1))
    assert flip.columns == ((1, 1), (2, 1), (2,), (2,), (1, 1), (1, 1))


# --- line ends, BOM, sniffing -----------------------------------------------------------------

SAMPLES = {
    "non": NON_TEXT,
    "nin": "3 2\n1 1\n3\n2\n1\n2\n",
    "tournament": "$1\n2\n1\n1\n2\n",
    "picross": PICROSS_TEXT,
    "xml": (DATA / "smile.xml").read_text(encoding="utf-8"),
    "tatham": "3x2:1/2/1/1.1/3\n",
}


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_crlf_and_bom_read_the_same(fmt: str, tmp_path: Path) -> None:
    plain = parse(SAMPLES[fmt], "t", fmt=fmt)
    assert parse(SAMPLES[fmt].replace("\n", "\r\n"), "t", fmt=fmt) == plain
    assert parse("\ufeff" + SAMPLES[fmt], "t", fmt=fmt) == plain
    path = tmp_path / "x.txt"
    path.write_bytes(b"\xef\xbb\xbf" + SAMPLES[fmt].replace("\n", "\r\n").encode())
    assert read(path, fmt) == plain


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_sniff_finds_each_sample(fmt: str) -> None:
    assert sniff("x.txt", SAMPLES[fmt]) == fmt
    assert parse(SAMPLES[fmt], "x.txt") == parse(SAMPLES[fmt], "x", fmt=fmt)


@pytest.mark.parametrize(
    ("name", "text", "fmt"),
    [
        ("a.non", "", "non"),
        ("A.NIN", "whatever", "nin"),
        ("a.txt", "\n\n$12\n1\n1\n", "tournament"),
        ("a.txt", "# x\n\nROWS\n[ 1 ]\n", "picross"),
        ("a", 'title "x"\nwidth 5\n', "non"),
        ("a", "catalogue x\nrows\n", "non"),
        ("a", "2 1\n1\n1\n0\n", "nin"),
        ("a", "5 10\n1\n", None),  # 15 clue lines needed
        ("a", "1 2\n3 0\n", None),  # a 2x2 n-puzzle
        ("a", "1 2\n3 4\n5 6\n7 0\n", None),  # 4 lines after 'W H', '7 0' no clue
        ("a", "hello world\n", None),
        ("a", "  \n", None),
        ("a", "$x\n", None),
    ],
)
def test_sniff(name: str, text: str, fmt: str | None) -> None:
    assert sniff(name, text) == fmt


def test_unknown_content_is_an_input_error() -> None:
    err = _error("hello world\n", None, "a.txt")
    assert err.line is None
    assert "cannot tell the format" in err.message


def test_unknown_format_name() -> None:
    err = _error("1 1\n1\n1\n", "svg")
    assert err.line is None
    assert "unknown format" in err.message


# --- read: file problems ----------------------------------------------------------------------


def test_read_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file") as info:
        read(tmp_path / "nope.non")
    assert info.value.line is None
    assert info.value.source == str(tmp_path / "nope.non")


def test_read_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="directory"):
        read(tmp_path)


def test_read_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.non"
    path.write_text("width 1\n")

    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(InputError, match="permission denied"):
        read(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"width 1\x00\n", "binary"),
        (b"width 1\n\xff\xfe\n", "not UTF-8"),
        (b"", "empty"),
        (b" \n\r\n\t\n", "empty"),
        (b"\xef\xbb\xbf\n", "empty"),
    ],
)
def test_read_bad_content(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "a.non"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message) as info:
        read(path)
    assert info.value.line is None
    assert "\n" not in str(info.value)


# --- bad input: every error names its line ----------------------------------------------------

NON_OK_HEAD = "width 3\nheight 2\n"  # lines 1-2
NON_OK_TAIL = "rows\n1\n1\ncolumns\n1\n1\n1\n"

BAD_INPUTS = [
    # .non
    ("non", "width abc\nheight 2\n", 1, "not a whole number"),
    ("non", "width 2.5\nheight 2\n", 1, "not a whole number"),
    ("non", "width 3\nheight -2\n", 2, "negative"),
    ("non", "width 0\n", 1, "at least 1"),
    ("non", "width 10000000000\n", 1, "too large"),
    ("non", "width 100001\n", 1, "too large"),
    ("non", "width\n", 1, "not a whole number"),
    ("non", "width 3\nrows\n1\n", 2, "must come before 'rows'"),
    ("non", NON_OK_HEAD + "rows\n1\n", 4, "expected 2 row clues, found 1"),
    ("non", NON_OK_HEAD + "rows\n1\ncolumns\n1\n1\n1\n", 5, "expected 2 row clues, found 1"),
    ("non", NON_OK_HEAD + "rows\n1\n\n\ncolumns\n1\n1\n", 9, "expected 3 column clues, found 2"),
    ("non", NON_OK_HEAD + "rows\n1\n1\n\n", 6, "no 'columns' section"),
    ("non", "width 1\nrows\n", 2, "must come before"),
    ("non", 'title "x"\n', 1, "no 'width' section"),
    ("non", NON_OK_HEAD + "rows\n1\n1\nrows\n1\n1\n", 6, "duplicate 'rows'"),
    ("non", "width 3\nwidth 3\n", 2, "duplicate 'width'"),
    ("non", NON_OK_HEAD + "rows\n1\n2,2\ncolumns\n1\n1\n1\n", 5, "row 2: clue 2 2 needs 5"),
    ("non", NON_OK_HEAD + "rows\n1\n1\ncolumns\n1\n\n3\n", 9, "column 3: clue 3 needs 3"),
    ("non", NON_OK_HEAD + "rows\n1,0\n1\ncolumns\n1\n1\n1\n", 4, "run length 0"),
    ("non", NON_OK_HEAD + "rows\n-1\n1\ncolumns\n1\n1\n1\n", 4, "negative"),
    ("non", NON_OK_HEAD + "rows\n1,x\n1\ncolumns\n1\n1\n1\n", 4, "'x' is not a whole number"),
    ("non", NON_OK_HEAD + "rows\n1,,1\n1\n", 4, "'' is not a whole number"),
    ("non", NON_OK_HEAD + "rows\n1\n1\n1\ncolumns\n", 6, "outside a 'rows' or 'columns'"),
    ("non", NON_OK_HEAD + 'goal "10101"\n' + NON_OK_TAIL, 3, "goal has 5 cells, expected 3x2 = 6"),
    ("non", NON_OK_HEAD + 'goal "10101x"\n' + NON_OK_TAIL, 3, "only 0 and 1"),
    # .nin
    ("nin", "5\n", 1, "expected 'W H'"),
    ("nin", "\n\n5 x\n", 3, "not a whole number"),
    ("nin", "2 0\n", 1, "at least 1"),
    ("nin", "2 99999999999999999999\n", 1, "too large"),
    ("nin", "2 1\n1\n1\n", 3, "expected 2 column clues, found 1"),
    ("nin", "2 1\n1\n", 2, "expected 2 column clues, found 0"),
    ("nin", "2 1\n1 x\n1\n0\n", 2, "'x' is not a whole number"),
    ("nin", "2 1\n1 1\n1\n0\n", 2, "row 1: clue 1 1 needs 3"),
    ("nin", "2 1\n1\n2\n0\n", 3, "column 1: clue 2 needs 2"),
    ("nin", "2 1\n0 1\n1\n0\n", 2, "run length 0"),
    # tournament
    ("tournament", "$1\n1\n1\n1\n", 1, "3 clue lines; expected an even number"),
    ("tournament", "$1\n1\n1\n$2\n", 4, "0 clue lines"),
    ("tournament", "1\n$1\n1\n1\n", 1, "expected a '$N' line"),
    ("tournament", "$1\n1\n1\n$x\n1\n1\n", 4, "expected '$N'"),
    ("tournament", "$1\n1\n1\n$1\n1\n1\n", 4, "puzzle $1: given twice (first on line 1)"),
    ("tournament", "$1\n1\n1\t2\n1\n1\n", 3, "column 2: clue 1 2 needs 4"),
    ("tournament", "$1\n1\n1\n3\n1\n", 4, "row 1: clue 3 needs 3"),
    ("tournament", "$1\n1\ny\n1\n1\n", 3, "'y' is not a whole number"),
    ("tournament", "$1\n1\n-1\n1\n1\n", 3, "negative"),
    # picross
    ("picross", "GRID a\n[ 1 ]\n", 2, "before any 'ROWS'"),
    ("picross", "GRID a\nROWS\n[ 1 ]\n", 3, "no 'COLUMNS' section"),
    ("picross", "GRID a\nROWS\n[ 1 ]\nGRID b\n", 4, "grid 'a': no 'COLUMNS' section"),
    ("picross", "GRID a\nROWS\n[ 1 ]\nROWS\n", 4, "duplicate 'ROWS'"),
    ("picross", "GRID a\nROWS\nCOLUMNS\n[ 1 ]\n", 2, "the 'ROWS' section has no clues"),
    ("picross", "GRID a\nROWS\n[ 1\n", 3, "must be written"),
    ("picross", "GRID a\nROWS\nhello\n", 3, "unexpected line 'hello'"),
    ("picross", "GRID a\nROWS\n[ 1 x ]\n", 3, "'x' is not a whole number"),
    ("picross", "GRID a\nROWS\n[ 2 ]\nCOLUMNS\n[ 1 ]\n", 3, "row 1: clue 2 needs 2"),
    ("picross", "ROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n[ 1 1 ]\n", 5, "column 2: clue 1 1 needs 3"),
    ("picross", "ROWS\n[ 1 ]\n", 2, "no 'COLUMNS' section"),
]


@pytest.mark.parametrize(("fmt", "text", "line", "message"), BAD_INPUTS)
def test_bad_input_names_its_line(fmt: str, text: str, line: int, message: str) -> None:
    err = _first_error(text, fmt)
    assert err.line == line, str(err)
    assert message in err.message, str(err)
    assert "\n" not in str(err)
    # same line numbers with CRLF line ends and a BOM
    again = _first_error("\ufeff" + text.replace("\n", "\r\n"), fmt)
    assert (again.line, again.message) == (err.line, err.message)


@pytest.mark.parametrize(
    ("fmt", "text", "message"),
    [
        ("tournament", "\n\n", "empty"),
        ("picross", "# only a comment\n", "no grid"),
        ("tournament", "# no puzzle\n", "expected a '$N' line"),
    ],
)
def test_bad_input_whole_file(fmt: str, text: str, message: str) -> None:
    assert message in _error(text, fmt).message


# --- select -----------------------------------------------------------------------------------


def _entries(text: str) -> list[Entry]:
    return parse(text, "t.txt")


def test_select_by_number_and_name() -> None:
    numbered = _entries("$5\n1\n1\n1\n1\n$12\n0\n0\n")
    assert select(numbered, "12", "t.txt").id == 12
    named = _entries(PICROSS_TEXT)
    assert select(named, "Second", "t.txt").id == "Second"
    assert select(named, "First one", "t.txt").id == "First one"
    assert select(named, "2", "t.txt").id == "Second"


def test_select_index_only_for_unnumbered_files() -> None:
    numbered = _entries("$5\n1\n1\n1\n1\n$12\n0\n0\n")
    with pytest.raises(InputError, match=r"no puzzle '1' in file \(it holds puzzles 5, 12\)"):
        select(numbered, "1", "t.txt")
    [single] = _entries("3 2\n1 1\n3\n2\n1\n2\n")
    assert select([single], "1", "t.txt") is single


def test_select_not_found_message() -> None:
    named = _entries(PICROSS_TEXT)
    with pytest.raises(InputError) as info:
        select(named, "Third", "t.txt")
    assert info.value.line is None
    assert info.value.source == "t.txt"
    assert "no puzzle 'Third' in file (it holds 'First one', 'Second'" in info.value.message
    with pytest.raises(InputError, match="no puzzle '3'"):
        select(named, "3", "t.txt")
    many = parse("".join(f"${n}\n1\n1\n" for n in range(1, 9)), "t.txt")
    with pytest.raises(InputError, match=r"1, 2, 3, 4, 5, \.\.\. \(8 in all\)"):
        select(many, "9", "t.txt")


# --- write_non --------------------------------------------------------------------------------


def test_write_non_exact_text() -> None:
    p = Nonogram(
        rows=[(1, 1), ()], columns=[(1,), (), (1,)], title='A "b" & c', goal=("#.#", "...")
    )
    assert write_non(p) == (
        'title "A &quot;b&quot; &amp; c"\nwidth 3\nheight 2\n\nrows\n1,1\n0\n\n'
        'columns\n1\n0\n1\n\ngoal "101000"\n'
    )
    back = parse(write_non(p), "x.non")[0].puzzle
    assert back == p
    assert (back.title, back.goal) == (p.title, p.goal)


def test_write_non_without_title_or_goal() -> None:
    text = write_non(Nonogram(rows=[(1,)], columns=[(1,)]))
    assert text == "width 1\nheight 1\n\nrows\n1\n\ncolumns\n1\n"


@st.composite
def puzzles(draw: st.DrawFn) -> Nonogram:
    """A random puzzle made from a random grid, with or without title and goal."""
    width = draw(st.integers(1, 8))
    height = draw(st.integers(1, 8))
    cells = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    grid = [cells[r * width : (r + 1) * width] for r in range(height)]
    goal = tuple("".join("#" if c else "." for c in row) for row in grid)
    return Nonogram(
        rows=[clue_of(row) for row in grid],
        columns=[clue_of(row[j] for row in grid) for j in range(width)],
        title=draw(st.text(max_size=20)),
        goal=draw(st.sampled_from([None, goal])),
    )


@given(puzzles())
def test_write_non_round_trip(p: Nonogram) -> None:
    [entry] = parse(write_non(p), "x.non")
    assert entry.puzzle == p
    assert entry.puzzle.title == p.title
    assert entry.puzzle.goal == p.goal
    assert sniff("x.txt", write_non(p)) == "non"


# --- nothing but InputError escapes -----------------------------------------------------------

_FORMAT_CHARS = '0123456789 ,\t\n\r$#[]-GRIDOWSCLUMNwidthegoalrscn"\ufeff&'
_texts = st.one_of(st.text(), st.text(alphabet=_FORMAT_CHARS))


def _parses_or_input_error(text: str, fmt: str | None) -> None:
    try:
        entries = parse(text, "fuzz.txt", fmt=fmt)
    except InputError as err:
        assert "\n" not in str(err)
        return
    assert entries
    for entry in entries:
        if isinstance(entry, BrokenEntry):  # one of several: its error names its line
            assert len(entries) > 1
            assert entry.error.line is not None and "\n" not in str(entry.error)
        else:
            assert isinstance(entry, Entry) and isinstance(entry.puzzle, Nonogram)


@given(_texts, st.sampled_from([None, *formats.FORMATS]))
def test_random_text_only_input_errors(text: str, fmt: str | None) -> None:
    _parses_or_input_error(text, fmt)


@given(
    st.sampled_from(sorted(SAMPLES)),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["", "0", "1", "x", "$1", "ROWS"]))),
)
def test_mutated_samples_only_input_errors(fmt: str, edits: list[tuple[int, str]]) -> None:
    lines = SAMPLES[fmt].split("\n")
    for at, new in edits:
        if at % 2 and lines:
            del lines[at % len(lines)]
        else:
            lines.insert(at % (len(lines) + 1), new)
    _parses_or_input_error("\n".join(lines), fmt)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(), st.sampled_from(["a.non", "a.nin", "a.txt"]))
def test_random_bytes_only_input_errors(tmp_path: Path, content: bytes, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with contextlib.suppress(InputError):
        read(path)


# --- real files in ../shared/data (skipped in a fresh clone) ----------------------------------


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"../shared/data not present (fresh clone): {SHARED}")
    return SHARED


def _shared_files(base: Path) -> list[Path]:
    folders = ["jwilk", "nonogram-db", "webpbn-survey", "webpbn-cc", "large"]
    found = [p for f in folders for p in (base / f).rglob("*") if p.suffix in (".non", ".nin")]
    return sorted(found) + sorted((base / "picross-solver-patterns").glob("*.txt"))


@pytest.mark.shared
def test_shared_files_all_parse(shared: Path) -> None:
    files = _shared_files(shared)
    assert len(files) >= 120
    for path in files:
        name = path.relative_to(shared).as_posix()
        entries = read(path)
        assert entries, name
        goal = entries[0].puzzle.goal
        if goal is not None:
            assert check(entries[0].puzzle, goal) == [], name


@pytest.mark.shared
@pytest.mark.parametrize("name", ["taai2011.txt", "tcga2022.txt"])
def test_shared_tournament_sets_match_official_solutions(shared: Path, name: str) -> None:
    entries = read(shared / "taai" / "question" / name)
    assert [e.id for e in entries] == list(range(1, 1001))
    assert all((e.puzzle.width, e.puzzle.height) == (25, 25) for e in entries)
    text = (shared / "taai" / "solution" / name).read_text(encoding="utf-8")
    solutions = _grid_solution(text.splitlines())
    assert len(solutions) == 1000
    for entry in entries:
        assert isinstance(entry.id, int)
        assert check(entry.puzzle, solutions[entry.id]) == [], entry.id


@pytest.mark.shared
def test_shared_copies_are_unchanged(shared: Path) -> None:
    copies = {f"jwilk/data{n}.nin": f"data{n}.nin" for n in ("000", "066", "110", "122", "148")}
    copies |= {
        f"picross-solver-patterns/test_pattern_{n}.txt": f"test_pattern_{n}.txt"
        for n in ("05", "09", "13")
    }
    copies["jwilk/LICENSE"] = "LICENSE-jwilk"
    for original, copy in copies.items():
        assert (shared / original).read_bytes() == (DATA / copy).read_bytes(), copy


def test_tournament_sample_is_reproducible() -> None:
    """The sample was made from seeded random grids, as ATTRIBUTION.md says."""
    rng = random.Random(20240601)
    entries = read(DATA / "tournament_sample.txt")
    for entry in entries:
        grid = [[rng.random() < 0.55 for _ in range(25)] for _ in range(25)]
        assert entry.puzzle.rows == tuple(clue_of(row) for row in grid)
        assert entry.puzzle.columns == tuple(clue_of(row[j] for row in grid) for j in range(25))


def test_nin_accepts_copies_of_the_puzzle_after_the_clues() -> None:
    """jwilk data142.nin holds its puzzle five times, some line ends lost: the last clue 4 run
    into the header 25 20 (``425 20``); here the same damage on a 2x1 puzzle."""
    text = "2 1\n1\n1\n1\n" + "1\n1\n12 1\n" + "1 \n 1\n1\n\n"
    (entry,) = parse(text, "t.nin")
    assert entry.puzzle.rows == ((1,),) and entry.puzzle.columns == ((1,), (1,))


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("2 1\n1\n1\n0\n425 20\nrubbish\n", 5),
        ("2 1\n1\n1\n0\n\n1\n", 6),  # one clue line too many
        ("2 1\n1\n1\n0\n1\n1\n0\n2 1\n1\n1\n9\n", 9),  # a copy, then a changed one
    ],
)
def test_nin_refuses_more_clue_lines_than_width_plus_height(text: str, line: int) -> None:
    err = _error(text, source="t.nin")
    assert err.line == line and "more clue lines than width + height" in err.message


@given(puzzles())
def test_write_nin_round_trip(p: Nonogram) -> None:
    [entry] = parse(formats.write_nin(p), "x.nin")
    assert (entry.puzzle.rows, entry.puzzle.columns) == (p.rows, p.columns)
    assert sniff("x.txt", formats.write_nin(p)) == "nin"


@pytest.mark.parametrize("suffix", [".non", ".nin", ".NON"])
def test_write_picks_the_format_by_extension(tmp_path: Path, suffix: str) -> None:
    p = Nonogram(rows=[(2,), (1,)], columns=[(2,), (1,)], title="t")
    target = tmp_path / f"out{suffix}"
    formats.write(p, target)
    [entry] = read(target)
    assert (entry.puzzle.rows, entry.puzzle.columns) == (p.rows, p.columns)


def test_write_refuses_unknown_extensions(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=r"cannot write \.xyz"):
        formats.write(Nonogram(rows=[(1,)], columns=[(1,)]), tmp_path / "a.xyz")
