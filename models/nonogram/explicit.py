"""The nonogram as an explicit CSP: one variable per line over the list of its fill patterns.

Each row and each column is a variable whose domain is every way of placing its clue on the
line, listed in full; a binary constraint at each crossing makes the row and the column agree on
their common cell. This is the "line as a variable" model of nonograms (e.g. Bosch, "Painting by
numbers", *Optima* 65, 2001; Batenburg & Kosters, "Solving nonograms by combining relaxations",
*Pattern Recognition* 42(8), 2009) with its domains enumerated, so that generic solvers that need
explicit domains (python-constraint, CP-SAT tables) can run it. The engine's own nonogram model
keeps these domains implicit; this one is only for small puzzles and cross-checks.

A pattern is an ``int`` bitmask: bit ``p`` is cell ``p`` of the line, ``p = 0`` the leftmost
(in a row) or top (in a column) cell.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterator

from cspsolve.csp.domains import Domain, ExplicitDomain
from cspsolve.csp.model import CSP, Constraint, Relation
from cspsolve.csp.python_constraint import solve_python_constraint as _solve_explicit
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats

from .board import Clue, Grid, Nonogram
from .constraints import grid_from_assignment

__all__ = [
    "MAX_PATTERNS",
    "count_patterns",
    "explicit_csp",
    "grid_from_assignment",
    "patterns",
    "solve_python_constraint",
    "too_large",
]


MAX_PATTERNS = 20_000
"""Most fill patterns a line may have to be handed to python-constraint (by default)."""


def patterns(clue: Clue, length: int) -> list[int]:
    """Every fill pattern of ``clue`` on a line of ``length`` cells, as bitmasks.

    The patterns are generated recursively, block by block: the first block is placed at each
    possible start from left to right and the remaining blocks are placed after it (a gap of at
    least one cell between blocks), so only fitting placements are ever built, never the
    ``2**length`` lines.

    Parameters
    ----------
    clue : Clue
        Run lengths, left to right; ``()`` for an empty line.
    length : int
        Cells in the line.

    Returns
    -------
    list of int
        The patterns (bit ``p`` set when cell ``p`` is filled, ``p = 0`` leftmost), ordered by
        the tuple of block start positions, compared lexicographically: a pattern comes first
        when, at the first block whose position differs, its block starts further left. Empty
        when the clue does not fit; ``[0]`` for the empty clue.

    Examples
    --------
    >>> [format(p, "04b")[::-1] for p in patterns((1, 1), 4)]
    ['1010', '1001', '0101']
    """
    # room[k]: cells needed by blocks k.. (their runs and the gaps between them).
    k = len(clue)
    room = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        room[i] = clue[i] + (room[i + 1] + 1 if i + 1 < k else 0)
    if room[0] > length:
        return []
    out: list[int] = []
    _place(clue, room, 0, 0, 0, length, out)
    return out


def _place(
    clue: Clue, room: list[int], block: int, start: int, acc: int, length: int, out: list[int]
) -> None:
    """Place blocks ``block..`` at or after cell ``start`` on top of ``acc``, into ``out``."""
    if block == len(clue):
        out.append(acc)
        return
    run = clue[block]
    ones = (1 << run) - 1
    for s in range(start, length - room[block] + 1):
        _place(clue, room, block + 1, s + run + 1, acc | (ones << s), length, out)


def count_patterns(clue: Clue, length: int) -> int:
    """Number of fill patterns of ``clue`` on ``length`` cells, without enumerating them.

    With ``k`` runs of total ``s`` cells, the ``length - s`` empty cells form ``k + 1`` gaps of
    which the ``k - 1`` inner ones are non-empty: the count is ``C(length - s + 1, k)`` (stars and
    bars; see e.g. Batenburg & Kosters 2009, §3).

    Returns
    -------
    int
        The count: 0 when the clue does not fit, 1 for the empty clue.

    Examples
    --------
    >>> count_patterns((1, 1), 4)
    3
    """
    k = len(clue)
    free = length - sum(clue) + 1
    if free < k:
        return 0
    return math.comb(free, k)


def _agree(j: int, i: int, row: int, col: int) -> bool:
    """True when row pattern ``row`` (of row ``i``) and column pattern ``col`` (of column ``j``)
    give their common cell ``(i, j)`` the same value."""
    return ((row >> j) & 1) == ((col >> i) & 1)


def _format_count(n: int) -> str:
    """Write a pattern count briefly: ``20000``, ``1.2e9``."""
    if n < 1_000_000:
        return str(n)
    mantissa, exponent = f"{n:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def too_large(puzzle: Nonogram, max_patterns: int) -> str:
    """Name the first line with more than ``max_patterns`` patterns ("" when none has).

    Lines are counted with :func:`count_patterns`, never enumerated.

    Examples
    --------
    >>> too_large(Nonogram(rows=[(1,)] * 3, columns=[(1,)] * 3 + [()] * 7), 5)
    'row 1 has 10 patterns, cap 5'
    """
    for name, clues, length in (
        ("row", puzzle.rows, puzzle.width),
        ("column", puzzle.columns, puzzle.height),
    ):
        for i, clue in enumerate(clues, 1):
            n = count_patterns(clue, length)
            if n > max_patterns:
                return f"{name} {i} has {_format_count(n)} patterns, cap {max_patterns}"
    return ""


def explicit_csp(puzzle: Nonogram, max_patterns: int = MAX_PATTERNS) -> CSP:
    """Build the explicit line-pattern CSP of a nonogram.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    max_patterns : int
        Largest number of patterns allowed for one line.

    Returns
    -------
    CSP
        Variables ``("row", i)`` and ``("col", j)`` (0-based) with an
        :class:`~cspsolve.csp.domains.ExplicitDomain` of their :func:`patterns`, and for every
        crossing a :class:`~cspsolve.csp.model.Relation` between ``("row", i)`` and
        ``("col", j)`` that holds when bit ``j`` of the row pattern equals bit ``i`` of the
        column pattern.

    Raises
    ------
    OptionError
        If a line has more than ``max_patterns`` patterns; the message names the line.
    """
    problem = too_large(puzzle, max_patterns)
    if problem:
        raise OptionError(f"puzzle too large for an explicit CSP: {problem}")
    domains: dict[Hashable, Domain] = {}
    constraints: list[Constraint] = []
    for _ in _parts(puzzle, domains, constraints):
        pass
    return CSP(domains, constraints)


def _parts(
    puzzle: Nonogram, domains: dict[Hashable, Domain], constraints: list[Constraint]
) -> Iterator[None]:
    """Put every line's :class:`~cspsolve.csp.domains.ExplicitDomain` of patterns in
    ``domains``, then the :class:`~cspsolve.csp.model.Relation` of every crossing in
    ``constraints``, yielding after each line and each row's crossings (see
    :meth:`cspsolve.limits.Budget.step_through`)."""
    for i, clue in enumerate(puzzle.rows):
        domains["row", i] = ExplicitDomain(patterns(clue, puzzle.width))
        yield
    for j, clue in enumerate(puzzle.columns):
        domains["col", j] = ExplicitDomain(patterns(clue, puzzle.height))
        yield
    for i in range(puzzle.height):
        constraints.extend(
            Relation(("row", i), ("col", j), functools.partial(_agree, j, i))
            for j in range(puzzle.width)
        )
        yield


def solve_python_constraint(
    puzzle: Nonogram,
    *,
    limits: Limits | None = None,
    max_solutions: int = 1,
    max_patterns: int = MAX_PATTERNS,
) -> Result[Grid]:
    """Solve a small nonogram with python-constraint on :func:`explicit_csp`.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        Time limit and cancellation, checked after every line's patterns are listed and every
        row's crossings made, then as
        :func:`cspsolve.csp.python_constraint.solve_python_constraint` does; building the CSP
        counts against the time limit and in ``stats.seconds``.
    max_solutions : int
        1 to solve, 2 to decide uniqueness (``proof["unique"]``).
    max_patterns : int
        Largest number of patterns allowed for one line.

    Returns
    -------
    Result
        The grid (rows of ``#`` and ``.``), status, ``proof["unique"]`` when
        ``max_solutions >= 2``; method ``"python-constraint"``.

    Raises
    ------
    OptionError
        If a line has more than ``max_patterns`` patterns (the method does not fit), e.g.
        ``puzzle too large for python-constraint: row 3 has 1.2e9 patterns, cap 20000``.
    """
    problem = too_large(puzzle, max_patterns)
    if problem:
        raise OptionError(f"puzzle too large for python-constraint: {problem}")
    budget = (limits or Limits()).start(Stats())
    domains: dict[Hashable, Domain] = {}
    constraints: list[Constraint] = []
    stopped = budget.step_through(_parts(puzzle, domains, constraints))
    if stopped:
        return Result.from_solutions(
            budget.finish(), "python-constraint", [], max_solutions=max_solutions, stopped=stopped
        )
    csp = CSP(domains, constraints)
    result = _solve_explicit(csp, limits=budget.rest(), max_solutions=max_solutions)
    result.stats.seconds = budget.finish().seconds
    return result.map(functools.partial(grid_from_assignment, puzzle))
