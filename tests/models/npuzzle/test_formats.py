"""Readers and writers: JSON, text grid, Korf lines; bad input names its line."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cspsolve
from cspsolve.errors import InputError, OptionError
from cspsolve.inputs import BrokenEntry
from cspsolve.instances import ROOT
from cspsolve.models.npuzzle.board import Puzzle, default_goal, korf_goal
from cspsolve.models.npuzzle.formats import (
    FORMATS,
    Entry,
    dumps,
    parse,
    read,
    select,
    sniff,
    write,
)

from ...conftest import run
from ...test_cli import assert_bad_input

SHIPPED = sorted(p for p in (ROOT / "npuzzle").iterdir() if p.suffix in (".json", ".txt", ".korf"))


def test_json_square_with_default_goal() -> None:
    text = '{"n": 3, "start": [[1, 2, 3], [4, 0, 5], [7, 8, 6]]}'
    (entry,) = parse(text, "a.json")
    assert entry.puzzle == Puzzle(3, 3, (1, 2, 3, 4, 0, 5, 7, 8, 6), default_goal(9))


def test_json_rectangular_flat_and_goal() -> None:
    text = '{"rows": 2, "cols": 3, "start": [1, 2, 3, 4, 0, 5], "goal": [0, 1, 2, 3, 4, 5]}'
    (entry,) = parse(text, "a.json")
    assert (entry.puzzle.rows, entry.puzzle.cols) == (2, 3)
    assert entry.puzzle.goal == (0, 1, 2, 3, 4, 5)
    (shape_only,) = parse('{"start": [[1, 2, 3], [4, 0, 5]]}', "b.json")
    assert (shape_only.puzzle.rows, shape_only.puzzle.cols) == (2, 3)


def test_grid_with_goal_and_comments() -> None:
    text = "# start\n1 2 3\n4 . 5\n\n# goal\n1 2 3\n4 5 _\n"
    (entry,) = parse(text, "b.txt")
    assert entry.puzzle.start == (1, 2, 3, 4, 0, 5)
    assert entry.puzzle.goal == (1, 2, 3, 4, 5, 0)


def test_korf_lines_with_and_without_ids() -> None:
    text = "1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n3 1 2 0 4 5 6 7 8\n"
    first, second = parse(text, "k.txt")
    assert first.id == 1 and first.puzzle.goal == korf_goal(16)
    assert first.puzzle.start[:3] == (14, 13, 15)
    assert second.id == 2 and second.line == 2 and second.puzzle.cells == 9
    assert select([first, second], "2", "k.txt") is second
    with pytest.raises(InputError, match="no puzzle '7'"):
        select([first, second], "7", "k.txt")


BAD = [
    ('{"n": 3}', "a.json", 1, "missing key 'start'"),
    ('{\n"n": 3,\n"start": [[1, 2, 3], [4, 0, 5]]\n}', "a.json", 3, "does not hold 3x3"),
    (
        '{\n"n": 2,\n"start": [[1, 2], [3, 0]],\n"goal": [[1, 2, 3], [4, 5, 6], [7, 8, 0]]\n}',
        "a.json",
        4,
        "goal of another size",
    ),
    ('{\n"n": 2,\n"start": [[1, 1], [3, 0]]\n}', "a.json", 3, "tile 1 twice"),
    ('{\n"n": 2,\n"start": [[1, 2], [3, 4]]\n}', "a.json", 3, "outside 0..3"),
    ('{\n"n": 2,\n"start": [[1, 2.5], [3, 0]]\n}', "a.json", 3, "whole number"),
    ('{\n"n": "two",\n"start": [[1, 2], [3, 0]]\n}', "a.json", 2, "whole number"),
    ('{"n": 2,\n "start": [[1, 2], [3, 0]\n}', "a.json", 3, "not valid JSON"),
    ('{\n"n": 2,\n"start": [[1, 2], [3, 0]],\n"colour": 1\n}', "a.json", 4, "unknown key"),
    ("1 2 3\n4 0\n7 8 6\n", "g.txt", 2, "has 2 tiles"),
    ("1 2 3\n4 0 x\n7 8 6\n", "g.txt", 2, "not a tile number"),
    ("1 2\n3 0\n\n1 2 3\n4 5 0\n", "g.txt", 4, "the goal is 2x3"),
    ("1 2 3\n4 0 5\n6 6 7\n", "g.txt", 1, "tile 6 twice"),
    ("# c\n0 1 2 3 4 5 6\n", "k.korf", 2, "not the tiles of a square board"),
]


@pytest.mark.parametrize("text, name, line, message", BAD)
def test_bad_input_names_the_line(text: str, name: str, line: int, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse(text, name)
    assert caught.value.line == line


def test_sniff() -> None:
    assert sniff("x.json", '{"start": []}') == "json"
    assert sniff("x.json", '{"width": 3}') is None
    assert sniff("x.txt", "hello\n") is None
    assert sniff("x.korf", "1 0 2 3\n") == "korf"


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.randoms(use_true_random=False))
def test_round_trip(rows: int, cols: int, rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    cells = rows * cols
    start = list(range(cells))
    goal = list(range(cells))
    rng.shuffle(start)
    rng.shuffle(goal)
    puzzle = Puzzle(rows, cols, tuple(start), tuple(goal))
    for fmt in ("json", "grid"):
        assert parse(dumps(puzzle, fmt), f"x.{fmt}", fmt=fmt)[0].puzzle == puzzle
    if rows == cols:
        korf = Puzzle(rows, cols, tuple(start), korf_goal(cells))
        assert parse(dumps(korf, "korf"), "x.korf")[0].puzzle == korf
        with pytest.raises(OptionError, match="Korf's goal"):
            dumps(Puzzle(rows, cols, tuple(start)), "korf")


def test_write_by_extension(tmp_path: Path) -> None:
    puzzle = Puzzle(3, 3, (1, 2, 3, 4, 0, 5, 7, 8, 6))
    for suffix in (".json", ".txt"):
        write(puzzle, tmp_path / f"p{suffix}")
        assert read(tmp_path / f"p{suffix}")[0].puzzle == puzzle
    with pytest.raises(OptionError, match="cannot write"):
        write(puzzle, tmp_path / "p.xml")
    assert set(FORMATS) == {"json", "grid", "korf"}


def test_shipped_examples_read_and_are_attributed() -> None:
    attribution = (ROOT / "npuzzle" / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert len(SHIPPED) >= 4
    for path in SHIPPED:
        assert read(path), path
        assert f"`{path.name}`" in attribution, path.name


SILENT = [
    (
        '{\n"n": 2,\n"rows": 1,\n"cols": 4,\n"start": [[1, 2], [3, 0]]\n}\n',
        "both.json",
        3,
        r"give 'n' \(a square board\) or 'rows' and 'cols', not both \('rows' too\)",
    ),
]
"""Files that readers used to take silently (the first or last of two, one size of two); a
JSON key given twice is refused for every kind by ``cspsolve.inputs.parse_json``
(``tests/test_bad_input.py``)."""


@pytest.mark.parametrize("text, name, line, message", SILENT)
def test_ambiguous_files_are_refused_naming_the_line(
    tmp_path: Path, text: str, name: str, line: int, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        read(path)
    assert caught.value.line == line
    proc = run("solve", path, "--kind", "npuzzle")
    assert_bad_input(proc, rf"cspsolve: {re.escape(str(path))}:{line}: {message}")


# --- Korf lines: a broken line spoils only itself ---------------------------------------------

KORF_BREAKS: dict[str, Callable[[list[str], list[str], str], list[str]]] = {
    "a tile that is no number": lambda ident, tiles, first: [*ident, "x", *tiles[1:]],
    "a tile twice": lambda ident, tiles, first: [*ident, tiles[0], tiles[0], *tiles[2:]],
    "an id given twice": lambda ident, tiles, first: [first, *tiles],
}
"""Ways to break a Korf line, given its id (a list of none or one token), its tiles and the id
of the first line (its line number when lines give none)."""


@pytest.mark.parametrize("ids", [False, True])
@pytest.mark.parametrize("how", sorted(KORF_BREAKS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_a_broken_korf_line_spoils_only_itself(ids: bool, how: str, data: st.DataObject) -> None:
    boards = data.draw(st.lists(st.permutations(range(4)), min_size=2, max_size=5))
    bad = data.draw(st.integers(0, len(boards) - 1))
    assume(bad > 0 or how != "an id given twice")  # only a later line can repeat an id
    keys = [100 + k if ids else k + 2 for k in range(len(boards))]  # after a comment line
    written = [
        ([str(key)] if ids else [], [str(t) for t in board])
        for key, board in zip(keys, boards, strict=True)
    ]
    lines = [" ".join(ident + tiles) for ident, tiles in written]
    lines[bad] = " ".join(KORF_BREAKS[how](*written[bad], str(keys[0])))
    entries = parse("# boards\n" + "\n".join(lines) + "\n", "f.korf", fmt="korf")

    assert len(entries) == len(boards)
    wrong = entries[bad]
    expected = keys[0] if how == "an id given twice" else keys[bad]
    assert isinstance(wrong, BrokenEntry)
    assert (wrong.id, wrong.line, wrong.error.line) == (expected, bad + 2, bad + 2)
    assert wrong.error.message.startswith(f"puzzle {expected}: ")
    for k, (entry, board) in enumerate(zip(entries, boards, strict=True)):
        if k == bad:
            continue
        assert isinstance(entry, Entry) and (entry.id, entry.line) == (keys[k], k + 2)
        assert select(entries, str(keys[k]), "f.korf") is entry
        assert entry.puzzle == Puzzle(2, 2, tuple(board), korf_goal(4))
        [alone] = parse(" ".join(written[k][0] + written[k][1]) + "\n", "f.korf", fmt="korf")
        assert entry.puzzle == alone.puzzle
        here, apart = (cspsolve.solve(e.puzzle, method="bfs") for e in (entry, alone))
        assert (here.status, here.stats.cost) == (apart.status, apart.stats.cost)
