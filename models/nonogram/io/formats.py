"""Read and write nonogram puzzle files.

Six formats are read (grammar in ``docs/design.md`` §13.1):

``non``
    Steve Simpson's ``.non`` (as extended by mikix/nonogram-db): ``key value`` lines, ``width``
    and ``height`` before ``rows`` and ``columns``, comma-separated clues, optional ``goal``.
    Colour puzzles declare their colours first, one line ``color KEY NAME #RRGGBB`` each
    (``colour`` too; KEY one ASCII letter, ``.`` for the background, white when not declared),
    and write each block with its colour's key, ``2r,1b`` (a number without a key is a block
    of the first colour); their ``goal`` is written in keys, ``.`` for the background.
    ``catalogue``, ``by``, ``copyright`` and ``license`` lines are kept as the puzzle's
    :class:`~..board.Metadata`; other ``key value`` lines are ignored, but a line that is
    neither a ``key value`` line nor a clue of a section is an error.
``nin``
    Jakub Wilk's ``.nin``: a line ``W H``, then H row clues, then W column clues,
    space-separated; after them only copies of the puzzle (see :func:`_nin_junk`).
``tournament``
    TAAI/TCGA/ICGA files: many puzzles, each a line ``$N`` then S column clues and S row clues
    (an S x S puzzle; S = 25 in the tournaments), numbers separated by tabs or spaces.
``picross``
    pierre-dejoue/picross-solver native ``.txt``: ``GRID <name>``, ``ROWS``, ``COLUMNS``, clues
    written ``[ 3 1 ]``, ``#`` comment lines; several grids per file, of distinct names.
``xml``
    webpbn XML (``.xml``; :func:`.web.parse_xml`, no DTD entity is ever expanded).
``tatham``
    A Tatham ``pattern`` game ID such as ``5x5:2/1.1/...`` alone in a file
    (:func:`.web.parse_tatham`).

An empty clue is a blank line or a lone ``0`` (``[ ]`` or ``[ 0 ]`` in picross files). A puzzle
of more than :data:`.clues.MAX_SIDE` rows or columns or :data:`.clues.MAX_CELLS` cells is
refused. Every problem in a file raises :class:`~cspsolve.errors.InputError` naming the
1-based line; no other exception escapes :func:`parse` or :func:`read`. In a file of several
puzzles (tournament, picross, XML) each is read on its own: one that cannot be read is a
:class:`~cspsolve.inputs.BrokenEntry` whose error names the line and the puzzle (``puzzle $N``,
``grid 'NAME'`` or ``grid K``, ``puzzle ID``), and the others read on; the whole file fails
only where its puzzles cannot be told apart (clues before the first ``$N``, picross lines
before the first ``GRID`` that are not a grid, XML that is not well-formed) or when it holds
a single puzzle. A number or name given twice makes the second puzzle broken. ``.non``, ``.nin``,
Tatham game IDs and webpbn XML are written (:func:`write_non`, :func:`write_nin`,
:func:`.web.write_tatham`, :func:`.web.write_xml`; :func:`write` picks by file extension,
``.tatham`` for game IDs); colour puzzles as ``.non`` and XML. ``.non`` keeps a puzzle's
metadata, XML all of it but the licence (webpbn XML has no place for one).
"""

from __future__ import annotations

import bisect
import functools
import html
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from cspsolve.errors import InputError, OptionError
from cspsolve.inputs import BrokenEntry, claim, entry_or_broken, file_entries

from ..board import Clue, Grid, Metadata, Nonogram
from ..colour_board import BACKGROUND, Colour, ColourNonogram
from . import palette
from .clues import MAX_SIDE, Placed, build, build_colour, check_size
from .web import parse_tatham, parse_xml, write_tatham, write_xml

__all__ = [
    "FORMATS",
    "Entry",
    "parse",
    "read",
    "select",
    "sniff",
    "write",
    "write_nin",
    "write_non",
]

FORMATS = ("non", "nin", "tournament", "picross", "xml", "tatham")
"""The format names accepted by :func:`parse` and :func:`read`."""

SNIFF_HEAD = 1 << 16
"""How much of a file the engine sniffs (:func:`cspsolve.inputs.head`): a text of this many
bytes may be the head of a longer file."""

