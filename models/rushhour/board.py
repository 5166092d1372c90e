"""Rush Hour boards: pieces, walls, moves, and an independent plan checker.

A board is an n x n grid (6 x 6 in the commercial game) holding cars (length 2) and trucks
(length 3) — any length from 2 to n is accepted — and fixed 1 x 1 walls. Every piece slides
along its own axis only. The red car is horizontal; the exit is on the right edge of its row,
and the puzzle is solved when the red car's right end reaches the last column (its final slide
is counted). Conventions follow Michael Fogleman's database, https://www.michaelfogleman.com/rush/
(file formats: ``docs/design.md`` §13.3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cspsolve.errors import PuzzleError
from cspsolve.notebook import picture
from cspsolve.render import plural
from cspsolve.results import Result, Stats, Status

__all__ = [
    "EXHAUSTED",
    "Board",
    "Move",
    "Piece",
    "RowError",
    "check",
    "drawn_board",
    "merged",
    "presolve",
    "replay",
    "walled_in",
]

EXHAUSTED = "no plan: every reachable position was searched"
"""The message of a search that proves a board unsolvable by exhausting its positions."""

_MOVE = re.compile(r"([A-Za-z0-9_]+)([+-])([0-9]+)")


@dataclass(frozen=True)
class Piece:
    """One vehicle: its name, top-left cell, length and axis.

    Attributes
    ----------
    name : str
        The name used in the input (one letter in strings and grids, a word in CSV files).
    row, col : int
        0-based cell of its top (vertical) or left (horizontal) end.
    length : int
        Cells it covers, at least 2.
    horizontal : bool
        True when it slides left/right, False when it slides up/down.
    """

    name: str
    row: int
    col: int
    length: int
    horizontal: bool

    @property
    def offset(self) -> int:
        """Its position along its own axis (the column if horizontal, else the row)."""
        return self.col if self.horizontal else self.row

    def cells(self, offset: int | None = None) -> list[tuple[int, int]]:
        """The (row, col) cells it covers, at its own offset or at ``offset``."""
        p = self.offset if offset is None else offset
        if self.horizontal:
            return [(self.row, p + k) for k in range(self.length)]
        return [(p + k, self.col) for k in range(self.length)]

    def moved(self, offset: int) -> Piece:
        """The same piece at another offset along its axis."""
        if self.horizontal:
            return Piece(self.name, self.row, offset, self.length, True)
        return Piece(self.name, offset, self.col, self.length, False)


@dataclass(frozen=True)
class Move:
    """A piece slid ``delta`` cells: positive right/down, negative left/up.

    Examples
    --------
    >>> str(Move("A", 2)), Move.parse("B-1")
    ('A+2', Move(piece='B', delta=-1))
    """

    piece: str
    delta: int

    def __str__(self) -> str:
        return f"{self.piece}{'+' if self.delta > 0 else '-'}{abs(self.delta)}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"A+2"``: a piece name, ``+`` or ``-``, and a distance of at least 1.

        Raises
        ------
        PuzzleError
            When ``text`` is not ``NAME`` ``+``/``-`` ``DISTANCE``.
        """
        m = _MOVE.fullmatch(text.strip())
        if m is None or int(m.group(3)) == 0:
            raise PuzzleError(f"not a move: {text!r} (expected e.g. A+2 or B-1)")
        sign = 1 if m.group(2) == "+" else -1
        return cls(m.group(1), sign * int(m.group(3)))


class RowError(PuzzleError):
    """What is wrong with row ``row`` (0-based) of a drawn board (:func:`drawn_board`)."""

    def __init__(self, row: int, message: str) -> None:
        super().__init__(message)
        self.row = row


def _straight(cells: list[tuple[int, int]]) -> tuple[int, int, int, bool] | None:
    """(row, col, length, horizontal) when ``cells`` form one straight unbroken piece."""
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    r0, c0 = min(cells)
    n = len(cells)
    if len(rows) == 1 and max(cols) - min(cols) == n - 1:
        return r0, c0, n, True
    if len(cols) == 1 and max(rows) - min(rows) == n - 1:
        return r0, c0, n, False
    return None


