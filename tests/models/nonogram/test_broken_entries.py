"""One broken puzzle of a file of many spoils only itself, in every nonogram format of many.

Files are written here from random grids, with writers of their own (the library's writers are
not used), one puzzle is broken in a known way at a known line, and the file is read: the
broken puzzle is a :class:`~cspsolve.inputs.BrokenEntry` whose error names the file, that line
and the puzzle; every other puzzle reads and solves exactly as when its text is read alone, and
has the clues of its grid. Only a broken frame (text before the first puzzle, XML that is not
well-formed) fails the whole file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cspsolve
from cspsolve.errors import InputError
from cspsolve.inputs import BrokenEntry
from cspsolve.models.nonogram.board import Clue, check, clue_of
from cspsolve.models.nonogram.io.formats import Entry, parse, select

Grid = tuple[tuple[bool, ...], ...]


@st.composite
def grids(draw: st.DrawFn, square: bool) -> Grid:
    """A random grid of 1 to 4 rows and columns (as many of each when ``square``)."""
    height = draw(st.integers(1, 4))
    width = height if square else draw(st.integers(1, 4))
    cells = st.tuples(*[st.booleans()] * width)
    return tuple(draw(st.lists(cells, min_size=height, max_size=height)))


def rows_of(grid: Grid) -> list[Clue]:
    return [clue_of(row) for row in grid]


def columns_of(grid: Grid) -> list[Clue]:
    return [clue_of(row[j] for row in grid) for j in range(len(grid[0]))]


# --- each format: a puzzle's lines, and the ways to break one ---------------------------------


@dataclass(frozen=True)
class Broken:
    """A puzzle's lines after breaking it, the index of the line its error names, and the label
    its error leads with."""

    lines: list[str]
    at: int
    label: str


@dataclass(frozen=True)
class Format:
    """How a file of many puzzles is written: the name of :func:`parse`'s format, its opening
    and closing lines, each puzzle's key and lines, and the ways of breaking one (each given
    the puzzle's key, its lines, its grid and the key of a puzzle before it)."""

    name: str
    square: bool
    head: list[str]
    tail: list[str]
    key: Callable[[int], str]
    label: Callable[[str], str]
    block: Callable[[str, Grid], list[str]]
    breaks: dict[str, Callable[[str, list[str], Grid, str | None], Broken | None]]


def _spaced(clue: Clue) -> str:
    return " ".join(map(str, clue)) or "0"


def _tournament_block(key: str, grid: Grid) -> list[str]:
    return [f"${key}"] + [_spaced(c) for c in columns_of(grid) + rows_of(grid)]


def _replaced(lines: list[str], at: int, text: str, label: str) -> Broken:
    return Broken([*lines[:at], text, *lines[at + 1 :]], at, label)


TOURNAMENT = Format(
    name="tournament",
    square=True,
    head=[],
    tail=[],
    key=str,
    label=lambda key: f"puzzle ${key}",
    block=_tournament_block,
    breaks={
        "a run that is no number": lambda key, lines, grid, earlier: _replaced(
            lines, len(lines) - 1, "1 x", f"puzzle ${key}"
        ),
        "a run longer than its line": lambda key, lines, grid, earlier: _replaced(
            lines, 1, str(len(grid) + 1), f"puzzle ${key}"
        ),
        "a clue line lost": lambda key, lines, grid, earlier: Broken(
            lines[:-1], 0, f"puzzle ${key}"
        ),
        "a header with no number": lambda key, lines, grid, earlier: _replaced(
            lines, 0, "$x", "puzzle $x"
        ),
        "a number given twice": lambda key, lines, grid, earlier: (
            None if earlier is None else _replaced(lines, 0, f"${earlier}", f"puzzle ${earlier}")
        ),
    },
)


def _bracketed(clue: Clue) -> str:
    return f"[ {' '.join(map(str, clue))} ]"


def _picross_block(key: str, grid: Grid) -> list[str]:
    rows = [_bracketed(c) for c in rows_of(grid)]
    return [f"GRID {key}", "ROWS", *rows, "# a comment", "COLUMNS"] + [
        _bracketed(c) for c in columns_of(grid)
    ]


def _no_rows(key: str, lines: list[str], grid: Grid) -> Broken:
    """The grid of height 0: its ``ROWS`` section holds no clue."""
    return Broken(lines[:2] + lines[2 + len(grid) :], 1, f"grid '{key}'")


PICROSS = Format(
    name="picross",
    square=False,
    head=["# grids of a test"],
    tail=[],
    key=lambda k: f"g{k}",
    label=lambda key: f"grid '{key}'",
    block=_picross_block,
    breaks={
        "a run that is no number": lambda key, lines, grid, earlier: _replaced(
            lines, 2, "[ 1 x ]", f"grid '{key}'"
        ),
        "a run longer than its line": lambda key, lines, grid, earlier: _replaced(
            lines, len(lines) - 1, _bracketed((len(grid) + 1,)), f"grid '{key}'"
        ),
        "a clue without its bracket": lambda key, lines, grid, earlier: _replaced(
            lines, 2, "[ 1", f"grid '{key}'"
        ),
        "no rows": lambda key, lines, grid, earlier: _no_rows(key, lines, grid),
        "a name given twice": lambda key, lines, grid, earlier: (
            None if earlier is None else _replaced(lines, 0, f"GRID {earlier}", f"grid '{earlier}'")
        ),
    },
)


def _xml_line(clue: Clue) -> str:
    return "<line>" + "".join(f"<count>{n}</count>" for n in clue) + "</line>"


