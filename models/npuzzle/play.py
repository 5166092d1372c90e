"""The sliding-tile puzzle played tap by tap: the board after the taps made, and a hint.

The taps made so far come as ``[row, column]`` pairs (0-based, as JSON counts), in order; each
must be on a tile next to the blank, which slides into the blank. The board is the tiles after
them (:func:`.board.apply`, the kind's own move rule). A hint is the tile to tap first on an
optimal plan from the board as it now is, found by the kind's default method (A* or IDA* with
an admissible heuristic: the plan is a shortest one when the search proves it).
"""

from __future__ import annotations

from typing import Any

from cspsolve import registry, tasks
from cspsolve.errors import OptionError
from cspsolve.kind import Player, listed_moves
from cspsolve.limits import Limits
from cspsolve.render import plural

from .board import MOVES, Puzzle, Tiles, apply

__all__ = ["MAX_SIDE", "MAX_TAPS", "PLAYER", "after", "board", "hint", "slid"]

MAX_SIDE = 10
"""The most rows, and columns, of a board played."""

MAX_TAPS = 10_000
"""The most taps one request may list."""


def _blank_move(puzzle: Puzzle, tiles: Tiles, r: int, c: int) -> str | None:
    """The move of the blank that slides the tile at ``(r, c)``, or ``None`` when that cell is
    not next to the blank."""
    blank_r, blank_c = divmod(tiles.index(0), puzzle.cols)
    for name, (dr, dc) in MOVES.items():
        if (blank_r + dr, blank_c + dc) == (r, c):
            return name
    return None


def slid(puzzle: Puzzle, raw: Any) -> Tiles:
    """The tiles after the taps a request lists, from the start.

    Raises
    ------
    OptionError
        For a board over :data:`MAX_SIDE`, a list that is not ``[row, column]`` pairs, or a
        tap off the board or on a cell not next to the blank (said in rows and columns
        counted from 1).
    """
    if puzzle.rows > MAX_SIDE or puzzle.cols > MAX_SIDE:
        raise OptionError(f"a board played here has at most {MAX_SIDE} rows and columns")
    listed = listed_moves(raw, what="taps", shape="[row, column] pairs", size=2, most=MAX_TAPS)
    tiles = puzzle.start
    for r, c in listed:
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            raise OptionError(f"row {r + 1}, column {c + 1} is off the board")
        move = _blank_move(puzzle, tiles, r, c)
        if move is None:
            raise OptionError(f"the tile at row {r + 1}, column {c + 1} is not next to the blank")
        tiles = apply(puzzle, tiles, move=move)
    return tiles


def after(puzzle: Puzzle, tiles: Tiles) -> Puzzle:
    """The same puzzle started from ``tiles``."""
    return Puzzle(puzzle.rows, puzzle.cols, tiles, puzzle.goal)


def board(puzzle: Puzzle, tiles: Tiles) -> dict[str, Any]:
    """The board of ``tiles``: ``rows`` (``.`` the blank, ``o`` a tile in its goal place,
    ``t`` one elsewhere), ``labels`` (each cell's tile number, ``""`` for the blank),
    ``misplaced`` (tiles out of their goal place), ``solved``, ``status`` (in words) and
    ``style`` (``"tiles"``)."""
    cols = puzzle.cols
    marks = [
        "." if t == 0 else "o" if t == g else "t" for t, g in zip(tiles, puzzle.goal, strict=True)
    ]
    misplaced = marks.count("t")
    return {
        "rows": ["".join(marks[r * cols : (r + 1) * cols]) for r in range(puzzle.rows)],
        "labels": [
            [str(t or "") for t in tiles[r * cols : (r + 1) * cols]] for r in range(puzzle.rows)
        ],
        "misplaced": misplaced,
        "solved": tiles == puzzle.goal,
        "status": "every tile is home"
        if tiles == puzzle.goal
        else f"{plural(misplaced, 'tile')} out of place",
        "style": "tiles",
    }


def hint(puzzle: Puzzle, limits: Limits) -> dict[str, Any]:
    """The tile to tap first on an optimal plan from ``puzzle`` (the board as it now is).

    Returns
    -------
    dict
        ``press`` (``[row, column]`` of the tile, or ``None`` when the board is home, cannot
        reach its goal or the limits stopped the search), ``left`` (moves of that plan,
        ``None`` when there is none), ``status``, ``minimum`` (whether the plan is proven
        optimal) and ``words``.
    """
    kind = registry.get("npuzzle")
    result = tasks.solve(kind, puzzle, request=tasks.Request(), limits=limits)
    plan = result.solution if result.status.has_solution else None
    press = None
    if plan:
        blank_r, blank_c = divmod(puzzle.start.index(0), puzzle.cols)
        dr, dc = MOVES[plan[0]]
        press = [blank_r + dr, blank_c + dc]
    minimum = result.status.value == "optimal"
    return {
        "press": press,
        "left": None if plan is None else len(plan),
        "status": result.status.value,
        "minimum": minimum,
        "words": _words(press, plan, result.status.value, minimum),
    }


def _words(press: list[int] | None, plan: list[str] | None, status: str, minimum: bool) -> str:
    """A hint in words, rows and columns counted from 1."""
    if press is not None and plan:
        best = "a shortest plan" if minimum else "a plan"
        where = f"row {press[0] + 1}, column {press[1] + 1}"
        return f"tap {where}: {best} from here has {plural(len(plan), 'move')}"
    if plan == []:
        return "every tile is home"
    return "no moves bring these tiles home" if status == "unsolvable" else f"no hint ({status})"


PLAYER = Player(
    title="Play the sliding tiles",
    note="Tap a tile next to the blank to slide it there; bring every tile to its goal place.",
    moves=slid,
    board=board,
    after=after,
    hint=hint,
)
"""The play the kind declares (``tools={"play": PLAYER}``)."""
