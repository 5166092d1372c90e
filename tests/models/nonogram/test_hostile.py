"""Hostile and malformed nonogram files: each is refused with exit 2 and one line naming the file
and the line, and convert keeps what the target format can hold.

The CLI runs are fresh interpreters (:func:`tests.conftest.run`); the reader-level tests parse
text in-process. Expected puzzles and metadata are written literally here, never produced by
the writer under test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import registry
from cspsolve.errors import InputError
from cspsolve.instances import ROOT
from cspsolve.models.nonogram.board import Metadata, Nonogram
from cspsolve.models.nonogram.colour_board import ColourNonogram
from cspsolve.models.nonogram.io import formats
from cspsolve.models.nonogram.io.clues import MAX_CELLS, MAX_SIDE
from cspsolve.models.nonogram.io.formats import parse, read, sniff, write_non
from cspsolve.models.nonogram.io.web import parse_xml, write_xml

from ...conftest import run
from ...test_cli import assert_bad_input

BIG = 100_000
"""The side of the hostile files that asked the solver for 74.5 GiB."""


def _bad(path: Path, line: int, message: str) -> None:
    """``cspsolve solve PATH`` exits 2 with ``cspsolve: PATH:LINE: MESSAGE...``."""
    proc = run("solve", path)
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}:{line}: {message}.*")


def _error(text: str, source: str, fmt: str | None = None) -> InputError:
    with pytest.raises(InputError) as info:
        parse(text, source, fmt=fmt)
    return info.value


# --- sizes ------------------------------------------------------------------------------------


def _non(width: int, height: int) -> str:
    """A ``.non`` file of ``width`` x ``height`` whose every clue is a single run of 1."""
    return "\n".join(
        [f"width {width}", f"height {height}", "", "rows", *["1"] * height, "", "columns"]
        + ["1"] * width
    )


def _nin(width: int, height: int) -> str:
    return "\n".join([f"{width} {height}", *["1"] * (width + height)]) + "\n"


def _tatham(width: int, height: int) -> str:
    return f"{width}x{height}:" + "/".join(["1"] * (width + height)) + "\n"


@pytest.mark.parametrize(
    ("name", "text", "line", "message"),
    [
        ("wide.non", _non(BIG, 1), 1, rf"width {BIG} is too large \(at most {MAX_SIDE:,}\)"),
        ("tall.non", _non(1, BIG), 2, rf"height {BIG} is too large \(at most {MAX_SIDE:,}\)"),
        ("wide.nin", _nin(BIG, 1), 1, rf"width {BIG} is too large \(at most {MAX_SIDE:,}\)"),
        ("tall.txt", _nin(1, BIG), 1, rf"height {BIG} is too large \(at most {MAX_SIDE:,}\)"),
        ("wide.tatham", _tatham(BIG, 1), 1, rf"width {BIG} is too large"),
        ("tall.tatham", _tatham(1, BIG), 1, rf"height {BIG} is too large"),
    ],
)
def test_cli_refuses_a_side_over_the_cap(
    tmp_path: Path, name: str, text: str, line: int, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _bad(path, line, message)


def test_cli_refuses_too_many_cells(tmp_path: Path) -> None:
    side = 1025  # 1025 x 1025 > 2**20 cells, each side under the cap
    path = tmp_path / "square.non"
    path.write_text(_non(side, side), encoding="utf-8")
    _bad(path, 2, rf"a {side}x{side} puzzle of {side * side:,} cells is too large")


def _xml(width: int, height: int) -> str:
    line = "<line><count>1</count></line>"
    return (
        '<?xml version="1.0"?>\n<puzzleset><puzzle>\n'
        f'<clues type="columns">{line * width}</clues>\n'
        f'<clues type="rows">{line * height}</clues>\n</puzzle></puzzleset>\n'
    )


def _tournament(side: int) -> str:
    return "$1\n" + "1\n" * (2 * side)


def _picross(width: int, height: int) -> str:
    return "GRID big\nROWS\n" + "[ 1 ]\n" * height + "COLUMNS\n" + "[ 1 ]\n" * width


@pytest.mark.parametrize(
    ("fmt", "text", "line"),
    [
        ("xml", _xml(MAX_SIDE + 1, 1), 2),
        ("xml", _xml(1, MAX_SIDE + 1), 2),
        ("tournament", _tournament(MAX_SIDE + 1), 1),
        ("picross", _picross(MAX_SIDE + 1, 1), 1),
        ("picross", _picross(1, MAX_SIDE + 1), 1),
        ("nin", _nin(MAX_SIDE + 1, 1), 1),
        ("tatham", _tatham(1, MAX_SIDE + 1), 1),
    ],
)
def test_every_reader_caps_the_sides(fmt: str, text: str, line: int) -> None:
    err = _error(text, "big", fmt)
    assert err.line == line
    assert f"{MAX_SIDE + 1} is too large (at most {MAX_SIDE:,})" in err.message


@pytest.mark.parametrize("fmt", ["xml", "picross", "nin", "non", "tatham"])
def test_every_reader_caps_the_cells(fmt: str) -> None:
    width, height = MAX_SIDE, MAX_CELLS // MAX_SIDE + 1
    text = {
        "xml": _xml,
        "picross": _picross,
        "nin": _nin,
        "non": _non,
        "tatham": _tatham,
    }[fmt](width, height)
    err = _error(text, "big", fmt)
    assert f"{width * height:,} cells is too large (at most {MAX_CELLS:,} cells)" in err.message


@pytest.mark.parametrize("fmt", ["non", "nin", "tatham", "xml"])
def test_the_largest_accepted_puzzles_are_read(fmt: str) -> None:
    """Exactly at the caps: a MAX_SIDE-long line, and MAX_CELLS cells."""
    make = {"non": _non, "nin": _nin, "tatham": _tatham, "xml": _xml}[fmt]
    for width, height in ((MAX_SIDE, 1), (1, MAX_SIDE), (MAX_SIDE, MAX_CELLS // MAX_SIDE)):
        [entry] = parse(make(width, height), "big", fmt=fmt)
        assert (entry.puzzle.width, entry.puzzle.height) == (width, height)


def test_a_run_longer_than_the_cap_is_refused() -> None:
    err = _error(f"width 1\nheight 1\nrows\n{MAX_SIDE + 1}\ncolumns\n1\n", "t.non")
    assert err.line == 4 and "too large" in err.message
    xml = _xml(1, 1).replace("<count>1</count>", f"<count>{MAX_SIDE + 1}</count>", 1)
    assert f"from 1 to {MAX_SIDE:,}" in _error(xml, "t.xml").message


# --- read silently though wrong ---------------------------------------------------------------

SMALL_NON = "width 2\nheight 1\n\nrows\n1\n\ncolumns\n1\n0\n"


@pytest.mark.parametrize(
    ("name", "text", "line", "message"),
    [
        ("junk.non", SMALL_NON + "@@@ garbage &&& 17 ]]\n", 10, r"unexpected line '@@@ garbage"),
        ("extra.non", SMALL_NON + "1\n", 10, r"clue line outside a 'rows' or 'columns'"),
        ("extra.nin", "2 1\n1\n1\n0\n1\n", 5, r"more clue lines than width \+ height"),
        (
            "colour.xml",
            '<?xml version="1.0"?>\n<puzzle>\n<color name="black" char="X">zzz</color>\n'
            '<clues type="columns"><line><count>1</count></line></clues>\n'
            '<clues type="rows"><line><count>1</count></line></clues>\n</puzzle>\n',
            3,
            r"colour value 'zzz' is not a hex colour",
        ),
    ],
)
def test_cli_refuses_what_was_read_silently(
    tmp_path: Path, name: str, text: str, line: int, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _bad(path, line, message)


def test_unknown_non_keys_are_still_ignored() -> None:
    """nonogram-db's rule: a ``key value`` line of an unknown key is skipped."""
    [entry] = parse("copyright_year 2024\n" + SMALL_NON + 'note "later"\n', "t.non")
    assert entry.puzzle == Nonogram(rows=[(1,)], columns=[(1,), ()])


