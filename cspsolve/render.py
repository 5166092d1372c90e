"""Drawings of puzzle boards: text for the terminal, and the :class:`Scene` pictures are made of.

A puzzle kind describes what to draw as scenes (grids of coloured cells with text, marks and
labels); this module turns them into text or image files, so no kind draws pixels itself.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from cspsolve.errors import OptionError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "IMAGE_FORMATS",
    "Layout",
    "Scene",
    "draw_graph",
    "drawn",
    "ink",
    "labelled_grid",
    "layout",
    "plot_comparison",
    "plural",
    "side_by_side",
    "svg",
    "write_image",
]

IMAGE_FORMATS = (".png", ".svg", ".gif")
"""File extensions :func:`write_image` knows: PNG and SVG draw a still, GIF plays every scene."""

DPI = 100
"""Pixels per inch of every image (a pixel is 0.72 pt in SVG output)."""


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
        (e.g. the Rush Hour exit left open in the frame; the frame itself is always drawn).
    caption : str
        Text under the picture (``"move 3 of 12: A+2"``).
    """

    fills: tuple[tuple[str | None, ...], ...]
    texts: tuple[tuple[str, ...], ...] = ()
    marks: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    row_labels: tuple[str, ...] = ()
    column_labels: tuple[str, ...] = ()
    walls: frozenset[tuple[int, int, str]] = field(default_factory=frozenset)
    caption: str = ""


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


# --- images of scenes (matplotlib, Agg; pillow for GIF) -----------------------------------------

_MAX_CELL, _MIN_CELL, _MAX_BOARD = 32, 4, 960
"""Cell side in pixels: 32, smaller for boards wider than 960 px, never below 4."""
_CHAR = 0.62
"""Width of a digit or letter, in font heights (DejaVu Sans digits are 0.636 em)."""
_LINE = 1.25
"""Height of a line of text, in font heights."""
_GRID_LINES_FROM = 8
"""Cells smaller than this many pixels are drawn without grid lines."""
_FRAME_DURATION_MS, _LAST_FRAME_MS = 600, 2000


@dataclass(frozen=True)
class Layout:
    """Where a scene's parts go, in pixels from the top left corner.

    Attributes
    ----------
    rows, cols : int
        Cells down and across.
    cell : int
        Side of a cell.
    font : float
        Height of label text.
    left, top : int
        Position of the board's top left corner (room for the row and column labels).
    width, height : int
        Size of the whole image.
    """

    rows: int
    cols: int
    cell: int
    font: float
    left: int
    top: int
    width: int
    height: int


