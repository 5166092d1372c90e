"""Nonograms (paint-by-number): clues, formats, the GAC model, CP-SAT cross-check.

This package is the ``nonogram`` kind of :mod:`cspsolve.registry`: it exposes ``NAME``,
``METHODS``, ``DEFAULT_METHOD``, ``sniff``, ``read``, ``select``, ``write``, ``solve``,
``verify``, ``encode``, ``describe`` and ``draw``.
"""

from __future__ import annotations

from cspsolve.render import labelled_grid

from .board import Grid, Nonogram, check, clue_of
from .formats import Entry, read, select, sniff, write, write_nin, write_non
from .solver import DEFAULT_METHOD, METHODS, solve, verify

__all__ = [
    "DEFAULT_METHOD",
    "METHODS",
    "NAME",
    "Entry",
    "Grid",
    "Nonogram",
    "check",
    "clue_of",
    "describe",
    "draw",
    "encode",
    "read",
    "select",
    "sniff",
    "solve",
    "verify",
    "write",
    "write_nin",
    "write_non",
]

NAME = "nonogram"


def encode(solution: Grid) -> dict[str, list[str]]:
    """The JSON form of a solved grid: ``{"grid": ["#..#", ...]}`` (rows top to bottom)."""
    return {"grid": list(solution)}


def describe(puzzle: Nonogram) -> str:
    """``WxH`` and the title, e.g. ``25x20 "Cat"``."""
    size = f"{puzzle.width}x{puzzle.height}"
    return f'{size} "{puzzle.title}"' if puzzle.title else size


def draw(puzzle: Nonogram, solution: Grid) -> str:
    """The solved grid with its clues: ``██`` filled, `` ·`` empty (wider for long clues)."""
    longest = max((len(str(n)) for clue in puzzle.columns for n in clue), default=1)
    width = max(2, longest + 1)
    filled, empty = "█" * width, "·".rjust(width)
    cells = [[filled if ch == "#" else empty for ch in row] for row in solution]
    return labelled_grid(cells, puzzle.rows, puzzle.columns, cell_width=width)
