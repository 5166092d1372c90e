"""The nonogram puzzle type, its validation, and an independent solution checker.

A nonogram (paint-by-number, griddler) is a grid of ``height`` rows and ``width`` columns;
each row and column has a *clue*: the lengths of its runs of filled cells, in order (left to
right, top to bottom), separated by at least one empty cell. An empty clue means an empty line.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cspsolve.errors import PuzzleError
from cspsolve.notebook import picture

from .colour_board import ColourNonogram
from .colour_board import check as check_colours
from .metadata import NO_METADATA, Metadata

__all__ = [
    "NO_METADATA",
    "Clue",
    "Grid",
    "Metadata",
    "Nonogram",
    "check",
    "clue_of",
    "line_errors",
    "min_length",
]

Clue = tuple[int, ...]
"""Run lengths of one line, each >= 1; ``()`` for an empty line."""

Grid = tuple[str, ...]
"""A filled grid: one string per row, top to bottom, ``#`` filled and ``.`` empty."""


def min_length(clue: Sequence[int]) -> int:
    """Fewest cells a line needs to hold ``clue``: the runs plus one gap between each two."""
    return sum(clue) + max(0, len(clue) - 1)


def clue_of(line: Iterable[bool]) -> Clue:
    """Return the run lengths of the filled cells of ``line`` (the clue it satisfies).

    Examples
    --------
    >>> clue_of([True, True, False, True])
    (2, 1)
    """
    return tuple(len(list(run)) for filled, run in itertools.groupby(line) if filled)


@dataclass(frozen=True, init=False)
class Nonogram:
    """An immutable black-and-white nonogram.

    Parameters
    ----------
    rows : sequence of sequence of int
        Row clues, top to bottom (lists or tuples, kept as tuples of :data:`Clue`); ``(0,)``,
        as files write it, is the empty line ``()``.
    columns : sequence of sequence of int
        Column clues, left to right, likewise.
    title : str
        A name for display (may be empty).
    goal : sequence of str, optional
        The intended picture (kept as a :data:`Grid`) when the source file gives one; never
        used to solve.
    metadata : Metadata
        Its catalogue, author, copyright and licence, as the source file gives them (not
        compared: two puzzles with the same clues and title are equal).

    Raises
    ------
    PuzzleError
        If there are no rows or no columns, a run length is not a positive integer, or a clue
        cannot fit its line. The message names the line (``row 3`` / ``column 7``, 1-based).
    """

    _repr_svg_ = picture("nonogram")

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str = ""
    goal: Grid | None = field(default=None, compare=False)
    metadata: Metadata = field(default=NO_METADATA, compare=False)

    def __init__(
        self,
        rows: Sequence[Sequence[int]],
        columns: Sequence[Sequence[int]],
        title: str = "",
        goal: Sequence[str] | None = None,
        metadata: Metadata = NO_METADATA,
    ) -> None:
        object.__setattr__(self, "rows", tuple(_runs(c) for c in rows))
        object.__setattr__(self, "columns", tuple(_runs(c) for c in columns))
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "goal", None if goal is None else tuple(goal))
        object.__setattr__(self, "metadata", metadata)
        if not self.rows or not self.columns:
            raise PuzzleError("a nonogram needs at least one row and one column")
        for name, clues, length in (
            ("row", self.rows, self.width),
            ("column", self.columns, self.height),
        ):
            for i, clue in enumerate(clues, 1):
                problem = line_errors(clue, length)
                if problem:
                    raise PuzzleError(f"{name} {i}: {problem}")

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.columns)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)


def _runs(clue: Iterable[int]) -> Clue:
    """A clue as a tuple, the lone ``0`` of an empty line (as every file format writes it)
    read as ``()``.

    Examples
    --------
    >>> _runs([0]), _runs([2, 1])
    ((), (2, 1))
    """
    runs = tuple(clue)
    return () if runs == (0,) else runs


def line_errors(clue: Sequence[int], length: int) -> str:
    """Say what is wrong with ``clue`` on a line of ``length`` cells ("" when nothing is).

    Examples
    --------
    >>> line_errors((3, 2), 5)
    'clue 3 2 needs 6 cells, the line has 5'
    """
    for n in clue:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            return f"run length {n!r} is not a positive integer"
    need = min_length(clue)
    if need > length:
        return f"clue {' '.join(map(str, clue))} needs {need} cells, the line has {length}"
    return ""


def check(puzzle: Nonogram | ColourNonogram, grid: Sequence[str]) -> list[str]:
    """Check a filled grid against every clue, independently of any solver.

    Parameters
    ----------
    puzzle : Nonogram or ColourNonogram
        The clues (a colour puzzle is checked by :func:`.colour_board.check`).
    grid : sequence of str
        ``puzzle.height`` strings of ``puzzle.width`` characters, ``#`` filled, ``.`` empty (a
        colour puzzle's keys).

    Returns
    -------
    list of str
        One message per violated clue or malformed row; empty when the grid solves the puzzle.
    """
    if isinstance(puzzle, ColourNonogram):
        return check_colours(puzzle, grid)
    if len(grid) != puzzle.height or any(len(r) != puzzle.width for r in grid):
        return [f"grid is not {puzzle.width}x{puzzle.height}"]
    if any(ch not in "#." for r in grid for ch in r):
        return ["grid holds characters other than '#' and '.'"]
    problems = []
    for i, (row, clue) in enumerate(zip(grid, puzzle.rows, strict=True), 1):
        got = clue_of(ch == "#" for ch in row)
        if got != clue:
            problems.append(f"row {i}: runs {list(got)}, clue {list(clue)}")
    for j, clue in enumerate(puzzle.columns):
        got = clue_of(row[j] == "#" for row in grid)
        if got != clue:
            problems.append(f"column {j + 1}: runs {list(got)}, clue {list(clue)}")
    return problems
