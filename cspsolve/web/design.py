"""The nonogram designer: a drawing's clues, whether they pin the drawing down, and its files.

A drawing is a list of rows of ``#`` (filled) and ``.`` (empty), all of one length. Its clues
are the runs of each row and column; the check (a job in a worker) says whether line logic
alone fixes every cell, whether the clues have one solution, and where they do not, the cells
in which another solution differs from the drawing. Files are written to memory by the
nonogram kind's own writers, never to a path.
"""

from __future__ import annotations

import importlib
import io
import warnings
from typing import Any

from cspsolve import registry, tasks
from cspsolve.csp.gac import StopPropagationError
from cspsolve.errors import InputError, OptionError
from cspsolve.limits import Limits
from cspsolve.results import Stats

__all__ = [
    "FORMATS",
    "IMAGES",
    "MAX_PIXELS",
    "MAX_SIDE",
    "MAX_TITLE",
    "Grid",
    "check",
    "drawing",
    "file_of",
    "puzzle_of",
    "traced",
]

Grid = tuple[str, ...]
"""A drawing: rows of ``#`` and ``.`` (the nonogram kind's grid)."""

MAX_SIDE = 60
"""The widest and tallest drawing the designer takes."""

MAX_TITLE = 200
"""The longest title, in characters."""

IMAGES = ("PNG", "GIF", "JPEG", "BMP")
"""The image formats a drawing is traced from (the only decoders Pillow is let use)."""

MAX_PIXELS = 1 << 24
"""The most pixels of an image traced (4096 x 4096); larger ones are refused before decoding."""

FORMATS = {"non": ".non", "nin": ".nin", "xml": ".xml"}
"""The files the designer writes: the ``format`` of a request → the writer's extension."""


def drawing(raw: Any) -> Grid:
    """The drawing a request sends: 1 to :data:`MAX_SIDE` rows of ``#`` and ``.``, of one
    length of 1 to :data:`MAX_SIDE` (``/`` may separate the rows of one string).

    Raises
    ------
    OptionError
        For anything else, saying what is wrong.
    """
    rows = raw.split("/") if isinstance(raw, str) else raw
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise OptionError("the drawing must be a list of rows of '#' and '.'")
    if not 1 <= len(rows) <= MAX_SIDE or not 1 <= len(rows[0]) <= MAX_SIDE:
        raise OptionError(f"a drawing has 1 to {MAX_SIDE} rows and columns")
    for number, row in enumerate(rows, 1):
        if len(row) != len(rows[0]):
            raise OptionError(f"row {number} has {len(row)} cells, the first {len(rows[0])}")
        if set(row) - {"#", "."}:
            raise OptionError(f"row {number} holds other than '#' and '.'")
    return tuple(rows)


def side(raw: Any, what: str) -> int:
    """A width or height a request sends (a whole number from 1 to :data:`MAX_SIDE`).

    Raises
    ------
    OptionError
        For anything else.
    """
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool) or not 1 <= raw <= MAX_SIDE:
        raise OptionError(f"{what} must be a whole number from 1 to {MAX_SIDE}")
    return raw


