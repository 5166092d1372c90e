"""Lights Out boards drawn: as text for the terminal, and as scenes (:mod:`cspsolve.render`)
for pictures of the presses and of an explanation's steps."""

from __future__ import annotations

from collections.abc import Sequence

from cspsolve.errors import OptionError
from cspsolve.render import Scene, plural

from .board import LightsOut, Presses, apply, bits

__all__ = ["draw", "fills", "scenes"]


def draw(puzzle: LightsOut, solution: Presses) -> str:
    """The board and the presses side by side: ``#`` lit, ``.`` off, ``x`` disabled; ``P``
    pressed. A graph board lists the nodes to press by name."""
    if not puzzle.is_grid:
        pressed = [puzzle.name(i) for i in bits(solution[0])]
        return f"press {plural(len(pressed), 'node')}: " + " ".join(pressed)
    holes = puzzle.holes or (0,) * puzzle.rows
    width = max(2 * puzzle.cols - 1, len("lights"))
    lines = ["lights".ljust(width + 3) + "presses"]
    for light, hole, press in zip(puzzle.lights, holes, solution, strict=True):
        left = " ".join(_glyph(light, hole, c) for c in range(puzzle.cols))
        right = " ".join(
            "x" if hole >> c & 1 else "P" if press >> c & 1 else "." for c in range(puzzle.cols)
        )
        lines.append(f"{left.ljust(width)}   {right}")
    return "\n".join(lines)


def _glyph(light: int, hole: int, c: int) -> str:
    return "x" if hole >> c & 1 else "#" if light >> c & 1 else "."


def fills(puzzle: LightsOut, lights: Sequence[int]) -> tuple[tuple[str | None, ...], ...]:
    """The colours of a grid's cells under ``lights`` (packed rows): gold lit, grey off, none
    for a disabled cell."""
    holes = puzzle.holes or (0,) * puzzle.rows
    return tuple(
        tuple(
            None if hole >> c & 1 else "gold" if light >> c & 1 else "dimgray"
            for c in range(puzzle.cols)
        )
        for light, hole in zip(lights, holes, strict=True)
    )


def scenes(puzzle: LightsOut, solution: Presses) -> list[Scene]:
    """The start board with the presses ringed, then the board after each press (row by row).

    Raises
    ------
    OptionError
        For a graph board (it has no grid to draw).
    """
    if not puzzle.is_grid:
        raise OptionError("a graph board cannot be drawn as a grid")
    cells = [(r, c) for r, row in enumerate(solution) for c in range(puzzle.cols) if row >> c & 1]
    first = Scene(
        fills(puzzle, puzzle.lights),
        marks=frozenset(cells),
        caption=f"{plural(len(cells), 'press')} (ringed)",
    )
    out = [first]
    pressed = [0] * puzzle.rows
    for k, (r, c) in enumerate(cells, 1):
        pressed[r] |= 1 << c
        after = apply(puzzle, tuple(pressed))
        out.append(
            Scene(
                fills(puzzle, after),
                marks=frozenset({(r, c)}),
                caption=f"press {k} of {len(cells)}: ({r}, {c})",
            )
        )
    return out
