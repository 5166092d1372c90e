"""Read and write sliding-tile puzzle files (grammar in ``docs/design.md`` §13.4).

Three formats:

``json``
    ``{"n": 3, "start": [[1, 2, 3], [4, 0, 5], [7, 8, 6]], "goal": [[...]]}`` — ``goal`` is
    optional (default ``1 .. N-1`` then the blank); an m x n board gives ``"rows"`` and
    ``"cols"`` instead of ``"n"`` (or neither: the shape of ``start`` decides). Boards may also
    be flat lists in row-major order. ``0`` is the blank.
``grid``
    Text: one board row per line, tiles separated by spaces (``0``, ``.`` or ``_`` the blank),
    ``#`` comment lines; optionally a blank line and the goal board in the same layout.
``korf``
    One puzzle per line: the tiles of a square board in row-major order, optionally preceded by
    an id (``1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3`` is Korf's instance 1); a line without
    one is known by its line number, and no two puzzles of a file may share an id. The goal is
    Korf's: the blank first, ``0 1 2 ... N-1`` (Korf, "Depth-first iterative-deepening",
    Artificial Intelligence 27 (1985) 97-109). Each line is read on its own: one that cannot
    be read (or repeats an id) is a :class:`~cspsolve.inputs.BrokenEntry` whose error names
    its line and id (``puzzle ID``), and the others read on.

Every problem raises :class:`~cspsolve.errors.InputError` with the 1-based line.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, TypeVar

from cspsolve.errors import InputError, OptionError, PuzzleError
from cspsolve.inputs import BrokenEntry, claim, entry_or_broken, file_entries, parse_json
from cspsolve.render import plural

from .board import Puzzle, Tiles, default_goal, korf_goal

__all__ = ["FORMATS", "Entry", "dumps", "parse", "read", "select", "sniff", "write"]

FORMATS = ("json", "grid", "korf")
"""The format names accepted by :func:`parse` and :func:`read`."""

_MAX_CELLS = 1024
"""Largest board accepted (32 x 32)."""

T = TypeVar("T")

_BLANKS = {"0", ".", "_"}
_TOKEN = re.compile(r"[0-9]{1,6}|[._]")
"""A tile number (no board holds a million tiles) or a blank."""


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file: its ``id`` (``None`` in single-puzzle files), the
    :class:`~.board.Puzzle`, and the 1-based ``line`` where it starts."""

    id: int | str | None
    puzzle: Puzzle
    line: int


def _build(rows: int, cols: int, start: Tiles, goal: Tiles, source: str, line: int) -> Puzzle:
    if rows * cols > _MAX_CELLS:
        raise InputError(
            source, line, f"a {rows}x{cols} board is too large (at most {_MAX_CELLS} cells)"
        )
    try:
        return Puzzle(rows, cols, start, goal)
    except PuzzleError as e:
        raise InputError(source, line, str(e)) from None


# --- JSON -------------------------------------------------------------------------------------


def _key_line(lines: list[str], key: str) -> int:
    """The line where ``"key"`` first appears (1 when it does not)."""
    pattern = f'"{key}"'
    return next((i for i, text in enumerate(lines, 1) if pattern in text), 1)


