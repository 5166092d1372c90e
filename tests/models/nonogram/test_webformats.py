"""webpbn XML and Tatham game IDs: exact readings, refused entities, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cspsolve.errors import InputError
from cspsolve.models.nonogram.board import Nonogram, clue_of
from cspsolve.models.nonogram.io.formats import parse, read, sniff, write
from cspsolve.models.nonogram.io.web import write_tatham

DATA = Path(__file__).resolve().parents[2] / "data" / "nonogram"

HEADER = '<?xml version="1.0"?>\n'
ONE_PUZZLE = """<puzzleset><puzzle type="grid" defaultcolor="black">
<clues type="columns"><line><count>1</count></line></clues>
<clues type="rows"><line><count>1</count></line></clues>
</puzzle></puzzleset>
"""


def _error(text: str, fmt: str) -> InputError:
    with pytest.raises(InputError) as info:
        parse(text, "t.xml", fmt=fmt)
    return info.value


def test_xml_reads_the_same_puzzle_as_the_non_file() -> None:
    [xml] = read(DATA / "smile.xml")
    [non] = read(DATA / "smile.non")
    assert xml.puzzle == non.puzzle  # clues and title "Smile & wave"
    assert xml.puzzle.goal == non.puzzle.goal
    assert xml.line == 5  # the <puzzle> element


def test_xml_puzzleset_of_two_names_each_by_its_id() -> None:
    two = ONE_PUZZLE.replace("</puzzleset>", "").replace(
        "<puzzleset>",
        "<puzzleset><puzzle><id>#12</id>" + ONE_PUZZLE[32:].split("</puzzle>")[0] + "</puzzle>",
    )
    entries = parse(HEADER + two + "</puzzleset>", "t.xml", fmt="xml")
    assert [e.id for e in entries] == ["12", "2"]
    assert all(e.puzzle == Nonogram([(1,)], [(1,)]) for e in entries)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            HEADER
            + '<!DOCTYPE lol [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;">\n]>\n'
            + ONE_PUZZLE,
            2,
        ),
        (HEADER + '<!DOCTYPE p SYSTEM "x.dtd" [ ]>\n' + ONE_PUZZLE, 2),
        (HEADER + "\n\n<!ENTITY x SYSTEM 'file:///etc/passwd'>" + ONE_PUZZLE, 4),
    ],
)
def test_xml_entity_declarations_are_refused(text: str, line: int) -> None:
    err = _error(text, "xml")
    assert err.line == line
    assert "entities" in err.message and "refused" in err.message


def test_xml_undeclared_html_entities_become_characters() -> None:
    text = ONE_PUZZLE.replace("<clues", "<title>&copy; &eacute;t&eacute;</title><clues", 1)
    [entry] = parse(HEADER + text, "t.xml", fmt="xml")
    assert entry.puzzle.title == "\u00a9 \u00e9t\u00e9"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (HEADER + "<puzzleset>\n<puzzle>\n</puzzleset>\n", 4, "not well-formed XML"),
        (
            HEADER
            + ONE_PUZZLE.replace(
                '<count>1</count></line></clues>\n<clues type="rows">',
                '<count color="red">1</count></line></clues>\n<clues type="rows">',
                1,
            ),
            3,
            "colour 'red' is not a declared colour",
        ),
        (HEADER + ONE_PUZZLE.replace("<count>1</count>", "<count>x</count>", 1), 3, "count 'x'"),
        (HEADER + ONE_PUZZLE.replace('"rows"', '"lines"'), 2, 'one <clues type="rows">'),
        (HEADER + ONE_PUZZLE.replace("<count>1</count>", "<count>2</count>", 1), 3, "column 1"),
        (HEADER + "<catalogue/>\n", 2, "no <puzzle> element"),
    ],
)
def test_bad_xml_names_its_line(text: str, line: int, message: str) -> None:
    err = _error(text, "xml")
    assert (err.line, message in err.message) == (line, True), err


@pytest.mark.parametrize(
    ("text", "rows", "columns"),
    [
        ("3x2:1/2/1/1.1/3", [(1, 1), (3,)], [(1,), (2,), (1,)]),
        ("2:/1/1/", [(1,), ()], [(), (1,)]),
        ("1x1:0/", None, None),
    ],
)
def test_tatham_game_ids(text: str, rows: list[tuple[int, ...]] | None, columns: object) -> None:
    if rows is None:
        _error(text, "tatham")
        return
    [entry] = parse(text + "\n", "t", fmt="tatham")
    assert entry.puzzle == Nonogram(rows, columns)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3x2:1/2/1/1.1", "4 clues for a 3x2 grid; expected 5"),
        ("2x1:1..1/1/1", "runs must be whole numbers"),
        ("2x1:3/1/1", "column 1"),
        ("0x1:", "must be at least 1"),
        ("5x5:1/2\n5x5:1", "holds one line"),
        ("hello", "expected a Tatham game ID"),
    ],
)
def test_bad_tatham_ids(text: str, message: str) -> None:
    assert message in _error(text, "tatham").message


@st.composite
def puzzles(draw: st.DrawFn) -> Nonogram:
    width, height = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    rows = [clue_of(cells[r * width : (r + 1) * width]) for r in range(height)]
    columns = [clue_of(cells[c::width]) for c in range(width)]
    return Nonogram(rows, columns)


@given(puzzles())
def test_tatham_round_trip(puzzle: Nonogram) -> None:
    text = write_tatham(puzzle)
    assert sniff("x", text) == "tatham"
    assert parse(text, "x")[0].puzzle == puzzle


def test_write_tatham_file(tmp_path: Path) -> None:
    [smile] = read(DATA / "smile.non")
    write(smile.puzzle, tmp_path / "smile.tatham")
    assert (tmp_path / "smile.tatham").read_text() == (DATA / "smile.tatham").read_text()
    assert read(tmp_path / "smile.tatham")[0].puzzle.rows == smile.puzzle.rows
