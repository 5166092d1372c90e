"""What pictures are made of: :class:`Scene`, one picture of a grid board in terms of cells
(fills, texts, marks, walls, labels, edges ...), the geometry read from it (the cells a step
changed, their outline, the ends of a graph's edges, a cell's colour swatches), a board beside
another, and boards as text for the terminal.

A puzzle kind describes what to draw as scenes; :mod:`cspsolve.render` turns them into image
files and :mod:`cspsolve.player` into a page, so no kind draws pixels itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from cspsolve.errors import OptionError

__all__ = [
    "ANSI_COLOURS",
    "DPI",
    "Scene",
    "ansi_colours",
    "changed",
    "edge_ends",
    "joined",
    "labelled_grid",
    "outline",
    "plural",
    "side_by_side",
    "swatch_boxes",
]

DPI = 100
"""Pixels per inch of every image (a pixel is 0.72 pt in SVG output)."""

ANSI_COLOURS: ContextVar[bool] = ContextVar("ANSI_COLOURS", default=True)
"""Whether a drawing as text may colour its cells with ANSI codes. Where it may not (the
command line's output is not a terminal, :func:`ansi_colours`), a kind writes each colour by
its letter instead, so that the drawing keeps them as plain text."""


@contextmanager
def ansi_colours(allowed: bool) -> Iterator[None]:
    """Within the block, text drawings colour their cells with ANSI codes or not
    (:data:`ANSI_COLOURS`).

    Examples
    --------
    >>> with ansi_colours(False):
    ...     ANSI_COLOURS.get()
    False
    >>> ANSI_COLOURS.get()
    True
    """
    token = ANSI_COLOURS.set(allowed)
    try:
        yield
    finally:
        ANSI_COLOURS.reset(token)


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, in the plural unless the count is 1.

    Examples
    --------
    >>> plural(1, "press"), plural(3, "press"), plural(0, "cell")
    ('1 press', '3 presses', '0 cells')
    """
    if count == 1:
        return f"1 {word}"
    return f"{count} {word}{'es' if word.endswith('s') else 's'}"


@dataclass(frozen=True)
class Scene:
    """One picture of a grid board, in terms of cells rather than pixels.

    Attributes
    ----------
    fills : tuple of tuples of (str or None)
        ``fills[r][c]`` is the colour of cell (r, c): a matplotlib colour (``"black"``,
        ``"#d62728"``); ``None`` leaves a gap (no cell there: a disabled cell, outside the board).
        All rows have the same length.
    texts : tuple of tuples of str
        Optional text centred in each cell (``""`` for none); empty, or the shape of ``fills``.
    marks : frozenset of (row, col)
        Cells marked with a ring (e.g. the cells to press in Lights Out).
    row_labels : tuple of str
        Optional text left of each row (a nonogram's row clue, ``"3 1 2"``).
    column_labels : tuple of str
        Optional text above each column, lines joined by ``"\\n"`` (a column clue stacked).
    walls : frozenset of (row, col, side)
        Thick borders: ``side`` is one of ``"N"``, ``"E"``, ``"S"``, ``"W"`` of cell (row, col)
        (e.g. the Rush Hour exit left open in the frame).
    caption : str
        Text under the picture (``"move 3 of 12: A+2"``).
    highlight : frozenset of (row, col)
        Cells outlined as what a step changed (the cells a deduction decided, a moved car or
        tile): the cells of one text (a car's name, a tile's number) outlined as one region.
    lines : tuple of (axis, index, role)
        Rows (``axis`` ``"row"``) or columns (``"column"``) pointed out: ``role`` ``"read"``
        (the line a deduction read: outlined in blue), ``"chain"`` (a line a probe's chain
        visited: tinted blue) or ``"conflict"`` (a line left with no placement: outlined red).
    dots : tuple of (row, col, colour)
        Small discs with a blue rim: values a hypothesis gives cells (a probe's chain).
    swatches : tuple of (row, col, colours)
        The colours a cell may still take, drawn as small squares in it (a colour nonogram's
        cell narrowed to some of its colours).
    edges : tuple of (row, col, row, col)
        Lines joining two cells, from side to side of their squares (a graph's edges).
    framed : bool
        Whether the board (each block of columns between gaps, see :func:`side_by_side`) is
        framed; a graph's nodes are not.
    """

    fills: tuple[tuple[str | None, ...], ...]
    texts: tuple[tuple[str, ...], ...] = ()
    marks: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    row_labels: tuple[str, ...] = ()
    column_labels: tuple[str, ...] = ()
    walls: frozenset[tuple[int, int, str]] = field(default_factory=frozenset)
    caption: str = ""
    highlight: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    lines: tuple[tuple[str, int, str], ...] = ()
    dots: tuple[tuple[int, int, str], ...] = ()
    swatches: tuple[tuple[int, int, tuple[str, ...]], ...] = ()
    edges: tuple[tuple[int, int, int, int], ...] = ()
    framed: bool = True

    def text(self, row: int, col: int) -> str:
        """The text of cell (row, col) (``""`` when the scene has none)."""
        return self.texts[row][col] if self.texts else ""


def changed(before: Scene, after: Scene) -> frozenset[tuple[int, int]]:
    """The cells of ``after`` whose colour, text or colours left differ from ``before``, and
    every cell of ``after`` bearing the text of one of them (a moved car's whole body); every
    cell when the boards differ in size.

    Examples
    --------
    A car ``A`` moved one cell right: its cells, and the one it left.

    >>> before = Scene((("red", "red", "white"),), texts=(("A", "A", ""),))
    >>> after = Scene((("white", "red", "red"),), texts=(("", "A", "A"),))
    >>> sorted(changed(before, after))
    [(0, 0), (0, 1), (0, 2)]
    """
    size = (len(after.fills), len(after.fills[0]) if after.fills else 0)
    cells = [(r, c) for r in range(size[0]) for c in range(size[1])]
    if (len(before.fills), len(before.fills[0]) if before.fills else 0) != size:
        return frozenset(cells)
    left = {(r, c): colours for r, c, colours in before.swatches}
    right = {(r, c): colours for r, c, colours in after.swatches}
    differ = {
        (r, c)
        for r, c in cells
        if before.fills[r][c] != after.fills[r][c]
        or before.text(r, c) != after.text(r, c)
        or left.get((r, c)) != right.get((r, c))
    }
    named = {after.text(r, c) for r, c in differ} - {""}
    return frozenset(differ | {(r, c) for r, c in cells if after.text(r, c) in named})


def outline(scene: Scene) -> list[tuple[int, int, int, int]]:
    """The border of each region of :attr:`Scene.highlight` (its cells of one text), as
    segments ``(row, col, row, col)`` between grid corners, each run along a grid line one
    segment.

    Examples
    --------
    >>> outline(Scene((("white", "white"),), highlight=frozenset({(0, 0), (0, 1)})))
    [(0, 0, 0, 2), (1, 0, 1, 2), (0, 0, 1, 0), (0, 2, 1, 2)]
    """
    across: set[tuple[int, int]] = set()
    down: set[tuple[int, int]] = set()
    for r, c in scene.highlight:
        across |= {(r, c)} if _apart(scene, (r, c), (r - 1, c)) else set()
        across |= {(r + 1, c)} if _apart(scene, (r, c), (r + 1, c)) else set()
        down |= {(c, r)} if _apart(scene, (r, c), (r, c - 1)) else set()
        down |= {(c + 1, r)} if _apart(scene, (r, c), (r, c + 1)) else set()
    return joined(across, down)


def _apart(scene: Scene, cell: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether a highlighted ``cell`` and its neighbour ``other`` are in different regions."""
    return other not in scene.highlight or scene.text(*other) != scene.text(*cell)


def joined(
    across: set[tuple[int, int]], down: set[tuple[int, int]]
) -> list[tuple[int, int, int, int]]:
    """Unit sides across (``(grid row, column)``: a cell's top) and down (``(grid column,
    row)``: a cell's left) joined into runs, as segments ``(row, col, row, col)``."""
    return [
        *((line, a, line, b) for line, a, b in _runs(across)),
        *((a, line, b, line) for line, a, b in _runs(down)),
    ]


def _runs(sides: set[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Unit sides ``(line, k)`` (from ``k`` to ``k + 1`` along grid line ``line``) joined
    into runs ``(line, first, end)``."""
    runs: list[tuple[int, int, int]] = []
    for line, k in sorted(sides):
        if runs and runs[-1][0] == line and runs[-1][2] == k:
            runs[-1] = (line, runs[-1][1], k + 1)
        else:
            runs.append((line, k, k + 1))
    return runs


def edge_ends(scene: Scene) -> list[tuple[float, float, float, float]]:
    """Each of :attr:`Scene.edges` from the side of one cell's square to the other's, in cell
    units from the board's top left corner: ``(row, col, row, col)``."""
    out = []
    for r0, c0, r1, c1 in scene.edges:
        dr, dc = r1 - r0, c1 - c0
        cut = 0.5 / max(abs(dr), abs(dc), 1)
        out.append(
            (r0 + 0.5 + cut * dr, c0 + 0.5 + cut * dc, r1 + 0.5 - cut * dr, c1 + 0.5 - cut * dc)
        )
    return out


def swatch_boxes(count: int) -> list[tuple[float, float, float]]:
    """Where ``count`` swatches go in a cell: ``(top, left, side)`` in cell units, on a square
    grid of ``ceil(sqrt(count))`` a side, centred.

    Examples
    --------
    >>> swatch_boxes(2)
    [(0.35, 0.15, 0.3), (0.35, 0.55, 0.3)]
    """
    side = math.ceil(math.sqrt(count))
    rows = math.ceil(count / side)
    step = 0.8 / side
    size = step * 0.75
    top = 0.5 - rows * step / 2 + (step - size) / 2
    left = 0.1 + (step - size) / 2
    return [
        (round(top + (k // side) * step, 4), round(left + (k % side) * step, 4), round(size, 4))
        for k in range(count)
    ]


def labelled_grid(
    cells: Sequence[Sequence[str]],
    *,
    row_labels: Sequence[Sequence[int | str]],
    column_labels: Sequence[Sequence[int | str]],
    cell_width: int = 2,
) -> str:
    """Draw a grid of cells with number labels left of each row and above each column.

    Parameters
    ----------
    cells : sequence of sequences of str
        ``cells[r][c]`` is drawn as is; each should be ``cell_width`` characters wide.
    row_labels : sequence of sequences of int or str
        Numbers (or short words) written left of each row (e.g. a nonogram's row clues).
    column_labels : sequence of sequences of int or str
        Numbers (or short words) stacked above each column, bottom-aligned.
    cell_width : int
        Width of one cell in characters.

    Returns
    -------
    str
        The drawing, lines separated by ``\\n``.
    """
    left = [" ".join(map(str, labels)) for labels in row_labels]
    margin = max((len(s) for s in left), default=0)
    tallest = max((len(labels) for labels in column_labels), default=0)
    lines = []
    for level in range(tallest):
        parts = []
        for labels in column_labels:
            k = level - (tallest - len(labels))
            parts.append(str(labels[k]).rjust(cell_width) if k >= 0 else " " * cell_width)
        lines.append(" " * margin + " " + "".join(parts))
    for label, row in zip(left, cells, strict=True):
        lines.append(label.rjust(margin) + " " + "".join(row))
    return "\n".join(lines)


def side_by_side(left: Scene, right: Scene) -> Scene:
    """Two boards of the same height in one scene, a column apart (e.g. start and solution).

    Marks, walls, highlights, dots, swatches and edges of ``right`` are shifted to its place;
    the captions are joined with ``" | "``. Row and column labels and the lines pointed out
    are not kept.

    Raises
    ------
    OptionError
        If the boards differ in height.
    """
    if len(left.fills) != len(right.fills):
        raise OptionError("boards of different heights cannot stand side by side")
    shift = len(left.fills[0]) + 1

    def texts(scene: Scene) -> tuple[tuple[str, ...], ...]:
        return scene.texts or tuple(("",) * len(row) for row in scene.fills)

    return Scene(
        fills=tuple((*a, None, *b) for a, b in zip(left.fills, right.fills, strict=True)),
        texts=tuple((*a, "", *b) for a, b in zip(texts(left), texts(right), strict=True)),
        marks=left.marks | {(r, c + shift) for r, c in right.marks},
        walls=left.walls | {(r, c + shift, side) for r, c, side in right.walls},
        caption=" | ".join(c for c in (left.caption, right.caption) if c),
        highlight=left.highlight | {(r, c + shift) for r, c in right.highlight},
        dots=(*left.dots, *((r, c + shift, colour) for r, c, colour in right.dots)),
        swatches=(*left.swatches, *((r, c + shift, left) for r, c, left in right.swatches)),
        edges=(*left.edges, *((r0, c0 + shift, r1, c1 + shift) for r0, c0, r1, c1 in right.edges)),
        framed=left.framed and right.framed,
    )
