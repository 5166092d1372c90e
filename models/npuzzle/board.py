"""The sliding-tile puzzle type, its validation, solvability, and an independent plan checker.

A board of ``rows`` x ``cols`` cells holds the tiles ``1 .. rows*cols - 1`` and the blank
(``0``), listed in row-major order (index 0 = top-left cell). A move slides a tile next to the
blank into it; it is named by the direction **the blank** moves: ``U``, ``D``, ``L``, ``R``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cspsolve.errors import PuzzleError
from cspsolve.notebook import picture
from cspsolve.render import plural
from cspsolve.results import Result, Status

__all__ = [
    "MOVES",
    "Plan",
    "Puzzle",
    "Tiles",
    "apply",
    "check",
    "default_goal",
    "korf_goal",
    "neighbours",
    "presolve",
    "solvability",
]

Tiles = tuple[int, ...]
"""A board's tiles in row-major order, ``0`` for the blank."""

Plan = list[str]
"""A plan: the directions the blank moves (``"U"``, ``"D"``, ``"L"``, ``"R"``)."""

MOVES: dict[str, tuple[int, int]] = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
"""Move name → (row, column) step of the blank."""


def default_goal(cells: int) -> Tiles:
    """The everyday goal ``1 2 ... cells-1`` then the blank (bottom-right)."""
    return (*range(1, cells), 0)


def korf_goal(cells: int) -> Tiles:
    """Korf's goal ``0 1 ... cells-1``: the blank top-left, tile t on cell t (Korf 1985)."""
    return tuple(range(cells))


def neighbours(rows: int, cols: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """For every cell, the moves of a blank standing there: ``(name, cell it moves to)``.

    Listed in the order ``U``, ``L``, ``R``, ``D`` (Korf's operator order).
    """
    table = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        moves = []
        for name in "ULRD":
            dr, dc = MOVES[name]
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                moves.append((name, (r + dr) * cols + c + dc))
        table.append(tuple(moves))
    return tuple(table)


def _permutation_problem(tiles: Sequence[int], cells: int, what: str) -> str | None:
    """Why ``tiles`` is not a permutation of ``0..cells-1``, or None."""
    if len(tiles) != cells:
        return f"{what} has {len(tiles)} cells, expected {cells}"
    seen: set[int] = set()
    for t in tiles:
        if not 0 <= t < cells:
            return f"{what} holds {t}, outside 0..{cells - 1}"
        if t in seen:
            return f"{what} holds tile {t} twice"
        seen.add(t)
    return None


@dataclass(frozen=True, init=False)
class Puzzle:
    """An immutable sliding-tile puzzle: a start board and a goal board of the same size.

    Parameters
    ----------
    rows, cols : int
        Board size, each >= 1, at least 2 cells in all.
    start : sequence of int
        The start tiles, row-major (kept as a tuple), ``0`` = blank; a permutation of
        ``0 .. rows*cols-1``.
    goal : sequence of int, optional
        The goal tiles in the same layout; default :func:`default_goal`.

    Raises
    ------
    PuzzleError
        For a bad size, or boards that are not permutations of ``0 .. rows*cols-1``.
    """

    _repr_svg_ = picture("npuzzle")

    rows: int
    cols: int
    start: Tiles
    goal: Tiles = ()

    @classmethod
    def from_rows(
        cls, rows: Sequence[Sequence[int]], goal: Sequence[Sequence[int]] | None = None
    ) -> Puzzle:
        """A puzzle from its start board as rows of tiles (``0`` the blank), and optionally
        its goal board in the same shape (default :func:`default_goal`).

        Raises
        ------
        PuzzleError
            For ragged rows, boards of different shapes, or boards that are not permutations.

        Examples
        --------
        >>> Puzzle.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]]).start
        (1, 2, 3, 4, 0, 6, 7, 5, 8)
        """
        boards = [rows] if goal is None else [rows, goal]
        shapes = {(len(board), len(row)) for board in boards for row in board}
        if len(shapes) != 1:
            raise PuzzleError("the rows must all have the same length, the goal the same shape")
        [(height, width)] = shapes
        start, *ends = (tuple(tile for row in board for tile in row) for board in boards)
        return cls(height, width, start, ends[0] if ends else ())

    def __init__(
        self, rows: int, cols: int, start: Sequence[int], goal: Sequence[int] = ()
    ) -> None:
        if rows < 1 or cols < 1 or rows * cols < 2:
            raise PuzzleError(f"a {rows}x{cols} board is too small (>= 2 cells)")
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "start", tuple(start))
        object.__setattr__(self, "goal", tuple(goal) or default_goal(rows * cols))
        cells = self.rows * self.cols
        for what, tiles in (("start", self.start), ("goal", self.goal)):
            problem = _permutation_problem(tiles, cells, what)
            if problem:
                raise PuzzleError(problem)

    @property
    def cells(self) -> int:
        """Number of cells, ``rows * cols``."""
        return self.rows * self.cols


