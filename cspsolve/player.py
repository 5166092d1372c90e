"""A player for explanations: a web page, or a Jupyter view, that steps through board pictures.

:func:`page` makes a whole HTML5 document and :func:`widget` the same player as a fragment
for Jupyter's ``_repr_html_``. Both are self-contained: the frames are embedded as JSON and a
small inline script draws the board as SVG in the browser, so nothing is fetched from the
network and no image is made in Python (the controls, the style and the script are
:mod:`cspsolve.player_page`'s). The player has buttons (first, previous, play/pause,
next, last), a slider, the keyboard (arrows, Home, End, space), the caption of the current
frame above the board, the list of all frames beside it (numbered by step; click one to jump
there) and notes below (the proof and the summary). It draws what :class:`~cspsolve.render.Scene`
holds as :func:`cspsolve.render.write_image` does: cells, texts, labels, walls, marks, the
cells a step changed outlined, the lines a deduction read, a probe's chain and its conflict,
the values it supposes, a cell's colours left and a graph's edges. The board fits the window
(its height at most 80 % of the window's, a small board at most twice its size); the list
stands beside it on a wide screen and below it on a narrow one.

The frames are stored compactly (:func:`frame_data`): the colours once in a palette, the cell
texts once in a table, and each frame as the cells that changed since the frame before; every
other part only where it changes. Every text from the frames is embedded as JSON with
``<``, ``>``, ``&``, U+2028 and U+2029 escaped and put on the page by the script as text
(``textContent``), never as markup; notes and the title are HTML-escaped.
"""

from __future__ import annotations

import html
import json
import uuid
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from cspsolve.errors import OptionError
from cspsolve.player_page import CONTROLS, PAGE_STYLE, SCRIPT, STYLE
from cspsolve.render import ink, layout
from cspsolve.scenes import Scene, edge_ends, outline, swatch_boxes

__all__ = ["Frame", "Frames", "frame_data", "page", "widget"]


class Frame(NamedTuple):
    """One picture of the player.

    Attributes
    ----------
    caption : str
        What the list of frames shows for it (the scene's own caption is shown above the
        board, this one when the scene has none).
    scene : Scene
        The picture.
    step : int or None
        The number of the step it shows: the list numbers the frame so, and the counter says
        ``step N of M``; ``None`` for a frame before the steps (the start). When no frame has
        a step, frames are numbered in order.
    fold : (int, str) or None
        On the first frame of a long sub-argument (a refuted branch): how many steps it spans
        and one sentence for them all; the list shows the sentence, its steps folded under it
        until opened (or until the player reaches one of them).
    """

    caption: str
    scene: Scene
    step: int | None = None
    fold: tuple[int, str] | None = None


Frames = Sequence[Frame | tuple[str, Scene]]
"""What the player plays: frames, or (caption, scene) pairs numbered in order."""


_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"
"""The page's content security policy: inline script and style only, no request of any kind."""

_NO_CELL = -1
"""The colour number of a gap (a cell that is not drawn, ``None`` in :attr:`Scene.fills`)."""