def drawn_board(rows: Sequence[str], red: str) -> Board:
    """The board of square ``rows`` of cells (see :meth:`Board.from_rows`).

    Raises
    ------
    RowError
        Naming the row of the problem (row 0 for a problem of the whole board).
    """
    walls: set[tuple[int, int]] = set()
    found: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        if len(row) != len(rows):
            size = plural(len(row), "cell")
            raise RowError(r, f"row has {size}; a {len(rows)}-row grid needs {len(rows)}")
        for c, ch in enumerate(row):
            if ch == "x":
                walls.add((r, c))
            elif ch.isupper():
                found.setdefault(ch, []).append((r, c))
            elif ch not in ".o":
                raise RowError(r, f"unknown character {ch!r} (use o . x A-Z)")
    pieces = []
    for name, cells in found.items():
        if len(cells) == 1:
            raise RowError(cells[0][0], f"piece {name} has one cell (cars need 2 or more)")
        shape = _straight(cells)
        if shape is None:
            raise RowError(cells[0][0], f"piece {name} is bent or split")
        pieces.append(Piece(name, *shape))
    if red not in found:
        raise RowError(0, f"no red car {red}")
    try:
        return Board(len(rows), tuple(pieces), frozenset(walls), red)
    except PuzzleError as e:
        raise RowError(0, str(e)) from None


@dataclass(frozen=True, init=False)
class Board:
    """An immutable Rush Hour position.

    Parameters
    ----------
    size : int
        Cells per side (the board is ``size`` x ``size``), at least 3.
    pieces : iterable of Piece
        The vehicles, in input order (kept as a tuple); names unique.
    walls : iterable of (row, col)
        Fixed blocked cells (kept as a frozenset).
    red : str
        Name of the red car (horizontal; it leaves on the right of its row).

    Raises
    ------
    PuzzleError
        If a piece is shorter than 2 or leaves the board, two pieces or a piece and a wall
        overlap, names repeat, or the red car is missing or vertical.
    """

    _repr_svg_ = picture("rushhour")

    size: int
    pieces: tuple[Piece, ...]
    walls: frozenset[tuple[int, int]]
    red: str

    @classmethod
    def from_rows(cls, rows: Sequence[str], *, red: str = "A") -> Board:
        """A board drawn as rows of cells: ``.`` or ``o`` empty, ``x`` a wall, a capital letter
        a piece (``red`` the red car), as in a grid file.

        Raises
        ------
        PuzzleError
            Naming the row (from 1) and what is wrong with it, or what is wrong with the board.

        Examples
        --------
        >>> board = Board.from_rows(["..B", "AAB", "..."])
        >>> [(p.name, p.row, p.col, p.horizontal) for p in board.pieces]
        [('B', 0, 2, False), ('A', 1, 0, True)]
        >>> Board.from_rows(["..B", "AA", "..."])
        Traceback (most recent call last):
        ...
        cspsolve.errors.PuzzleError: row 2: row has 2 cells; a 3-row grid needs 3
        """
        try:
            return drawn_board(rows, red)
        except RowError as e:
            raise PuzzleError(f"row {e.row + 1}: {e}") from None

    def __init__(
        self, size: int, pieces: Iterable[Piece], walls: Iterable[tuple[int, int]], red: str
    ) -> None:
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "pieces", tuple(pieces))
        object.__setattr__(self, "walls", frozenset(walls))
        object.__setattr__(self, "red", red)
        problems = self.problems()
        if problems:
            raise PuzzleError(problems[0])

    def problems(self) -> list[str]:
        """Everything that makes this board invalid (empty when it is valid)."""
        if self.size < 3:
            return [f"the board must be at least 3x3, not {self.size}x{self.size}"]
        out: list[str] = []
        seen: dict[tuple[int, int], str] = {cell: "a wall" for cell in self.walls}
        names: set[str] = set()
        for piece in self.pieces:
            if piece.name in names:
                out.append(f"piece {piece.name} appears twice")
            names.add(piece.name)
            if not 2 <= piece.length <= self.size:
                out.append(f"piece {piece.name} has length {piece.length} (2 to {self.size})")
            for cell in piece.cells():
                if not (0 <= cell[0] < self.size and 0 <= cell[1] < self.size):
                    out.append(f"piece {piece.name} leaves the board at {cell}")
                elif cell in seen:
                    out.append(f"piece {piece.name} overlaps {seen[cell]} at {cell}")
                else:
                    seen[cell] = f"piece {piece.name}"
        red = [p for p in self.pieces if p.name == self.red]
        if not red:
            out.append(f"no red car {self.red}")
        elif not red[0].horizontal:
            out.append(f"the red car {self.red} must be horizontal")
        return out

    @property
    def red_index(self) -> int:
        """Index of the red car in :attr:`pieces`."""
        return next(i for i, p in enumerate(self.pieces) if p.name == self.red)

    @property
    def exit_row(self) -> int:
        """Row of the exit (the red car's row); the exit is right of the last column."""
        return self.pieces[self.red_index].row

    @property
    def goal_offset(self) -> int:
        """Column of the red car's left end when the puzzle is solved."""
        return self.size - self.pieces[self.red_index].length

    def is_solved(self) -> bool:
        """True when the red car's right end is in the last column."""
        return self.pieces[self.red_index].col == self.goal_offset

    def piece(self, name: str) -> Piece:
        """The piece called ``name``; KeyError when there is none."""
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_offsets(self, offsets: Sequence[int]) -> Board:
        """The board with every piece moved to the given offset along its axis."""
        pieces = tuple(p.moved(o) for p, o in zip(self.pieces, offsets, strict=True))
        return Board(self.size, pieces, self.walls, self.red)

    def grid(self) -> list[list[str]]:
        """Rows of cell contents: a piece's name, ``"x"`` for a wall, ``""`` for empty."""
        cells = [[""] * self.size for _ in range(self.size)]
        for r, c in self.walls:
            cells[r][c] = "x"
        for piece in self.pieces:
            for r, c in piece.cells():
                cells[r][c] = piece.name
        return cells


