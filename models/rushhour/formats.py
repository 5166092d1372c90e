"""Read and write Rush Hour files.

Four formats are read (grammar in ``docs/design.md`` §13.3):

``string``
    Michael Fogleman's board string, https://www.michaelfogleman.com/rush/: the n x n cells row
    by row on one line (36 characters for 6 x 6), ``o`` or ``.`` empty, ``x`` a wall, ``A`` the
    red car, any other capital letter one vehicle. Several lines make several puzzles.
``database``
    Lines ``MM BOARD CLUSTER`` of Fogleman's database (``MM`` the optimal number of moves,
    ``CLUSTER`` the number of states reachable from the board); one puzzle per line.
``grid``
    The same cells as ``n`` lines of ``n`` characters (any n >= 3); ``#`` starts a comment line.
    Our own files use the extension ``.rh``.
``csv``
    The course format ``car,orientation,col,row,length[,N]`` (1-based ``col``/``row``, ``H``/``V``,
    the board size ``N`` on the first data row, ``X`` the red car), as in the University of
    Amsterdam "Programmeertheorie" Rush Hour case.

In files of many puzzles the ``id`` of a puzzle is its 1-based line number. Every problem
raises :class:`~cspsolve.errors.InputError` naming the 1-based line; no other exception escapes
:func:`parse` or :func:`read`. In a file of several string or database lines each line is read
on its own: one that cannot be read is a :class:`~cspsolve.inputs.BrokenEntry` whose error
names its line (``puzzle N``), and the others read on. Grids (``.rh``, ``.txt``) and CSV
(``.csv``) are written by :func:`write`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath

from cspsolve.errors import InputError, OptionError, PuzzleError
from cspsolve.inputs import BrokenEntry, entry_or_broken, file_entries, read_text
from cspsolve.render import plural

from .board import Board, Piece, RowError, drawn_board

__all__ = ["FORMATS", "Entry", "board_string", "parse", "read", "select", "sniff", "write"]

FORMATS = ("string", "database", "grid", "csv")
"""The format names accepted by :func:`parse` and :func:`read`."""

RED = "A"
"""Letter of the red car in strings and grids."""
CSV_RED = "X"
"""Name of the red car in the course CSV format."""
MAX_SIZE = 30
"""Largest board side accepted."""

_CELLS = re.compile(r"[.oxA-Z]+")
_DATABASE = re.compile(r"([0-9]{1,9})\s+([.oxA-Z]+)\s+([0-9]{1,12})")
_CSV_HEADER = ("car", "orientation", "col", "row", "length")


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file.

    Parameters
    ----------
    id : int or None
        The 1-based line number in files of many puzzles, ``None`` in single-puzzle files.
    puzzle : Board
        The position.
    line : int
        1-based line where the puzzle starts.
    optimal_moves, cluster_size : int or None
        The values a database line states (``None`` in other formats).
    """

    id: int | None
    puzzle: Board
    line: int
    optimal_moves: int | None = None
    cluster_size: int | None = None


def _lines(text: str) -> list[tuple[int, str]]:
    """Non-blank lines that are not ``#`` comments, stripped, with their 1-based numbers."""
    out = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append((number, line))
    return out


def _board(rows: list[str], lines: list[int], source: str, red: str = RED) -> Board:
    """A board from its cell rows (already checked square); ``lines[r]`` is row r's line."""
    try:
        return drawn_board(rows, red)
    except RowError as e:
        raise InputError(source, lines[e.row], str(e)) from None


def _validated(
    size: int, pieces: list[Piece], walls: set[tuple[int, int]], red: str, source: str, line: int
) -> Board:
    try:
        return Board(size, tuple(pieces), frozenset(walls), red)
    except PuzzleError as e:
        raise InputError(source, line, str(e)) from None


