"""The multicolour nonogram type, its validation, and an independent solution checker.

In a colour nonogram every cell is the background (colour 0) or one of the puzzle's colours.
A line's clue is its blocks in order, each a run of cells of one colour, written as
``(length, colour)`` pairs: two consecutive blocks of the same colour have at least one
background cell between them, blocks of different colours may touch (the rules of webpbn's
colour puzzles, https://webpbn.com/pbn_fmt.html, and of nonograms.org's colour section).

A grid is one string per row, one character per cell: the colour's :attr:`Colour.key`, ``.``
for the background.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cspsolve.errors import PuzzleError
from cspsolve.notebook import picture

from .metadata import NO_METADATA, Metadata

__all__ = [
    "BACKGROUND",
    "MAX_COLOURS",
    "Colour",
    "ColourClue",
    "ColourNonogram",
    "check",
    "clue_of",
    "line_errors",
    "min_length",
]

ColourClue = tuple[tuple[int, int], ...]
"""The blocks of one line, each ``(length, colour)`` with length >= 1 and colour >= 1 (an index
into :attr:`ColourNonogram.colours`); ``()`` for a line of background only."""

Grid = tuple[str, ...]
"""A coloured grid: rows top to bottom, a colour key per cell, ``.`` for the background."""

BACKGROUND = "."
"""The key of the background colour (colour 0) in grids and files."""

MAX_COLOURS = 32
"""Most colours a puzzle may have, the background included (a cell's colours fit 32 bits)."""

_RGB = re.compile(r"#[0-9a-f]{6}")


@dataclass(frozen=True)
class Colour:
    """One colour of a puzzle.

    Parameters
    ----------
    key : str
        One ASCII letter naming it in clues (``2r``) and grids (``.`` for the background).
    name : str
        Its name (e.g. ``red``), non-empty, without white space.
    rgb : str
        Its value as ``#rrggbb`` (lower case).
    """

    key: str
    name: str
    rgb: str


def min_length(clue: Sequence[tuple[int, int]]) -> int:
    """Fewest cells a line needs to hold ``clue``: the blocks and one background cell between
    each two consecutive blocks of the same colour.

    Examples
    --------
    >>> min_length(((2, 1), (1, 1), (3, 2)))
    7
    """
    gaps = sum(1 for (_, a), (_, b) in itertools.pairwise(clue) if a == b)
    return sum(length for length, _ in clue) + gaps


def clue_of(line: Iterable[int]) -> ColourClue:
    """The blocks of a line of colour indices (0 the background): the clue it satisfies.

    Examples
    --------
    >>> clue_of([1, 1, 2, 0, 2])
    ((2, 1), (1, 2), (1, 2))
    """
    return tuple((len(list(run)), colour) for colour, run in itertools.groupby(line) if colour != 0)


def line_errors(clue: Sequence[tuple[int, int]], length: int, keys: Sequence[str]) -> str:
    """Say what is wrong with ``clue`` on a line of ``length`` cells in a puzzle whose colours
    have the keys ``keys`` (the background's first) ("" when nothing is).

    Examples
    --------
    >>> line_errors(((3, 1), (2, 1)), 5, ".r")
    'clue 3r 2r needs 6 cells, the line has 5'
    """
    colours = len(keys)
    for block in clue:
        if not isinstance(block, tuple) or len(block) != 2:
            return f"block {block!r} is not a (length, colour) pair"
        n, colour = block
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            return f"run length {n!r} is not a positive integer"
        if not isinstance(colour, int) or isinstance(colour, bool) or not 1 <= colour < colours:
            return f"colour {colour!r} is not one of the puzzle's colours 1..{colours - 1}"
    need = min_length(clue)
    if need > length:
        written = " ".join(f"{n}{keys[c]}" for n, c in clue)
        return f"clue {written} needs {need} cells, the line has {length}"
    return ""


def _colour_errors(colours: Sequence[Colour]) -> str:
    """Say what is wrong with a puzzle's colours ("" when nothing is)."""
    if not 2 <= len(colours) <= MAX_COLOURS:
        return (
            f"a colour nonogram has 2 to {MAX_COLOURS} colours (background included), "
            f"got {len(colours)}"
        )
    if colours[0].key != BACKGROUND:
        return f"the background's key is {BACKGROUND!r}, got {colours[0].key!r}"
    keys, names = set(), set()
    for colour in colours:
        if colour.key in keys or colour.name in names:
            return f"colour {colour.name!r} ({colour.key}) is declared twice"
        keys.add(colour.key)
        names.add(colour.name)
        if colour is not colours[0] and not (
            len(colour.key) == 1 and colour.key.isascii() and colour.key.isalpha()
        ):
            return f"colour key {colour.key!r} is not one ASCII letter"
        if not colour.name or any(ch.isspace() for ch in colour.name):
            return f"colour name {colour.name!r} is empty or holds white space"
        if not _RGB.fullmatch(colour.rgb):
            return f"colour {colour.name!r}: {colour.rgb!r} is not #rrggbb"
    return ""


@dataclass(frozen=True, init=False)
class ColourNonogram:
    """An immutable multicolour nonogram.

    Parameters
    ----------
    rows : sequence of sequence of (length, colour) pairs
        Row clues, top to bottom (lists or tuples, kept as tuples of :data:`ColourClue`).
    columns : sequence of sequence of (length, colour) pairs
        Column clues, left to right, likewise.
    colours : sequence of Colour
        The background (key ``.``) then every colour; a block's colour indexes this list.
    title : str
        A name for display (may be empty).
    goal : sequence of str, optional
        The intended picture (kept as a :data:`Grid`) when the source file gives one; never
        used to solve.
    metadata : Metadata
        Its catalogue, author, copyright and licence, as the source file gives them (not
        compared).

    Raises
    ------
    PuzzleError
        If there are no rows or no columns, the colours are malformed (see :class:`Colour`;
        2 to :data:`MAX_COLOURS` of them, keys and names distinct), a block is not a positive
        length of one of the colours, or a clue cannot fit its line. The message names the line
        (``row 3`` / ``column 7``, 1-based).
    """

    rows: tuple[ColourClue, ...]
    columns: tuple[ColourClue, ...]
    colours: tuple[Colour, ...]
    title: str = ""
    goal: Grid | None = field(default=None, compare=False)
    metadata: Metadata = field(default=NO_METADATA, compare=False)

    _repr_svg_ = picture("nonogram")

    def __init__(
        self,
        rows: Sequence[Sequence[Sequence[int]]],
        columns: Sequence[Sequence[Sequence[int]]],
        colours: Sequence[Colour],
        title: str = "",
        goal: Sequence[str] | None = None,
        metadata: Metadata = NO_METADATA,
    ) -> None:
        object.__setattr__(self, "rows", tuple(tuple(map(tuple, c)) for c in rows))
        object.__setattr__(self, "columns", tuple(tuple(map(tuple, c)) for c in columns))
        object.__setattr__(self, "colours", tuple(colours))
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "goal", None if goal is None else tuple(goal))
        object.__setattr__(self, "metadata", metadata)
        if not self.rows or not self.columns:
            raise PuzzleError("a nonogram needs at least one row and one column")
        problem = _colour_errors(self.colours)
        if problem:
            raise PuzzleError(problem)
        for name, clues, length in (
            ("row", self.rows, self.width),
            ("column", self.columns, self.height),
        ):
            for i, clue in enumerate(clues, 1):
                problem = line_errors(clue, length, [c.key for c in self.colours])
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

    def key(self, colour: int) -> str:
        """The key of colour ``colour`` (``.`` for 0, the background)."""
        return self.colours[colour].key

    def written(self, clue: ColourClue) -> list[str]:
        """The blocks of ``clue`` as written in files and drawings, e.g. ``["2r", "1b"]``."""
        return [f"{n}{self.key(c)}" for n, c in clue]