_INTEGER = re.compile(r"-?[0-9]+")
_PUZZLE_NUMBER = re.compile(r"\$([0-9]+)")
_NIN_HEADER = re.compile(r"[0-9]+\s+[0-9]+")
_NON_KEY = re.compile(r"(width|height)\s+\S.*|rows|columns", re.IGNORECASE)
_TATHAM_ID = re.compile(r"[0-9]+(x[0-9]+)?:[0-9./]*")
_NIN_CLUE = re.compile(r"|0|[1-9][0-9]*(\s+[1-9][0-9]*)*")
_NON_KEY_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NON_METADATA = {
    "catalogue": "catalogue",
    "by": "author",
    "copyright": "copyright",
    "license": "license",
}
"""``.non`` keys → :class:`~..board.Metadata` fields."""
_SPDX_ID = re.compile(r"[A-Za-z0-9.+-]+")
_NON_UNIQUE_KEYS = ("width", "height", "rows", "columns", "title", "goal", *_NON_METADATA)
_NON_COLOUR_KEYS = ("color", "colour")


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file.

    Parameters
    ----------
    id : int or str or None
        ``None`` in single-puzzle files, ``N`` for a tournament puzzle ``$N``, the grid name for a
        picross-solver ``GRID <name>``.
    puzzle : Nonogram or ColourNonogram
        The clues (and title and goal when the file gives them).
    line : int
        1-based line where the puzzle starts in its file.
    """

    id: int | str | None
    puzzle: Nonogram | ColourNonogram
    line: int


# --- shared helpers ---------------------------------------------------------------------------


def _split_lines(text: str) -> list[str]:
    """Split ``text`` into lines without their ends (LF or CRLF), dropping a leading BOM."""
    text = text.removeprefix("\ufeff")
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()  # the text ended with a line end: no further line
    return lines


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut after 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _last_line(lines: list[str]) -> int:
    """Line number used for problems found at the end of the file."""
    return max(1, len(lines))


def _whole_number(token: str, what: str, source: str, line: int) -> int:
    """Read ``token`` as an ASCII whole number in ``0..MAX_SIDE``."""
    shown = token if len(token) <= 20 else token[:20] + "..."
    if not _INTEGER.fullmatch(token):
        raise InputError(source, line, f"{what} {shown!r} is not a whole number")
    if token.startswith("-"):
        raise InputError(source, line, f"{what} {shown} is negative")
    if len(token.lstrip("0")) > len(str(MAX_SIDE)) or int(token) > MAX_SIDE:
        raise InputError(source, line, f"{what} {shown} is too large (at most {MAX_SIDE:,})")
    return int(token)


def _size(token: str, what: str, source: str, line: int) -> int:
    """Read a width or height: a whole number from 1 to ``MAX_SIDE``."""
    value = _whole_number(token, what, source, line)
    if value == 0:
        raise InputError(source, line, f"{what} must be at least 1")
    return value


def _clue(body: str, sep: str | None, source: str, line: int) -> Clue:
    """Parse one clue: numbers separated by ``sep`` (whitespace when None); blank or ``0`` = ()."""
    body = body.strip()
    if not body:
        return ()
    tokens = [t.strip() for t in body.split(sep)]
    if tokens == ["0"]:
        return ()
    runs = tuple(_whole_number(t, "run length", source, line) for t in tokens)
    if 0 in runs:
        raise InputError(
            source, line, "run length 0 in a clue (a lone 0 is the empty clue; runs are >= 1)"
        )
    return runs


def _read_clues(
    lines: list[str],
    start: int,
    count: int,
    what: str,
    clue: Callable[[str, int], Any],
    source: str,
    ends_section: Callable[[str], bool] | None = None,
) -> tuple[list[Any], int]:
    """Read ``count`` clue lines from index ``start`` (each by ``clue(text, line)``); return
    them with their lines, and the index after them.

    A line for which ``ends_section`` is true (a header) or the end of the file before ``count``
    clues is an error at that line.
    """
    placed: list[Any] = []
    i = start
    while len(placed) < count:
        if i >= len(lines) or (ends_section is not None and ends_section(lines[i])):
            at = i + 1 if i < len(lines) else _last_line(lines)
            raise InputError(source, at, f"expected {count} {what} clues, found {len(placed)}")
        placed.append((clue(lines[i], i + 1), i + 1))
        i += 1
    return placed, i


# --- .non -------------------------------------------------------------------------------------


def _unquote(value: str) -> str:
    """Strip one pair of surrounding double quotes, if any."""
    if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
        return value[1:-1]
    return value


def _is_non_header(line: str) -> bool:
    """Whether a line of a ``.non`` file is a ``key ...`` line (starts with a letter)."""
    stripped = line.lstrip()
    return bool(stripped) and stripped[0].isalpha()


def _non_goal(value: str, width: int, height: int, source: str, line: int) -> Grid:
    """Turn a ``goal`` string of ``0``/``1`` (row-major) into a grid of ``#``/``.`` rows."""
    if any(ch not in "01" for ch in value):
        raise InputError(source, line, "goal must hold only 0 and 1")
    if len(value) != width * height:
        raise InputError(
            source,
            line,
            f"goal has {len(value)} cells, expected {width}x{height} = {width * height}",
        )
    cells = value.replace("0", ".").replace("1", "#")
    return tuple(cells[r * width : (r + 1) * width] for r in range(height))


