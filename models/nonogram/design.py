"""The nonogram designer: a drawing's clues, whether they pin the drawing down, and its files.

A drawing is a tuple of rows of ``#`` (filled) and ``.`` (empty), all of one length. Its clues
are the runs of each row and column; the check says whether line logic alone fixes every cell,
whether the clues have one solution, and where they do not, the cells in which another
solution differs from the drawing. Files are written by the kind's own writers, as text.
"""

from __future__ import annotations

from typing import Any

from cspsolve import registry, tasks
from cspsolve.csp.gac import StopPropagationError
from cspsolve.kind import Designer
from cspsolve.limits import Limits
from cspsolve.results import Stats

from .board import Grid, Nonogram, clue_of
from .io.formats import WRITERS

__all__ = ["DESIGNER", "check", "puzzle_of"]


def puzzle_of(grid: Grid, title: str) -> Nonogram:
    """The nonogram whose clues are the runs of ``grid``, with ``grid`` as its goal."""
    rows = [clue_of(ch == "#" for ch in row) for row in grid]
    columns = [clue_of(row[c] == "#" for row in grid) for c in range(len(grid[0]))]
    return Nonogram(rows=rows, columns=columns, title=title, goal=grid)


def check(puzzle: Nonogram, limits: Limits) -> dict[str, Any]:
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
    from .lines.cells import UNKNOWN  # numba, loaded only when used
    from .search.portfolio import load_kernels
    from .search.propagation import line_logic

    load_kernels(puzzle)  # before the clock starts, as analyze does
    budget = limits.start(Stats())
    cells = puzzle.width * puzzle.height
    try:
        _, grid, _ = line_logic(puzzle, budget=budget)
        fixed: int | None = int((grid != UNKNOWN).sum())
        solvable: bool | None = fixed == cells
    except StopPropagationError:
        solvable, fixed = None, None
    budget.finish()
    request = tasks.Request("probing", None, {"solutions": 2})
    kind = registry.get("nonogram")
    result = tasks.solve(kind, puzzle, request=request, limits=budget.rest())
    goal = puzzle.goal
    assert goal is not None
    other = next((s for s in result.solutions if s != goal), None)
    return {
        "rows": [list(clue) for clue in puzzle.rows],
        "columns": [list(clue) for clue in puzzle.columns],
        "line_solvable": solvable,
        "fixed_by_line_logic": fixed,
        "cells": cells,
        "unique": result.proof.get("unique"),
        "status": result.status.value,
        "differ": [] if other is None else _differ(goal, other),
        "other": None if other is None else list(other),
    }


def _differ(first: Grid, second: Grid) -> list[list[int]]:
    return [
        [r, c]
        for r, (a, b) in enumerate(zip(first, second, strict=True))
        for c in range(len(a))
        if a[c] != b[c]
    ]


DESIGNER = Designer(
    title="Design a nonogram",
    note=(
        "Click cells to fill them; the clues follow at once. Check says whether line logic "
        "solves the clues and whether their solution is unique."
    ),
    puzzle=puzzle_of,
    files={suffix.removeprefix("."): WRITERS[suffix] for suffix in (".non", ".nin", ".xml")},
    check=check,
)
"""The designer the kind declares (``tools={"design": DESIGNER}``)."""