def _json_int(value: Any, what: str, source: str, line: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(source, line, f"{what} must be a whole number, got {json.dumps(value)}")
    return value


def _json_board(value: Any, key: str, source: str, line: int) -> tuple[list[int], int | None]:
    """A board given as a list of rows or a flat list: its tiles and its row count (or None)."""
    if not isinstance(value, list) or not value:
        raise InputError(source, line, f"{key!r} must be a non-empty list of rows")
    if all(isinstance(row, list) for row in value):
        widths = {len(row) for row in value}
        if len(widths) != 1:
            raise InputError(source, line, f"{key!r}: rows of different lengths {sorted(widths)}")
        tiles = [_json_int(t, f"{key!r} tile", source, line) for row in value for t in row]
        return tiles, len(value)
    return [_json_int(t, f"{key!r} tile", source, line) for t in value], None


def _json_size(
    data: dict[str, Any], lines: list[str], source: str
) -> tuple[int | None, int | None]:
    if "n" in data:
        both = next((key for key in ("rows", "cols") if key in data), None)
        if both is not None:
            raise InputError(
                source,
                _key_line(lines, both),
                f"give 'n' (a square board) or 'rows' and 'cols', not both ({both!r} too)",
            )
        n = _json_int(data["n"], "'n'", source, _key_line(lines, "n"))
        if n < 1:
            raise InputError(source, _key_line(lines, "n"), f"'n' must be at least 1, got {n}")
        return n, n
    rows, cols = data.get("rows"), data.get("cols")
    if rows is None and cols is None:
        return None, None
    if rows is None or cols is None:
        raise InputError(
            source,
            _key_line(lines, "rows" if rows is not None else "cols"),
            "give both 'rows' and 'cols' (or 'n' for a square board)",
        )
    return (
        _json_int(rows, "'rows'", source, _key_line(lines, "rows")),
        _json_int(cols, "'cols'", source, _key_line(lines, "cols")),
    )


def _parse_json(text: str, source: str) -> list[Entry]:
    lines = text.split("\n")
    data = parse_json(text, source)
    if not isinstance(data, dict):
        raise InputError(
            source, 1, "expected a JSON object with 'start' (and 'n' or 'rows'/'cols')"
        )
    if "start" not in data:
        raise InputError(source, 1, "missing key 'start'")
    rows, cols = _json_size(data, lines, source)
    start_line = _key_line(lines, "start")
    start, start_rows = _json_board(data["start"], "start", source, start_line)
    if rows is None or cols is None:
        if start_rows is None:
            raise InputError(source, start_line, "a flat 'start' list needs 'n' or 'rows'/'cols'")
        rows, cols = start_rows, len(start) // start_rows
    size_line = _key_line(lines, "n" if "n" in data else "rows")
    if rows * cols > _MAX_CELLS:
        raise InputError(source, size_line, f"a {rows}x{cols} board is too large")
    if len(start) != rows * cols or start_rows not in (None, rows):
        raise InputError(source, start_line, f"'start' does not hold {rows}x{cols} tiles")
    goal: list[int] = list(default_goal(rows * cols))
    goal_line = start_line
    if "goal" in data:
        goal_line = _key_line(lines, "goal")
        goal, goal_rows = _json_board(data["goal"], "goal", source, goal_line)
        if len(goal) != rows * cols or goal_rows not in (None, rows):
            raise InputError(
                source,
                goal_line,
                f"'goal' does not hold {rows}x{cols} tiles (a goal of another size)",
            )
    unknown = set(data) - {"n", "rows", "cols", "start", "goal"}
    if unknown:
        key = sorted(unknown)[0]
        raise InputError(source, _key_line(lines, key), f"unknown key {key!r}")
    _build(rows, cols, tuple(goal), tuple(goal), source, goal_line)
    return [Entry(None, _build(rows, cols, tuple(start), tuple(goal), source, start_line), 1)]


# --- text grid --------------------------------------------------------------------------------


def _content(text: str) -> list[tuple[int, str]]:
    """The lines as ``(number, text)``, comments removed, blank lines kept as ``""``."""
    out = []
    for i, raw in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        line = raw.split("#", 1)[0].strip()
        out.append((i, line))
    return out


def _tokens(line: str, number: int, source: str) -> list[int]:
    tiles = []
    for token in line.replace(",", " ").split():
        if token in _BLANKS:
            tiles.append(0)
        elif _TOKEN.fullmatch(token):
            tiles.append(int(token))
        else:
            shown = token if len(token) <= 20 else token[:20] + "..."
            raise InputError(source, number, f"{shown!r} is not a tile number (0 or . = blank)")
    return tiles


def _blocks(text: str, source: str) -> list[list[tuple[int, list[int]]]]:
    """Runs of non-empty lines, each line's tiles with its number."""
    blocks: list[list[tuple[int, list[int]]]] = [[]]
    for number, line in _content(text):
        if line:
            blocks[-1].append((number, _tokens(line, number, source)))
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _grid_board(
    block: list[tuple[int, list[int]]], source: str, what: str
) -> tuple[int, int, Tiles]:
    cols = len(block[0][1])
    for number, tiles in block:
        if len(tiles) != cols:
            raise InputError(
                source, number, f"{what} row has {len(tiles)} tiles, the first has {cols}"
            )
    return len(block), cols, tuple(t for _, tiles in block for t in tiles)


def _parse_grid(text: str, source: str) -> list[Entry]:
    blocks = _blocks(text, source)
    if not blocks:
        raise InputError(source, None, "empty file (no board)")
    if len(blocks) > 2:
        raise InputError(source, blocks[2][0][0], "expected a start board and at most a goal board")
    rows, cols, start = _grid_board(blocks[0], source, "start")
    goal = default_goal(rows * cols)
    if len(blocks) == 2:
        grows, gcols, goal = _grid_board(blocks[1], source, "goal")
        if (grows, gcols) != (rows, cols):
            raise InputError(
                source, blocks[1][0][0], f"the goal is {grows}x{gcols}, the start {rows}x{cols}"
            )
        _build(rows, cols, goal, goal, source, blocks[1][0][0])
    return [Entry(None, _build(rows, cols, start, goal, source, blocks[0][0][0]), blocks[0][0][0])]


# --- Korf lines -------------------------------------------------------------------------------


def _square_side(count: int) -> int | None:
    side = math.isqrt(count)
    return side if side >= 2 and side * side == count else None


def _korf_split(tokens: Sequence[T]) -> tuple[T | None, Sequence[T]]:
    """A Korf line's id (``None`` when it has none) and its tiles: an id comes first when the
    tokens after it, not all of them, are those of a square board."""
    if _square_side(len(tokens)) is None and _square_side(len(tokens) - 1) is not None:
        return tokens[0], tokens[1:]
    return None, tokens


def _korf_id(number: int, line: str, source: str) -> int:
    """The id of the Korf line ``line`` (its number ``number`` when it gives none, or one that
    is not a tile number)."""
    ident, _ = _korf_split(line.replace(",", " ").split())
    if ident is None or not _TOKEN.fullmatch(ident):
        return number
    return _tokens(ident, number, source)[0]


def _korf_line(
    number: int, ident: int, line: str, first: dict[int | str, int], source: str
) -> Entry:
    """The puzzle of the Korf line ``line`` (line ``number``, id ``ident``); ``first`` maps
    each id read before to its line."""
    claim(ident, number, first, source)
    _, tiles = _korf_split(_tokens(line, number, source))
    side = _square_side(len(tiles))
    if side is None:
        raise InputError(
            source,
            number,
            f"{plural(len(tiles), 'number')}: not the tiles of a square board "
            "(optionally after an id)",
        )
    puzzle = _build(side, side, tuple(tiles), korf_goal(side * side), source, number)
    return Entry(ident, puzzle, number)


def _parse_korf(text: str, source: str) -> list[Entry | BrokenEntry]:
    """Every line's puzzle, each read on its own; an id given twice (or a line's id given to
    another line, for a line without one is known by its number) makes the second line
    broken, since ``FILE#ID`` names the first."""
    lines = [(number, line) for number, line in _content(text) if line]
    if not lines:
        raise InputError(source, None, "empty file (no board)")
    first: dict[int | str, int] = {}
    entries = []
    for number, line in lines:
        ident = _korf_id(number, line, source)
        read = functools.partial(_korf_line, number, ident, line, first, source)
        entries.append(entry_or_broken(ident, number, f"puzzle {ident}", read))
    return file_entries(entries)


# --- dispatch ---------------------------------------------------------------------------------

_PARSERS: dict[str, Callable[[str, str], Sequence[Entry | BrokenEntry]]] = {
    "json": _parse_json,
    "grid": _parse_grid,
    "korf": _parse_korf,
}


def _is_full_board(line: str) -> bool:
    """True when ``line`` holds the tiles of a whole square board (after an optional id)."""
    tokens = [t for t in line.split() if _TOKEN.fullmatch(t)]
    values = [0 if t in _BLANKS else int(t) for t in tokens]
    for body in (values, values[1:]):
        if _square_side(len(body)) and sorted(body) == list(range(len(body))):
            return True
    return False


def sniff(name: str, text: str) -> str | None:
    """Guess the format of a sliding-tile file from its name and content, or None.

    Examples
    --------
    >>> sniff("a.txt", "1 2 3\\n4 0 5\\n7 8 6\\n")
    'grid'
    >>> sniff("korf.txt", "1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\\n")
    'korf'
    """
    suffix = PurePath(name).suffix.lower()
    if text.removeprefix("\ufeff").lstrip().startswith("{"):
        return "json" if any(f'"{key}"' in text for key in ("n", "start", "goal")) else None
    if suffix == ".json":
        return None
    lines = [line for _, line in _content(text) if line]
    if not lines or not all(_TOKEN.fullmatch(t) for t in lines[0].split()):
        return None
    if suffix == ".korf" or _is_full_board(lines[0]):
        return "korf"
    if len(lines) >= 2 and len(lines[0].split()) >= 2:
        return "grid"
    return None


def parse(text: str, source: str, *, fmt: str | None = None) -> list[Entry | BrokenEntry]:
    """Read every puzzle of a file's text.

    Parameters
    ----------
    text : str
        The file content.
    source : str
        The file name (for error messages and sniffing).
    fmt : str, optional
        One of :data:`FORMATS`; guessed with :func:`sniff` by default.

    Returns
    -------
    list of Entry or BrokenEntry
        The puzzles in file order; in a file of several Korf lines, a
        :class:`~cspsolve.inputs.BrokenEntry` for each line that cannot be read.

    Raises
    ------
    InputError
        For an unknown format or anything wrong in the text, naming the line (in a file of
        Korf lines, only when it holds one).
    """
    if not text.strip():
        raise InputError(source, None, "empty file (no board)")
    fmt = fmt or sniff(source, text)
    if fmt is None:
        raise InputError(source, None, "cannot tell the format (JSON, a text grid or Korf lines)")
    if fmt not in _PARSERS:
        raise InputError(source, None, f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    return list(_PARSERS[fmt](text.replace("\r\n", "\n"), source))


def read(path: str | Path, fmt: str | None = None) -> list[Entry | BrokenEntry]:
    """Read every puzzle of a file (UTF-8); see :func:`parse`.

    Raises
    ------
    InputError
        When the file is missing, unreadable, not text, or malformed.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(source, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(source, None, "is a directory, not a puzzle file") from None
    except OSError as e:
        raise InputError(source, None, f"cannot read the file: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(source, None, f"not UTF-8 text (bad byte at offset {e.start})") from None
    return parse(text, source, fmt=fmt)


def select(entries: Sequence[Entry | BrokenEntry], key: str, source: str) -> Entry | BrokenEntry:
    """The puzzle of ``FILE#KEY``: by id (Korf's instance number, or the line number), a
    broken one too.

    Raises
    ------
    InputError
        When no entry has that id.
    """
    for entry in entries:
        if str(entry.id) == key:
            return entry
    ids = ", ".join(str(e.id) for e in entries[:5])
    raise InputError(source, None, f"no puzzle {key!r} in file (it holds {ids}...)")


def _rows(puzzle: Puzzle, tiles: Tiles) -> list[list[int]]:
    return [list(tiles[r * puzzle.cols : (r + 1) * puzzle.cols]) for r in range(puzzle.rows)]


def dumps(puzzle: Puzzle, fmt: str) -> str:
    """The puzzle as the text of a ``json``, ``grid`` or ``korf`` file.

    Raises
    ------
    OptionError
        When the format cannot hold the puzzle (Korf lines need a square board and Korf's goal).
    """
    if fmt == "json":
        size = (
            {"n": puzzle.rows}
            if puzzle.rows == puzzle.cols
            else {"rows": puzzle.rows, "cols": puzzle.cols}
        )
        data = {**size, "start": _rows(puzzle, puzzle.start), "goal": _rows(puzzle, puzzle.goal)}
        return json.dumps(data) + "\n"
    if fmt == "grid":
        width = len(str(puzzle.cells - 1))
        boards = (
            [puzzle.start]
            if puzzle.goal == default_goal(puzzle.cells)
            else [puzzle.start, puzzle.goal]
        )
        return "\n".join(
            "\n".join(" ".join(str(t).rjust(width) for t in row) for row in _rows(puzzle, b)) + "\n"
            for b in boards
        )
    if fmt == "korf":
        if puzzle.rows != puzzle.cols or puzzle.goal != korf_goal(puzzle.cells):
            raise OptionError("Korf lines hold square boards with Korf's goal (blank first) only")
        return " ".join(map(str, puzzle.start)) + "\n"
    raise OptionError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write ``puzzle`` in the format its extension names: ``.json``, ``.txt`` (grid), ``.korf``.

    Raises
    ------
    OptionError
        For another extension, or a format that cannot hold the puzzle.
    """
    suffix = PurePath(path).suffix.lower()
    fmt = {".json": "json", ".txt": "grid", ".korf": "korf"}.get(suffix)
    if fmt is None:
        raise OptionError(
            f"cannot write {suffix or 'extensionless'} files; use .json, .txt or .korf"
        )
    Path(path).write_text(dumps(puzzle, fmt), encoding="utf-8")
