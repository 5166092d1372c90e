"""Clues as a reader found them, each with its line, and the puzzle they make.

Every reader of :mod:`.formats` and :mod:`.web` collects :data:`Placed` clues and hands them
to :func:`build`, which checks that each fits its line and reports one that does not at the
line it was written on, as an :class:`~cspsolve.errors.InputError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cspsolve.errors import InputError, PuzzleError

from ..board import NO_METADATA, Clue, Grid, Metadata, Nonogram, line_errors
from ..colour_board import Colour, ColourClue, ColourNonogram
from ..colour_board import line_errors as colour_line_errors

__all__ = [
    "MAX_CELLS",
    "MAX_SIDE",
    "ColourPlaced",
    "Placed",
    "build",
    "build_colour",
    "check_size",
]

MAX_SIDE = 2048
"""Most rows, and most columns, of a puzzle read from a file (and the longest run). Published
puzzles have at most a few hundred cells a side (the largest in the project's data is 512 x
512); the solvers' work arrays grow with the number of lines times the longest line, so a
1 x 100,000 file would ask for tens of GiB. The cap refuses such files at once."""

MAX_CELLS = 1 << 20
"""Most cells of a puzzle read from a file: 1,048,576 (1024 x 1024), four times the largest
published puzzle known to the project."""

Placed = tuple[Clue, int]
"""A clue and the 1-based line it was written on."""

ColourPlaced = tuple[ColourClue, int]
"""A colour clue and the 1-based line it was written on."""


def check_size(width: int, height: int, source: str, line: int | None) -> None:
    """Refuse a puzzle of more than :data:`MAX_SIDE` rows or columns or :data:`MAX_CELLS`
    cells, with an :class:`~cspsolve.errors.InputError` at ``line`` naming the limit."""
    for what, count in (("width", width), ("height", height)):
        if count > MAX_SIDE:
            raise InputError(source, line, f"{what} {count} is too large (at most {MAX_SIDE:,})")
    if width * height > MAX_CELLS:
        raise InputError(
            source,
            line,
            f"a {width}x{height} puzzle of {width * height:,} cells is too large "
            f"(at most {MAX_CELLS:,} cells)",
        )


def _check_lines(
    source: str,
    line: int,
    rows: Sequence[tuple[Any, int]],
    columns: Sequence[tuple[Any, int]],
    problem: Callable[[Any, int], str],
) -> None:
    """Report too large a puzzle (see :func:`check_size`) at ``line``, or the first clue
    ``problem(clue, length)`` finds wrong at its line."""
    check_size(len(columns), len(rows), source, line)
    for what, placed, length in (("row", rows, len(columns)), ("column", columns, len(rows))):
        for k, (clue, at) in enumerate(placed, 1):
            found = problem(clue, length)
            if found:
                raise InputError(source, at, f"{what} {k}: {found}")


def build(
    source: str,
    line: int,
    rows: list[Placed],
    columns: list[Placed],
    *,
    title: str = "",
    goal: Grid | None = None,
    metadata: Metadata = NO_METADATA,
) -> Nonogram:
    """Make a :class:`~.board.Nonogram`, reporting a clue that cannot fit at its line.

    Parameters
    ----------
    source : str
        The file name, for error messages.
    line : int
        The 1-based line where the puzzle starts.
    rows, columns : list of Placed
        The row and column clues with their lines.
    title : str
        The puzzle's title.
    goal : Grid, optional
        The intended picture, when the file gives one.
    metadata : Metadata
        The puzzle's catalogue, author, copyright and licence, when the file gives them.

    Returns
    -------
    Nonogram

    Raises
    ------
    InputError
        When the puzzle is too large (:func:`check_size`), or a clue does not fit its line
        (naming that clue's line), or the puzzle is otherwise not a nonogram.
    """
    _check_lines(source, line, rows, columns, line_errors)
    try:
        return Nonogram(
            rows=tuple(c for c, _ in rows),
            columns=tuple(c for c, _ in columns),
            title=title,
            goal=goal,
            metadata=metadata,
        )
    except PuzzleError as err:
        raise InputError(source, line, str(err)) from err


def build_colour(
    source: str,
    line: int,
    rows: list[ColourPlaced],
    columns: list[ColourPlaced],
    *,
    colours: Sequence[Colour],
    title: str = "",
    goal: Grid | None = None,
    metadata: Metadata = NO_METADATA,
) -> ColourNonogram:
    """Make a :class:`~..colour_board.ColourNonogram`, reporting a clue that cannot fit at its
    line.

    Parameters
    ----------
    source, line, rows, columns, title, goal, metadata
        As in :func:`build`, with colour clues.
    colours : sequence of Colour
        The background then every colour.

    Returns
    -------
    ColourNonogram

    Raises
    ------
    InputError
        As :func:`build`; also when the colours are malformed (at ``line``).
    """
    keys = [c.key for c in colours]

    def problem(clue: ColourClue, length: int) -> str:
        return colour_line_errors(clue, length, keys)

    _check_lines(source, line, rows, columns, problem)
    try:
        return ColourNonogram(
            rows=tuple(c for c, _ in rows),
            columns=tuple(c for c, _ in columns),
            colours=tuple(colours),
            title=title,
            goal=goal,
            metadata=metadata,
        )
    except PuzzleError as err:
        raise InputError(source, line, str(err)) from err