def traced(data: bytes, name: str, width: int, height: int) -> Grid:
    """A drawing of ``width`` x ``height`` cells traced from an image: the image is scaled to
    that size (each cell the mean of the pixels it covers, transparent pixels counting as
    white) and a cell is filled where that mean is darker than mid-grey.

    Raises
    ------
    InputError
        Naming the upload, when it is not a PNG, GIF, JPEG or BMP image Pillow reads, or has
        more than :data:`MAX_PIXELS` pixels.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=IMAGES) as image:
                pixels = image.width * image.height
                rgba = image.convert("RGBA") if pixels <= MAX_PIXELS else None
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombWarning,
            Image.DecompressionBombError):  # fmt: skip
        raise InputError(name, None, "not a PNG, GIF, JPEG or BMP image") from None
    if rgba is None:
        raise InputError(name, None, f"the image has more than {MAX_PIXELS:,} pixels")
    white = Image.new("RGBA", rgba.size, "white")
    grey = Image.alpha_composite(white, rgba).convert("L")
    cells = grey.resize((width, height), Image.Resampling.BOX)
    return tuple(
        "".join("#" if cells.getpixel((c, r)) < 128 else "." for c in range(width))  # type: ignore[operator]
        for r in range(height)
    )


def model(name: str) -> Any:
    """A module of the nonogram kind (``board``, ``kind``, ``io.formats``)."""
    return importlib.import_module(f"cspsolve.models.nonogram.{name}")


def puzzle_of(grid: Grid, title: Any = None) -> Any:
    """The nonogram whose clues are the runs of ``grid``, with ``grid`` as its goal.

    Raises
    ------
    OptionError
        For a title that is not a string of at most :data:`MAX_TITLE` characters on one line.
    """
    title = title or ""
    if not isinstance(title, str) or len(title) > MAX_TITLE or "\n" in title or "\r" in title:
        raise OptionError(f"the title must be one line of at most {MAX_TITLE} characters")
    board = model("board")
    rows = [board.clue_of(ch == "#" for ch in row) for row in grid]
    columns = [board.clue_of(row[c] == "#" for row in grid) for c in range(len(grid[0]))]
    return board.Nonogram(rows=rows, columns=columns, title=title, goal=grid)


def file_of(puzzle: Any, fmt: Any) -> tuple[str, str]:
    """The puzzle's file in format ``fmt`` (a key of :data:`FORMATS`): its name and text.

    Raises
    ------
    OptionError
        For a format the designer does not write.
    """
    if fmt not in FORMATS:
        raise OptionError(f"format must be one of {', '.join(FORMATS)}")
    suffix = FORMATS[fmt]
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in puzzle.title)[:40]
    return (stem.strip("-") or "design") + suffix, model("io.formats").WRITERS[suffix](puzzle)


def check(puzzle: Any, limits: Limits) -> dict[str, Any]:
    """What the clues of a drawing decide, within ``limits``.

    Returns
    -------
    dict
        ``rows`` and ``columns`` (the clues), ``line_solvable`` (line logic alone fixes every
        cell; ``None`` when the limits stopped it), ``fixed_by_line_logic`` (cells), ``cells``,
        ``unique`` (``None`` when the search was cut short), ``status`` (of the search for two
        solutions), ``differ`` (the ``[row, column]`` cells in which another solution differs
        from the drawing; empty when unique) and ``other`` (that solution's rows, or ``None``).
    """
    kind = registry.get("nonogram")
    model("search.probing").load_kernels()  # before the clock starts, as analyze does
    budget = limits.start(Stats())
    cells = puzzle.width * puzzle.height
    try:
        _, fixed = model("kind").line_logic(puzzle, budget=budget)
        solvable: bool | None = fixed == cells
    except StopPropagationError:
        solvable, fixed = None, None
    budget.finish()
    request = tasks.Request("probing", None, {"solutions": 2})
    result = tasks.solve(kind, puzzle, request=request, limits=budget.rest())
    goal = puzzle.goal
    assert goal is not None
    other = next((s for s in result.solutions if s != goal), None)
    differ = [] if other is None else _differ(goal, other)
    return {
        "rows": [list(clue) for clue in puzzle.rows],
        "columns": [list(clue) for clue in puzzle.columns],
        "line_solvable": solvable,
        "fixed_by_line_logic": fixed,
        "cells": cells,
        "unique": result.proof.get("unique"),
        "status": result.status.value,
        "differ": differ,
        "other": None if other is None else list(other),
    }


def _differ(first: Grid, second: Grid) -> list[list[int]]:
    return [
        [r, c]
        for r, (a, b) in enumerate(zip(first, second, strict=True))
        for c in range(len(a))
        if a[c] != b[c]
    ]