def test_unnamed_picross_grids_may_repeat() -> None:
    """Only names select a grid; two nameless ``GRID`` lines are two grids."""
    entries = parse("GRID\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\nGRID\nROWS\n[ ]\nCOLUMNS\n[ ]\n", "t.txt")
    assert [e.puzzle.rows for e in entries] == [((1,),), ((),)]


# --- metadata through convert -----------------------------------------------------------------

META_NON = """catalogue "webpbn.com #7 &amp; more"
title "Two"
by "A. Author"
copyright "&copy; 2024 A. Author"
license CC-BY-4.0
width 2
height 1

rows
1

columns
1
0
"""

META = Metadata(
    catalogue="webpbn.com #7 & more",
    author="A. Author",
    copyright="\u00a9 2024 A. Author",
    license="CC-BY-4.0",
)


def test_non_reader_keeps_the_metadata() -> None:
    [entry] = parse(META_NON, "t.non")
    assert entry.puzzle.metadata == META and entry.puzzle.title == "Two"


@pytest.mark.parametrize(
    ("target", "title", "kept"),
    [
        ("copy.non", "Two", META),
        ("copy.xml", "Two", Metadata(META.catalogue, META.author, META.copyright)),  # no licence
        ("copy.nin", "", Metadata()),
        ("copy.tatham", "", Metadata()),
    ],
)
def test_cli_convert_keeps_the_metadata(
    tmp_path: Path, target: str, title: str, kept: Metadata
) -> None:
    source = tmp_path / "meta.non"
    source.write_text(META_NON, encoding="utf-8")
    proc = run("convert", source, tmp_path / target)
    assert proc.returncode == 0, proc.stderr
    [entry] = read(tmp_path / target)
    assert entry.puzzle == Nonogram(rows=[(1,)], columns=[(1,), ()], title=title)
    assert entry.puzzle.metadata == kept