def _board_of_string(cells: str, source: str, line: int) -> Board:
    """A board from its one-line string of ``k*k`` cells."""
    if not _CELLS.fullmatch(cells):
        bad = next(ch for ch in cells if not _CELLS.fullmatch(ch))
        raise InputError(source, line, f"unknown character {bad!r} (use o . x A-Z)")
    size = math.isqrt(len(cells))
    if size * size != len(cells) or size < 3:
        raise InputError(
            source, line, f"a board string needs k*k cells (36 for 6x6), not {len(cells)}"
        )
    if size > MAX_SIZE:
        raise InputError(source, line, f"boards larger than {MAX_SIZE}x{MAX_SIZE} are refused")
    rows = [cells[r * size : (r + 1) * size] for r in range(size)]
    return _board(rows, [line] * size, source)


def _each_line(
    text: str,
    read: Callable[[int | None, int, str, str], Entry],
    source: str,
    *,
    numbered: bool,
) -> list[Entry | BrokenEntry]:
    """The puzzle of every line, each read on its own by ``read(id, number, line, source)``;
    the id is the line number when the file holds several lines or is ``numbered``."""
    found = _lines(text)
    many = numbered or len(found) > 1
    return file_entries(
        [
            entry_or_broken(
                number if many else None,
                number,
                f"puzzle {number}",
                functools.partial(read, number if many else None, number, line, source),
            )
            for number, line in found
        ]
    )


def _string_entry(ident: int | None, number: int, line: str, source: str) -> Entry:
    """The puzzle of a board string on line ``number``."""
    return Entry(ident, _board_of_string(line, source, number), number)


def _database_entry(ident: int | None, number: int, line: str, source: str) -> Entry:
    """The puzzle of a database line ``MOVES BOARD CLUSTER`` on line ``number``."""
    m = _DATABASE.fullmatch(line)
    if m is None:
        raise InputError(source, number, "expected a database line 'MOVES BOARD CLUSTER'")
    board = _board_of_string(m.group(2), source, number)
    return Entry(ident, board, number, int(m.group(1)), int(m.group(3)))


def _parse_strings(text: str, source: str) -> list[Entry | BrokenEntry]:
    return _each_line(text, _string_entry, source, numbered=False)


def _parse_database(text: str, source: str) -> list[Entry | BrokenEntry]:
    return _each_line(text, _database_entry, source, numbered=True)


def _parse_grid(text: str, source: str) -> list[Entry]:
    found = _lines(text)
    if not found:
        raise InputError(source, 1, "no board in the file")
    size = len(found)
    if size < 3 or size > MAX_SIZE:
        raise InputError(source, found[0][0], f"a grid needs 3 to {MAX_SIZE} rows, not {size}")
    for number, line in found:
        if len(line) != size:
            raise InputError(
                source,
                number,
                f"row has {plural(len(line), 'cell')}; a {size}-row grid needs {size}",
            )
    board = _board([line for _, line in found], [n for n, _ in found], source)
    return [Entry(None, board, found[0][0])]


def _csv_int(token: str, what: str, source: str, line: int) -> int:
    token = token.strip()
    if not (token.isascii() and token.isdigit() and len(token) <= 9):
        shown = token if len(token) <= 20 else token[:20] + "..."
        raise InputError(source, line, f"{what} {shown!r} is not a whole number below 10**9")
    return int(token)


def _place(
    piece: Piece, size: int, occupied: dict[tuple[int, int], str], source: str, line: int
) -> None:
    """Mark ``piece``'s cells in ``occupied``; InputError when it leaves the board or overlaps."""
    if piece.name in occupied.values():
        raise InputError(source, line, f"piece {piece.name} appears twice")
    for r, c in piece.cells():
        if not (0 <= r < size and 0 <= c < size):
            raise InputError(source, line, f"piece {piece.name} leaves the {size}x{size} board")
        if (r, c) in occupied:
            raise InputError(source, line, f"piece {piece.name} overlaps {occupied[r, c]}")
        occupied[r, c] = piece.name


