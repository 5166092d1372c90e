"""Clues as a reader found them, each with its line, and the puzzle they make.

Every reader of :mod:`.formats` and :mod:`.web` collects :data:`Placed` clues and hands them
to :func:`build`, which checks that each fits its line and reports one that does not at the
line it was written on, as an :class:`~cspsolve.errors.InputError`.
"""

from __future__ import annotations

from cspsolve.errors import InputError, PuzzleError

from ..board import Clue, Grid, Nonogram, line_errors

__all__ = ["MAX_SIZE", "Placed", "build"]

MAX_SIZE = 100_000
"""Largest width, height or run length accepted (guards against absurd allocations)."""

Placed = tuple[Clue, int]
"""A clue and the 1-based line it was written on."""


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
    for what, placed, length in (("row", rows, len(columns)), ("column", columns, len(rows))):
        if len(placed) > MAX_SIZE:
            raise InputError(source, line, f"more than {MAX_SIZE} {what}s")
        for k, (clue, at) in enumerate(placed, 1):
            problem = line_errors(clue, length)
            if problem:
                raise InputError(source, at, f"{what} {k}: {problem}")
    try:
        return Nonogram(
            rows=tuple(c for c, _ in rows),
            columns=tuple(c for c, _ in columns),
            title=title,
            goal=goal,
        )
    except PuzzleError as err:
        raise InputError(source, line, str(err)) from err
