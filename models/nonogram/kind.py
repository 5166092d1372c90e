"""The ``nonogram`` kind: its table of methods (:mod:`.solver`), options, files, pictures and
explanations (:mod:`.explain`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from cspsolve import tasks
from cspsolve.csp.gac import StopPropagationError
from cspsolve.explanation import Explanation
from cspsolve.kind import Generator, Kind, Method
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats

from .board import Grid, Nonogram, check
from .colour_board import ColourNonogram
from .design import DESIGNER
from .generate import GenerateOptions, make
from .io.formats import read, select, sniff, write
from .pictures import detail, draw, picture, scenes, state_scene, state_text
from .solver import (
    NonogramOptions,
    Puzzle,
    black_and_white_only,
    cdcl,
    cpsat,
    gac_astar_method,
    line_logic,
    mac_method,
    pattern_refusal,
    probing,
    python_constraint,
    sat,
    spares_kernels,
)

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["KIND", "analyze", "explain", "picture", "solve", "verify"]

SMALL = 225
"""Most cells ``cspsolve compare`` gives python-constraint (it takes minutes beyond 15x15)."""


def _small(puzzle: Puzzle) -> list[str | None]:
    return [None] if puzzle.width * puzzle.height <= SMALL else []


METHODS = (
    Method(
        name="probing",
        run=probing,
        summary="line logic, probing to a fixpoint and depth-first search on compiled bit "
        "grids (Wu et al. 2013; pbnsolve)",
        backend="compiled",
        optimal=None,
        complete=True,
        default=True,
    ),
    Method(
        name="gac-astar",
        run=gac_astar_method,
        summary="best-first search over GAC-propagated line variables (A*-GAC)",
        backend="csp",
        optimal=None,
        complete=True,
        refuses=black_and_white_only,
    ),
    Method(
        name="mac",
        run=mac_method,
        summary="depth-first search maintaining GAC (Sabin & Freuder 1994)",
        backend="csp",
        optimal=None,
        complete=True,
        refuses=black_and_white_only,
    ),
    Method(
        name="cpsat",
        run=cpsat,
        summary="OR-Tools CP-SAT, one automaton per line",
        backend="cp-sat",
        optimal=None,
        complete=True,
    ),
    Method(
        name="sat",
        run=sat,
        summary="CDCL SAT (CaDiCaL via python-sat), one regular encoding per line (Bacchus 2007)",
        backend="sat",
        optimal=None,
        complete=True,
        refuses=black_and_white_only,
    ),
    Method(
        name="cdcl",
        run=cdcl,
        summary="clause learning over the compiled line solvers (CDCL, lazy clause "
        "generation: Ohrimenko, Stuckey & Codish 2009)",
        backend="compiled",
        optimal=None,
        complete=True,
        refuses=black_and_white_only,
    ),
    Method(
        name="python-constraint",
        run=python_constraint,
        summary="explicit fill patterns per line handed to python-constraint2",
        backend="python-constraint",
        optimal=None,
        complete=True,
        refuses=pattern_refusal,
        compared=_small,
    ),
)


def solve(
    puzzle: Puzzle,
    method: str | None = None,
    *,
    limits: Limits | None = None,
    unique: bool = False,
) -> Result[Grid]:
    """Solve a nonogram (the library's shortcut to :func:`cspsolve.tasks.solve`).

    Parameters
    ----------
    puzzle : Nonogram or ColourNonogram
        The clues.
    method : str, optional
        A method of :data:`KIND` (default ``probing``; ``probing`` and ``cpsat`` solve colour
        puzzles, the others refuse them).
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    unique : bool
        Also decide whether the solution is unique; ``proof["unique"]`` is then true, false,
        or ``None`` when a limit stopped the search (``None`` too when not asked).

    Returns
    -------
    Result of Grid
        Status ``solved`` with the grid, ``unsolvable`` (with a ``message``), ``limit`` or
        ``cancelled``.

    Raises
    ------
    OptionError
        For an unknown method, a puzzle too large for ``python-constraint``, or a colour
        puzzle given to a method that refuses it.
    """
    request = tasks.Request(method, options={"unique": unique})
    return tasks.solve(KIND, puzzle, request=request, limits=limits)


def verify(
    puzzle: Puzzle, method: str | None = None, *, limits: Limits | None = None
) -> tasks.Verification:
    """Solve by ``method`` and by CP-SAT, both deciding uniqueness, and compare
    (:func:`cspsolve.tasks.verify`): every grid must pass :func:`.board.check`, the statuses
    and uniqueness verdicts must match, and a unique puzzle's two grids must be equal.

    Raises
    ------
    OptionError
        For an unknown method, or ``cpsat`` itself.
    """
    return tasks.verify(KIND, puzzle, request=tasks.Request(method), limits=limits)


def _load_kernels(puzzle: Puzzle) -> None:
    """Load the compiled kernels :func:`line_logic` runs on ``puzzle`` (before a clock starts)."""
    if isinstance(puzzle, ColourNonogram):
        from .search.colour import load_kernels

        load_kernels()
    else:
        from .search.portfolio import load_kernels as load_black

        load_black(puzzle)


def analyze(
    puzzle: Puzzle,
    *,
    method: str | None,
    heuristic: str | None,
    options: NonogramOptions,
    limits: Limits | None,
) -> dict[str, Any]:
    """Line-solvability, uniqueness and the search effort of a nonogram.

    Returns
    -------
    dict
        ``line_solvable`` (line logic alone fixes every cell), ``fixed_by_line_logic`` (cells),
        ``cells``, ``unique`` (``None`` when a limit stopped the search), ``status`` and the
        search's effort to solve and settle uniqueness: ``expanded`` (nodes), ``backtracks``
        (dead nodes), ``probes`` (trial assignments), ``propagations`` (line solves), and
        ``seconds``, line logic's and the search's (as :func:`solve` counts them: loading the
        compiled kernels and OR-Tools is not counted). Line logic counts against the time
        limit; when the limits stop it, ``line_solvable`` and ``fixed_by_line_logic`` are
        ``None``.

    Notes
    -----
    A small puzzle (:func:`.solver.spares_kernels`) gets line logic in plain Python, and loads
    the compiled kernels only when line logic leaves cells open: a puzzle it settles is
    analysed without them, and the effort of one it does not is always the compiled search's.
    """
    plain = spares_kernels(puzzle)
    if not plain:
        _load_kernels(puzzle)
    budget = (limits or Limits()).start(Stats())
    cells = puzzle.width * puzzle.height
    try:
        consistent, fixed = line_logic(puzzle, budget=budget)
        solvable, decided = consistent and fixed == cells, fixed if consistent else None
    except StopPropagationError:
        solvable, decided = None, None
    logic = budget.finish().seconds
    rest = budget.rest()
    if plain and decided is not None and decided < cells:
        _load_kernels(puzzle)
    request = tasks.Request(method, heuristic, {"unique": True})
    result = tasks.solve(KIND, puzzle, request=request, limits=rest)
    return {
        "line_solvable": solvable,
        "fixed_by_line_logic": decided,
        "cells": cells,
        "unique": result.proof.get("unique"),
        "status": result.status.value,
        "method": result.method,
        "expanded": result.stats.expanded,
        "backtracks": result.stats.backtracks,
        "probes": result.stats.probes,
        "propagations": result.stats.propagations,
        "seconds": round(logic + result.stats.seconds, 6),
    }


def encode(solution: Grid) -> dict[str, list[str]]:
    """The JSON form of a solved grid: ``{"grid": ["#..#", ...]}`` (rows top to bottom)."""
    return {"grid": list(solution)}


def describe(puzzle: Puzzle) -> str:
    """``WxH``, the colours of a colour puzzle and the title, e.g. ``25x20 "Cat"``,
    ``10x8, 3 colours "Flag"``."""
    size = f"{puzzle.width}x{puzzle.height}"
    if isinstance(puzzle, ColourNonogram):
        size += f", {len(puzzle.colours) - 1} colours"
    return f'{size} "{puzzle.title}"' if puzzle.title else size


def explain(
    puzzle: Puzzle,
    *,
    method: str | None,
    heuristic: str | None,
    options: NonogramOptions,
    limits: Limits | None,
) -> Explanation:
    """Explain the answer to a nonogram step by step (:mod:`.explain`), solved first by
    ``method`` (default ``probing``)."""
    from .explain import explain as explain_steps

    name = method or "probing"
    explained = explain_steps(
        puzzle,
        run=KIND.method(name).run,
        method=name,
        heuristic=heuristic,
        options=options,
        limits=limits,
    )
    # the states drawn from their cell masks: a colour cell's colours left, the cells decided
    explained.scene = functools.partial(state_scene, puzzle)
    explained.draw = functools.partial(state_text, puzzle)
    explained.detail = functools.partial(detail, puzzle)
    return explained


def constraint_graph(puzzle: Puzzle) -> nx.Graph:
    """The constraint graph of the line model: a node per row and column variable (``("row",
    i)``, ``("col", j)``), an edge per crossing cell — the complete bipartite graph
    K(height, width); a colour puzzle has the same graph, built directly."""
    if isinstance(puzzle, ColourNonogram):
        import networkx as nx

        graph = nx.Graph()
        rows, columns = range(puzzle.height), range(puzzle.width)
        graph.add_edges_from((("row", i), ("col", j)) for i in rows for j in columns)
        return graph
    from .constraints import build_csp

    return build_csp(puzzle).graph


def empty_grid(puzzle: Puzzle) -> Grid:
    """Every cell blank: the picture of the puzzle shows its clues."""
    return ("." * puzzle.width,) * puzzle.height


KIND = Kind(
    name="nonogram",
    title="Nonograms",
    extensions=frozenset({".non", ".nin", ".xml", ".tatham"}),
    priority=10,
    methods=METHODS,
    reference="cpsat",
    options=NonogramOptions,
    verify_options={"unique": True},
    analysis="line_solvable, cells fixed by line logic alone, unique, search nodes needed",
    sniff=sniff,
    read=read,
    select=select,
    write=write,
    check=check,
    encode=encode,
    describe=describe,
    draw=draw,
    scenes=scenes,
    explain=explain,
    analyze=analyze,
    constraint_graph=constraint_graph,
    blank=empty_grid,
    classes={"Nonogram": Nonogram, "ColourNonogram": ColourNonogram},
    tools={"design": DESIGNER},
    generator=Generator(
        options=GenerateOptions,
        make=make,
        extension=".non",
        note=(
            "Each puzzle is the clues of a random grid of --size (cells filled with "
            "probability --fill, in --colours colours if given) or of --image traced. "
            "--unique proves the solution unique by a search for a second solution (probing, "
            "solutions=2), changing a cell where one differs until none is left; --grade "
            "draws grids until explain grades the puzzle so. Each certificate lists what was "
            "proven and by what."
        ),
    ),
    samples=(
        "nonogram/jwilk-data000.nin",
        "nonogram/tournament-sample.txt#1",
        "nonogram/mushroom.non",
    ),
)
