"""Shared helpers of the nonogram tests."""

from __future__ import annotations

import itertools
import math

from cspsolve.models.nonogram.board import Nonogram, check, clue_of
from cspsolve.models.nonogram.lines.cells import EMPTY, FILLED


def all_solutions(puzzle: Nonogram) -> list[tuple[str, ...]]:
    """Every grid satisfying the clues, by enumeration (tiny puzzles only)."""
    w, h = puzzle.width, puzzle.height
    found = []
    for cells in itertools.product(".#", repeat=w * h):
        grid = tuple("".join(cells[r * w : (r + 1) * w]) for r in range(h))
        if not check(puzzle, grid):
            found.append(grid)
    return found


def enumerated_density(
    clue: tuple[int, ...], codes: list[int], odds: list[float] | None = None
) -> list[float] | None:
    """The share of compatible fill patterns filling each cell (None: no pattern), by
    enumeration; with ``odds``, of their weight (a pattern weighs the product of the odds of
    the cells it fills), each cell's own odds left out."""
    odds = odds or [1.0] * len(codes)
    fits = [
        cells
        for cells in itertools.product((False, True), repeat=len(codes))
        if clue_of(cells) == clue
        and all(code & (FILLED if fill else EMPTY) for code, fill in zip(codes, cells, strict=True))
    ]
    if not fits:
        return None
    weights = [math.prod(r for r, fill in zip(odds, cells, strict=True) if fill) for cells in fits]
    shares = []
    for x in range(len(codes)):
        filled = sum(w for w, cells in zip(weights, fits, strict=True) if cells[x]) / odds[x]
        empty = sum(w for w, cells in zip(weights, fits, strict=True) if not cells[x])
        shares.append(filled / (filled + empty))
    return shares
