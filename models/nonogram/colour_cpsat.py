"""An independent CP-SAT model of the colour nonogram, to cross-check the colour solver.

One integer variable per cell, its colour (0 the background). Each row and each column must
spell a word of the regular language of its clue ``(L1, c1), ..., (Lk, ck)``::

    0* c1^L1 G1 c2^L2 G2 ... ck^Lk 0*

where the gap ``Gj`` between blocks ``j`` and ``j + 1`` is ``0+`` when they have the same colour
and ``0*`` when not; it is stated with one ``add_automaton`` constraint over the line's cells
(the *regular* constraint of Pesant 2004, *CP 2004*, LNCS 3258, pp. 482-495, whose example is
the nonogram; over colour values as in the MiniZinc and Gecode colour nonogram models). A
Boolean per cell and colour, exactly one true per cell, carries redundant counting
constraints: each line has as many cells of each colour as its clue, and the grid as many by
the rows as by the columns, so that presolve refutes clues whose totals differ.

Uniqueness (``max_solutions=2``) is decided by adding, after the first solution, the clause
"some cell has another colour" and solving again. OR-Tools is imported inside :func:`solve`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cspsolve.csp.cpsat import check_counts, enumerate_solutions
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats

from .colour_board import ColourClue, ColourNonogram, Grid

__all__ = ["automaton", "solve"]


def automaton(clue: ColourClue) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """The deterministic automaton of a colour clue's language (see the module docstring).

    The states are positions in the word ``c1^L1 g1 c2^L2 ... ck^Lk``, where ``gj`` is one ``0``
    between blocks of the same colour and nothing between blocks of different colours (state
    ``s``: its first ``s`` letters have been read). Reading the next letter of the word moves
    from ``s`` to ``s + 1``; a ``0`` may repeat in place at the start, at the end, after each
    gap's ``0``, and between two touching blocks of different colours.

    Parameters
    ----------
    clue : ColourClue
        The blocks; ``()`` for a line of background.

    Returns
    -------
    start : int
        The initial state, 0.
    finals : list of int
        The single accepting state, the length of the word.
    transitions : list of (int, int, int)
        ``(state, colour, next state)`` triples.

    Examples
    --------
    >>> automaton(((1, 1), (1, 2)))
    (0, [2], [(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 2, 2), (2, 0, 2)])
    """
    word: list[int] = []
    for length, colour in clue:
        if word and word[-1] == colour:
            word.append(0)
        word.extend([colour] * length)
    end = len(word)
    transitions: list[tuple[int, int, int]] = []
    for s in range(end + 1):
        between = 0 < s < end and 0 != word[s - 1] != word[s] != 0
        if s == 0 or s == end or word[s - 1] == 0 or between:
            transitions.append((s, 0, s))
        if s < end:
            transitions.append((s, word[s], s + 1))
    return 0, [end], transitions


def _build(
    model: Any, puzzle: ColourNonogram, cells: list[list[Any]], is_colour: list[list[list[Any]]]
) -> Iterator[None]:
    """Add a row of cells at a time (to ``cells``, their Booleans to ``is_colour``), then the
    lines' automata and the counts (:func:`_add_counts`) to ``model``, yielding after each row,
    automaton and count (see :meth:`cspsolve.limits.Budget.step_through`)."""
    height, width, count = puzzle.height, puzzle.width, len(puzzle.colours)
    for i in range(height):
        cells.append([model.new_int_var(0, count - 1, f"c{i}_{j}") for j in range(width)])
        is_colour.append(
            [[model.new_bool_var(f"b{i}_{j}_{c}") for c in range(count)] for j in range(width)]
        )
        for cell, bools in zip(cells[i], is_colour[i], strict=True):
            model.add_exactly_one(bools)
            model.add(cell == sum(c * b for c, b in enumerate(bools)))
        yield
    for i, clue in enumerate(puzzle.rows):
        model.add_automaton(cells[i], *automaton(clue))
        yield
    for j, clue in enumerate(puzzle.columns):
        model.add_automaton([cells[i][j] for i in range(height)], *automaton(clue))
        yield
    yield from _add_counts(model, puzzle, is_colour)


def _add_counts(
    model: Any, puzzle: ColourNonogram, is_colour: list[list[list[Any]]]
) -> Iterator[None]:
    """Add the counts the clues imply, redundant with the automata, yielding after each line's:
    each line has the cells of each colour its clue has, and the grid as many of each by the
    rows as by the columns."""
    lines = [(row, clue) for row, clue in zip(is_colour, puzzle.rows, strict=True)]
    lines += [([row[j] for row in is_colour], clue) for j, clue in enumerate(puzzle.columns)]
    for colour in range(1, len(puzzle.colours)):
        for cells, clue in lines:
            model.add(sum(cell[colour] for cell in cells) == sum(n for n, c in clue if c == colour))
            yield
        every = sum(cell[colour] for row in is_colour for cell in row)
        for clues in (puzzle.rows, puzzle.columns):
            model.add(every == sum(n for clue in clues for n, c in clue if c == colour))


def solve(
    puzzle: ColourNonogram,
    *,
    limits: Limits | None = None,
    max_solutions: int = 1,
    workers: int = 1,
) -> Result[Grid]:
    """Solve a colour nonogram with CP-SAT: one colour per cell, one automaton per line.

    The options, the limits and the result are those of the black-and-white model's
    :func:`..cpsat.solve`; the grid's rows are colour keys (``.`` the background).

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
    is_colour: list[list[list[Any]]] = []
    stopped = budget.step_through(_build(model, puzzle, cells, is_colour))
    if stopped:
        return Result.from_solutions(
            budget.finish(), "cpsat", [], max_solutions=max_solutions, stopped=stopped
        )
    keys = [c.key for c in puzzle.colours]

    def read(solver: Any) -> Grid:
        return tuple("".join(keys[solver.value(c)] for c in row) for row in cells)

    def exclude(grid: Grid) -> bool:
        model.add_bool_or(
            [
                ~is_colour[i][j][keys.index(key)]
                for i, line in enumerate(grid)
                for j, key in enumerate(line)
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
