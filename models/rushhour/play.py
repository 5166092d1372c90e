"""Rush Hour played slide by slide: the board after the slides made, and a hint.

A slide comes as ``[row, column, row, column]`` (0-based, as JSON counts): a cell of a piece,
and the cell that part of the piece is dragged to, along the piece's own axis. The board is
the pieces after the slides, replayed by the kind's own rules (:func:`.board.replay`: a piece
moves only through empty cells and stays on the board). A hint is the first move of an
optimal plan (fewest moves, a slide of any length being one) from the board as it now is,
found by the kind's default method.
"""

from __future__ import annotations

from typing import Any

from cspsolve import registry, tasks
from cspsolve.errors import OptionError, PuzzleError
from cspsolve.kind import Player, listed_moves
from cspsolve.limits import Limits
from cspsolve.render import plural

from .board import Board, Move, replay

__all__ = ["MAX_SIDE", "MAX_SLIDES", "PLAYER", "after", "board", "hint", "slid"]

MAX_SIDE = 16
"""The most rows (and columns) of a board played."""

MAX_SLIDES = 10_000
"""The most slides one request may list."""

DIRECTIONS = {(True, 1): "right", (True, -1): "left", (False, 1): "down", (False, -1): "up"}
"""The word for a slide by (horizontal, sign)."""


def _move(position: Board, slide: list[int]) -> Move:
    """The move of one slide on ``position``.

    Raises
    ------
    OptionError
        When the first cell holds no piece, or the second is not along the piece's axis.
    """
    r, c, r2, c2 = slide
    name = position.grid()[r][c] if 0 <= r < position.size and 0 <= c < position.size else ""
    if name in ("", "x"):
        raise OptionError(f"row {r + 1}, column {c + 1} holds no piece")
    piece = position.piece(name)
    along = r2 == r if piece.horizontal else c2 == c
    delta = c2 - c if piece.horizontal else r2 - r
    if not along or delta == 0:
        way = "left or right" if piece.horizontal else "up or down"
        raise OptionError(f"{name} slides {way} only")
    return Move(name, delta)


def slid(puzzle: Board, raw: Any) -> Board:
    """The board after the slides a request lists, from the start.

    Raises
    ------
    OptionError
        For a board over :data:`MAX_SIDE`, a list that is not ``[row, column, row, column]``
        lists, or a slide the rules forbid (said with rows and columns counted from 1).
    """
    if puzzle.size > MAX_SIDE:
        raise OptionError(f"a board played here has at most {MAX_SIDE} rows and columns")
    shape = "[row, column, row, column] lists"
    listed = listed_moves(raw, what="slides", shape=shape, size=4, most=MAX_SLIDES)
    position = puzzle
    for slide in listed:
        move = _move(position, slide)
        try:
            position = replay(position, [move])[-1]
        except PuzzleError:
            piece = position.piece(move.piece)
            way = DIRECTIONS[piece.horizontal, 1 if move.delta > 0 else -1]
            raise OptionError(
                f"{move.piece} cannot slide {abs(move.delta)} {way}: the way is not free"
            ) from None
    return position


def after(puzzle: Board, position: Board) -> Board:
    """The board as the slides leave it."""
    return position


def board(puzzle: Board, position: Board) -> dict[str, Any]:
    """The board of ``position``: ``rows`` (``.`` empty, ``x`` a wall, ``r`` the red car,
    ``c`` another piece), ``labels`` (each cell's piece name), ``exit`` (the red car's row),
    ``solved`` (the red car at the exit), ``status`` (in words) and ``style`` (``"cars"``)."""
    grid = position.grid()
    marks = {"": ".", "x": "x", position.red: "r"}
    exit_row = position.exit_row
    return {
        "rows": ["".join(marks.get(name, "c") for name in row) for row in grid],
        "labels": [[name if name != "x" else "" for name in row] for row in grid],
        "exit": exit_row,
        "solved": position.is_solved(),
        "status": "the red car is at the exit"
        if position.is_solved()
        else f"the red car {position.red} leaves on the right of row {exit_row + 1}",
        "style": "cars",
    }


def hint(puzzle: Board, limits: Limits) -> dict[str, Any]:
    """The first move of an optimal plan from ``puzzle`` (the board as it now is).

    Returns
    -------
    dict
        ``press`` (``[row, column]`` of the piece's first cell) and ``to`` (where that cell
        goes), both ``None`` when the red car is out, there is no plan or the limits stopped
        the search; ``left`` (moves of that plan), ``status``, ``minimum`` (whether the plan
        is proven optimal) and ``words``.
    """
    kind = registry.get("rushhour")
    result = tasks.solve(kind, puzzle, request=tasks.Request(), limits=limits)
    plan = result.solution if result.status.has_solution else None
    minimum = result.status.value == "optimal"
    press = to = None
    words = "the red car is at the exit" if plan == [] else f"no hint ({result.status.value})"
    if result.status.value == "unsolvable":
        words = "no moves free the red car"
    if plan:
        move = plan[0]
        piece = puzzle.piece(move.piece)
        press = [piece.row, piece.col]
        step = (0, move.delta) if piece.horizontal else (move.delta, 0)
        to = [piece.row + step[0], piece.col + step[1]]
        way = DIRECTIONS[piece.horizontal, 1 if move.delta > 0 else -1]
        best = "a shortest plan" if minimum else "a plan"
        words = (
            f"slide {move.piece} {way} {abs(move.delta)}: {best} from here has "
            f"{plural(len(plan), 'move')}"
        )
    return {
        "press": press,
        "to": to,
        "left": None if plan is None else len(plan),
        "status": result.status.value,
        "minimum": minimum,
        "words": words,
    }


PLAYER = Player(
    title="Play Rush Hour",
    note="Drag a piece along its row or column (or press it, then the cell to take it to); "
    "free the red car through the exit on the right.",
    moves=slid,
    board=board,
    after=after,
    hint=hint,
)
"""The play the kind declares (``tools={"play": PLAYER}``)."""