@dataclass
class _NonState:
    """What has been read of a ``.non`` file so far."""

    seen: dict[str, int] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    sections: dict[str, list[Any]] = field(default_factory=dict)
    title: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    """:class:`~..board.Metadata` fields read so far."""
    goal: str | None = None
    colours: list[Colour] = field(default_factory=lambda: [palette.WHITE])
    """The background, then the colours declared."""

    def clue_reader(self, source: str) -> Callable[[str, int], Any]:
        """How a clue line of this file is read: keyed blocks once colours are declared."""
        if len(self.colours) > 1:
            return lambda text, line: palette.colour_clue(text, self.colours, source, line)
        return lambda text, line: _clue(text, ",", source, line)


def _non_colour(value: str, state: _NonState, source: str, line: int) -> None:
    """Read a ``color KEY NAME #RRGGBB`` line (``.`` the background's key)."""
    if state.sections:
        raise InputError(source, line, "colours must be declared before 'rows' and 'columns'")
    parts = value.split()
    if len(parts) != 3:
        raise InputError(
            source, line, "expected 'color KEY NAME #RRGGBB' (e.g. color r red #ff0000)"
        )
    key, name, value = parts
    colour = Colour(key, name, palette.rgb(value, source, line))
    if key == BACKGROUND:
        if "background" in state.seen:
            first = state.seen["background"]
            raise InputError(source, line, f"duplicate background colour (first on line {first})")
        state.seen["background"] = line
        state.colours[0] = colour
        return
    if not (len(key) == 1 and key.isascii() and key.isalpha()):
        raise InputError(source, line, f"colour key {key!r} is not one ASCII letter (or '.')")
    palette.declare(state.colours, colour, source, line)


def _non_puzzle(state: _NonState, source: str, start: int) -> Nonogram | ColourNonogram:
    """The puzzle of a ``.non`` file read to its end."""
    width, height = state.sizes["width"], state.sizes["height"]
    rows, columns = state.sections["rows"], state.sections["columns"]
    if len(state.colours) == 1:
        goal = None
        if state.goal is not None:
            goal = _non_goal(state.goal, width, height, source, state.seen["goal"])
        metadata = Metadata(**state.metadata)
        return build(source, start, rows, columns, title=state.title, goal=goal, metadata=metadata)
    if state.goal is not None:
        at, cells = state.seen["goal"], state.goal
        if len(cells) != width * height:
            raise InputError(
                source,
                at,
                f"goal has {len(cells)} cells, expected {width}x{height} = {width * height}",
            )
        chars = {c.key: c.key for c in state.colours} | {"0": BACKGROUND}
        pictured = [cells[r * width : (r + 1) * width] for r in range(height)]
        goal = palette.goal_of(pictured, chars, width, source, at)
    else:
        goal = None
    return build_colour(
        source,
        start,
        rows,
        columns,
        colours=state.colours,
        title=state.title,
        goal=goal,
        metadata=Metadata(**state.metadata),
    )


def _parse_non(lines: list[str], source: str) -> list[Entry]:
    """Read a ``.non`` file: ``key value`` lines, ``rows`` and ``columns`` sections."""
    state = _NonState()
    start: int | None = None
    i = 0
    while i < len(lines):
        lineno, stripped = i + 1, lines[i].strip()
        i += 1
        if not stripped:
            continue
        start = start or lineno
        key, *rest = stripped.split(maxsplit=1)
        key, value = key.lower(), rest[0] if rest else ""
        if key in _NON_UNIQUE_KEYS:
            if key in state.seen:
                raise InputError(
                    source, lineno, f"duplicate '{key}' (first on line {state.seen[key]})"
                )
            state.seen[key] = lineno
        if key in ("width", "height"):
            state.sizes[key] = _size(value, key, source, lineno)
            if len(state.sizes) == 2:
                check_size(state.sizes["width"], state.sizes["height"], source, lineno)
        elif key in ("rows", "columns"):
            if len(state.sizes) < 2:
                raise InputError(source, lineno, f"'width' and 'height' must come before '{key}'")
            count = state.sizes["height" if key == "rows" else "width"]
            state.sections[key], i = _read_clues(
                lines, i, count, key[:-1], state.clue_reader(source), source, _is_non_header
            )
        elif key in _NON_COLOUR_KEYS:
            _non_colour(value, state, source, lineno)
        elif key == "title":
            state.title = html.unescape(_unquote(value))
        elif key in _NON_METADATA:
            state.metadata[_NON_METADATA[key]] = html.unescape(_unquote(value))
        elif key == "goal":
            state.goal = _unquote(value)
        elif stripped[0].isdigit():
            raise InputError(
                source, lineno, "clue line outside a 'rows' or 'columns' section (too many clues?)"
            )
        elif not _NON_KEY_WORD.fullmatch(key):
            raise InputError(
                source,
                lineno,
                f"unexpected line {_shown(stripped)} (expected 'key value', or a clue in a "
                "'rows' or 'columns' section)",
            )
    end = _last_line(lines)
    for key in ("width", "height", "rows", "columns"):
        if key not in state.seen:
            raise InputError(source, end, f"no '{key}' section")
    return [Entry(None, _non_puzzle(state, source, start or 1), start or 1)]


