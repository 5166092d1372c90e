"""Clues as a reader found them, each with its line, and the puzzle they make.

Every reader of :mod:`.formats` and :mod:`.web` collects :data:`Placed` clues and hands them
to :func:`build`, which checks that each fits its line and reports one that does not at the
line it was written on, as an :class:`~cspsolve.errors.InputError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cspsolve.errors import InputError, PuzzleError

from ..board import Clue, Grid, Nonogram, line_errors
from ..colour import board as colour_board

__all__ = ["MAX_SIZE", "ColourPlaced", "Placed", "build", "build_colour"]

MAX_SIZE = 100_000
"""Largest width, height or run length accepted (guards against absurd allocations)."""

Placed = tuple[Clue, int]
"""A clue and the 1-based line it was written on."""

ColourPlaced = tuple[colour_board.ColourClue, int]
"""A colour clue and the 1-based line it was written on."""


def _check_lines(
    source: str,
    line: int,
    rows: Sequence[tuple[Any, int]],
    columns: Sequence[tuple[Any, int]],
    problem: Callable[[Any, int], str],
) -> None:
    """Report too many lines, or the first clue ``problem(clue, length)`` finds wrong, at its
    line."""
    for what, placed, length in (("row", rows, len(columns)), ("column", columns, len(rows))):
        if len(placed) > MAX_SIZE:
            raise InputError(source, line, f"more than {MAX_SIZE} {what}s")
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

    Returns
    -------
    Nonogram

    Raises
    ------
    InputError
        When there are more than :data:`MAX_SIZE` rows or columns, or a clue does not fit its
        line (naming that clue's line), or the puzzle is otherwise not a nonogram.
    """
    _check_lines(source, line, rows, columns, line_errors)
    try:
        return Nonogram(
            rows=tuple(c for c, _ in rows),
            columns=tuple(c for c, _ in columns),
            title=title,
            goal=goal,
        )
    except PuzzleError as err:
        raise InputError(source, line, str(err)) from err


def build_colour(
    source: str,
    line: int,
    rows: list[ColourPlaced],
    columns: list[ColourPlaced],
    *,
    colours: Sequence[colour_board.Colour],
    title: str = "",
    goal: Grid | None = None,
) -> colour_board.ColourNonogram:
    """Make a :class:`~.colour.board.ColourNonogram`, reporting a clue that cannot fit at its
    line.

    Parameters
    ----------
    source, line, rows, columns, title, goal
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

    def problem(clue: colour_board.ColourClue, length: int) -> str:
        return colour_board.line_errors(clue, length, keys)

    _check_lines(source, line, rows, columns, problem)
    try:
        return colour_board.ColourNonogram(
            rows=tuple(c for c, _ in rows),
            columns=tuple(c for c, _ in columns),
            colours=tuple(colours),
            title=title,
            goal=goal,
        )
    except PuzzleError as err:
        raise InputError(source, line, str(err)) from err