def _slide(board: Board, move: Move, cells: list[list[str]]) -> Piece:
    """Apply ``move`` to the cell grid ``cells``; PuzzleError when it is illegal."""
    try:
        piece = board.piece(move.piece)
    except KeyError:
        raise PuzzleError(f"{move}: there is no piece {move.piece}") from None
    step = 1 if move.delta > 0 else -1
    current = piece
    for _ in range(abs(move.delta)):
        nxt = current.moved(current.offset + step)
        for r, c in nxt.cells():
            if not (0 <= r < board.size and 0 <= c < board.size):
                raise PuzzleError(f"{move}: {piece.name} would leave the board")
            if cells[r][c] not in ("", piece.name):
                raise PuzzleError(f"{move}: {piece.name} runs into {cells[r][c]!r} at {(r, c)}")
        current = nxt
    for r, c in piece.cells():
        cells[r][c] = ""
    for r, c in current.cells():
        cells[r][c] = piece.name
    return current


def merged(plan: Iterable[Move]) -> list[Move]:
    """The plan with consecutive slides of one piece in one direction joined into one move.

    Examples
    --------
    >>> [str(m) for m in merged([Move("A", 1), Move("A", 1), Move("B", -1), Move("A", 1)])]
    ['A+2', 'B-1', 'A+1']
    """
    out: list[Move] = []
    for move in plan:
        if out and out[-1].piece == move.piece and (out[-1].delta > 0) == (move.delta > 0):
            out[-1] = Move(move.piece, out[-1].delta + move.delta)
        else:
            out.append(move)
    return out


def replay(board: Board, moves: Iterable[Move]) -> list[Board]:
    """Every position of a plan, from ``board`` (first) to the last one.

    Raises
    ------
    PuzzleError
        At the first illegal move (unknown piece, leaving the board, passing through a cell
        that is not empty).
    """
    boards = [board]
    cells = board.grid()
    for move in moves:
        current = boards[-1]
        moved = _slide(current, move, cells)
        pieces = tuple(moved if p.name == moved.name else p for p in current.pieces)
        boards.append(Board(board.size, pieces, board.walls, board.red))
    return boards


def check(board: Board, moves: Sequence[Move]) -> list[str]:
    """Problems with a plan: illegal moves, or not ending with the red car at the exit.

    This replays the plan cell by cell on a plain grid, sharing no code with the solvers.

    Returns
    -------
    list of str
        Empty when the plan is legal and solves the puzzle.

    Examples
    --------
    >>> b = Board(6, (Piece("A", 2, 0, 2, True),), frozenset(), "A")
    >>> check(b, [Move("A", 4)]), check(b, [Move("A", 5)])
    ([], ['A+5: A would leave the board'])
    """
    try:
        final = replay(board, moves)[-1]
    except PuzzleError as e:
        return [str(e)]
    if not final.is_solved():
        count = f"{plural(len(moves), 'move')}"
        return [f"after {count} the red car {board.red} is not at the exit"]
    return []


def walled_in(board: Board) -> str | None:
    """Why the red car can never reach the exit, whatever the other pieces do; else None.

    A wall, or a horizontal piece, in the red car's row between it and the exit stays there for
    good: walls never move, and a horizontal piece slides only along that row and cannot pass
    the red car (the "blocking" heuristic of :mod:`.search` is infinite on every position).
    """
    red = board.pieces[board.red_index]
    ahead = range(red.col + red.length, board.size)
    for piece in board.pieces:
        if piece.horizontal and piece.row == red.row and piece.col in ahead:
            return f"no plan: {piece.name} lies between the red car and the exit and never leaves"
    walls = sorted(c for r, c in board.walls if r == red.row and c in ahead)
    if walls:
        return f"no plan: a wall (column {walls[0] + 1}) stands between the red car and the exit"
    return None


def presolve(board: Board) -> Result[list[Move]] | None:
    """``board`` settled at sight: unsolvable when its red car is walled in for good
    (:func:`walled_in`); else ``None``, for a method to solve."""
    blocked = walled_in(board)
    if blocked is None:
        return None
    return Result(Status.UNSOLVABLE, None, Stats(), message=blocked)
