"""Solve a nonogram by any of cspsolve's methods, and verify one method against another.

Methods
-------
``probing`` (the default)
    Depth-first search with probing at every node, on a compiled grid of cell codes
    (:mod:`.probing`): line logic on a worklist of dirty lines, probing to a fixpoint, branching
    on the cell whose trials fixed the most cells.
``gac-astar``
    Best-first search over GAC-propagated states (:func:`cspsolve.csp.gac_astar`) on the
    implicit-domain CSP of :mod:`.constraints`.
``mac``
    Depth-first search maintaining GAC (:func:`cspsolve.csp.mac`) on the same CSP.
``cpsat``
    The independent OR-Tools CP-SAT model of :mod:`.cpsat` (one automaton per line).
``python-constraint``
    Explicit pattern lists handed to python-constraint2 (:mod:`.explicit`); small puzzles only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cspsolve.csp import CSP, Assignment, gac_astar, mac
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

from .board import Grid, Nonogram, check
from .constraints import build_csp, grid_from_assignment

__all__ = ["DEFAULT_METHOD", "METHODS", "solve", "verify"]

METHODS = ("probing", "gac-astar", "mac", "cpsat", "python-constraint")
"""Names accepted by :func:`solve`."""

DEFAULT_METHOD = "probing"
"""The method used when none is named: the fastest on every benchmark set (see README)."""

_ENGINE: dict[str, Callable[[CSP, Limits | None, int], Result[Assignment]]] = {
    "gac-astar": gac_astar,
    "mac": mac,
}


def sum_mismatch(puzzle: Nonogram) -> str:
    """Say why the clues contradict each other by their totals ("" when the totals agree)."""
    by_rows = sum(map(sum, puzzle.rows))
    by_columns = sum(map(sum, puzzle.columns))
    if by_rows == by_columns:
        return ""
    return f"the row clues fill {by_rows} cells, the column clues {by_columns}"


def solve(
    puzzle: Nonogram,
    method: str = DEFAULT_METHOD,
    limits: Limits | None = None,
    unique: bool = False,
) -> Result[Grid]:
    """Solve a nonogram.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    method : str
        One of :data:`METHODS`.
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    unique : bool
        Also decide whether the solution is unique, by searching for a second one;
        ``proof["unique"]`` is then true, false, or ``None`` when a limit stopped the search.
        Without it, ``proof["unique"]`` is ``None`` (not checked).

    Returns
    -------
    Result of Grid
        Status ``solved`` with the grid, ``unsolvable`` (contradictory clues, with a
        ``message``), ``limit`` or ``cancelled``. Clues whose row and column totals differ are
        unsolvable at once for every method, the totals named in the message; CP-SAT refutes
        them by itself (its model's counting constraints), so that it stays an independent
        check.

    Raises
    ------
    ValueError
        For an unknown method, or a puzzle too large for ``python-constraint``.
    """
    if method not in METHODS:
        raise ValueError(
            f"unknown method {method!r} for nonograms; choose from {', '.join(METHODS)}"
        )
    wanted = 2 if unique else 1
    mismatch = sum_mismatch(puzzle)
    if method == "cpsat":
        from .cpsat import solve as solve_cpsat

        result = solve_cpsat(puzzle, limits=limits, max_solutions=wanted)
    elif mismatch:
        result = Result(Status.UNSOLVABLE, None, Stats(), method)
    elif method == "python-constraint":
        from .explicit import solve_python_constraint

        result = solve_python_constraint(puzzle, limits=limits, max_solutions=wanted)
    elif method == "probing":
        from .search.probing import solve_probing

        result = solve_probing(puzzle, limits=limits, max_solutions=wanted)
    else:
        found = _ENGINE[method](build_csp(puzzle), limits, wanted)
        result = found.map(functools.partial(grid_from_assignment, puzzle))
    if result.status is Status.UNSOLVABLE:
        result.message = mismatch or "no grid satisfies every clue"
        if unique:
            result.proof["unique"] = False
    result.proof.setdefault("unique", None)
    return result


def verify(
    puzzle: Nonogram, limits: Limits | None = None, method: str = DEFAULT_METHOD
) -> dict[str, Any]:
    """Solve by a search method and by CP-SAT, check both grids, and compare the answers.

    Both runs decide uniqueness. They *agree* when both finish with the same status and the
    same uniqueness verdict, every grid passes the independent :func:`.board.check`, and, for a
    unique puzzle, the two grids are equal. When a limit stops either run before it settles
    uniqueness, agreement is unknown (``None``) unless a grid already fails its check.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        Applied to each of the two runs.
    method : str
        The search method checked against CP-SAT.

    Returns
    -------
    dict
        ``{"search": Result, "reference": Result, "agree": bool | None, "problems": [str, ...]}``.
    """
    search = solve(puzzle, method, limits, unique=True)
    cpsat = solve(puzzle, "cpsat", limits, unique=True)
    problems: list[str] = []
    for result in (search, cpsat):
        if result.solution is not None:
            problems += [f"{result.method}: {p}" for p in check(puzzle, result.solution)]
    unsettled = [r.method for r in (search, cpsat) if r.proof["unique"] is None]
    if unsettled and not problems:
        problems.append(f"not settled within the limits: {', '.join(unsettled)}")
        return {"search": search, "reference": cpsat, "agree": None, "problems": problems}
    if search.status is not cpsat.status:
        problems.append(f"status differs: {search.status} vs {cpsat.status}")
    elif search.proof.get("unique") != cpsat.proof.get("unique"):
        problems.append(
            f"uniqueness differs: {search.proof.get('unique')} vs {cpsat.proof.get('unique')}"
        )
    elif search.proof.get("unique") and search.solution != cpsat.solution:
        problems.append("both claim a unique solution, but the grids differ")
    return {"search": search, "reference": cpsat, "agree": not problems, "problems": problems}
