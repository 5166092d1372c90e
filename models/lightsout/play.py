"""Lights Out played cell by cell: the board after the presses made, and a hint.

The presses made so far come as ``[row, column]`` pairs, in order; a cell pressed twice is as
if not pressed, since presses commute and undo themselves. The board is the puzzle's lights
after them, by the kind's press rule (:func:`.board.apply`). A hint is one press of a minimum
solution of the board as it now is, found by the algebra method.
"""

from __future__ import annotations

from typing import Any

from cspsolve import registry, tasks
from cspsolve.errors import OptionError
from cspsolve.kind import Player, listed_moves
from cspsolve.limits import Limits
from cspsolve.render import plural

from .board import LightsOut, Presses, apply, coordinates

__all__ = ["MAX_PRESSES", "MAX_SIDE", "PLAYER", "after", "board", "hint", "pressed"]

MAX_SIDE = 40
"""The most rows, and columns, of a board played."""

MAX_PRESSES = 10_000
"""The most presses one request may list."""


def _playable(puzzle: LightsOut) -> None:
    """Raise OptionError for a graph board or a board over :data:`MAX_SIDE`."""
    if puzzle.graph is not None:
        raise OptionError("only a Lights Out grid can be played here")
    if puzzle.rows > MAX_SIDE or puzzle.cols > MAX_SIDE:
        raise OptionError(f"a board played here has at most {MAX_SIDE} rows and columns")


def pressed(puzzle: LightsOut, raw: Any) -> Presses:
    """The press set of the ``[row, column]`` pairs a request lists (each toggles its cell).

    Raises
    ------
    OptionError
        For a board that cannot be played (a graph, or over :data:`MAX_SIDE`), a list that
        is not such pairs, a cell off the board or a disabled cell.
    """
    _playable(puzzle)
    shape = "[row, column] pairs"
    listed = listed_moves(raw, what="presses", shape=shape, size=2, most=MAX_PRESSES)
    rows = [0] * puzzle.rows
    for r, c in listed:
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            raise OptionError(f"({r}, {c}) is off the {puzzle.rows}x{puzzle.cols} board")
        if not puzzle.usable(r * puzzle.cols + c):
            raise OptionError(f"({r}, {c}) is a disabled cell")
        rows[r] ^= 1 << c
    return tuple(rows)


def after(puzzle: LightsOut, presses: Presses) -> LightsOut:
    """The same board with its lights after ``presses`` (the kind's press rule)."""
    return puzzle.with_lights(apply(puzzle, presses))


def board(puzzle: LightsOut, presses: Presses) -> dict[str, Any]:
    """The board after ``presses``: ``rows`` (``#`` lit, ``.`` off, ``x`` disabled), ``lit``
    (lights on), ``pressed`` (the ``[row, column]`` cells pressed an odd number of times),
    ``solved`` (no light on), ``status`` (in words), ``style`` (``"lights"``), ``variant``
    and ``torus``."""
    lights = apply(puzzle, presses)
    holes = puzzle.holes or (0,) * puzzle.rows
    rows = [
        "".join(
            "x" if holes[r] >> c & 1 else "#" if lights[r] >> c & 1 else "."
            for c in range(puzzle.cols)
        )
        for r in range(puzzle.rows)
    ]
    lit = sum(row.bit_count() for row in lights)
    return {
        "rows": rows,
        "lit": lit,
        "pressed": coordinates(presses),
        "solved": lit == 0,
        "status": "every light is off" if lit == 0 else f"{plural(lit, 'light')} on",
        "style": "lights",
        "variant": puzzle.variant,
        "torus": puzzle.torus,
    }


def hint(puzzle: LightsOut, limits: Limits) -> dict[str, Any]:
    """One press of a minimum solution of ``puzzle`` (the board as it now is).

    Returns
    -------
    dict
        ``press`` (``[row, column]``, or ``None`` when nothing is lit, the board is
        unsolvable or the limits stopped the search), ``left`` (presses of that minimum
        solution, ``None`` when there is none), ``status``, ``minimum`` (whether that
        solution is proven to be a minimum) and ``words`` (rows and columns counted from 1).
    """
    kind = registry.get("lightsout")
    result = tasks.solve(kind, puzzle, request=tasks.Request("algebra"), limits=limits)
    solution = result.solution if result.status.has_solution else None
    cells = None if solution is None else coordinates(solution)
    minimum = bool(result.proof.get("minimum"))
    if cells:
        r, c = cells[0]
        best = "a minimum solution" if minimum else "a solution"
        words = (
            f"press row {r + 1}, column {c + 1}: {best} from here has {plural(len(cells), 'press')}"
        )
    elif cells == []:
        words = "every light is off"
    else:
        unsolvable = result.status.value == "unsolvable"
        words = (
            "no presses turn every light off" if unsolvable else f"no hint ({result.status.value})"
        )
    return {
        "press": cells[0] if cells else None,
        "left": None if cells is None else len(cells),
        "status": result.status.value,
        "minimum": minimum,
        "words": words,
    }


PLAYER = Player(
    title="Play Lights Out",
    note="Press a cell to toggle it and its neighbours; turn every light off.",
    moves=pressed,
    board=board,
    after=after,
    hint=hint,
)
"""The play the kind declares (``tools={"play": PLAYER}``)."""