# --- .nin -------------------------------------------------------------------------------------


def _parse_nin(lines: list[str], source: str) -> list[Entry]:
    """Read a ``.nin`` file: ``W H``, then H row clues and W column clues (then only copies of
    them, see :func:`_nin_copies`)."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise InputError(source, None, "empty file (no puzzle)")
    tokens = lines[first].split()
    if len(tokens) != 2:
        raise InputError(source, first + 1, "expected 'W H' (width and height) on the first line")
    width = _size(tokens[0], "width", source, first + 1)
    height = _size(tokens[1], "height", source, first + 1)
    check_size(width, height, source, first + 1)

    def clue(text: str, line: int) -> Clue:
        return _clue(text, None, source, line)

    rows, i = _read_clues(lines, first + 1, height, "row", clue, source)
    columns, end = _read_clues(lines, i, width, "column", clue, source)
    junk = _nin_junk(lines, first, end)
    if junk is not None:
        raise InputError(
            source,
            junk + 1,
            f"more clue lines than width + height ({_shown(lines[junk].strip())}); a .nin file "
            "holds one puzzle, and only copies of it may follow",
        )
    return [Entry(None, build(source, first + 1, rows, columns), first + 1)]


def _nin_junk(lines: list[str], first: int, end: int) -> int | None:
    """The index of the first line after the clues (``lines[end:]``; the header is
    ``lines[first]``) that is not part of a copy of the clues or of the header, white space
    aside; None when there is none.

    Wilk's own reader stops after the clues, and jwilk ``data142.nin`` holds its puzzle five
    times with some line ends lost (``425 20``: the last clue ``4`` run into the header
    ``25 20``); so copies are accepted, and anything else is an error.
    """
    header = "".join(lines[first].split())
    clues = "".join("".join(line.split()) for line in lines[first + 1 : end])
    parts = ["".join(line.split()) for line in lines[end:]]
    starts = list(itertools.accumulate((len(p) for p in parts[:-1]), initial=0))
    rest, at = "".join(parts), 0
    while at < len(rest):
        if clues and rest.startswith(clues, at):
            at += len(clues)
        elif rest.startswith(header, at):
            at += len(header)
        else:
            k = bisect.bisect_right(starts, at) - 1
            while not parts[k]:  # the line holding character ``at`` is not blank
                k -= 1
            return end + k
    return None


# --- tournament -------------------------------------------------------------------------------


@dataclass
class _Block:
    """A tournament puzzle as framed: its ``$`` line, the line's number and its clue lines."""

    header: str
    line: int
    clues: list[tuple[str, int]] = field(default_factory=list)

    @property
    def number(self) -> int | None:
        """``N`` of its ``$N`` line; None when the line is not ``$`` and a number."""
        match = _PUZZLE_NUMBER.fullmatch(self.header)
        return int(match.group(1)) if match is not None and len(match.group(1)) <= 9 else None

    @property
    def label(self) -> str:
        """How an error names the puzzle: ``puzzle $N`` (its ``$`` line, cut when long)."""
        return f"puzzle {self.header if len(self.header) <= 20 else self.header[:20] + '...'}"


def _tournament_puzzle(block: _Block, numbers: dict[int | str, int], source: str) -> Entry:
    """Build puzzle ``$N`` from its clue lines; ``numbers`` maps each number read before to the
    line of its ``$N``."""
    number = block.number
    if number is None:
        raise InputError(
            source,
            block.line,
            f"expected '$N' (N a number of at most 9 digits), got {_shown(block.header)}",
        )
    claim(number, block.line, numbers, source)
    # trailing blank lines separate blocks; write a final empty clue as 0
    last = max((k for k, (text, _) in enumerate(block.clues) if text.strip()), default=-1)
    lines = block.clues[: last + 1]
    if not lines or len(lines) % 2:
        raise InputError(
            source,
            block.line,
            f"{len(lines)} clue lines; expected an even number (S column clues then S row clues)",
        )
    placed = [(_clue(text, None, source, k), k) for text, k in lines]
    size = len(placed) // 2
    puzzle = build(source, block.line, rows=placed[size:], columns=placed[:size])
    return Entry(number, puzzle, block.line)


