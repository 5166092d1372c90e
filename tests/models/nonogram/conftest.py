"""Shared helpers of the nonogram tests."""

from __future__ import annotations

import itertools

from cspsolve.models.nonogram.board import Nonogram, check, clue_of
from cspsolve.models.nonogram.linedp import EMPTY, FILLED


def all_solutions(puzzle: Nonogram) -> list[tuple[str, ...]]:
    """Every grid satisfying the clues, by enumeration (tiny puzzles only)."""
    w, h = puzzle.width, puzzle.height
    found = []
    for cells in itertools.product(".#", repeat=w * h):
        grid = tuple("".join(cells[r * w : (r + 1) * w]) for r in range(h))
        if not check(puzzle, grid):
            found.append(grid)
    return found


def enumerated_density(clue: tuple[int, ...], codes: list[int]) -> list[float] | None:
    """The share of compatible fill patterns filling each cell (None: no pattern), by
    enumeration."""
    fits = [
        cells
        for cells in itertools.product((False, True), repeat=len(codes))
        if clue_of(cells) == clue
        and all(code & (FILLED if fill else EMPTY) for code, fill in zip(codes, cells, strict=True))
    ]
    if not fits:
        return None
    return [sum(cells[x] for cells in fits) / len(fits) for x in range(len(codes))]
