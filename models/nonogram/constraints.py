"""The nonogram as a CSP on the engine: row and column pattern variables with implicit domains.

Each row and each column is a variable whose values are the fill patterns of its clue. A domain
is never listed (a 512-cell line has about 10^55 patterns): :class:`LineDomain` holds the clue
and a partial line, and stands for every pattern of the clue that agrees with the cells known
so far. Where row ``i`` crosses column ``j`` a binary :class:`Crossing` constraint says both
patterns agree on the shared cell. Revising a line against its crossings narrows its partial
line; the line solver (:func:`~.lines.bigint.solve_line`) then fixes every cell all remaining
patterns agree on, so the domain is exactly GAC. The constraint graph is the complete bipartite
graph of rows and columns, and a narrowed line re-queues only the lines crossing it at cells
that changed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, cast

from cspsolve.csp import CSP, Constraint, Domain

from .board import Clue, Grid, Nonogram, clue_of
from .lines.bigint import count_completions, solve_line

__all__ = ["Crossing", "LineDomain", "NonogramCSP", "build_csp", "grid_from_assignment"]

_UNSOLVED: Any = object()


class LineDomain:
    """The implicit domain of one line: the patterns of ``clue`` that agree with a partial line.

    Parameters
    ----------
    clue : Clue
        Run lengths of the line.
    length : int
        Number of cells.
    can_fill, can_empty : int
        Bit masks (bit 0 = first cell) of the cells that may be filled / empty.

    Notes
    -----
    The partial line is narrowed to GAC lazily, by the line solver, the first time the domain
    is queried; the result is kept. A value (pattern) is an int bit mask of the filled cells.
    """

    __slots__ = ("_size", "_solved", "can_empty", "can_fill", "clue", "length")

    def __init__(self, clue: Clue, length: int, can_fill: int, can_empty: int) -> None:
        self.clue = clue
        self.length = length
        self.can_fill = can_fill
        self.can_empty = can_empty
        self._solved: tuple[int, int] | None = _UNSOLVED
        self._size = -1

    @classmethod
    def unknown(cls, clue: Clue, length: int) -> LineDomain:
        """Every pattern of ``clue`` on ``length`` cells."""
        full = (1 << length) - 1
        return cls(clue, length, full, full)

    def cells(self) -> tuple[int, int]:
        """The GAC partial line ``(can_fill, can_empty)``; ``(0, 0)`` when the domain is empty."""
        solved = self._solved
        if solved is _UNSOLVED:
            solved = self._solved = solve_line(
                self.clue, self.length, self.can_fill, self.can_empty
            )
        return solved if solved is not None else (0, 0)

    def is_empty(self) -> bool:
        """True when no pattern of the clue agrees with the partial line."""
        return self.cells() == (0, 0)

    def size(self) -> int:
        """Number of patterns in the domain."""
        if self._size < 0:
            fill, empty = self.cells()
            self._size = (
                count_completions(self.clue, self.length, fill, empty) if fill | empty else 0
            )
        return self._size

    def undecided(self) -> int:
        """Bit mask of the cells that may still be either filled or empty."""
        fill, empty = self.cells()
        return fill & empty

    def restrict(self, pos: int, may_fill: bool, may_empty: bool) -> LineDomain:
        """Return the domain with cell ``pos`` limited to the given values.

        ``self`` is returned when nothing changes.
        """
        bit = 1 << pos
        fill, empty = self.cells()
        new_fill = fill if may_fill else fill & ~bit
        new_empty = empty if may_empty else empty & ~bit
        if new_fill == fill and new_empty == empty:
            return self
        return LineDomain(self.clue, self.length, new_fill, new_empty)

    def split(self) -> list[LineDomain]:
        """Split on the first undecided cell: the patterns that fill it, then those that empty it.

        Raises
        ------
        ValueError
            If no cell is undecided.
        """
        open_cells = self.undecided()
        if not open_cells:
            raise ValueError("cannot split a fixed line")
        pos = (open_cells & -open_cells).bit_length() - 1
        return [self.restrict(pos, True, False), self.restrict(pos, False, True)]

    def value(self) -> int:
        """The single pattern (bit mask of filled cells).

        Raises
        ------
        ValueError
            If the domain holds no pattern or more than one.
        """
        fill, empty = self.cells()
        if not fill | empty or fill & empty:
            raise ValueError("line domain does not hold exactly one pattern")
        return fill

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or value < 0 or value >> self.length:
            return False
        if value & ~self.can_fill or ~value & ((1 << self.length) - 1) & ~self.can_empty:
            return False
        return clue_of(bool(value >> p & 1) for p in range(self.length)) == self.clue

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, LineDomain)
            and self.clue == other.clue
            and self.length == other.length
            and self.cells() == other.cells()
        )

    def __hash__(self) -> int:
        return hash((self.clue, self.length, self.cells()))

    def __repr__(self) -> str:
        fill, empty = self.cells()
        chars = "X.#?"
        cells = "".join(chars[(fill >> p & 1) * 2 + (empty >> p & 1)] for p in range(self.length))
        return f"LineDomain({list(self.clue)}, {cells!r})"


class Crossing(Constraint):
    """Row ``i`` and column ``j`` agree on cell ``(i, j)``.

    Parameters
    ----------
    i, j : int
        Row and column index (0-based).
    """

    def __init__(self, i: int, j: int) -> None:
        super().__init__((("row", i), ("col", j)))
        self.i = i
        self.j = j

    def _position(self, var: Hashable) -> int:
        """Where the crossing cell lies in the line ``var``."""
        return self.j if var == self.scope[0] else self.i

    def revise(self, var: Hashable, domain: Domain, domains: Mapping[Hashable, Domain]) -> Domain:
        """Keep the patterns of ``var`` whose crossing cell the other line can match."""
        row, col = self.scope
        other = domains[col if var == row else row]
        assert isinstance(domain, LineDomain) and isinstance(other, LineDomain)
        fill, empty = other.cells()
        bit = self._position(row if var == col else col)
        return domain.restrict(self._position(var), bool(fill >> bit & 1), bool(empty >> bit & 1))

    def may_lose_support(
        self, changed: Hashable, old: Domain, new: Domain, other: Hashable
    ) -> bool:
        """True when the crossing cell changed in ``changed``."""
        assert isinstance(old, LineDomain) and isinstance(new, LineDomain)
        pos = self._position(changed)
        (old_fill, old_empty), (new_fill, new_empty) = old.cells(), new.cells()
        return bool(((old_fill ^ new_fill) | (old_empty ^ new_empty)) >> pos & 1)

    def is_satisfied(self, values: Sequence[Any]) -> bool:
        """True when the two patterns agree on the crossing cell."""
        row, col = values
        return bool(row >> self.j & 1) == bool(col >> self.i & 1)


class NonogramCSP(CSP):
    """The CSP of a nonogram: variables ``("row", i)`` then ``("col", j)``, a crossing per cell.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.

    Notes
    -----
    Domains are :class:`LineDomain` (implicit); values are int bit masks of filled cells.
    A narrowed line re-queues only the lines crossing it at the cells that changed, found from
    the changed bits directly rather than by asking each of its neighbours.
    """

    def __init__(self, puzzle: Nonogram) -> None:
        domains: dict[Hashable, Domain] = {}
        for i, clue in enumerate(puzzle.rows):
            domains["row", i] = LineDomain.unknown(clue, puzzle.width)
        for j, clue in enumerate(puzzle.columns):
            domains["col", j] = LineDomain.unknown(clue, puzzle.height)
        self.crossings = {
            (i, j): Crossing(i, j) for i in range(puzzle.height) for j in range(puzzle.width)
        }
        super().__init__(domains, self.crossings.values())

    def arcs_losing_support(
        self, var: Hashable, old: Domain, new: Domain
    ) -> Iterator[tuple[Hashable, Constraint]]:
        """The crossing lines at the cells where ``new`` differs from ``old``."""
        assert isinstance(old, LineDomain) and isinstance(new, LineDomain)
        (old_fill, old_empty), (new_fill, new_empty) = old.cells(), new.cells()
        changed = (old_fill ^ new_fill) | (old_empty ^ new_empty)
        kind, index = cast(tuple[str, int], var)
        while changed:
            low = changed & -changed
            pos = low.bit_length() - 1
            changed ^= low
            if kind == "row":
                yield ("col", pos), self.crossings[index, pos]
            else:
                yield ("row", pos), self.crossings[pos, index]


def build_csp(puzzle: Nonogram) -> NonogramCSP:
    """The CSP of a nonogram (see :class:`NonogramCSP`)."""
    return NonogramCSP(puzzle)


def grid_from_assignment(puzzle: Nonogram, assignment: Mapping[Hashable, Any]) -> Grid:
    """Rows of ``#`` / ``.`` from the row patterns of a solution."""
    return tuple(
        "".join("#" if assignment["row", i] >> j & 1 else "." for j in range(puzzle.width))
        for i in range(puzzle.height)
    )