def _xml_block(key: str, grid: Grid) -> list[str]:
    columns = [_xml_line(c) for c in columns_of(grid)]
    rows = [_xml_line(c) for c in rows_of(grid)]
    return [
        '<puzzle type="grid" defaultcolor="black">',
        f"<id>{key}</id>",
        '<clues type="columns">',
        *columns,
        "</clues>",
        '<clues type="rows">',
        *rows,
        "</clues>",
        "</puzzle>",
    ]


def _no_row_clues(key: str, lines: list[str], grid: Grid) -> Broken:
    """The puzzle without its ``<clues type="rows">``."""
    start = lines.index('<clues type="rows">')
    return Broken(lines[:start] + lines[start + len(grid) + 2 :], 0, f"puzzle {key}")


XML = Format(
    name="xml",
    square=False,
    head=['<?xml version="1.0"?>', "<puzzleset>"],
    tail=["</puzzleset>"],
    key=str,
    label=lambda key: f"puzzle {key}",
    block=_xml_block,
    breaks={
        "a count that is no number": lambda key, lines, grid, earlier: _replaced(
            lines, 3, "<line><count>x</count></line>", f"puzzle {key}"
        ),
        "a run longer than its line": lambda key, lines, grid, earlier: _replaced(
            lines, 3, _xml_line((len(grid) + 1,)), f"puzzle {key}"
        ),
        "no row clues": lambda key, lines, grid, earlier: _no_row_clues(key, lines, grid),
    },
)

FORMATS = {f.name: f for f in (TOURNAMENT, PICROSS, XML)}


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("name", "how"), [(fmt.name, how) for fmt in FORMATS.values() for how in sorted(fmt.breaks)]
)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_a_broken_puzzle_spoils_only_itself(name: str, how: str, data: st.DataObject) -> None:
    fmt = FORMATS[name]
    puzzles = data.draw(st.lists(grids(fmt.square), min_size=2, max_size=5))
    keys = [fmt.key(k) for k in range(1, len(puzzles) + 1)]
    blocks = [fmt.block(key, grid) for key, grid in zip(keys, puzzles, strict=True)]
    bad = data.draw(st.integers(0, len(puzzles) - 1))
    broken = fmt.breaks[how](keys[bad], blocks[bad], puzzles[bad], keys[0] if bad else None)
    assume(broken is not None)  # only a later puzzle can repeat a key
    assert broken is not None
    lines = list(fmt.head)
    starts = []
    for k, block in enumerate(blocks):
        starts.append(len(lines) + 1)
        lines += broken.lines if k == bad else block
    entries = parse(_text(lines + fmt.tail), "f.txt", fmt=fmt.name)

    assert len(entries) == len(puzzles)
    wrong = entries[bad]
    assert isinstance(wrong, BrokenEntry), how
    error = wrong.error
    assert (error.source, error.line) == ("f.txt", starts[bad] + broken.at), str(error)
    assert error.message.startswith(f"{broken.label}: ") and "\n" not in str(error)
    assert wrong.line == starts[bad]
    with pytest.raises(InputError) as raised:
        wrong.puzzle  # noqa: B018 - a broken entry's puzzle raises its error
    assert str(raised.value) == str(error)
    for k, (entry, grid) in enumerate(zip(entries, puzzles, strict=True)):
        if k == bad:
            continue
        assert isinstance(entry, Entry)
        assert entry.line == starts[k]
        assert (entry.puzzle.rows, entry.puzzle.columns) == (
            tuple(rows_of(grid)),
            tuple(columns_of(grid)),
        )
        assert select(entries, keys[k], "f.txt") is entry
        [alone] = parse(_text(fmt.head + blocks[k] + fmt.tail), "f.txt", fmt=fmt.name)
        assert entry.puzzle == alone.puzzle
        for read in (entry, alone):  # a grid's clues: solved, an answer that fits them
            result = cspsolve.solve(read.puzzle)
            assert result.status.value == "solved"
            assert check(entry.puzzle, result.solution) == []


def test_a_lone_puzzle_that_is_broken_fails_its_file() -> None:
    with pytest.raises(InputError) as raised:
        parse("$1\n1\nx\n", "f.txt")
    assert raised.value.line == 3 and "'x' is not a whole number" in raised.value.message


@pytest.mark.parametrize(
    ("fmt", "text", "line", "message"),
    [
        ("tournament", "1\n$1\n1\n1\n$2\n1\n1\n", 1, "expected a '$N' line before the clues"),
        ("xml", '<?xml version="1.0"?>\n<puzzleset>\n<puzzle>\n</puzzleset>\n', 4, "not well"),
    ],
)
def test_a_broken_frame_fails_the_whole_file(fmt: str, text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as raised:
        parse(text, "f.txt", fmt=fmt)
    assert raised.value.line == line and raised.value.message.startswith(message)


def test_a_picross_grid_of_height_0_leaves_two_contradictory_grids_unsolvable() -> None:
    """The issue's case: picross-solver reads each grid on its own and gives each its verdict."""
    text = (
        "GRID empty\nROWS\nCOLUMNS\n[ 1 ]\n"
        "GRID one\nROWS\n[ 1 ]\nCOLUMNS\n[ ]\n"
        "GRID two\nROWS\n[ 2 ]\nCOLUMNS\n[ 1 ]\n[ ]\n"
    )
    empty, one, two = parse(text, "f.txt")
    assert isinstance(empty, BrokenEntry)
    assert str(empty.error) == "f.txt:2: grid 'empty': the 'ROWS' section has no clues"
    for entry in (one, two):
        assert cspsolve.solve(entry.puzzle).status.value == "unsolvable"
