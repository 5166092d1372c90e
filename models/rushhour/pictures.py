"""Rush Hour positions drawn: as text for the terminal, and as scenes (:mod:`cspsolve.render`)
for the pictures of a plan and of its explanation."""

from __future__ import annotations

from cspsolve.render import Scene, plural

from .board import Board, Move, replay

__all__ = ["draw", "picture", "scenes", "text"]

_PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94",
)  # fmt: skip
_RED = "#d62728"


def text(board: Board) -> list[str]:
    """The position's rows as text: names, ``.`` empty, ``x`` a wall, ``>`` the exit."""
    width = max(len(p.name) for p in board.pieces)
    rows = []
    for r, row in enumerate(board.grid()):
        cells = " ".join((name or ".").ljust(width) for name in row)
        rows.append(cells + (" >" if r == board.exit_row else ""))
    return rows


LEGEND = "(D+1: piece D slides 1 cell right or down; A-1: piece A 1 cell left or up)"
"""The line under a plan that reads its move notation."""


def draw(board: Board, solution: list[Move]) -> str:
    """The start board (``.`` empty, ``x`` wall, ``>`` the exit), the moves in lines of 12,
    and a line that reads the notation (:data:`LEGEND`)."""
    lines = text(board)
    words = [str(m) for m in solution]
    lines.append(f"{plural(len(words), 'move')}:" if words else "already solved")
    lines += ["  " + " ".join(words[k : k + 12]) for k in range(0, len(words), 12)]
    if words:
        lines.append(LEGEND)
    return "\n".join(lines)


def picture(position: Board, caption: str) -> Scene:
    """A position: pieces as coloured cells with their names (the colours follow the order of
    the pieces, the red car red), the exit marked on the right of its row."""
    colours = {
        p.name: _RED if p.name == position.red else _PALETTE[i % len(_PALETTE)]
        for i, p in enumerate(position.pieces)
    }
    exit_side = frozenset({(position.exit_row, position.size - 1, "E")})
    grid = position.grid()
    fills = tuple(
        tuple("black" if n == "x" else colours[n] if n else "white" for n in row) for row in grid
    )
    texts = tuple(tuple("" if n == "x" else n for n in row) for row in grid)
    where = f"exit right of row {position.exit_row + 1}"
    return Scene(fills, texts, walls=exit_side, caption=f"{caption} ({where})")


def scenes(board: Board, solution: list[Move]) -> list[Scene]:
    """One picture per position from the start (:func:`picture`)."""
    return [
        picture(position, "start" if k == 0 else f"move {k} of {len(solution)}: {solution[k - 1]}")
        for k, position in enumerate(replay(board, solution))
    ]