def layout(scenes: Sequence[Scene]) -> Layout:
    """The one layout that fits every scene (so that GIF frames share a size).

    The board gets ``cell`` pixels per cell (32, less for big boards so that the board stays
    within about 960 px); row labels take the width of their longest text, column labels the
    height of their tallest stack, and the caption a line below the board.

    Raises
    ------
    OptionError
        If there is no scene, a scene has no cell, or its rows differ in length.
    """
    if not scenes:
        raise OptionError("nothing to draw (no scene)")
    rows = max(len(s.fills) for s in scenes)
    cols = max((len(r) for s in scenes for r in s.fills), default=0)
    if rows == 0 or cols == 0:
        raise OptionError("nothing to draw (an empty board)")
    if any(len(r) != len(s.fills[0]) for s in scenes for r in s.fills):
        raise OptionError("a scene's rows differ in length")
    cell = max(_MIN_CELL, min(_MAX_CELL, _MAX_BOARD // max(rows, cols)))
    font = max(6.0, cell * 0.5)
    pad = max(8, cell // 2)
    label_width = max((len(t) for s in scenes for t in s.row_labels), default=0)
    label_lines = max((t.count("\n") + 1 for s in scenes for t in s.column_labels if t), default=0)
    caption = max((len(s.caption) for s in scenes), default=0)
    left = pad + (math.ceil(label_width * _CHAR * font + font) if label_width else 0)
    top = pad + (math.ceil(label_lines * _LINE * font + font / 2) if label_lines else 0)
    bottom = pad + (math.ceil(2 * _LINE * font) if caption else 0)
    width = max(left + cols * cell + pad, math.ceil(caption * _CHAR * font) + 2 * pad)
    return Layout(rows, cols, cell, font, left, top, width, top + rows * cell + bottom)


def ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a matplotlib colour).

    Examples
    --------
    >>> ink("navy"), ink("#ffd700")
    ('white', 'black')
    """
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(fill)
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"


def _cell_edges(scene: Scene, at: Layout) -> list[list[tuple[float, float]]]:
    """The sides of every drawn cell, each once, as line segments in pixels."""
    sides: set[tuple[int, int, int, int]] = set()
    for r, row in enumerate(scene.fills):
        for c, fill in enumerate(row):
            if fill is not None:
                sides |= {(r, c, r, c + 1), (r + 1, c, r + 1, c + 1)}
                sides |= {(r, c, r + 1, c), (r, c + 1, r + 1, c + 1)}
    return [
        [
            (at.left + c0 * at.cell, at.top + r0 * at.cell),
            (at.left + c1 * at.cell, at.top + r1 * at.cell),
        ]
        for r0, c0, r1, c1 in sorted(sides)
    ]


_WALL_ENDS = {"N": (0, 0, 0, 1), "S": (1, 0, 1, 1), "W": (0, 0, 1, 0), "E": (0, 1, 1, 1)}


def _figure(scene: Scene, at: Layout) -> Figure:
    """Draw one scene on a new figure of exactly ``at.width`` x ``at.height`` pixels."""
    import numpy as np
    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Rectangle

    fig = Figure(figsize=(at.width / DPI, at.height / DPI), dpi=DPI, facecolor="white")
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, at.width)
    ax.set_ylim(at.height, 0)
    ax.set_axis_off()
    pt = 72 / DPI  # points per pixel
    size = at.font * pt
    cell, x0, y0 = at.cell, at.left, at.top
    rows, cols = len(scene.fills), len(scene.fills[0])
    rgba = np.array(
        [[to_rgba(f) if f is not None else (0, 0, 0, 0) for f in r] for r in scene.fills]
    )
    extent = (x0, x0 + cols * cell, y0 + rows * cell, y0)
    ax.imshow(rgba, extent=extent, interpolation="nearest", aspect="auto")
    if cell >= _GRID_LINES_FROM:
        ax.add_collection(LineCollection(_cell_edges(scene, at), colors="#999999", linewidths=0.6))
    for first, last in _panels(scene):
        width = (last - first + 1) * cell
        ax.add_patch(
            Rectangle((x0 + first * cell, y0), width, rows * cell, fill=False, lw=1.5, ec="black")
        )
    walls = [
        [(x0 + (c + c0) * cell, y0 + (r + r0) * cell), (x0 + (c + c1) * cell, y0 + (r + r1) * cell)]
        for r, c, side in sorted(scene.walls)
        for r0, c0, r1, c1 in [_WALL_ENDS[side]]
    ]
    if walls:
        ax.add_collection(
            LineCollection(walls, colors="black", linewidths=max(3.0, cell * 0.2 * pt))
        )
    for r, c in sorted(scene.marks):
        centre = (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell)
        ring = Circle(centre, 0.32 * cell, fill=False, ec="#d62728", lw=max(1.0, cell * 0.1 * pt))
        ax.add_patch(ring)
    for r, row in enumerate(scene.texts):
        for c, text in enumerate(row):
            if text:
                colour = ink(scene.fills[r][c] or "white")
                ax.text(
                    x0 + (c + 0.5) * cell,
                    y0 + (r + 0.5) * cell,
                    text,
                    ha="center",
                    va="center_baseline",
                    fontsize=size,
                    color=colour,
                )
    for r, label in enumerate(scene.row_labels):
        ax.text(
            x0 - at.font / 2,
            y0 + (r + 0.5) * cell,
            label,
            ha="right",
            va="center_baseline",
            fontsize=size,
        )
    for c, label in enumerate(scene.column_labels):
        ax.text(
            x0 + (c + 0.5) * cell,
            y0 - at.font / 4,
            label,
            ha="center",
            va="bottom",
            fontsize=size,
            linespacing=_LINE,
            multialignment="center",
        )
    if scene.caption:
        ax.text(
            at.width / 2,
            y0 + rows * cell + at.font,
            scene.caption,
            ha="center",
            va="top",
            fontsize=size,
        )
    return fig


def _panels(scene: Scene) -> list[tuple[int, int]]:
    """The first and last column of each block of columns between columns with no cell (the
    boards of :func:`side_by_side`), each framed on its own."""
    used = [any(row[c] is not None for row in scene.fills) for c in range(len(scene.fills[0]))]
    blocks: list[tuple[int, int]] = []
    for c, present in enumerate(used):
        if present and blocks and blocks[-1][1] == c - 1:
            blocks[-1] = (blocks[-1][0], c)
        elif present:
            blocks.append((c, c))
    return blocks or [(0, len(used) - 1)]


def side_by_side(left: Scene, right: Scene) -> Scene:
    """Two boards of the same height in one scene, a column apart (e.g. start and solution).

    Marks and walls of ``right`` are shifted to its place; the captions are joined with
    ``" | "``. Row and column labels are not kept.

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
    )


def _frame(scene: Scene, at: Layout) -> Any:
    """One scene as a pillow RGB image."""
    from PIL import Image

    png = io.BytesIO()
    _figure(scene, at).savefig(png, format="png", dpi=DPI)
    png.seek(0)
    return Image.open(png).convert("RGB")


def _still(scenes: Sequence[Scene]) -> tuple[Figure, Layout]:
    """The one picture of ``scenes``: the only scene, or the first and the last side by side."""
    stills = list(scenes) if len(scenes) < 2 else [side_by_side(scenes[0], scenes[-1])]
    at = layout(stills)
    return _figure(stills[0], at), at


def svg(scenes: Sequence[Scene]) -> str:
    """The SVG text of the picture :func:`write_image` draws in a ``.svg`` file, its labels
    kept as ``<text>`` elements.

    Raises
    ------
    OptionError
        For scenes that cannot be drawn (see :func:`layout`).
    """
    from matplotlib import rc_context

    out = io.StringIO()
    with rc_context({"svg.fonttype": "none"}):  # text stays text, not glyph outlines
        _still(scenes)[0].savefig(out, format="svg", dpi=DPI)
    return out.getvalue()


def drawn(scenes: Callable[[], Sequence[Scene]]) -> str | None:
    """The SVG text (:func:`svg`) of the scenes ``scenes()`` gives, or ``None`` when they
    cannot be drawn (a board with no grid, such as a graph: its kind or :func:`layout` raises
    :class:`~cspsolve.errors.OptionError`). Jupyter then shows the text repr.
    """
    try:
        return svg(scenes())
    except OptionError:
        return None


def write_image(scenes: Sequence[Scene], path: str | Path) -> Layout:
    """Write a puzzle's scenes as an image file; the extension names the format.

    Parameters
    ----------
    scenes : sequence of Scene
        What the kind's ``scenes(puzzle, solution)`` returned.
    path : str or Path
        ``.png`` or ``.svg``: the only scene, or the first and the last side by side (the
        start and the solved board of a puzzle solved by moves); ``.gif``: every scene, one
        frame each (0.6 s a frame, the last held 2 s, looping).

    Returns
    -------
    Layout
        The layout used; the image is ``width`` x ``height`` pixels (SVG: 0.72 pt a pixel).

    Raises
    ------
    OptionError
        For another extension or scenes that cannot be drawn (see :func:`layout`).
    OSError
        When the file cannot be written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in IMAGE_FORMATS:
        raise OptionError(f"unknown image format {path.suffix!r}; use .png, .svg or .gif")
    if suffix != ".gif":
        figure, at = _still(scenes)
        figure.savefig(path, format=suffix[1:], dpi=DPI)
        return at
    at = layout(scenes)
    frames = [_frame(scene, at) for scene in scenes]
    durations = [_FRAME_DURATION_MS] * (len(frames) - 1) + [_LAST_FRAME_MS]
    frames[0].save(
        path, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0
    )
    return at


# --- plots ----------------------------------------------------------------------------------


def draw_graph(graph: Any, path: str | Path, *, title: str = "") -> None:
    """Draw a constraint graph (a ``networkx.Graph``) as PNG or SVG.

    Nodes are placed by the Fruchterman-Reingold force-directed layout
    (``networkx.spring_layout``, fixed seed so the picture is reproducible; Fruchterman and
    Reingold, "Graph drawing by force-directed placement", Software: Practice and Experience
    21(11), 1991); nodes are labelled when there are at most 60.

    Raises
    ------
    OptionError
        For an extension other than ``.png`` or ``.svg``.
    """
    import networkx as nx
    from matplotlib.figure import Figure

    suffix = Path(path).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise OptionError(f"unknown image format {Path(path).suffix!r}; use .png or .svg")
    fig = Figure(figsize=(8, 8), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 0.95 if title else 1))
    ax.set_axis_off()
    positions = nx.spring_layout(graph, seed=7)
    labels = graph.number_of_nodes() <= 60
    nx.draw_networkx_edges(graph, positions, ax=ax, alpha=0.3, width=0.6)
    nx.draw_networkx_nodes(graph, positions, ax=ax, node_size=300 if labels else 20)
    if labels:
        names = {v: " ".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in graph}
        nx.draw_networkx_labels(graph, positions, names, ax=ax, font_size=6)
    if title:
        fig.suptitle(title)
    fig.savefig(path, format=suffix[1:], dpi=DPI)


def plot_comparison(
    runs: Sequence[tuple[str, str, float, float]],
    path: str | Path | BinaryIO,
    *,
    format: str | None = None,
) -> None:
    """Bar charts of the effort of each run, log scale: expanded nodes above, seconds below.

    Parameters
    ----------
    runs : sequence of (puzzle, run, expanded, seconds)
        ``run`` names the method and heuristic (``"astar/manhattan"``); one group of bars per
        run, one bar per puzzle. Zero values are drawn at the axis floor (1 node, 0.1 ms).
    path : str, Path or binary file
        ``.png`` or ``.svg`` (any format matplotlib writes), or a file open for writing bytes.
    format : str, optional
        The image format (``"svg"``, ``"png"``); by default the path's extension.
    """
    import numpy as np
    from matplotlib.figure import Figure

    puzzles = list(dict.fromkeys(p for p, _, _, _ in runs))
    names = list(dict.fromkeys(r for _, r, _, _ in runs))
    values = {(p, r): (e, s) for p, r, e, s in runs}
    fig = Figure(figsize=(max(6.0, 0.9 * len(names) * max(1, len(puzzles)) ** 0.5 + 2), 7), dpi=DPI)
    axes = fig.subplots(2, 1, sharex=True)
    width = 0.8 / len(puzzles)
    x = np.arange(len(names))
    for panel, (ax, label, floor) in enumerate(
        zip(axes, ("expanded nodes", "seconds"), (1.0, 1e-4), strict=True)
    ):
        lowest = float("inf")
        for i, puzzle in enumerate(puzzles):
            heights = [max(floor, values.get((puzzle, n), (0.0, 0.0))[panel]) for n in names]
            ax.bar(x + (i - (len(puzzles) - 1) / 2) * width, heights, width, label=puzzle)
            lowest = min(lowest, *heights)
        ax.set_yscale("log")
        ax.set_ylim(bottom=lowest / 2)
        ax.set_ylabel(label)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[1].set_xticks(x, names, rotation=30, ha="right")
    if len(puzzles) > 1:
        axes[0].legend(fontsize=8)
    else:
        axes[0].set_title(puzzles[0])
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, format=format)