def _parse_tournament(lines: list[str], source: str) -> list[Entry | BrokenEntry]:
    """Read a tournament file: blocks of ``$N`` then S column clues and S row clues. Each
    ``$`` line starts a puzzle, read on its own."""
    blocks: list[_Block] = []
    for lineno, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if stripped.startswith("$"):
            blocks.append(_Block(stripped, lineno))
        elif blocks:
            blocks[-1].clues.append((raw, lineno))
        elif stripped:
            raise InputError(source, lineno, "expected a '$N' line before the clues")
    if not blocks:
        raise InputError(source, None, "no '$N' puzzle line in the file")
    numbers: dict[int | str, int] = {}
    return file_entries(
        [
            entry_or_broken(
                block.number,
                block.line,
                block.label,
                functools.partial(_tournament_puzzle, block, numbers, source),
            )
            for block in blocks
        ]
    )


# --- picross-solver .txt ----------------------------------------------------------------------


@dataclass
class _Grid:
    """A picross-solver grid as framed: its name (None for a grid without a ``GRID`` line),
    the line it starts on and its lines after the ``GRID`` line (comments left out)."""

    name: str | None
    line: int
    lines: list[tuple[str, int]] = field(default_factory=list)

    def label(self, position: int) -> str:
        """How an error names the grid: by its name, else by its 1-based ``position``."""
        return f"grid {self.name!r}" if self.name else f"grid {position}"


def _picross_grids(lines: list[str], source: str) -> list[_Grid]:
    """Frame a picross-solver file: each ``GRID`` line starts a grid; what comes before the
    first (comments aside) is a grid without a name."""
    grids = [_Grid(None, 0)]
    for lineno, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        word, _, rest = stripped.partition(" ")
        if word == "GRID":
            grids.append(_Grid(rest.strip(), lineno))
        else:
            grids[-1].line = grids[-1].line or lineno
            grids[-1].lines.append((stripped, lineno))
    found = grids if grids[0].lines else grids[1:]
    if not found:
        raise InputError(source, None, "no grid in the file (no 'GRID' or 'ROWS' line)")
    return found


def _picross_puzzle(grid: _Grid, names: dict[int | str, int], end: int, source: str) -> Entry:
    """Build ``grid`` (ending at line ``end``); ``names`` maps each grid name read before to
    its line."""
    if grid.name:
        claim(grid.name, grid.line, names, source)
    sections: dict[str, tuple[int, list[Placed]]] = {}
    section: str | None = None
    for stripped, lineno in grid.lines:
        if stripped in ("ROWS", "COLUMNS"):
            if stripped in sections:
                raise InputError(source, lineno, f"duplicate '{stripped}' section")
            sections[stripped], section = (lineno, []), stripped
        elif stripped.startswith("["):
            if section is None:
                raise InputError(source, lineno, "clue before any 'ROWS' or 'COLUMNS' line")
            if not stripped.endswith("]"):
                raise InputError(source, lineno, "a clue must be written '[ 3 1 ]'")
            sections[section][1].append((_clue(stripped[1:-1], None, source, lineno), lineno))
        else:
            raise InputError(
                source,
                lineno,
                f"unexpected line {_shown(stripped)} (expected GRID, ROWS, COLUMNS or [ ])",
            )
    for name in ("ROWS", "COLUMNS"):
        if name not in sections:
            raise InputError(source, end, f"no '{name}' section")
        if not sections[name][1]:
            raise InputError(source, sections[name][0], f"the '{name}' section has no clues")
    rows, columns = sections["ROWS"][1], sections["COLUMNS"][1]
    puzzle = build(source, grid.line, rows, columns, title=grid.name or "")
    return Entry(grid.name, puzzle, grid.line)


def _parse_picross(lines: list[str], source: str) -> list[Entry | BrokenEntry]:
    """Read a picross-solver ``.txt`` file: ``GRID``, ``ROWS`` and ``COLUMNS`` sections. Each
    ``GRID`` line starts a grid, read on its own; a missing section is reported where the grid
    ends (the next ``GRID`` line, or the end of the file)."""
    grids = _picross_grids(lines, source)
    ends = [grid.line for grid in grids[1:]] + [_last_line(lines)]
    names: dict[int | str, int] = {}
    return file_entries(
        [
            entry_or_broken(
                grid.name,
                grid.line,
                grid.label(position),
                functools.partial(_picross_puzzle, grid, names, end, source),
            )
            for position, (grid, end) in enumerate(zip(grids, ends, strict=True), 1)
        ]
    )


