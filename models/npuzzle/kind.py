"""The ``npuzzle`` kind of :mod:`cspsolve.registry`: what the command line calls.

Methods: the engine's searches of :mod:`cspsolve.search` on :class:`.search.SlidingTileProblem`
(``astar``, ``idastar``, ``weighted-astar`` with weight 2, ``greedy``, ``bfs``, ``iddfs``,
``dfs``) and the compiled ``tile-idastar`` of :mod:`.fastida`. Default: A* for boards of at
most 9 cells, ``tile-idastar`` above; the heuristic defaults to ``pdb`` (the best available).
Unsolvable boards are reported at once from the parity rule, without a search. The limits
cover the whole command: building the pattern databases counts against the time limit (and
stops with status ``limit`` when it passes), and ``verify`` gives its reference run only the
time its first run left.
"""

from __future__ import annotations

from typing import Any

from cspsolve.limits import Limits
from cspsolve.registry import Options
from cspsolve.render import Scene, plural
from cspsolve.results import Result, Stats, Status

from .board import Puzzle, apply, check, solvability
from .formats import read, select, sniff, write

__all__ = [
    "EXTENSIONS",
    "HEURISTICS",
    "METHODS",
    "NAME",
    "OPTIONS",
    "analyze",
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

NAME = "npuzzle"
METHODS = ("astar", "tile-idastar", "idastar", "weighted-astar", "greedy", "bfs", "iddfs", "dfs")
HEURISTICS = ("misplaced", "manhattan", "linear-conflict", "gaschnig", "pdb")
OPTIONS: frozenset[str] = frozenset()
EXTENSIONS = frozenset({".korf"})

_INFORMED = frozenset({"astar", "tile-idastar", "idastar", "weighted-astar", "greedy"})
_COMPILED_HEURISTICS = ("manhattan", "pdb")
WEIGHT = 2.0
"""Weight of ``weighted-astar`` (plans cost at most twice the optimum)."""

Plan = list[str]


def _choose(puzzle: Puzzle, options: Options) -> tuple[str, str | None]:
    """The (method, heuristic) to run: the user's, with the kind's defaults filled in."""
    method, name = options.method, options.heuristic
    if method is None:
        if puzzle.cells <= 9:
            method = "astar"
        elif name is None or name in _COMPILED_HEURISTICS:
            method = "tile-idastar"
        else:
            method = "idastar"
    if method not in _INFORMED:
        if name is not None:
            raise ValueError(f"{method} is uninformed: it takes no --heuristic")
        return method, None
    if method == "tile-idastar" and name not in (None, *_COMPILED_HEURISTICS):
        raise ValueError(f"tile-idastar computes {' and '.join(_COMPILED_HEURISTICS)} only")
    return method, name or "pdb"


def solve(puzzle: Puzzle, options: Options, limits: Limits | None) -> Result[Plan]:
    """Solve with ``options.method`` / ``options.heuristic`` (or the defaults above).

    An unsolvable board gives status ``unsolvable`` and the parity explanation at once.

    Raises
    ------
    ValueError
        For a heuristic given to an uninformed method, or one ``tile-idastar`` lacks.
    """
    method, name = _choose(puzzle, options)
    ok, why = solvability(puzzle)
    if not ok:
        return Result(Status.UNSOLVABLE, None, method=method, heuristic=name, message=why)
    if method == "tile-idastar":
        from . import fastida

        assert name is not None
        return fastida.solve(puzzle, name, limits=limits)
    from cspsolve import search as engine

    from .pdb import BuildStoppedError
    from .search import SlidingTileProblem, heuristic

    problem = SlidingTileProblem(puzzle)
    if name is None:
        if method == "bfs":
            return engine.bfs(problem, limits=limits)
        if method == "iddfs":
            return engine.iddfs(problem, limits=limits)
        return engine.dfs(problem, limits=limits)
    budget = (limits or Limits()).start(Stats())
    try:
        h = heuristic(name, puzzle, stop=budget.exhausted)
    except BuildStoppedError as stopped:
        return Result(stopped.status, None, budget.finish(), method, name, message=str(stopped))
    built = budget.finish().seconds
    rest = budget.rest()
    if method == "astar":
        result = engine.astar(problem, h, limits=rest)
    elif method == "weighted-astar":
        result = engine.astar(problem, h, limits=rest, weight=WEIGHT)
    elif method == "idastar":
        result = engine.idastar(problem, h, limits=rest)
    else:
        result = engine.greedy(problem, h, limits=rest)
    result.stats.seconds += built
    return result


def verify(puzzle: Puzzle, options: Options, limits: Limits | None) -> dict[str, Any]:
    """Cross-check the chosen method against an independent optimal search.

    There is no CP-SAT model of sliding tiles; the ``reference`` run is
    breadth-first search on boards of at most 9 cells, else the compiled IDA* with the
    Manhattan distance (a heuristic independent of the pattern databases). Both plans are
    replayed by :func:`.board.check`; they agree when both are valid and, where both are
    optimal, equally long. The reference run gets the time the first one left.
    """
    budget = (limits or Limits()).start(Stats())
    first = solve(puzzle, options, limits)
    reference_options = (
        Options(method="bfs")
        if puzzle.cells <= 9
        else Options(method="tile-idastar", heuristic="manhattan")
    )
    second = solve(puzzle, reference_options, budget.rest())
    problems: list[str] = []
    for result in (first, second):
        if result.solution is not None:
            problems += [f"{result.method}: {p}" for p in check(puzzle, result.solution)]
    agree: bool | None
    if not (first.status.has_solution or first.status == Status.UNSOLVABLE) or not (
        second.status.has_solution or second.status == Status.UNSOLVABLE
    ):
        agree = None
    elif first.status == Status.OPTIMAL and second.status == Status.OPTIMAL:
        if first.stats.cost != second.stats.cost:
            problems.append(
                f"optimal lengths differ: {first.stats.cost:g} vs {second.stats.cost:g}"
            )
        agree = not problems
    else:
        agree = first.status.has_solution == second.status.has_solution and not problems
    return {"search": first, "reference": second, "agree": agree, "problems": problems}


def analyze(puzzle: Puzzle, options: Options, limits: Limits | None) -> dict[str, Any]:
    """Solvability (with its reason), heuristic values of the start, and the optimal length.

    Returns
    -------
    dict
        ``solvable``, ``reason``, ``manhattan``, ``linear_conflict``, ``optimal_length`` (when
        computed: the default method proves it; ``None`` when a limit stopped it), ``status``,
        ``method``, ``expanded``, ``seconds``.
    """
    from .search import heuristic

    ok, why = solvability(puzzle)
    out: dict[str, Any] = {"solvable": ok, "reason": why, "cells": puzzle.cells}
    if not ok:
        return out
    state = bytes(puzzle.start)
    out["manhattan"] = int(heuristic("manhattan", puzzle)(state))
    out["linear_conflict"] = int(heuristic("linear-conflict", puzzle)(state))
    result = solve(puzzle, Options(), limits)
    optimal = result.status == Status.OPTIMAL
    out["optimal_length"] = int(result.stats.cost) if optimal else None
    out["status"] = result.status.value
    out["method"] = result.method
    out["expanded"] = result.stats.expanded
    out["seconds"] = round(result.stats.seconds, 6)
    return out


def runs(puzzle: Puzzle, options: Options) -> list[tuple[str, str | None]]:
    """The methods x heuristics table of ``cspsolve compare``, without hopeless pairs.

    Up to 9 cells: A* and IDA* with every heuristic, the compiled IDA*, weighted A* and greedy
    with Manhattan, BFS and DFS (graph search finishes on 181,440 states; IDDFS, a tree search,
    does not on deep boards and is left out). Larger boards: the compiled IDA* with both its
    heuristics, and the engine's searches with the pattern databases or linear conflict only.
    """
    if puzzle.cells <= 9:
        pairs: list[tuple[str, str | None]] = [("astar", h) for h in HEURISTICS]
        pairs += [("idastar", h) for h in HEURISTICS]
        pairs += [("tile-idastar", h) for h in _COMPILED_HEURISTICS]
        pairs += [("weighted-astar", "manhattan"), ("greedy", "manhattan")]
        return [*pairs, ("bfs", None), ("dfs", None)]
    pairs = [("tile-idastar", h) for h in _COMPILED_HEURISTICS]
    return [
        *pairs,
        ("idastar", "pdb"),
        ("astar", "pdb"),
        ("weighted-astar", "linear-conflict"),
        ("greedy", "linear-conflict"),
    ]


def encode(solution: Plan) -> dict[str, Any]:
    """The JSON form of a plan: ``{"moves": ["U", "L", ...], "count": N}``."""
    return {"moves": list(solution), "count": len(solution)}


def describe(puzzle: Puzzle) -> str:
    """``3x3 (8-puzzle)``, ``2x4``..."""
    size = f"{puzzle.rows}x{puzzle.cols}"
    return f"{size} ({puzzle.cells - 1}-puzzle)" if puzzle.rows == puzzle.cols else size


def _grid(puzzle: Puzzle, tiles: tuple[int, ...]) -> list[str]:
    width = len(str(puzzle.cells - 1))
    return [
        " ".join(
            str(t).rjust(width) if t else ".".rjust(width)
            for t in tiles[r * puzzle.cols :][: puzzle.cols]
        )
        for r in range(puzzle.rows)
    ]


def draw(puzzle: Puzzle, solution: Plan) -> str:
    """The start and the goal side by side, then the moves of the blank."""
    start, goal = _grid(puzzle, puzzle.start), _grid(puzzle, puzzle.goal)
    lines = [
        f"{a}   {'->' if i == puzzle.rows // 2 else '  '}   {b}"
        for i, (a, b) in enumerate(zip(start, goal, strict=True))
    ]
    moves = " ".join(solution) if solution else "(already solved)"
    count = f"{plural(len(solution), 'move')}"
    return "\n".join([*lines, f"{count} of the blank: {moves}"])


def scenes(puzzle: Puzzle, solution: Plan) -> list[Scene]:
    """One picture per board along the plan: the start, then the board after every move."""
    boards = [puzzle.start]
    for move in solution:
        boards.append(apply(puzzle, boards[-1], move=move))
    out = []
    for k, tiles in enumerate(boards):
        rows = range(puzzle.rows)
        fills = tuple(
            tuple(
                "white" if t == 0 else "#f2d08a"
                for t in tiles[r * puzzle.cols : (r + 1) * puzzle.cols]
            )
            for r in rows
        )
        texts = tuple(
            tuple(str(t) if t else "" for t in tiles[r * puzzle.cols : (r + 1) * puzzle.cols])
            for r in rows
        )
        caption = "start" if k == 0 else f"move {k} of {len(solution)}: {solution[k - 1]}"
        out.append(Scene(fills, texts, caption=caption))
    return out
