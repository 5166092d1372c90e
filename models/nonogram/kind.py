"""The ``nonogram`` kind of :mod:`cspsolve.registry`: what the command line calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cspsolve.limits import Limits
from cspsolve.registry import Options
from cspsolve.render import Scene, labelled_grid
from cspsolve.results import Result

from . import solver
from .board import Grid, Nonogram
from .io.formats import read, select, sniff, write

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "EXTENSIONS",
    "HEURISTICS",
    "METHODS",
    "NAME",
    "OPTIONS",
    "analyze",
    "constraint_graph",
    "describe",
    "draw",
    "encode",
    "read",
    "runs",
    "scenes",
    "select",
    "sniff",
    "solve",
    "verify",
    "write",
]

NAME = "nonogram"
METHODS = solver.METHODS
HEURISTICS: tuple[str, ...] = ()
OPTIONS = frozenset({"unique"})
EXTENSIONS = frozenset({".non", ".nin", ".xml", ".tatham"})


def _method(options: Options) -> str:
    return options.method or solver.DEFAULT_METHOD


def solve(puzzle: Nonogram, options: Options, limits: Limits | None) -> Result[Grid]:
    """Solve with ``options.method`` (default: probing), deciding uniqueness if asked."""
    return solver.solve(puzzle, _method(options), limits, unique=options.unique)


def verify(puzzle: Nonogram, options: Options, limits: Limits | None) -> dict[str, Any]:
    """Cross-check the search method of ``options`` against CP-SAT (see :func:`.solver.verify`)."""
    method = _method(options)
    if method == "cpsat":
        raise ValueError("verify checks a search method against CP-SAT; pick another --method")
    return solver.verify(puzzle, limits, method)


def line_logic(puzzle: Nonogram) -> tuple[bool, int]:
    """What line logic alone (GAC on the line constraints, no probing, no search) decides.

    Runs the fast solver's worklist propagation (:func:`.probing.line_logic`) from the empty
    grid.

    Returns
    -------
    tuple of (bool, int)
        Whether the clues are consistent under line logic, and how many cells it fixes.
    """
    from .lines.cells import UNKNOWN
    from .search.probing import line_logic as propagate_lines

    consistent, grid, _ = propagate_lines(puzzle)
    return consistent, int((grid != UNKNOWN).sum())


def analyze(puzzle: Nonogram, options: Options, limits: Limits | None) -> dict[str, Any]:
    """Line-solvability, uniqueness and the search effort of a nonogram.

    Returns
    -------
    dict
        ``line_solvable`` (line logic alone fixes every cell), ``fixed_by_line_logic`` (cells),
        ``cells``, ``unique`` (``None`` when a limit stopped the search), ``status`` and the
        search's effort to solve and settle uniqueness: ``expanded`` (nodes), ``backtracks``
        (dead nodes), ``probes`` (trial assignments), ``propagations`` (line solves).
    """
    consistent, fixed = line_logic(puzzle)
    cells = puzzle.width * puzzle.height
    result = solver.solve(puzzle, _method(options), limits, unique=True)
    return {
        "line_solvable": consistent and fixed == cells,
        "fixed_by_line_logic": fixed if consistent else None,
        "cells": cells,
        "unique": result.proof.get("unique"),
        "status": result.status.value,
        "method": result.method,
        "expanded": result.stats.expanded,
        "backtracks": result.stats.backtracks,
        "probes": result.stats.probes,
        "propagations": result.stats.propagations,
        "seconds": round(result.stats.seconds, 6),
    }


def runs(puzzle: Nonogram, options: Options) -> list[tuple[str, str | None]]:
    """Every method; python-constraint only up to 15x15 cells (it takes minutes beyond)."""
    small = puzzle.width * puzzle.height <= 225
    return [(m, None) for m in METHODS if m != "python-constraint" or small]


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


def scenes(puzzle: Nonogram, solution: Grid) -> list[Scene]:
    """One picture: the solved grid, its clues left of the rows and stacked above the columns."""
    fills = tuple(tuple("black" if ch == "#" else "white" for ch in row) for row in solution)
    return [
        Scene(
            fills,
            row_labels=tuple(" ".join(map(str, clue)) for clue in puzzle.rows),
            column_labels=tuple("\n".join(map(str, clue)) for clue in puzzle.columns),
            caption=puzzle.title,
        )
    ]


def constraint_graph(puzzle: Nonogram) -> nx.Graph:
    """The constraint graph of the line model: a node per row and column variable (``("row",
    i)``, ``("col", j)``), an edge per crossing cell — the complete bipartite graph
    K(height, width)."""
    from .constraints import build_csp

    return build_csp(puzzle).graph