# --- public API -------------------------------------------------------------------------------


def _xml_entry(key: str, at: int, read_puzzle: Callable[[], Nonogram | ColourNonogram]) -> Entry:
    """The entry of the ``<puzzle>`` element ``key`` (its ``<id>``, else its position)."""
    return Entry(key, read_puzzle(), at)


def _parse_xml(lines: list[str], source: str) -> list[Entry | BrokenEntry]:
    """Read webpbn XML (see :mod:`.web`): each ``<puzzle>`` element on its own."""
    found = parse_xml("\n".join(lines), source)
    if len(found) == 1:
        _, at, read_puzzle = found[0]
        return [Entry(None, read_puzzle(), at)]
    keyed = [(ident or str(k), at, read) for k, (ident, at, read) in enumerate(found, 1)]
    return file_entries(
        [
            entry_or_broken(key, at, f"puzzle {key}", functools.partial(_xml_entry, key, at, read))
            for key, at, read in keyed
        ]
    )


def _parse_tatham(lines: list[str], source: str) -> list[Entry]:
    """Read a Tatham game ID, alone on the first non-blank line (see :mod:`.web`)."""
    content = [(k, line) for k, line in enumerate(lines, 1) if line.strip()]
    if len(content) != 1:
        at = content[1][0] if len(content) > 1 else 1
        raise InputError(source, at, "a Tatham game ID file holds one line")
    at, text = content[0]
    try:
        return [Entry(None, parse_tatham(text, source), at)]
    except InputError as err:
        raise InputError(source, at, err.message) from None


_PARSERS: dict[str, Callable[[list[str], str], Sequence[Entry | BrokenEntry]]] = {
    "non": _parse_non,
    "nin": _parse_nin,
    "tournament": _parse_tournament,
    "picross": _parse_picross,
    "xml": _parse_xml,
    "tatham": _parse_tatham,
}


def sniff(name: str, text: str) -> str | None:
    """Guess the format of a file from its name and content.

    Parameters
    ----------
    name : str
        The file name; a ``.non`` or ``.nin`` extension decides.
    text : str
        The file content, used for other extensions.

    Returns
    -------
    str or None
        One of :data:`FORMATS`, or None when the format cannot be told.

    Examples
    --------
    >>> sniff("a.txt", "$1\\n1\\n1\\n")
    'tournament'
    >>> sniff("a.txt", "# a comment\\nGRID Smile\\nROWS\\n[ 1 ]\\n")
    'picross'
    """
    suffix = PurePath(name).suffix.lower()
    if suffix == ".tatham":
        return "tatham"
    if suffix in (".non", ".nin", ".xml"):
        return suffix[1:]
    content = [line.strip() for line in _split_lines(text) if line.strip()]
    if not content:
        return None
    if content[0].startswith("<?xml") or content[0].startswith("<puzzle"):
        return "xml"
    if len(content) == 1 and _TATHAM_ID.fullmatch(content[0]):
        return "tatham"
    if _PUZZLE_NUMBER.fullmatch(content[0]):
        return "tournament"
    first_real = next((line for line in content if not line.startswith("#")), "")
    if first_real.split(maxsplit=1)[0:1] in (["GRID"], ["ROWS"], ["COLUMNS"]):
        return "picross"
    if any(_NON_KEY.fullmatch(line) for line in content):
        return "non"
    if _NIN_HEADER.fullmatch(content[0]) and _could_be_nin(_split_lines(text), text):
        return "nin"
    return None


def _could_be_nin(lines: list[str], text: str) -> bool:
    """Whether ``lines``, starting with a ``W H`` line, can be a ``.nin`` file: W and H are at
    least 1, W + H clue lines follow (blank, ``0`` or runs >= 1), then only copies of the
    puzzle (:func:`_nin_junk`). When ``text`` may be the cut head of a longer file (see
    :data:`SNIFF_HEAD`), only the lines it holds are checked."""
    first = next(i for i, line in enumerate(lines) if line.strip())
    tokens = lines[first].split()
    if any(len(t.lstrip("0")) > len(str(MAX_SIDE)) for t in tokens):
        return True  # too large: the reader says so
    width, height = (int(t) for t in tokens)
    if width < 1 or height < 1:
        return False
    end = first + 1 + width + height
    if not all(_NIN_CLUE.fullmatch(line.strip()) for line in lines[first + 1 : end]):
        return False
    if len(text.encode("utf-8", "replace")) >= SNIFF_HEAD - 3:  # a BOM or a split character
        return True
    return len(lines) >= end and _nin_junk(lines, first, end) is None


