"""A SAT model of the black-and-white nonogram, solved by a CDCL solver (method ``sat``).

One Boolean variable per cell (true = filled), numbered row by row from 1; each row and each
column states its clue in the order encoding of its blocks' starts (:func:`line_clauses`,
whose models are exactly the clue's fill patterns); the solver propagates the clauses and
learns new ones from its conflicts (Marques-Silva & Sakallah, "GRASP", *IEEE Trans.
Computers* 48(5), 1999). Nonograms as SAT: Bosch, "Painting by numbers", *Optima* 65, 2001
(as an integer programme); Batenburg & Kosters 2012, "On the difficulty of nonograms", *ICGA
Journal* 35(4).

The model is built in plain Python, independent of the compiled solver: the ``sat`` method
cross-checks ``probing`` as CP-SAT does. Uniqueness (``max_solutions=2``) adds, after the first
solution, the clause "some cell differs" and solves again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cspsolve.csp.sat import SOLVER, Cnf, Solved, building, solve_cnf
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats

from .board import Clue, Grid, Nonogram

__all__ = ["line_clauses", "solve"]


def line_clauses(cnf: Cnf, cells: Sequence[int], clue: Clue) -> None:
    """Require the cells ``cells`` (DIMACS variables, true = filled) to spell a fill pattern of
    ``clue``, in the order encoding of the blocks' starts.

    For block ``j`` of length ``b_j``, whose start lies between its earliest ``e_j`` (every
    block before it packed to the left) and latest ``l_j`` (every block from it packed to the
    right), one variable ``start_j <= p`` for each ``e_j <= p < l_j``, and the clauses:

    * order: ``start_j <= p -> start_j <= p + 1``;
    * spacing: ``start_(j+1) <= p -> start_j <= p - b_j - 1``;
    * cover: a variable ``cover_j(c)`` for each cell ``c`` block ``j`` can reach, true when it
      covers it: ``cover_j(c) <-> start_j <= c and not start_j <= c - b_j``;
    * cells: cell ``c`` is filled when some block covers it, and empty when none does.

    The starts of the blocks are ordered and spaced, so the models, projected on the cells,
    are exactly the clue's patterns (tested against every pattern of short lines). The order
    encoding of integer variables: Tamura, Taga, Kitagawa & Banbara, "Compiling finite linear
    CSP into SAT", *Constraints* 14(2), 2009; its use for nonograms' block starts as in the
    solver ``nonosolve`` (hyouv/FastNonogramSolver, README). Cost: about ``k s`` variables and
    clauses for ``k`` blocks and a slack of ``s = n - (sum of blocks + k - 1)`` cells, with
    ``n`` more for the cells.
    """
    n, k = len(cells), len(clue)
    earliest = [sum(clue[:j]) + j for j in range(k)]
    latest = [n - sum(clue[j:]) - (k - 1 - j) for j in range(k)]
    if k and latest[0] < 0:  # the clue does not fit: a variable both true and false
        refuted = cnf.new()
        cnf.clauses += [[refuted], [-refuted]]
        return
    at_most = [{p: cnf.new() for p in range(earliest[j], latest[j])} for j in range(k)]

    def le(j: int, p: int) -> int | bool:
        """``start_j <= p``: a literal, or a constant outside ``e_j .. l_j - 1``."""
        return at_most[j][p] if earliest[j] <= p < latest[j] else p >= latest[j]

    clauses = cnf.clauses
    for j in range(k):
        for p in range(earliest[j], latest[j] - 1):
            clauses.append([-at_most[j][p], at_most[j][p + 1]])
        if j + 1 < k:
            for p, here in at_most[j + 1].items():
                clauses.append([-here, at_most[j][p - clue[j] - 1]])
    covering: list[list[int]] = [[] for _ in range(n)]
    for j, length in enumerate(clue):
        for c in range(earliest[j], latest[j] + length):
            began, gone = le(j, c), le(j, c - length)
            if began is True and gone is False:  # every placement covers c
                covering[c].append(0)
                continue
            cover = cnf.new()
            covering[c].append(cover)
            implied = [cover]
            for literal, wanted in ((began, True), (gone, False)):
                if not isinstance(literal, bool):
                    clauses.append([-cover, literal if wanted else -literal])
                    implied.append(-literal if wanted else literal)
            clauses.append(implied)
    for c, cell in enumerate(cells):
        if 0 in covering[c]:
            clauses.append([cell])
            continue
        clauses.append([-cell, *covering[c]])
        clauses += ([-cover, cell] for cover in covering[c])


def _encoding(puzzle: Nonogram, cnf: Cnf) -> Iterator[None]:
    """Add the cells and every line's clauses (:func:`line_clauses`) to the empty ``cnf``
    (cell ``(i, j)`` is variable ``i * W + j + 1``), yielding after each line (see
    :meth:`cspsolve.limits.Budget.step_through`)."""
    height, width = puzzle.height, puzzle.width
    cnf.new(height * width)
    for i, clue in enumerate(puzzle.rows):
        line_clauses(cnf, [i * width + j + 1 for j in range(width)], clue)
        yield
    for j, clue in enumerate(puzzle.columns):
        line_clauses(cnf, [i * width + j + 1 for i in range(height)], clue)
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