def _parse_csv(text: str, source: str) -> list[Entry]:
    found = _lines(text)
    if not found:
        raise InputError(source, 1, "no header line 'car,orientation,col,row,length'")
    header_line, header = found[0]
    fields = [f.strip().lower() for f in header.split(",")]
    if tuple(fields[:5]) != _CSV_HEADER:
        raise InputError(
            source, header_line, "expected the header 'car,orientation,col,row,length'"
        )
    size = None
    pieces = []
    occupied: dict[tuple[int, int], str] = {}
    for number, line in found[1:]:
        values = [v.strip() for v in line.split(",")]
        if len(values) < 5:
            raise InputError(source, number, f"expected 5 fields, found {len(values)}")
        name, orientation = values[0], values[1].upper()
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise InputError(source, number, f"piece name {name!r} must be letters or digits")
        if orientation not in ("H", "V"):
            raise InputError(source, number, f"orientation {values[1]!r} is not H or V")
        col, row, length = (
            _csv_int(v, what, source, number)
            for v, what in zip(values[2:5], _CSV_HEADER[2:], strict=True)
        )
        if size is None:
            if len(values) < 6 or not values[5]:
                raise InputError(source, number, "the first piece's row must give the size N")
            size = _csv_int(values[5], "board size N", source, number)
            if not 3 <= size <= MAX_SIZE:
                raise InputError(source, number, f"board size must be 3 to {MAX_SIZE}, not {size}")
        if length < 2 or length > size:
            raise InputError(source, number, f"piece {name} has length {length} (2 to {size})")
        piece = Piece(name, row - 1, col - 1, length, orientation == "H")
        _place(piece, size, occupied, source, number)
        pieces.append(piece)
    if size is None:
        raise InputError(source, header_line, "no pieces")
    if CSV_RED not in {p.name for p in pieces}:
        raise InputError(source, found[-1][0], f"no red car {CSV_RED}")
    red_line = next(n for (n, _), p in zip(found[1:], pieces, strict=True) if p.name == CSV_RED)
    board = _validated(size, pieces, set(), CSV_RED, source, red_line)
    return [Entry(None, board, header_line)]


_PARSERS: dict[str, Callable[[str, str], Sequence[Entry | BrokenEntry]]] = {
    "string": _parse_strings,
    "database": _parse_database,
    "grid": _parse_grid,
    "csv": _parse_csv,
}


def sniff(name: str, text: str) -> str | None:
    """Guess the format of a file from its name and content.

    Returns
    -------
    str or None
        One of :data:`FORMATS`, or None when the content is not a Rush Hour file.

    Examples
    --------
    >>> sniff("a.txt", "ooBoCCooBoooAABoooDDDooEoooooEoooooE\\n")
    'string'
    >>> sniff("db.txt", "09 ooBoCCooBoooAABoooDDDooEoooooEoooooE 111\\n")
    'database'
    >>> sniff("b.rh", "ooB\\nAAB\\nooo\\n")
    'grid'
    """
    found = _lines(text[: 1 << 16])
    if not found:
        return None
    first = found[0][1]
    if tuple(f.strip().lower() for f in first.split(",")[:5]) == _CSV_HEADER:
        return "csv"
    if _DATABASE.fullmatch(first) and RED in first.split()[1]:
        return "database"
    if _CELLS.fullmatch(first) and RED * 2 in first:
        n = len(first)
        if n >= 9 and math.isqrt(n) ** 2 == n:
            return "string"
    if PurePath(name).suffix.lower() == ".rh" or _looks_like_grid(found):
        return "grid"
    return None


def _looks_like_grid(found: list[tuple[int, str]]) -> bool:
    """n lines of n cell characters with the red car ``AA`` in one of them."""
    rows = [line for _, line in found]
    n = len(rows)
    return (
        n >= 3
        and all(len(r) == n and _CELLS.fullmatch(r) for r in rows)
        and any(RED * 2 in r for r in rows)
    )


