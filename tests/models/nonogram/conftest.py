"""Shared helpers of the nonogram tests."""

from __future__ import annotations

import itertools

from cspsolve.models.nonogram.board import Nonogram, check


def all_solutions(puzzle: Nonogram) -> list[tuple[str, ...]]:
    """Every grid satisfying the clues, by enumeration (tiny puzzles only)."""
    w, h = puzzle.width, puzzle.height
    found = []
    for cells in itertools.product(".#", repeat=w * h):
        grid = tuple("".join(cells[r * w : (r + 1) * w]) for r in range(h))
        if not check(puzzle, grid):
            found.append(grid)
    return found
