"""Lights Out boards drawn: as text for the terminal, and as scenes (:mod:`cspsolve.render`)
for pictures of the presses and of an explanation's steps.

A grid is drawn cell by cell. A graph's nodes are placed by the force-directed layout of
networkx (``spring_layout``, Fruchterman and Reingold, "Graph drawing by force-directed
placement", Software: Practice and Experience 21(11), 1991; a fixed seed, so that the picture
is the same every time; on a circle from :data:`SPRING_NODES` nodes on), each on a cell of a
square grid of its own, joined by its edges and named by its label."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from cspsolve.render import Scene, plural

from .board import LightsOut, Presses, apply, bits

__all__ = ["board", "draw", "fills", "scenes"]

LIT, OFF = "gold", "dimgray"
"""The colours of a lit and of an unlit cell or node."""
SPRING_NODES = 500
"""Graphs of this many nodes or more are laid out on a circle (networkx's spring layout needs
scipy for them)."""


def draw(puzzle: LightsOut, solution: Presses) -> str:
    """The board and the presses side by side: ``#`` lit, ``.`` off, ``x`` disabled; ``P``
    pressed; under them, how many presses. A graph board lists the nodes to press by name."""
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
    lines.append(plural(sum(row.bit_count() for row in solution), "press"))
    return "\n".join(lines)


def _glyph(light: int, hole: int, c: int) -> str:
    return "x" if hole >> c & 1 else "#" if light >> c & 1 else "."


def fills(puzzle: LightsOut, lights: Sequence[int]) -> tuple[tuple[str | None, ...], ...]:
    """The colours of a grid's cells under ``lights`` (packed rows): gold lit, grey off, none
    for a disabled cell."""
    holes = puzzle.holes or (0,) * puzzle.rows
    return tuple(
        tuple(None if hole >> c & 1 else LIT if light >> c & 1 else OFF for c in range(puzzle.cols))
        for light, hole in zip(lights, holes, strict=True)
    )


def board(puzzle: LightsOut, lights: Sequence[int], marked: Sequence[int], caption: str) -> Scene:
    """The board under ``lights`` (packed rows), the cells or nodes of ``marked`` (packed
    rows) ringed: a grid cell by cell, a graph as its nodes on a grid of their own (see the
    module docstring), with their edges and labels."""
    ringed = frozenset(
        (r, c) for r, row in enumerate(marked) for c in range(puzzle.cols) if row >> c & 1
    )
    if puzzle.is_grid:
        return Scene(fills(puzzle, lights), marks=ringed, caption=caption)
    assert puzzle.graph is not None
    places, side = _places(puzzle.graph)
    cells: list[list[str | None]] = [[None] * side for _ in range(side)]
    texts = [[""] * side for _ in range(side)]
    for node, (r, c) in enumerate(places):
        cells[r][c] = LIT if lights[0] >> node & 1 else OFF
        texts[r][c] = puzzle.labels[node]
    edges = tuple(
        (*places[i], *places[j]) for i, near in enumerate(puzzle.graph) for j in near if i < j
    )
    return Scene(
        tuple(map(tuple, cells)),
        texts=tuple(map(tuple, texts)),
        marks=frozenset(places[node] for _, node in ringed),
        caption=caption,
        edges=edges,
        framed=False,
    )


@functools.cache
def _places(graph: tuple[tuple[int, ...], ...]) -> tuple[list[tuple[int, int]], int]:
    """Each node's cell on a square grid, and the grid's side: the layout's positions scaled
    to the grid, a node whose cell is taken moved to the nearest free one."""
    import networkx as nx

    network = nx.Graph()
    network.add_nodes_from(range(len(graph)))
    network.add_edges_from((i, j) for i, near in enumerate(graph) for j in near)
    if len(graph) < SPRING_NODES:
        at = nx.spring_layout(network, seed=7)
    else:
        at = nx.circular_layout(network)
    side = max(3, math.ceil(2 * math.sqrt(len(graph))) + 1)
    xs = [float(at[n][0]) for n in range(len(graph))]
    ys = [float(at[n][1]) for n in range(len(graph))]
    taken: set[tuple[int, int]] = set()
    places = []
    for x, y in zip(xs, ys, strict=True):
        wanted = (_scaled(-y, -max(ys), -min(ys), side), _scaled(x, min(xs), max(xs), side))
        place = _nearest_free(wanted, taken, side)
        taken.add(place)
        places.append(place)
    return places, side


def _scaled(value: float, low: float, high: float, side: int) -> int:
    """``value`` from ``[low, high]`` to a cell index from 0 to ``side - 1``."""
    return round((value - low) / (high - low) * (side - 1)) if high > low else side // 2


def _nearest_free(
    wanted: tuple[int, int], taken: set[tuple[int, int]], side: int
) -> tuple[int, int]:
    """The free cell of the grid nearest ``wanted`` (by rings of growing distance)."""
    r0, c0 = wanted
    for ring in range(side):
        around = [
            (r0 + dr, c0 + dc)
            for dr in range(-ring, ring + 1)
            for dc in range(-ring, ring + 1)
            if max(abs(dr), abs(dc)) == ring
        ]
        for r, c in sorted(around, key=lambda p: (p[0] - r0) ** 2 + (p[1] - c0) ** 2):
            if 0 <= r < side and 0 <= c < side and (r, c) not in taken:
                return r, c
    raise ValueError("no free cell: the grid is full")


def scenes(puzzle: LightsOut, solution: Presses) -> list[Scene]:
    """The start board with the presses ringed, then the board after each press (row by row;
    node by node on a graph)."""
    cells = [(r, c) for r, row in enumerate(solution) for c in range(puzzle.cols) if row >> c & 1]
    first = board(puzzle, puzzle.lights, solution, f"{plural(len(cells), 'press')} (ringed)")
    out = [first]
    pressed = [0] * puzzle.rows
    for k, (r, c) in enumerate(cells, 1):
        pressed[r] |= 1 << c
        after = apply(puzzle, tuple(pressed))
        single = tuple(1 << c if row == r else 0 for row in range(puzzle.rows))
        caption = f"press {k} of {len(cells)}: {puzzle.name(r * puzzle.cols + c)}"
        out.append(board(puzzle, after, single, caption))
    return out
