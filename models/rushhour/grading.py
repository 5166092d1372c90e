"""The grade of a Rush Hour board: its optimum in moves against the hardest optimum of its size.

``explain`` and ``analyze`` grade a board in the words of :data:`cspsolve.plans.GRADES`, by
:func:`cspsolve.plans.grade`: the optimal number of moves (slides of any length) as a share of
:func:`scale`, the most moves a board of its size needs.

On the 6x6 board the scale is known: Michael Fogleman's database of every "interesting" 6x6
start (2018, https://www.michaelfogleman.com/rush/, 2,577,412 boards) has no wall-free board
needing more than :data:`HARDEST` = 51 moves, and none with walls more than
:data:`HARDEST_WALLED` = 60. (The 93 of Collette, Raskin & Servais 2006, "On the symbolic
computation of the hardest configurations of the Rush Hour game", counts unit steps, cells
slid: their board, in card-32's cluster, needs 49 moves.) Other sizes have no such database:
their scale is an estimate, the 6x6 value times the board's area over 36.
"""

from __future__ import annotations

from cspsolve import plans

from .board import Board

__all__ = ["HARDEST", "HARDEST_WALLED", "grade", "scale"]

HARDEST = 51
"""Most moves a wall-free 6x6 board needs (Fogleman's database)."""

HARDEST_WALLED = 60
"""Most moves a 6x6 board with walls needs (Fogleman's database)."""

SIDE = 6
"""The side of the board the scale is known for."""


def scale(board: Board) -> float:
    """The most moves a board of ``board``'s size (and walls or none) needs: known on 6x6,
    else the 6x6 value times the area over 36 (module text).

    Examples
    --------
    >>> rows = ["......", "......", "AA....", "......", "......", "......"]
    >>> scale(Board.from_rows(rows)), scale(Board.from_rows(["x....."] + rows[1:]))
    (51, 60)
    >>> scale(Board.from_rows([".........", "AA.......", *["........."] * 7]))
    114.8
    """
    hardest = HARDEST_WALLED if board.walls else HARDEST
    if board.size == SIDE:
        return hardest
    return round(hardest * board.size**2 / SIDE**2, 1)


def grade(board: Board, optimum: int | None) -> str:
    """The grade of ``board`` whose optimal plan has ``optimum`` moves (``None``: no plan) on
    the scale of its size (:func:`cspsolve.plans.grade`)."""
    return plans.grade(optimum, scale(board))