def parse(text: str, source: str, *, fmt: str | None = None) -> list[Entry | BrokenEntry]:
    """Read every puzzle of a file's text.

    Parameters
    ----------
    text : str
        The file content (LF or CRLF line ends, an optional BOM).
    source : str
        The file name, used in error messages and to sniff the format.
    fmt : str, optional
        One of :data:`FORMATS`; by default guessed with :func:`sniff`.

    Returns
    -------
    list of Entry or BrokenEntry
        The puzzles in file order (one for ``.non`` and ``.nin``); in a file of several, a
        :class:`~cspsolve.inputs.BrokenEntry` for each that cannot be read.

    Raises
    ------
    InputError
        For an unknown format or anything wrong in the text, naming the line: in a file of
        several puzzles, only where the puzzles cannot be told apart (or when it holds one).
    """
    if not text.removeprefix("\ufeff").strip():
        raise InputError(source, None, "empty file (no puzzle)")
    if fmt is None:
        fmt = sniff(source, text)
        if fmt is None:
            raise InputError(
                source,
                None,
                "cannot tell the format; use a .non, .nin or .txt file (a .txt file is read as "
                "a tournament file when it starts with '$N', as a picross-solver file when it "
                "has GRID or ROWS lines)",
            )
    if fmt not in _PARSERS:
        raise InputError(source, None, f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    return list(_PARSERS[fmt](_split_lines(text), source))


def read(path: str | Path, fmt: str | None = None) -> list[Entry | BrokenEntry]:
    """Read every puzzle of a file.

    Parameters
    ----------
    path : str or Path
        The file (UTF-8 text, LF or CRLF line ends, an optional BOM).
    fmt : str, optional
        One of :data:`FORMATS`; by default guessed with :func:`sniff`.

    Returns
    -------
    list of Entry or BrokenEntry
        The puzzles in file order (see :func:`parse`).

    Raises
    ------
    InputError
        When the file is missing, a directory, unreadable, binary, empty or malformed (as
        :func:`parse` says).
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(source, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(source, None, "is a directory, not a puzzle file") from None
    except PermissionError:
        raise InputError(source, None, "permission denied") from None
    except (OSError, ValueError) as err:
        reason = getattr(err, "strerror", None) or str(err).splitlines()[0]
        raise InputError(source, None, f"cannot read the file: {reason}") from None
    if b"\0" in data:
        raise InputError(source, None, "binary file (it holds NUL bytes), not puzzle text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(source, None, f"not UTF-8 text (bad byte at offset {err.start})") from None
    return parse(text, source, fmt=fmt)


def _describe(entries: Sequence[Entry | BrokenEntry]) -> str:
    """Say which puzzles ``entries`` holds, for an error message."""
    if not entries:
        return "it holds no puzzle"
    more = f", ... ({len(entries)} in all)" if len(entries) > 5 else ""
    if any(isinstance(e.id, int) for e in entries):
        numbers = [str(e.id) for e in entries if e.id is not None]
        return f"it holds puzzles {', '.join(numbers[:5])}{more}"
    names = ", ".join(repr(e.id) for e in entries[:5] if e.id is not None)
    index = f"an index 1..{len(entries)}"
    return f"it holds {names}{more}; or use {index}" if names else f"use {index}"


def select(entries: Sequence[Entry | BrokenEntry], key: str, source: str) -> Entry | BrokenEntry:
    """Pick one puzzle of a file, as named by ``FILE#KEY``.

    Parameters
    ----------
    entries : sequence of Entry or BrokenEntry
        What :func:`read` returned.
    key : str
        ``str(id)`` of the wanted entry (``"5"`` for ``$5``, ``"Smile"`` for ``GRID Smile``); in a
        file whose puzzles are named or unnamed (not numbered), also a 1-based index.
    source : str
        The file name, for the error message.

    Returns
    -------
    Entry or BrokenEntry
        The first entry of that id (a broken one too: its ``puzzle`` raises its error).

    Raises
    ------
    InputError
        When no entry matches.
    """
    for entry in entries:
        if entry.id is not None and str(entry.id) == key:
            return entry
    numbered = any(isinstance(e.id, int) for e in entries)
    if not numbered and re.fullmatch(r"[0-9]{1,9}", key) and 1 <= int(key) <= len(entries):
        return entries[int(key) - 1]
    raise InputError(source, None, f"no puzzle {key!r} in file ({_describe(entries)})")


def write_non(puzzle: Nonogram | ColourNonogram) -> str:
    """Write ``puzzle`` in the ``.non`` format (a colour puzzle with its ``color`` lines and
    keyed clues).

    Parameters
    ----------
    puzzle : Nonogram or ColourNonogram

    Returns
    -------
    str
        The file text; :func:`parse` reads it back to an equal puzzle (title, goal and metadata
        included).

    Examples
    --------
    >>> print(write_non(Nonogram(rows=[(1,), ()], columns=[(1,)])), end="")
    width 1
    height 2
    <BLANKLINE>
    rows
    1
    0
    <BLANKLINE>
    columns
    1
    """
    metadata = puzzle.metadata
    strings = [(key, getattr(metadata, name)) for key, name in _NON_METADATA.items()]
    strings.insert(1, ("title", puzzle.title))  # after the catalogue, as nonogram-db writes
    out = [f"{key} {_non_string(key, text)}" for key, text in strings if text]
    out += [f"width {puzzle.width}", f"height {puzzle.height}"]
    if isinstance(puzzle, ColourNonogram):
        return "\n".join(out + _colour_non(puzzle)) + "\n"
    for name, clues in (("rows", puzzle.rows), ("columns", puzzle.columns)):
        out += ["", name]
        out += [",".join(map(str, clue)) if clue else "0" for clue in clues]
    if puzzle.goal is not None:
        cells = "".join("1" if ch == "#" else "0" for row in puzzle.goal for ch in row)
        out += ["", f'goal "{cells}"']
    return "\n".join(out) + "\n"


def _non_string(key: str, text: str) -> str:
    """``text`` as the value of a ``.non`` line: quoted, HTML-escaped, its line ends as
    entities; a licence that is an SPDX identifier bare, as nonogram-db writes it."""
    if key == "license" and _SPDX_ID.fullmatch(text):
        return text
    escaped = html.escape(text).replace("\r", "&#13;").replace("\n", "&#10;")
    return f'"{escaped}"'


def _colour_non(puzzle: ColourNonogram) -> list[str]:
    """The lines of a colour ``.non`` file after its size: colours, clues, goal."""
    out = [""] + [f"color {c.key} {c.name} {c.rgb}" for c in puzzle.colours]
    for name, clues in (("rows", puzzle.rows), ("columns", puzzle.columns)):
        out += ["", name]
        out += [palette.written(clue, puzzle.colours) for clue in clues]
    if puzzle.goal is not None:
        out += ["", f'goal "{"".join(puzzle.goal)}"']
    return out


def _black_and_white(puzzle: Nonogram | ColourNonogram, suffix: str) -> Nonogram:
    """``puzzle``, refused with an :class:`OptionError` when it has colours."""
    if isinstance(puzzle, ColourNonogram):
        raise OptionError(f"{suffix} has no colours; write a colour puzzle as .non or .xml")
    return puzzle


def write_nin(puzzle: Nonogram) -> str:
    """Write ``puzzle`` in the ``.nin`` format (title and goal are not part of it).

    Examples
    --------
    >>> print(write_nin(Nonogram(rows=[(1,), ()], columns=[(1,)])), end="")
    1 2
    1
    0
    1
    """
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [" ".join(map(str, clue)) if clue else "0" for clue in puzzle.rows + puzzle.columns]
    return "\n".join(lines) + "\n"


WRITERS: dict[str, Callable[[Nonogram | ColourNonogram], str]] = {
    ".non": write_non,
    ".nin": lambda puzzle: write_nin(_black_and_white(puzzle, ".nin")),
    ".tatham": lambda puzzle: write_tatham(_black_and_white(puzzle, ".tatham")) + "\n",
    ".xml": write_xml,
}
"""File extension → writer."""


def write(puzzle: Nonogram | ColourNonogram, path: str | Path) -> None:
    """Write ``puzzle`` to ``path`` in the format its extension names.

    ``.non``, ``.nin``, ``.tatham`` (a Tatham game ID) or ``.xml`` (webpbn XML); a colour
    puzzle as ``.non`` or ``.xml``.

    Raises
    ------
    OptionError
        If the extension names no format that can be written, or one without colours for a
        colour puzzle.
    OSError
        If the file cannot be written.
    """
    suffix = PurePath(path).suffix.lower()
    if suffix not in WRITERS:
        raise OptionError(
            f"cannot write {suffix or 'files without an extension'}; use .non, .nin, .tatham "
            "or .xml"
        )
    Path(path).write_text(WRITERS[suffix](puzzle), encoding="utf-8")
