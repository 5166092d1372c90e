"""A SAT model of the black-and-white nonogram, solved by a CDCL solver (method ``sat``).

One Boolean variable per cell (true = filled), numbered row by row from 1; each row and each
column spells a word of its clue's regular language ``0* 1^b1 0+ ... 0+ 1^bk 0*``, stated
with the automaton of :func:`.cpsat.automaton` in the encoding of Bacchus 2007
(:meth:`cspsolve.csp.sat.Cnf.regular`, whose models are exactly the clue's words); the
solver propagates the clauses and learns new ones from its conflicts (Marques-Silva &
Sakallah, "GRASP", *IEEE Trans. Computers* 48(5), 1999). Nonograms as SAT: Bosch, "Painting by
numbers", *Optima* 65, 2001 (as an integer programme); Batenburg & Kosters 2012, "On the
difficulty of nonograms", *ICGA Journal* 35(4).

The model is built in plain Python, independent of the compiled solver: the ``sat`` method
cross-checks ``probing`` as CP-SAT does. Uniqueness (``max_solutions=2``) adds, after the first
solution, the clause "some cell differs" and solves again.
"""

from __future__ import annotations

from collections.abc import Iterator

from cspsolve.csp.sat import SOLVER, Cnf, Solved, building, solve_cnf
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats

from .board import Grid, Nonogram
from .cpsat import automaton

__all__ = ["solve"]


def _encoding(puzzle: Nonogram, cnf: Cnf) -> Iterator[None]:
    """Add the cells and every line's clauses to the empty ``cnf`` (cell ``(i, j)`` is variable
    ``i * W + j + 1``), yielding after each line (see
    :meth:`cspsolve.limits.Budget.step_through`)."""
    height, width = puzzle.height, puzzle.width
    cnf.new(height * width)
    for i, clue in enumerate(puzzle.rows):
        cnf.regular([i * width + j + 1 for j in range(width)], *automaton(clue))
        yield
    for j, clue in enumerate(puzzle.columns):
        cnf.regular([i * width + j + 1 for i in range(height)], *automaton(clue))
        yield


def solve(
    puzzle: Nonogram, *, limits: Limits | None = None, max_solutions: int = 1, solver: str = SOLVER
) -> Result[Grid]:
    """Solve a nonogram with a CDCL SAT solver (see the module docstring).

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        The time limit covers building the clauses and every solver call, and stops the
        solver within its search (as cancellation does); the node limit bounds the solver's
        conflicts (``stats.expanded`` counts them).
    max_solutions : int
        1 to solve, 2 to decide uniqueness (more lists more solutions).
    solver : str
        The python-sat solver (:data:`cspsolve.csp.sat.SOLVER`, CaDiCaL, by default).

    Returns
    -------
    Result of Grid
        As :meth:`cspsolve.results.Result.from_solutions`, method ``"sat"``; ``stats.extra``
        holds the solver's ``decisions``, ``restarts`` and ``variables`` and ``clauses`` of
        the formula; ``propagations`` counts its unit propagations.

    Raises
    ------
    OptionError
        If ``max_solutions < 1``.
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    cnf = Cnf()
    with building():
        stopped = budget.step_through(_encoding(puzzle, cnf))
    cells = range(1, puzzle.height * puzzle.width + 1)
    if stopped:
        found = Solved([], stopped, {})
    else:
        found = solve_cnf(cnf, cells, budget, max_models=max_solutions, solver=solver)
    stats.propagations += found.counters.get("propagations", 0)
    stats.extra |= {
        "decisions": found.counters.get("decisions", 0),
        "restarts": found.counters.get("restarts", 0),
        "variables": cnf.variables,
        "clauses": len(cnf.clauses),
    }
    width = puzzle.width
    solutions: list[Grid] = [
        tuple(
            "".join("#" if model[i * width + j] else "." for j in range(width))
            for i in range(puzzle.height)
        )
        for model in found.models
    ]
    result = Result.from_solutions(
        budget.finish(), "sat", solutions, max_solutions=max_solutions, stopped=found.stopped
    )
    result.solutions = solutions
    return result