def _inversions(sequence: Sequence[int]) -> int:
    """Number of pairs out of order in ``sequence`` (O(n^2); boards are small)."""
    return sum(1 for i, a in enumerate(sequence) for b in sequence[i + 1 :] if a > b)


def solvability(puzzle: Puzzle) -> tuple[bool, str]:
    """Whether the goal can be reached from the start, with the reason in words.

    The tiles are renumbered by their goal order (the goal then reads ``1 2 3 ...`` row by row,
    skipping the blank) and the inversions of the start's tiles counted. A horizontal move keeps
    the inversions; a vertical move changes them by ``cols - 1``. So on a board of odd width the
    inversions must be even; on a board of even width, inversions plus the number of rows
    between the blank's start and goal rows must be even. This rule is exact on every board
    with at least two rows and two columns (Johnson & Story, "Notes on the '15' puzzle",
    American Journal of Mathematics 2 (1879) 397-404; Wilson, "Graph puzzles, homotopy, and
    the alternating group", J. Combin. Theory B 16 (1974) 86-96). On a single row or column
    tiles cannot pass one another: solvable iff the tiles come in the goal's order.

    Parameters
    ----------
    puzzle : Puzzle

    Returns
    -------
    tuple of (bool, str)
        Solvable?, and a one-line explanation.
    """
    order = {tile: k for k, tile in enumerate(t for t in puzzle.goal if t)}
    renumbered = [order[t] for t in puzzle.start if t]
    if puzzle.rows == 1 or puzzle.cols == 1:
        if renumbered == sorted(renumbered):
            return True, "solvable: the tiles of this single line come in the goal's order"
        return False, (
            "unsolvable: on a single line tiles cannot pass one another, and the start's "
            "tiles are not in the goal's order"
        )
    inversions = _inversions(renumbered)
    counted = f"{inversions} inversion{'' if inversions == 1 else 's'}"
    if puzzle.cols % 2:
        ok = inversions % 2 == 0
        why = (
            f"numbered in goal order, the start's tiles show {counted}; on a board "
            f"of odd width ({puzzle.cols}) every move keeps their parity and the goal has 0"
        )
    else:
        blank_row = puzzle.start.index(0) // puzzle.cols
        goal_row = puzzle.goal.index(0) // puzzle.cols
        rows_apart = abs(blank_row - goal_row)
        ok = (inversions + rows_apart) % 2 == 0
        why = (
            f"numbered in goal order, the start's tiles show {counted} and the "
            f"blank is {plural(rows_apart, 'row')} from its goal row "
            f"(row {blank_row + 1} vs "
            f"{goal_row + 1}); on a board of even width ({puzzle.cols}) each vertical move "
            f"flips the inversions' parity, so {inversions} + {rows_apart} must be even"
        )
    return ok, ("solvable: " if ok else "unsolvable: ") + why


def apply(puzzle: Puzzle, tiles: Tiles, *, move: str) -> Tiles:
    """The board after one move of the blank.

    Raises
    ------
    PuzzleError
        If ``move`` is not one of ``U D L R`` or takes the blank off the board.
    """
    if move not in MOVES:
        raise PuzzleError(f"unknown move {move!r} (one of U, D, L, R)")
    blank = tiles.index(0)
    r, c = divmod(blank, puzzle.cols)
    dr, dc = MOVES[move]
    if not (0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols):
        raise PuzzleError(f"move {move} takes the blank off the board from row {r}, column {c}")
    target = (r + dr) * puzzle.cols + c + dc
    board = list(tiles)
    board[blank], board[target] = board[target], 0
    return tuple(board)


def check(puzzle: Puzzle, moves: Sequence[str]) -> list[str]:
    """Replay a plan from the start and say what is wrong with it (independent of any solver).

    Parameters
    ----------
    puzzle : Puzzle
    moves : sequence of str
        Moves of the blank, each ``U``, ``D``, ``L`` or ``R``.

    Returns
    -------
    list of str
        Problems found (an illegal move stops the replay); empty when the plan reaches the goal.

    Examples
    --------
    >>> p = Puzzle(2, 2, (1, 2, 0, 3))
    >>> check(p, ["R"]), check(p, ["L"])
    ([], ['move 1 (L): move L takes the blank off the board from row 1, column 0'])
    """
    tiles = puzzle.start
    for k, move in enumerate(moves, 1):
        try:
            tiles = apply(puzzle, tiles, move=move)
        except PuzzleError as e:
            return [f"move {k} ({move}): {e}"]
    if tiles != puzzle.goal:
        return [f"after {plural(len(moves), 'move')} the board is not the goal"]
    return []


def presolve(puzzle: Puzzle) -> Result[Plan] | None:
    """``puzzle`` settled at sight: unsolvable by the parity rule (:func:`solvability`); else
    ``None``, for a method to solve."""
    ok, why = solvability(puzzle)
    return None if ok else Result(Status.UNSOLVABLE, None, message=why)
