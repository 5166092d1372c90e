"""An independent CP-SAT model of the nonogram, to cross-check the engine's answers.

One Boolean variable per cell (1 = filled). Each row and each column must spell a word of the
regular language of its clue ``(b1, ..., bk)``::

    0* 1^b1 0+ 1^b2 0+ ... 0+ 1^bk 0*

which is stated with one ``add_automaton`` constraint over the line's cells: the *regular*
constraint of Pesant 2004, "A regular language membership constraint for finite sequences of
variables", *Principles and Practice of Constraint Programming (CP 2004)*, LNCS 3258, pp.
482-495 - nonograms are the example of that paper. CP-SAT (Perron, Didier & Gay, "The CP-SAT-LP
solver", CP 2023) propagates it and learns clauses. Redundant counting constraints (each line
fills the sum of its clue; the grid fills the sum of the row clues and of the column clues)
let presolve refute clues whose totals differ, which the automata alone leave to search.

Uniqueness (``max_solutions=2``) is decided by adding, after the first solution, the clause
"some cell differs from it" and solving again.

OR-Tools is imported inside the functions, not at module import (start-up time).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cspsolve.csp.cpsat import check_counts, enumerate_solutions
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats

from .board import Clue, Grid, Nonogram
from .colour_cpsat import automaton as colour_automaton

__all__ = ["automaton", "solve"]


def automaton(clue: Clue) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """The deterministic automaton of a clue's language ``0* 1^b1 0+ ... 1^bk 0*``.

    The states are positions in the word ``1^b1 0 1^b2 0 ... 0 1^bk`` (state ``s``: its first
    ``s`` letters have been read); reading the next letter of the word moves from ``s`` to
    ``s + 1``, and a ``0`` may repeat in place at the start (state 0), after each gap's
    mandatory ``0``, and at the end: the colour automaton (:func:`.colour_cpsat.automaton`) of
    the clue's blocks all of colour 1.

    Parameters
    ----------
    clue : Clue
        Run lengths; ``()`` for an empty line.

    Returns
    -------
    start : int
        The initial state, 0.
    finals : list of int
        The single accepting state, the length of the word.
    transitions : list of (int, int, int)
        ``(state, letter, next state)`` triples.

    Examples
    --------
    >>> automaton((2,))
    (0, [2], [(0, 0, 0), (0, 1, 1), (1, 1, 2), (2, 0, 2)])
    """
    return colour_automaton(tuple((b, 1) for b in clue))


def _build(model: Any, puzzle: Nonogram, cells: list[list[Any]]) -> Iterator[None]:
    """Add the cells (to ``cells``, a row at a time), the lines' automata and the counts
    (:func:`_add_counts`) to ``model``, yielding after each row of cells, automaton and count
    (see :meth:`cspsolve.limits.Budget.step_through`)."""
    height, width = puzzle.height, puzzle.width
    for i in range(height):
        cells.append([model.new_bool_var(f"c{i}_{j}") for j in range(width)])
        yield
    for i, clue in enumerate(puzzle.rows):
        start, finals, transitions = automaton(clue)
        model.add_automaton(cells[i], start, finals, transitions)
        yield
    for j, clue in enumerate(puzzle.columns):
        start, finals, transitions = automaton(clue)
        model.add_automaton([cells[i][j] for i in range(height)], start, finals, transitions)
        yield
    yield from _add_counts(model, puzzle, cells)


def _add_counts(model: Any, puzzle: Nonogram, cells: list[list[Any]]) -> Iterator[None]:
    """Add the counts the clues imply, redundant with the automata, yielding after each: each
    line fills the sum of its clue, and the whole grid fills the sum of the row clues and that
    of the column clues.

    The automata alone leave CP-SAT to discover a contradiction between the totals by search
    (a 13x13 puzzle whose rows fill 51 cells and columns 50 took 1.4 million branches); with
    the counts, presolve refutes it at once.
    """
    for row, clue in zip(cells, puzzle.rows, strict=True):
        model.add(sum(row) == sum(clue))
        yield
    for j, clue in enumerate(puzzle.columns):
        model.add(sum(row[j] for row in cells) == sum(clue))
        yield
    every = [cell for row in cells for cell in row]
    model.add(sum(every) == sum(map(sum, puzzle.rows)))
    model.add(sum(every) == sum(map(sum, puzzle.columns)))


def solve(
    puzzle: Nonogram,
    *,
    limits: Limits | None = None,
    max_solutions: int = 1,
    workers: int = 1,
) -> Result[Grid]:
    """Solve a nonogram with CP-SAT: one Boolean per cell, one automaton per line.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        ``time_limit`` bounds the whole run, building the model included (a second solve gets
        the time left), and ``cancel`` stops it (see :func:`cspsolve.csp.cpsat.solve_model`);
        ``max_nodes`` and ``progress`` do not apply to CP-SAT.
    max_solutions : int
        1 to solve, 2 to decide uniqueness.
    workers : int
        CP-SAT's ``num_workers``; the default 1 makes runs deterministic.

    Returns
    -------
    Result
        The grid (rows of ``#`` and ``.``, top to bottom); status ``solved``, ``unsolvable``
        (proven, e.g. contradictory clues), ``limit`` or ``cancelled``. ``proof["unique"]``
        when ``max_solutions >= 2`` (``None`` if a limit stopped the second solve);
        ``stats.extra`` holds ``conflicts`` and ``branches`` (summed over solves) and
        ``solutions``, the count of those listed in ``solutions``. Method ``"cpsat"``.

    Raises
    ------
    OptionError
        If ``max_solutions < 1`` or ``workers < 1``.
    """
    check_counts(max_solutions=max_solutions, workers=workers)
    from ortools.sat.python import cp_model  # before the clock starts: the import is slow

    stats = Stats()
    budget = (limits or Limits()).start(stats)
    model = cp_model.CpModel()
    cells: list[list[Any]] = []
    stopped = budget.step_through(_build(model, puzzle, cells))
    if stopped:
        return Result.from_solutions(
            budget.finish(), "cpsat", [], max_solutions=max_solutions, stopped=stopped
        )

    def read(solver: Any) -> Grid:
        return tuple("".join("#" if solver.boolean_value(c) else "." for c in row) for row in cells)

    def exclude(grid: Grid) -> bool:
        model.add_bool_or(
            [
                ~cells[i][j] if ch == "#" else cells[i][j]
                for i, line in enumerate(grid)
                for j, ch in enumerate(line)
            ]
        )
        return True

    solutions, stopped = enumerate_solutions(
        model, budget, max_solutions=max_solutions, read=read, exclude=exclude, workers=workers
    )
    found = Result.from_solutions(
        budget.finish(), "cpsat", solutions, max_solutions=max_solutions, stopped=stopped
    )
    found.solutions = solutions
    return found
