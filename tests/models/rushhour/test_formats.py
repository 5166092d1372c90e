"""Readers, writers and sniffing of the Rush Hour formats; bad input names its line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cspsolve
from cspsolve.errors import InputError, OptionError
from cspsolve.inputs import BrokenEntry
from cspsolve.models.rushhour import Board, Entry, board_string, parse, read, select, sniff, write

from ...conftest import run
from .conftest import cards

CARD = cards()[0]["board"]
GRID = "".join(CARD[r * 6 : r * 6 + 6] + "\n" for r in range(6))
CSV = """car,orientation,col,row,length,N
X,H,1,3,2,6
B,V,3,1,3,
C,H,5,1,2,
"""


def test_every_format_reads_the_same_board() -> None:
    string = parse(CARD + "\n")[0]
    assert string.id is None and board_string(string.puzzle) == CARD
    database = parse(f"09 {CARD} 111\n07 {CARD.replace('o', '.')} 111\n")
    assert [e.id for e in database] == [1, 2]
    assert database[0].optimal_moves == 9 and database[0].cluster_size == 111
    assert board_string(database[1].puzzle) == CARD
    assert board_string(parse("# a comment\n" + GRID)[0].puzzle) == CARD


def test_csv_board() -> None:
    board = parse(CSV, "a.csv")[0].puzzle
    assert board.red == "X" and board.size == 6
    assert board.piece("B").cells() == [(0, 2), (1, 2), (2, 2)]


@pytest.mark.parametrize(
    ("name", "text", "fmt"),
    [
        ("a.txt", CARD, "string"),
        ("a.txt", f"51 {CARD} 4780\n", "database"),
        ("a.txt", GRID, "grid"),
        ("a.rh", "ooo\nAAo\nooo\n", "grid"),
        ("a.csv", CSV, "csv"),
        ("a.txt", "1 2\n3\n", None),
        ("a.txt", "0|1|0\n1|1|1\n0|1|0\n", None),
        ("a.txt", "1 2 3\n4 5 6\n7 8 0\n", None),
    ],
)
def test_sniff(name: str, text: str, fmt: str | None) -> None:
    assert sniff(name, text) == fmt


@pytest.mark.parametrize(
    ("text", "fmt", "line", "message"),
    [
        ("ooo\nAAB\nooo\n", "grid", 2, "piece B has one cell"),
        ("oBo\nAAB\nBoo\n", "grid", 1, "bent or split"),
        ("oBo\nAAo\noBo\n", "grid", 1, "bent or split"),
        ("ooo\nBBo\nooo\n", "grid", 1, "no red car A"),
        ("Aoo\nAoo\nooo\n", "grid", 1, "must be horizontal"),
        ("ooo\nAAq\nooo\n", "grid", 2, "unknown character 'q'"),
        ("ooo\nAAoo\nooo\n", "grid", 2, "needs 3"),
        ("ooo\nAAo\nooo\nooo\n", "grid", 1, "needs 4"),
        ("# c\n" + CARD[:-1] + "\n", "string", 2, "k\\*k cells"),
        ("# c\nhello\n", "database", 2, "MOVES BOARD CLUSTER"),
        ("car,orientation,col,row,length,N\nX,H,1,3,2,6\nB,H,5,3,3,\n", "csv", 3, "leaves"),
        ("car,orientation,col,row,length,N\nX,H,1,3,2,6\nB,V,2,3,2,\n", "csv", 3, "overlaps X"),
        ("car,orientation,col,row,length,N\nX,H,1,3,1,6\n", "csv", 2, "length 1"),
        ("car,orientation,col,row,length,N\nX,V,1,3,2,6\n", "csv", 2, "must be horizontal"),
        ("car,orientation,col,row,length,N\nB,H,1,3,2,6\n", "csv", 2, "no red car X"),
        ("car,orientation,col,row,length,N\nX,D,1,3,2,6\n", "csv", 2, "not H or V"),
        ("car,orientation,col,row,length\nX,H,1,3,2\n", "csv", 2, "size N"),
    ],
)
def test_bad_input_names_the_line(text: str, fmt: str, line: int, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse(text, "bad", fmt=fmt)
    assert info.value.line == line


@pytest.mark.parametrize("suffix", [".rh", ".csv"])
def test_write_then_read(tmp_path: Path, suffix: str) -> None:
    for row in cards():
        board = parse(row["board"])[0].puzzle
        path = tmp_path / f"card{suffix}"
        write(board, path)
        again = read(path)[0].puzzle
        assert _shapes(again) == _shapes(board)
        assert again.piece(again.red).cells() == board.piece(board.red).cells()


def _shapes(board: Board) -> list[tuple[int, int, int, bool]]:
    return sorted((p.row, p.col, p.length, p.horizontal) for p in board.pieces)


def test_write_refuses_what_a_format_cannot_hold(tmp_path: Path) -> None:
    walled = parse("ooox\nAAoo\noooo\noooo\n")[0].puzzle
    with pytest.raises(OptionError, match="no walls"):
        write(walled, tmp_path / "w.csv")
    with pytest.raises(OptionError, match=r"use \.rh or \.csv"):
        write(walled, tmp_path / "w.json")


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"ooo\nA\x84Ao\nooo\n", 2, "not UTF-8 text"),
        (b"\xff\xfeo\x00o\x00", 1, "NUL byte"),
        (b"# comment \x00\nooo\nAAo\nooo\n", 1, "NUL byte"),
        (b"ooo\nAAo\nooo\n\x00", 4, "NUL byte"),
    ],
)
def test_binary_files_are_refused_naming_file_and_line(
    tmp_path: Path, data: bytes, line: int, message: str
) -> None:
    path = tmp_path / "bad.rh"
    path.write_bytes(data)
    with pytest.raises(InputError, match=message) as info:
        read(path)
    assert info.value.source == str(path) and info.value.line == line
    assert "codec" not in str(info.value)


def test_the_command_line_shows_one_line_for_a_binary_board(tmp_path: Path) -> None:
    path = tmp_path / "bad.rh"
    path.write_bytes(b"ooo\xc4\x84\x84\nAAo\nooo\n")
    proc = run("solve", path)
    assert proc.returncode == 2
    assert proc.stderr == f"cspsolve: {path}:1: not UTF-8 text\n"


# --- files of many puzzles: a broken line spoils only itself ----------------------------------

BREAKS: dict[str, Callable[[str], str]] = {
    "an unknown character": lambda board: board[:7] + "?" + board[8:],
    "a cell lost": lambda board: board[:-1],
    "a piece of one cell": lambda board: board[:-1] + "Z",
}
"""Ways to break a board string, each refused by the reader."""

LINES: dict[str, Callable[[dict[str, str], Callable[[str], str]], tuple[str, str]]] = {
    "string": lambda card, spoil: (card["board"], spoil(card["board"])),
    "database": lambda card, spoil: (
        f"{card['optimal_moves']} {card['board']} {card['cluster_size']}",
        f"{card['optimal_moves']} {spoil(card['board'])} {card['cluster_size']}",
    ),
}
"""A card as a line of each format of many puzzles, whole and with its board broken."""


@pytest.mark.parametrize("fmt", sorted(LINES))
@pytest.mark.parametrize("how", sorted(BREAKS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_a_broken_line_spoils_only_itself(fmt: str, how: str, data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(cards()[:4]), min_size=2, max_size=5))
    bad = data.draw(st.integers(0, len(chosen) - 1))
    written = [LINES[fmt](card, BREAKS[how]) for card in chosen]
    lines = [broken if k == bad else whole for k, (whole, broken) in enumerate(written)]
    entries = parse("# cards\n" + "\n".join(lines) + "\n", "f.txt", fmt=fmt)

    assert len(entries) == len(chosen)
    wrong = entries[bad]
    assert isinstance(wrong, BrokenEntry)
    assert (wrong.id, wrong.line) == (bad + 2, bad + 2)
    assert (wrong.error.source, wrong.error.line) == ("f.txt", bad + 2)
    assert wrong.error.message.startswith(f"puzzle {bad + 2}: ")
    assert select(entries, str(bad + 2), "f.txt") is wrong
    for k, (entry, card) in enumerate(zip(entries, chosen, strict=True)):
        if k == bad:
            continue
        assert isinstance(entry, Entry) and entry.id == entry.line == k + 2
        assert select(entries, str(k + 2), "f.txt") is entry
        [alone] = parse(written[k][0] + "\n", "f.txt", fmt=fmt)
        assert entry.puzzle == alone.puzzle and board_string(entry.puzzle) == card["board"]
        result = cspsolve.solve(entry.puzzle)
        assert result.stats.cost == int(card["optimal_moves"])  # the published optimum