def frame_data(frames: Frames) -> dict[str, Any]:
    """The frames in the compact JSON-ready form the player's script reads.

    Parameters
    ----------
    frames : sequence of Frame or (str, Scene)
        Each frame's caption and picture (and step), in order. Scenes of different sizes are
        drawn on the largest grid, the cells a scene lacks left as gaps.

    Returns
    -------
    dict
        ``rows``, ``cols``: the grid; ``size``: ``cell``, ``font``, ``left``, ``top``,
        ``width``, ``height`` in pixels (as :func:`cspsolve.render.layout`, without room for
        a caption); ``palette``: colours as CSS ``#rrggbb`` (``#rrggbbaa`` when translucent);
        ``ink``: per colour, ``"black"`` or ``"white"`` for text on it; ``texts``: the cell
        texts, ``texts[0] == ""``; ``frames``: one object per frame with ``caption`` and
        ``cells``, a flat list of triples ``cell, colour, text`` (cell ``r * cols + c``,
        colour an index of ``palette`` or -1 for a gap, text an index of ``texts``) for the
        cells that differ from the frame before (before the first: all gaps without text),
        and where they differ from the frame before (before the first: empty or true)
        ``marks`` (``[[r, c], ...]``), ``walls`` (``[[r, c, side], ...]``), ``row_labels``
        and ``column_labels`` (lists of str), ``outline`` (the highlight's border,
        :func:`cspsolve.render.outline`: ``[[r, c, r, c], ...]`` between grid corners),
        ``lines`` (``[[axis, index, role], ...]``), ``dots`` (``[[r, c, colour], ...]``),
        ``swatches`` (one square each, ``[[r, c, top, left, side, colour], ...]`` in cell
        units, :func:`cspsolve.render.swatch_boxes`), ``edges`` (``[[r, c, r, c], ...]`` in
        cell units, :func:`cspsolve.render.edge_ends`) and ``framed`` (bool); ``step`` when
        the frame shows a step; ``scene_caption`` when the scene's own caption is not the
        frame's; ``fold`` (``[steps, sentence]``) on the first frame of a folded run of
        steps. ``steps``: the last step shown (0: the frames are numbered in order).

    Raises
    ------
    OptionError
        When there is no frame, a frame has no cell, a scene's rows differ in length (see
        :func:`cspsolve.render.layout`) or a colour is not one matplotlib knows.

    Examples
    --------
    A black cell beside a gap, then white and marked:

    >>> from cspsolve.render import Scene
    >>> data = frame_data(
    ...     [("start", Scene((("black", None),))),
    ...      ("end", Scene((("white", None),), marks=frozenset({(0, 0)}), caption="end"))]
    ... )
    >>> data["palette"], data["frames"][0]
    (['#000000', '#ffffff'], {'caption': 'start', 'cells': [0, 0, 0], 'scene_caption': ''})
    >>> data["frames"][1]
    {'caption': 'end', 'cells': [0, 1, 0], 'marks': [[0, 0]]}
    """
    played = [Frame(*frame) for frame in frames]
    at = layout([replace(frame.scene, caption="") for frame in played])
    pad = max(8, at.cell // 2)
    rows, cols = at.rows, at.cols
    palette = _Palette()
    texts: dict[str, int] = {"": 0}
    shown: list[tuple[int, int]] = [(_NO_CELL, 0)] * (rows * cols)
    extras = _extras(Scene(()), palette)  # before the first frame: nothing
    out: list[dict[str, Any]] = []
    for caption, scene, step, fold in played:
        cells = _cells(scene, cols, rows * cols, palette, texts)
        record: dict[str, Any] = {
            "caption": caption,
            "cells": [
                v
                for i, (new, old) in enumerate(zip(cells, shown, strict=True))
                if new != old
                for v in (i, *new)
            ],
        }
        shown = cells
        for key, value in _extras(scene, palette).items():
            if value != extras[key]:
                record[key] = extras[key] = value
        if step is not None:
            record["step"] = step
        if fold is not None and step is not None:
            record["fold"] = list(fold)
        if scene.caption != caption:
            record["scene_caption"] = scene.caption
        out.append(record)
    return {
        "steps": max((frame.step or 0 for frame in played), default=0),
        "rows": rows,
        "cols": cols,
        "size": {
            "cell": at.cell,
            "font": at.font,
            "left": at.left,
            "top": at.top,
            "width": at.left + cols * at.cell + pad,
            "height": at.top + rows * at.cell + pad,
        },
        "palette": palette.colours,
        "ink": palette.inks,
        "texts": list(texts),
        "frames": out,
    }


class _Palette:
    """The colours met so far, each once, as CSS colours with the ink for text on them."""

    def __init__(self) -> None:
        self.colours: list[str] = []
        self.inks: list[str] = []
        self._number: dict[str, int] = {}

    def number(self, colour: str) -> int:
        """The index of ``colour`` (any matplotlib colour), added when new.

        Raises
        ------
        OptionError
            When matplotlib does not know the colour.
        """
        found = self._number.get(colour)
        if found is None:
            from matplotlib.colors import to_hex, to_rgba

            try:
                rgba = to_rgba(colour)
            except ValueError:
                raise OptionError(f"cannot draw the colour {colour!r}") from None
            css = to_hex(rgba, keep_alpha=rgba[3] < 1)
            if css not in self.colours:
                self.colours.append(css)
                self.inks.append(ink(colour))
            found = self._number[colour] = self.colours.index(css)
        return found


def _cells(
    scene: Scene, cols: int, count: int, palette: _Palette, texts: dict[str, int]
) -> list[tuple[int, int]]:
    """Each cell of the grid as (colour number, text number), row by row; gaps past the
    scene's own rows and columns."""
    cells = [(_NO_CELL, 0)] * count
    for r, row in enumerate(scene.fills):
        words = scene.texts[r] if scene.texts else ()
        for c, fill in enumerate(row):
            text = words[c] if c < len(words) else ""
            colour = _NO_CELL if fill is None else palette.number(fill)
            cells[r * cols + c] = (colour, texts.setdefault(text, len(texts)))
    return cells


def _extras(scene: Scene, palette: _Palette) -> dict[str, Any]:
    """The parts of a scene besides its cells, JSON-ready and in a fixed order (colours as
    numbers of ``palette``)."""
    squares = [
        [r, c, top, left, side, palette.number(colour)]
        for r, c, colours in scene.swatches
        for (top, left, side), colour in zip(swatch_boxes(len(colours)), colours, strict=True)
    ]
    return {
        "marks": [[r, c] for r, c in sorted(scene.marks)],
        "walls": [[r, c, side] for r, c, side in sorted(scene.walls)],
        "row_labels": list(scene.row_labels),
        "column_labels": list(scene.column_labels),
        "outline": [list(segment) for segment in outline(scene)],
        "lines": [list(line) for line in scene.lines],
        "dots": [[r, c, palette.number(colour)] for r, c, colour in scene.dots],
        "swatches": squares,
        "edges": [list(ends) for ends in edge_ends(scene)],
        "framed": scene.framed,
    }


def _json_script(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script>`` element (and in JavaScript source): no
    ``<``, ``>`` or ``&``, no line or paragraph separator left raw."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def widget(frames: Frames, *, notes: Sequence[str] = ()) -> str:
    """The player as an HTML fragment, e.g. for Jupyter's ``_repr_html_`` (no server needed).

    Parameters
    ----------
    frames : sequence of Frame or (str, Scene)
        Each frame's caption and picture, in order (see :func:`frame_data`).
    notes : sequence of str
        Sentences shown below the player (the proof, the summary).

    Returns
    -------
    str
        One ``<div>`` holding its own style, data and script. Its id is new on every call
        (``cspsolve-player-`` and 16 random hex digits), the style and the script touch
        nothing outside it, so several players can share a notebook or a page; it takes the
        keyboard once clicked. Without JavaScript it shows how many frames there are, the
        first and last captions and the notes.

    Raises
    ------
    OptionError
        For frames that cannot be drawn (see :func:`frame_data`).
    """
    return _player(frames, notes, whole_page=False)


def _player(frames: Frames, notes: Sequence[str], *, whole_page: bool) -> str:
    """The fragment of :func:`widget`; ``whole_page``: the player takes the page's keys."""
    data = frame_data(frames)
    root = f"cspsolve-player-{uuid.uuid4().hex[:16]}"
    first, last = (html.escape(c) for c in (frames[0][0], frames[-1][0]))
    listed = "".join(f"<li>{html.escape(note)}</li>" for note in notes)
    keys = ' data-page="1"' if whole_page else ""
    return (
        f'<div id="{root}" class="cspsolve-player" tabindex="0"{keys}>'
        f"<style>{STYLE.replace('ROOT', root)}</style>"
        f'<div class="nojs">This player needs JavaScript. {len(frames)} frames, from '
        f"\u201c{first}\u201d to \u201c{last}\u201d.</div>"
        f"{CONTROLS}"
        f'<ul class="notes">{listed}</ul>'
        f'<script type="application/json" class="frames">{_json_script(data)}</script>'
        f"<script>{SCRIPT.replace('ROOT_ID', json.dumps(root))}</script>"
        "</div>"
    )


def page(frames: Frames, *, title: str = "", notes: Sequence[str] = (), subtitle: str = "") -> str:
    """A self-contained HTML5 page playing the frames: :func:`widget` with a title around it.

    Parameters
    ----------
    frames : sequence of Frame or (str, Scene)
        Each frame's caption and picture, in order (see :func:`frame_data`).
    title : str
        The page's title and heading (the puzzle's own title).
    notes : sequence of str
        Sentences shown below the player (the proof, the summary).
    subtitle : str
        A line under the heading (what the puzzle is, where it comes from).

    Returns
    -------
    str
        The document, UTF-8 text. Its content security policy allows no request at all (no
        font, script, style or image from anywhere); the player takes the page's keys from
        the start (arrows, Home, End, space), wherever the focus is but a form field.

    Raises
    ------
    OptionError
        For frames that cannot be drawn (see :func:`frame_data`).
    """
    heading = html.escape(title)
    below = f'<p class="subtitle">{html.escape(subtitle)}</p>\n' if subtitle else ""
    player = _player(frames, notes, whole_page=True)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{heading}</title>\n"
        f"<style>{PAGE_STYLE}</style>\n"
        f"</head>\n<body>\n<h1>{heading}</h1>\n{below}{player}\n</body>\n</html>\n"
    )
