"""Images of puzzle boards: scenes drawn as PNG or SVG stills and GIFs that play every scene
(matplotlib with Agg; pillow for GIF), and the layout they share with the player.

A puzzle kind describes what to draw as scenes (:mod:`cspsolve.scenes`: grids of coloured
cells with text, marks and labels, and boards as text for the terminal); this module turns
them into image files, so no kind draws pixels itself. The names of :mod:`cspsolve.scenes` and
the plots of :mod:`cspsolve.plots` are found here too.
"""

from __future__ import annotations

import dataclasses
import io
import math
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from cspsolve.errors import OptionError
from cspsolve.plots import draw_graph, plot_comparison
from cspsolve.scenes import (
    DPI,
    Scene,
    changed,
    edge_ends,
    joined,
    labelled_grid,
    outline,
    plural,
    side_by_side,
    swatch_boxes,
)

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import NDArray
    from PIL.Image import Image as PILImage

__all__ = [
    "IMAGE_FORMATS",
    "Layout",
    "Scene",
    "changed",
    "draw_graph",
    "drawn",
    "gif_seconds",
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


_MAX_CELL, _MIN_CELL, _MAX_BOARD = 32, 4, 960
"""Cell side in pixels: 32, smaller for boards wider than 960 px, never below 4."""
CHAR_WIDTH = 0.62
"""Width of a digit or letter, in font heights (DejaVu Sans digits are 0.636 em)."""
_LINE = 1.25
"""Height of a line of text, in font heights."""
_CAPTION_WIDTH = 480
"""Pixels a caption may widen a narrower picture to; a longer caption is wrapped."""
_GRID_LINES_FROM = 8
"""Cells smaller than this many pixels are drawn without grid lines."""
TEXT_SHARE = 0.9
"""The share of a cell's width a cell's text may take."""
_FRAME_DURATION_MS, _LAST_FRAME_MS = 600, 2000
ANNOUNCED_FRAMES = 50
"""A GIF of more frames than this says beforehand how long it will take (see
:func:`write_image`)."""
_SECONDS_PER_FRAME, _SECONDS_PER_MEGAPIXEL = 0.01, 0.04
"""The estimate of a GIF frame's time: a fixed part and a part per million pixels (measured on
one core of the benchmark machine, rounded up)."""


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

    @property
    def pad(self) -> int:
        """The margin around the board and its labels."""
        return max(8, self.cell // 2)

    def caption(self, text: str) -> list[str]:
        """``text`` wrapped to the picture's width, a line each."""
        chars = max(1, int((self.width - 2 * self.pad) / (CHAR_WIDTH * self.font)))
        return textwrap.wrap(text, chars) or [""]


def layout(scenes: Sequence[Scene]) -> Layout:
    """The one layout that fits every scene (so that GIF frames share a size).

    The board gets ``cell`` pixels per cell (32, less for big boards so that the board stays
    within about 960 px); row labels take the width of their longest text, column labels the
    height of their tallest stack, and the caption its lines below the board: a caption may
    widen a narrow picture to 480 px (the board in its middle), and is wrapped to the
    picture's width beyond.

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
    left = pad + (math.ceil(label_width * CHAR_WIDTH * font + font) if label_width else 0)
    top = pad + (math.ceil(label_lines * _LINE * font + font / 2) if label_lines else 0)
    board = left + cols * cell + pad
    longest = max((len(s.caption) for s in scenes), default=0)
    width = max(board, min(math.ceil(longest * CHAR_WIDTH * font) + 2 * pad, _CAPTION_WIDTH))
    left += (width - board) // 2  # a board narrower than its caption stands in the middle
    at = Layout(rows, cols, cell, font, left, top, width, top + rows * cell + pad)
    lines = max((len(at.caption(s.caption)) for s in scenes if s.caption), default=0)
    bottom = math.ceil((lines + 1) * _LINE * font) if lines else 0
    return dataclasses.replace(at, height=at.height + bottom)


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


def _cell_sides(scene: Scene) -> list[tuple[int, int, int, int]]:
    """The sides of every drawn cell, each once, as segments ``(row, col, row, col)`` between
    grid corners: each run of sides along one grid line is one segment."""
    across: set[tuple[int, int]] = set()  # (grid row, column): the top side of a cell
    down: set[tuple[int, int]] = set()  # (grid column, row): the left side of a cell
    for r, row in enumerate(scene.fills):
        for c, fill in enumerate(row):
            if fill is not None:
                across |= {(r, c), (r + 1, c)}
                down |= {(c, r), (c + 1, r)}
    return joined(across, down)


_WALL_ENDS = {"N": (0, 0, 0, 1), "S": (1, 0, 1, 1), "W": (0, 0, 1, 0), "E": (0, 1, 1, 1)}


def _axes(at: Layout) -> tuple[Figure, Axes]:
    """A new figure of exactly ``at.width`` x ``at.height`` pixels, its axes in pixels from
    the top left corner."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(at.width / DPI, at.height / DPI), dpi=DPI, facecolor="white")
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, at.width)
    ax.set_ylim(at.height, 0)
    ax.set_axis_off()
    return fig, ax


def _figure(scene: Scene, at: Layout) -> Figure:
    """Draw one scene on a new figure of exactly ``at.width`` x ``at.height`` pixels."""
    fig, ax = _axes(at)
    _labels(ax, scene, at)
    _board(ax, scene, at)
    return fig


def _labels(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """Draw the row and column labels; the artists added."""
    size = at.font * 72 / DPI
    x0, y0, cell = at.left, at.top, at.cell
    rows = [
        ax.text(x0 - at.font / 2, y0 + (r + 0.5) * cell, label, ha="right",
                va="center_baseline", fontsize=size)
        for r, label in enumerate(scene.row_labels)
    ]  # fmt: skip
    columns = [
        ax.text(x0 + (c + 0.5) * cell, y0 - at.font / 4, label, ha="center", va="bottom",
                fontsize=size, linespacing=_LINE, multialignment="center")
        for c, label in enumerate(scene.column_labels)
    ]  # fmt: skip
    return [*rows, *columns]


_BLUE, _RED, _ORANGE = "#1f77b4", "#d62728", "#ff7f0e"


def _board(ax: Axes, scene: Scene, at: Layout, *, cells: bool = True) -> list[Artist]:
    """Draw the cells (unless not ``cells``), their grid and edges, the frame and walls, the
    lines pointed out, swatches, dots, marks, the highlight, the texts and the caption; the
    artists added, in drawing order."""
    out: list[Artist] = []
    if cells:
        rows, cols = len(scene.fills), len(scene.fills[0])
        extent = (at.left, at.left + cols * at.cell, at.top + rows * at.cell, at.top)
        out.append(ax.imshow(_rgba(scene), extent=extent, interpolation="nearest", aspect="auto"))
    for draw in (_grid, _frames, _lines, _swatches, _dots, _marks, _highlight, _texts, _caption):
        out += draw(ax, scene, at)
    for order, artist in enumerate(out):  # a figure draws by z-order: the order given here
        artist.set_zorder(order)
    return out


def _pixels_of(at: Layout, row: float, col: float) -> tuple[float, float]:
    """The pixel (x, y) of a point of the board given in cell units."""
    return (at.left + col * at.cell, at.top + row * at.cell)


def _segments(
    ax: Axes, at: Layout, ends: Iterable[tuple[float, float, float, float]], **style: Any
) -> list[Artist]:
    """One collection of line segments given in cell units, ``(row, col, row, col)``."""
    from matplotlib.collections import LineCollection

    lines = [[_pixels_of(at, r0, c0), _pixels_of(at, r1, c1)] for r0, c0, r1, c1 in ends]
    return [ax.add_collection(LineCollection(lines, **style), autolim=False)] if lines else []


def _width(at: Layout, share: float, least: float) -> float:
    """A line's width in points: ``share`` of a cell, at least ``least`` pixels."""
    return max(least, at.cell * share) * 72 / DPI


def _grid(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The sides of the cells (on cells big enough) and the edges between cells."""
    out = _segments(ax, at, edge_ends(scene), colors="#555555", linewidths=_width(at, 0.05, 1))
    if at.cell >= _GRID_LINES_FROM:
        out += _segments(ax, at, _cell_sides(scene), colors="#999999", linewidths=0.6)
    return out


def _frames(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The frame of each block of columns, and the walls."""
    from matplotlib.patches import Rectangle

    rows = len(scene.fills)
    out: list[Artist] = []
    for first, last in _panels(scene) if scene.framed else []:
        x, y = _pixels_of(at, 0, first)
        width = (last - first + 1) * at.cell
        out.append(ax.add_patch(Rectangle((x, y), width, rows * at.cell, fill=False, lw=1.5)))
    walls = [
        (r + r0, c + c0, r + r1, c + c1)
        for r, c, side in sorted(scene.walls)
        for r0, c0, r1, c1 in [_WALL_ENDS[side]]
    ]
    return out + _segments(ax, at, walls, colors="black", linewidths=_width(at, 0.2, 4.17))


def _lines(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The rows and columns pointed out: chains tinted, lines read and conflicts outlined."""
    from matplotlib.patches import Rectangle

    rows, cols = len(scene.fills), len(scene.fills[0])
    styles: dict[str, dict[str, Any]] = {
        "chain": {"fill": True, "fc": _BLUE, "alpha": 0.22, "lw": 0},
        "read": {"fill": False, "ec": _BLUE, "lw": _width(at, 0.08, 2)},
        "conflict": {"fill": False, "ec": _RED, "lw": _width(at, 0.12, 3)},
    }
    out: list[Artist] = []
    for axis, index, role in scene.lines:
        top, left = (index, 0) if axis == "row" else (0, index)
        high, wide = (1, cols) if axis == "row" else (rows, 1)
        box = Rectangle(_pixels_of(at, top, left), wide * at.cell, high * at.cell, **styles[role])
        out.append(ax.add_patch(box))
    return out


def _swatches(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The colours left in each narrowed cell, as small squares."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    boxes, colours = [], []
    for r, c, left in scene.swatches:
        for (top, side_left, side), colour in zip(swatch_boxes(len(left)), left, strict=True):
            x, y = _pixels_of(at, r + top, c + side_left)
            boxes.append(Rectangle((x, y), side * at.cell, side * at.cell))
            colours.append(colour)
    if not boxes:
        return []
    patches = PatchCollection(boxes, facecolors=colours, edgecolors="#444444", linewidths=0.5)
    return [ax.add_collection(patches, autolim=False)]


def _dots(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The values a hypothesis gives cells, as discs with a blue rim."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle

    discs = [Circle(_pixels_of(at, r + 0.5, c + 0.5), 0.2 * at.cell) for r, c, _ in scene.dots]
    if not discs:
        return []
    rim = _width(at, 0.06, 1.5)
    colours = [colour for _, _, colour in scene.dots]
    patches = PatchCollection(discs, facecolors=colours, edgecolors=_BLUE, linewidths=rim)
    return [ax.add_collection(patches, autolim=False)]


def _marks(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """A red ring in each marked cell."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle

    rings = [Circle(_pixels_of(at, r + 0.5, c + 0.5), 0.32 * at.cell) for r, c in scene.marks]
    if not rings:
        return []
    style: dict[str, Any] = {
        "facecolors": "none",
        "edgecolors": _RED,
        "linewidths": _width(at, 0.1, 1.39),
    }
    return [ax.add_collection(PatchCollection(rings, **style), autolim=False)]


def _highlight(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The border of the cells a step changed, in orange."""
    style = {"colors": _ORANGE, "linewidths": _width(at, 0.12, 2.5), "capstyle": "projecting"}
    return _segments(ax, at, outline(scene), **style)


def _texts(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The text of each cell, black or white as reads best on its colour, smaller when it
    would not fit the cell (:func:`fitted`)."""
    return [
        ax.text(*_pixels_of(at, r + 0.5, c + 0.5), text, ha="center", va="center_baseline",
                fontsize=fitted(text, at) * 72 / DPI, color=ink(scene.fills[r][c] or "white"))
        for r, row in enumerate(scene.texts)
        for c, text in enumerate(row)
        if text
    ]  # fmt: skip


def fitted(text: str, at: Layout) -> float:
    """The font height of a cell's ``text``: the layout's, or less so that it fits the cell.

    Examples
    --------
    >>> at = Layout(3, 3, 32, 16.0, 8, 8, 112, 112)
    >>> fitted("A", at), round(fitted("north", at), 1)
    (16.0, 9.3)
    """
    return min(at.font, TEXT_SHARE * at.cell / (CHAR_WIDTH * max(1, len(text))))


def _caption(ax: Axes, scene: Scene, at: Layout) -> list[Artist]:
    """The caption under the board, wrapped to the picture's width."""
    if not scene.caption:
        return []
    y = at.top + len(scene.fills) * at.cell + at.font
    caption = "\n".join(at.caption(scene.caption))
    return [
        ax.text(at.width / 2, y, caption, ha="center", va="top", fontsize=at.font * 72 / DPI,
                linespacing=_LINE)
    ]  # fmt: skip


def _rgba(scene: Scene) -> NDArray[np.float64]:
    """The colour of each cell as RGBA from 0 to 1, a gap transparent."""
    import numpy as np
    from matplotlib.colors import to_rgba

    colours = {f: to_rgba(f) if f is not None else (0, 0, 0, 0) for r in scene.fills for f in r}
    return np.array([[colours[f] for f in row] for row in scene.fills], np.float64)


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


class _Painter:
    """Scenes of one layout drawn as pixels on one figure: the labels once (again only when
    they change), the board and the caption of each scene over them."""

    def __init__(self, at: Layout) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.at = at
        self.figure, self.axes = _axes(at)
        self.canvas = FigureCanvasAgg(self.figure)
        self.labelled: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self.labels: list[Artist] = []
        self.background: Any = None

    def image(self, scene: Scene) -> PILImage:
        """The scene as a pillow RGB image."""
        from PIL import Image

        labelled = (scene.row_labels, scene.column_labels)
        if labelled != self.labelled:
            for artist in self.labels:
                artist.remove()
            self.labels = _labels(self.axes, scene, self.at)
            self.canvas.draw()  # type: ignore[no-untyped-call]
            self.background = self.canvas.copy_from_bbox(  # type: ignore[no-untyped-call]
                self.figure.bbox
            )
            self.labelled = labelled
        else:
            self.canvas.restore_region(self.background)  # type: ignore[no-untyped-call]
        self._cells(scene)
        drawn = _board(self.axes, scene, self.at, cells=False)
        for artist in drawn:
            self.axes.draw_artist(artist)
            artist.remove()
        return Image.fromarray(self._pixels())

    def _pixels(self) -> NDArray[np.uint8]:
        """The canvas's pixels, RGBA rows from the top (a view: writing changes them)."""
        import numpy as np

        return np.asarray(self.canvas.buffer_rgba())  # type: ignore[no-untyped-call]

    def _cells(self, scene: Scene) -> None:
        """Paint the cells straight into the canvas's pixels, on the white board (as
        :func:`_board` draws them, without resampling an image)."""
        import numpy as np

        at = self.at
        rgba = _rgba(scene)
        over_white = rgba[..., :3] * rgba[..., 3:] + (1 - rgba[..., 3:])
        pixels = (over_white * 255).round().astype(np.uint8)
        rows, cols = pixels.shape[:2]
        board = self._pixels()[at.top : at.top + rows * at.cell, at.left : at.left + cols * at.cell]
        board[..., :3] = pixels.repeat(at.cell, axis=0).repeat(at.cell, axis=1)
        board[..., 3] = 255


class _Gif:
    """An animated GIF written frame by frame: each frame only where it differs from the frame
    before, with its own colour table; a frame equal to the one before lengthens that one.
    One frame is held back, so that the last can be given its own duration."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.shown: PILImage | None = None
        self.held: tuple[PILImage, tuple[int, int], int] | None = None

    def add(self, image: PILImage, milliseconds: int) -> None:
        """Show ``image`` (RGB or RGBA, the size of the first) next, for ``milliseconds``."""
        from PIL import ImageChops

        image = image.convert("RGB")
        if self.shown is None:
            box: tuple[int, int, int, int] | None = (0, 0, *image.size)
        else:
            box = ImageChops.difference(image, self.shown).getbbox()
        if box is None:
            assert self.held is not None
            picture, offset, held = self.held
            self.held = picture, offset, held + milliseconds
            return
        self._flush()
        self.held = (_paletted(image.crop(box)), box[:2], milliseconds)
        self.shown = image

    def close(self, last_milliseconds: int) -> None:
        """Show the last frame ``last_milliseconds`` longer than given, and end the file."""
        if self.held is not None:
            picture, offset, held = self.held
            self.held = picture, offset, held + last_milliseconds
        self._flush()
        self.file.write(b";")

    def _flush(self) -> None:
        from PIL import GifImagePlugin

        if self.held is None:
            return
        picture, offset, milliseconds = self.held
        if self.file.tell() == 0:
            header, _ = GifImagePlugin.getheader(picture, info={"loop": 0})
            self.file.write(b"".join(header))
            local = {}
        else:
            local = {"include_color_table": True}
        chunks = GifImagePlugin.getdata(picture, offset, duration=milliseconds, **local)
        self.file.write(b"".join(chunks))
        self.held = None


def _paletted(image: PILImage) -> PILImage:
    """An RGB image in 256 colours at most (GIF's limit), its own palette (fast octree)."""
    from PIL import Image

    return image.quantize(256, method=Image.Quantize.FASTOCTREE)


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


def gif_seconds(frames: int, at: Layout) -> float:
    """About how long :func:`write_image` takes to draw ``frames`` frames of layout ``at`` as
    a GIF, in seconds on one core (an estimate; a busy machine takes longer).

    Examples
    --------
    >>> at = Layout(25, 25, 32, 16.0, 180, 180, 1000, 1000)
    >>> round(gif_seconds(200, at))
    10
    """
    return frames * (_SECONDS_PER_FRAME + _SECONDS_PER_MEGAPIXEL * at.width * at.height / 1e6)


def write_image(
    scenes: Sequence[Scene],
    path: str | Path,
    *,
    announce: Callable[[str], None] | None = None,
) -> Layout:
    """Write a puzzle's scenes as an image file; the extension names the format.

    Parameters
    ----------
    scenes : sequence of Scene
        What the kind's ``scenes(puzzle, solution)`` returned.
    path : str or Path
        ``.png`` or ``.svg``: the only scene, or the first and the last side by side (the
        start and the solved board of a puzzle solved by moves); ``.gif``: every scene, one
        frame each (0.6 s a frame, the last held 2 s, looping), drawn and written one at a
        time (the memory needed does not grow with the number of frames).
    announce : callable, optional
        Told, before a GIF of more than :data:`ANNOUNCED_FRAMES` frames is drawn, how many
        frames it has and about how long they will take (:func:`gif_seconds`), in a sentence.

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
    if announce is not None and len(scenes) > ANNOUNCED_FRAMES:
        seconds = gif_seconds(len(scenes), at)
        announce(
            f"drawing {len(scenes)} frames of {at.width} x {at.height} pixels into {path.name}: "
            f"about {max(1, round(seconds))} s"
        )
    painter = _Painter(at)
    with path.open("wb") as file:
        gif = _Gif(file)
        for scene in scenes:
            gif.add(painter.image(scene), _FRAME_DURATION_MS)
        gif.close(_LAST_FRAME_MS - _FRAME_DURATION_MS)
    return at