COLOUR_NON = (
    META_NON.replace("width 2", "color r red #ff0000\nwidth 2")
    .replace("rows\n1\n", "rows\n1r\n")
    .replace("columns\n1\n", "columns\n1r\n")
)
"""``META_NON`` with its one block red: a colour puzzle with the same metadata."""


@pytest.mark.parametrize(
    ("target", "kept"),
    [("copy.non", META), ("copy.xml", Metadata(META.catalogue, META.author, META.copyright))],
)
def test_convert_keeps_the_metadata_of_a_colour_puzzle(
    tmp_path: Path, target: str, kept: Metadata
) -> None:
    source = tmp_path / "meta.non"
    source.write_text(COLOUR_NON, encoding="utf-8")
    [given] = read(source)
    assert isinstance(given.puzzle, ColourNonogram) and given.puzzle.metadata == META
    proc = run("convert", source, tmp_path / target)
    assert proc.returncode == 0, proc.stderr
    [entry] = read(tmp_path / target)
    assert entry.puzzle == given.puzzle and entry.puzzle.metadata == kept


def test_convert_non_to_non_keeps_the_metadata_lines_of_the_shipped_duck(tmp_path: Path) -> None:
    duck = ROOT / "nonogram" / "duck.non"
    proc = run("convert", duck, tmp_path / "duck.non")
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in duck.read_text(encoding="utf-8").splitlines() if line.strip()]
    kept = [line for line in lines if line.split()[0] in ("catalogue", "title", "by", "license")]
    assert len(kept) == 4  # what the shipped file has
    assert set(kept) <= set((tmp_path / "duck.non").read_text(encoding="utf-8").splitlines())


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
"""Metadata strings: any characters but lone surrogates (not UTF-8)."""

_WORDS = st.lists(st.text(st.characters(whitelist_categories=("L", "N", "P")), min_size=1)).map(
    " ".join
)
"""XML text as the reader gives it back: words between single spaces."""


@settings(max_examples=60, deadline=None)
@given(_TEXT, _TEXT, _TEXT, _TEXT, _TEXT)
def test_non_round_trip_keeps_any_metadata(
    catalogue: str, author: str, copyright: str, license: str, title: str
) -> None:
    metadata = Metadata(catalogue, author, copyright, license)
    puzzle = Nonogram(rows=[(1,)], columns=[(1,)], title=title, metadata=metadata)
    [entry] = parse(write_non(puzzle), "x.non")
    assert entry.puzzle.metadata == metadata and entry.puzzle.title == title


@settings(max_examples=60, deadline=None)
@given(_WORDS, _WORDS, _WORDS)
def test_xml_round_trip_keeps_the_metadata(catalogue: str, author: str, copyright: str) -> None:
    metadata = Metadata(catalogue, author, copyright, "MIT")
    puzzle = Nonogram(rows=[(1,)], columns=[(1,)], metadata=metadata)
    [(_, _, read_back)] = parse_xml(write_xml(puzzle), "x.xml")
    back = read_back()
    assert isinstance(back, Nonogram)
    assert back.metadata == Metadata(catalogue, author, copyright)


# --- sniffing ---------------------------------------------------------------------------------


def test_a_two_by_two_n_puzzle_is_not_taken_for_a_nin(tmp_path: Path) -> None:
    path = tmp_path / "grid.txt"
    path.write_text("1 2\n3 0\n", encoding="utf-8")
    assert sniff(path.name, path.read_text()) is None
    assert registry.detect(path) == "npuzzle"


@pytest.mark.parametrize(
    "text",
    [
        "2 1\n1\n1\n0\n",
        "2 1\n1\n1\n\n",  # the last clue empty, written as a blank line
        "2 1\n1\n1\n0\n1\n1\n0\n",  # the clues twice
        "2 1\n1\n1\n0\n\n\n",
    ],
)
def test_a_nin_in_a_txt_file_is_still_sniffed(text: str) -> None:
    assert sniff("a.txt", text) == "nin"
    parse(text, "a.txt")


def test_the_head_of_a_long_nin_is_sniffed() -> None:
    """The engine sniffs the first 64 KiB: a cut head with too few lines is still a .nin."""
    text = _nin(1, 40_000)[: formats.SNIFF_HEAD]
    assert sniff("a.txt", text) == "nin"