def check(puzzle: ColourNonogram, grid: Sequence[str]) -> list[str]:
    """Check a coloured grid against every clue, independently of any solver.

    Parameters
    ----------
    puzzle : ColourNonogram
        The clues.
    grid : sequence of str
        ``puzzle.height`` strings of ``puzzle.width`` colour keys (``.`` the background).

    Returns
    -------
    list of str
        One message per violated clue or malformed row; empty when the grid solves the puzzle.
    """
    if len(grid) != puzzle.height or any(len(r) != puzzle.width for r in grid):
        return [f"grid is not {puzzle.width}x{puzzle.height}"]
    index = {colour.key: i for i, colour in enumerate(puzzle.colours)}
    if any(ch not in index for r in grid for ch in r):
        return ["grid holds characters that are not the puzzle's colour keys"]
    problems = []
    for i, (row, clue) in enumerate(zip(grid, puzzle.rows, strict=True), 1):
        got = clue_of(index[ch] for ch in row)
        if got != clue:
            problems.append(f"row {i}: blocks {puzzle.written(got)}, clue {puzzle.written(clue)}")
    for j, clue in enumerate(puzzle.columns):
        got = clue_of(index[row[j]] for row in grid)
        if got != clue:
            problems.append(
                f"column {j + 1}: blocks {puzzle.written(got)}, clue {puzzle.written(clue)}"
            )
    return problems