def parse(
    text: str, source: str = "<string>", *, fmt: str | None = None
) -> list[Entry | BrokenEntry]:
    """Read every puzzle of ``text`` in format ``fmt`` (sniffed when omitted).

    Returns
    -------
    list of Entry or BrokenEntry
        The puzzles in file order; in a file of many, a
        :class:`~cspsolve.inputs.BrokenEntry` for each line that cannot be read.

    Raises
    ------
    InputError
        When the text is in no known format or is malformed (with the 1-based line); a file of
        many puzzles only when it holds one.
    """
    if fmt is None:
        fmt = sniff(source, text)
        if fmt is None:
            raise InputError(source, 1, "not a Rush Hour board (string, database, grid or CSV)")
    if fmt not in _PARSERS:
        raise OptionError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    return list(_PARSERS[fmt](text, source))


def read(path: str | Path, fmt: str | None = None) -> list[Entry | BrokenEntry]:
    """Read every puzzle of a file (see :func:`parse`).

    Raises
    ------
    InputError
        When the file cannot be read (:func:`cspsolve.inputs.read_text`: missing, not a regular
        file, too large, NUL bytes, not UTF-8 text, each naming the line) or is malformed.
    """
    path = Path(path)
    text = read_text(path)
    fmt = fmt or sniff(path.name, text)
    if fmt is None:
        raise InputError(str(path), 1, "not a Rush Hour board (string, database, grid or CSV)")
    return parse(text, str(path), fmt=fmt)


def select(entries: Sequence[Entry | BrokenEntry], key: str, source: str) -> Entry | BrokenEntry:
    """The puzzle with id ``key`` (its line number), a broken one too; raises InputError."""
    for entry in entries:
        if str(entry.id) == key.strip():
            return entry
    raise InputError(source, None, f"no puzzle with id {key!r} (ids are line numbers)")


def board_string(board: Board) -> str:
    """The one-line string of a board (``o`` empty).

    Raises
    ------
    OptionError
        When a piece name is longer than one letter.

    Examples
    --------
    >>> board_string(parse("ooB\\nAAB\\nooo\\n", fmt="grid")[0].puzzle)
    'ooBAABooo'
    """
    rows = board.grid()
    if any(len(name) > 1 for row in rows for name in row):
        raise OptionError("piece names longer than one letter cannot be written as a grid")
    return "".join(name or "o" for row in rows for name in row)


def _grid_text(board: Board) -> str:
    renamed = board
    if board.red != RED:
        if RED in {p.name for p in board.pieces}:
            raise OptionError(f"the red car must be called {RED} in a grid, and {RED} is taken")
        pieces = tuple(
            Piece(RED if p.name == board.red else p.name, p.row, p.col, p.length, p.horizontal)
            for p in board.pieces
        )
        renamed = Board(board.size, pieces, board.walls, RED)
    cells = board_string(renamed)
    n = board.size
    return "".join(cells[r * n : (r + 1) * n] + "\n" for r in range(n))


def _csv_text(board: Board) -> str:
    if board.walls:
        raise OptionError("the CSV format has no walls")
    names = {p.name for p in board.pieces}
    if board.red != CSV_RED and CSV_RED in names:
        raise OptionError(f"the red car must be called {CSV_RED} in CSV, and {CSV_RED} is taken")
    lines = [",".join(_CSV_HEADER) + ",N"]
    for i, p in enumerate(board.pieces):
        name = CSV_RED if p.name == board.red else p.name
        size = str(board.size) if i == 0 else ""
        axis = "H" if p.horizontal else "V"
        lines.append(f"{name},{axis},{p.col + 1},{p.row + 1},{p.length},{size}")
    return "\n".join(lines) + "\n"


def write(board: Board, path: str | Path) -> None:
    """Write a board as a grid (``.rh``, ``.txt``) or as course CSV (``.csv``).

    Raises
    ------
    OptionError
        For another extension, or a board the format cannot hold (walls in CSV, names longer
        than one letter in a grid).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".rh", ".txt"):
        text = _grid_text(board)
    elif suffix == ".csv":
        text = _csv_text(board)
    else:
        raise OptionError(f"cannot write Rush Hour as {suffix or 'no extension'}; use .rh or .csv")
    path.write_text(text, encoding="utf-8")
