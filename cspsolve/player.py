"""A player for explanations: a web page, or a Jupyter view, that steps through board pictures.

:func:`page` makes a whole HTML5 document and :func:`widget` the same player as a fragment
for Jupyter's ``_repr_html_``. Both are self-contained: the frames are embedded as JSON and a
small inline script draws the board as SVG in the browser, so nothing is fetched from the
network and no image is made in Python. The player has buttons (first, previous, play/pause,
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
from cspsolve.render import (
    CHAR_WIDTH,
    TEXT_SHARE,
    Scene,
    edge_ends,
    ink,
    layout,
    outline,
    swatch_boxes,
)

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

FRAME_MS = 600
"""Milliseconds a frame is shown when the player plays (as in the GIF of an explanation)."""

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
        f"<style>{_STYLE.replace('ROOT', root)}</style>"
        f'<div class="nojs">This player needs JavaScript. {len(frames)} frames, from '
        f"\u201c{first}\u201d to \u201c{last}\u201d.</div>"
        f"{_CONTROLS}"
        f'<ul class="notes">{listed}</ul>'
        f'<script type="application/json" class="frames">{_json_script(data)}</script>'
        f"<script>{_SCRIPT.replace('ROOT_ID', json.dumps(root))}</script>"
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
        f"<style>{_PAGE_STYLE}</style>\n"
        f"</head>\n<body>\n<h1>{heading}</h1>\n{below}{player}\n</body>\n</html>\n"
    )


_PAGE_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:0 auto;padding:0.6em 1em;color:#222;"
    "max-width:1400px}h1{font-size:1.4em;margin:0.2em 0;overflow-wrap:anywhere}"
    ".subtitle{margin:0 0 0.4em;color:#555;overflow-wrap:anywhere}"
)
"""The page's own style: narrow margins, titles that wrap anywhere (a long file name)."""


def _filled(template: str, values: dict[str, object]) -> str:
    """``template`` with each name of ``values`` replaced by its value."""
    for name, value in values.items():
        template = template.replace(name, str(value))
    return template


_CONTROLS = (
    '<div class="player" hidden>'
    '<div class="bar">'
    '<button type="button" class="first" title="first (Home)">|\u25c0</button>'
    '<button type="button" class="prev" title="previous (\u2190)">\u25c0 prev</button>'
    '<button type="button" class="play" title="play or pause (space)">\u25b6 play</button>'
    '<button type="button" class="next" title="next (\u2192)">next \u25b6</button>'
    '<button type="button" class="last" title="last (End)">\u25b6|</button>'
    '<input type="range" class="slider" min="0" max="0" value="0" aria-label="frame">'
    '<span class="count"></span>'
    "</div>"
    '<div class="caption" aria-live="polite"></div>'
    '<div class="main"><svg class="board" role="img"></svg>'
    '<ol class="steps"></ol></div>'
    "</div>"
)
"""The parts the script brings to life (hidden until it runs)."""

_STYLE = """
#ROOT{font-family:system-ui,sans-serif;font-size:14px;color:#222;outline:none;max-width:100%}
#ROOT:focus-visible{outline:2px solid #4a90d9}
#ROOT [hidden]{display:none!important}
#ROOT .bar{display:flex;gap:4px;align-items:center;flex-wrap:wrap;margin:4px 0}
#ROOT .bar button{min-width:2.4em;padding:2px 6px;cursor:pointer}
#ROOT .slider{flex:1 1 120px;min-width:0}
#ROOT .count{font-variant-numeric:tabular-nums;text-align:right;white-space:nowrap}
#ROOT .caption{font-weight:600;margin:4px 0 6px;min-height:2.6em;white-space:pre-wrap}
#ROOT .main{display:flex;gap:12px;align-items:flex-start;flex-wrap:wrap}
#ROOT .board{flex:none;background:#fff;height:auto}
#ROOT .steps{position:relative;flex:1 1 16em;min-width:0;max-height:80vh;overflow-y:auto;
margin:0;padding:0 0 0 3.5em;border:1px solid #ddd;font-size:13px;box-sizing:border-box}
#ROOT .steps li{cursor:pointer;padding:1px 4px;overflow-wrap:anywhere}
#ROOT .steps li.unnumbered{list-style:none}
#ROOT .steps summary{cursor:pointer;font-style:italic;padding:1px 4px}
#ROOT .steps ol{padding-left:3.5em;margin:0}
#ROOT .steps li:hover{background:#eef4fb}
#ROOT .steps li.current{background:#ffe9a8;font-weight:600}
#ROOT .notes{margin:8px 0;padding-left:1.2em}
#ROOT .nojs{color:#666;font-style:italic}
@media (max-width:700px){#ROOT .steps{flex-basis:100%;max-height:40vh}}
"""
"""The player's style, every rule under its root's id (``ROOT``)."""

_SCRIPT = _filled(
    """
(function () {
"use strict";
var root = document.getElementById(ROOT_ID);
if (!root || root.getAttribute("data-ready")) { return; }
root.setAttribute("data-ready", "1");
var data = JSON.parse(root.querySelector("script.frames").textContent);
var R = data.rows, C = data.cols, S = data.size, frames = data.frames, N = frames.length;
var palette = data.palette, ink = data.ink, texts = data.texts;
function part(name) { return root.querySelector("." + name); }
var svg = part("board"), NS = svg.namespaceURI, list = part("steps"), slider = part("slider");
var playButton = part("play"), caption = part("caption"), count = part("count");
function make(tag, attributes, parent) {
  var element = document.createElementNS(NS, tag);
  for (var key in attributes) { element.setAttribute(key, attributes[key]); }
  if (parent) { parent.appendChild(element); }
  return element;
}
svg.setAttribute("width", S.width);
svg.setAttribute("height", S.height);
svg.setAttribute("viewBox", "0 0 " + S.width + " " + S.height);
svg.setAttribute("font-size", S.font);
/* as wide as the space allows, the board's height at most 80 % of the window's, and a small
   board at most twice its size */
svg.style.width = "min(100%, " + (80 * S.width / S.height).toFixed(3) + "vh, " +
  2 * S.width + "px)";
var cell = S.cell, font = S.font;
var BLUE = "#1f77b4", RED = "#d62728", ORANGE = "#ff7f0e";
var gridLayer = make("g", {}, svg), edgeLayer = make("g", {}, svg);
var panelLayer = make("g", {}, svg), wallLayer = make("g", {}, svg);
var lineLayer = make("g", {}, svg), swatchLayer = make("g", {}, svg);
var dotLayer = make("g", {}, svg), markLayer = make("g", {}, svg);
var outlineLayer = make("g", {}, svg);
var textLayer = make("g", {"text-anchor": "middle", "dominant-baseline": "central"}, svg);
var labelLayer = make("g", {}, svg);
var rects = [], words = [];
var line = cell >= 8 ? "#999999" : "none";
for (var i = 0; i < R * C; i++) {
  var r = Math.floor(i / C), c = i % C;
  rects.push(make("rect", {x: S.left + c * cell, y: S.top + r * cell, width: cell,
    height: cell, stroke: line, "stroke-width": 0.83, visibility: "hidden",
    "data-cell": r + "," + c}, gridLayer));
  words.push(make("text", {x: S.left + (c + 0.5) * cell, y: S.top + (r + 0.5) * cell}, textLayer));
}
function x(col) { return S.left + col * cell; }
function y(row) { return S.top + row * cell; }
var fill = new Int32Array(R * C).fill(-1), text = new Int32Array(R * C);
var drawnFill = new Int32Array(R * C).fill(-1), drawnText = new Int32Array(R * C);
var undo = new Array(N);
var latest = {marks: [], walls: [], row_labels: [], column_labels: [], outline: [], lines: [],
  dots: [], swatches: [], edges: [], framed: true};
var extras = [];
for (var f = 0; f < N; f++) {
  var now = {};
  for (var key in latest) {
    if (frames[f][key] !== undefined) { latest[key] = frames[f][key]; }
    now[key] = latest[key];
  }
  extras.push(now);
}
var current = -1, drawnExtras = {}, panelKey = "";
function apply(f) {
  var cells = frames[f].cells, old = [];
  for (var k = 0; k < cells.length; k += 3) {
    var at = cells[k];
    old.push(at, fill[at], text[at]);
    fill[at] = cells[k + 1];
    text[at] = cells[k + 2];
  }
  undo[f] = old;
}
function revert(f) {
  var old = undo[f];
  for (var k = 0; k < old.length; k += 3) { fill[old[k]] = old[k + 1]; text[old[k]] = old[k + 2]; }
}
function clear(layer) { while (layer.firstChild) { layer.removeChild(layer.firstChild); } }
function drawCells() {
  for (var i = 0; i < R * C; i++) {
    var colour = fill[i];
    if (colour !== drawnFill[i]) {
      if (colour < 0) { rects[i].setAttribute("visibility", "hidden"); }
      else {
        rects[i].setAttribute("visibility", "visible");
        rects[i].setAttribute("fill", palette[colour]);
      }
      drawnFill[i] = colour;
      drawnText[i] = -1;
    }
    if (text[i] !== drawnText[i]) {
      var shown = texts[text[i]];
      words[i].textContent = shown;
      words[i].setAttribute("fill", colour < 0 ? "black" : ink[colour]);
      /* smaller when it would not fit the cell, as render.fitted */
      words[i].setAttribute("font-size",
        Math.min(font, TEXT_SHARE * cell / (CHAR_WIDTH * Math.max(1, shown.length))));
      drawnText[i] = text[i];
    }
  }
}
function drawPanels(framed) {
  var blocks = [], key;
  for (var c = 0; c < C && framed; c++) {
    var used = false;
    for (var r = 0; r < R && !used; r++) { used = fill[r * C + c] >= 0; }
    if (used && blocks.length && blocks[blocks.length - 1][1] === c - 1) {
      blocks[blocks.length - 1][1] = c;
    } else if (used) { blocks.push([c, c]); }
  }
  if (!blocks.length && framed) { blocks.push([0, C - 1]); }
  key = JSON.stringify(blocks);
  if (key === panelKey) { return; }
  panelKey = key;
  clear(panelLayer);
  blocks.forEach(function (b) {
    make("rect", {x: x(b[0]), y: S.top, width: (b[1] - b[0] + 1) * cell,
      height: R * cell, fill: "none", stroke: "black", "stroke-width": 2.08}, panelLayer);
  });
}
function segments(layer, ends, style) {
  clear(layer);
  ends.forEach(function (e) {
    var attributes = {x1: x(e[1]), y1: y(e[0]), x2: x(e[3]), y2: y(e[2])};
    for (var key in style) { attributes[key] = style[key]; }
    make("line", attributes, layer);
  });
}
var SIDES = {N: [0, 0, 0, 1], S: [1, 0, 1, 1], W: [0, 0, 1, 0], E: [0, 1, 1, 1]};
var ROLES = {
  chain: {fill: BLUE, "fill-opacity": 0.22, stroke: "none"},
  read: {fill: "none", stroke: BLUE, "stroke-width": Math.max(2, cell * 0.08)},
  conflict: {fill: "none", stroke: RED, "stroke-width": Math.max(3, cell * 0.12)}
};
var DRAW = {
  walls: function (now) {
    segments(wallLayer, now.walls.filter(function (w) { return SIDES[w[2]]; }).map(
      function (w) {
        var e = SIDES[w[2]];
        return [w[0] + e[0], w[1] + e[1], w[0] + e[2], w[1] + e[3]];
      }), {stroke: "black", "stroke-width": Math.max(4.17, cell * 0.2),
      "stroke-linecap": "square"});
  },
  edges: function (now) {
    segments(edgeLayer, now.edges, {stroke: "#555555", "stroke-width": Math.max(1, cell * 0.05)});
  },
  outline: function (now) {
    segments(outlineLayer, now.outline, {stroke: ORANGE, "stroke-linecap": "square",
      "stroke-width": Math.max(2.5, cell * 0.12), "class": "changed"});
  },
  lines: function (now) {
    clear(lineLayer);
    now.lines.forEach(function (l) {
      var across = l[0] === "row", style = ROLES[l[2]];
      if (!style) { return; }
      var attributes = {x: across ? x(0) : x(l[1]), y: across ? y(l[1]) : y(0),
        width: across ? C * cell : cell, height: across ? cell : R * cell,
        "class": "line-" + l[2]};
      for (var key in style) { attributes[key] = style[key]; }
      make("rect", attributes, lineLayer);
    });
  },
  swatches: function (now) {
    clear(swatchLayer);
    now.swatches.forEach(function (s) {
      make("rect", {x: x(s[1] + s[3]), y: y(s[0] + s[2]), width: s[4] * cell,
        height: s[4] * cell, fill: palette[s[5]], stroke: "#444444", "stroke-width": 0.7,
        "class": "swatch"}, swatchLayer);
    });
  },
  dots: function (now) {
    clear(dotLayer);
    now.dots.forEach(function (d) {
      make("circle", {cx: x(d[1] + 0.5), cy: y(d[0] + 0.5), r: 0.2 * cell,
        fill: palette[d[2]], stroke: BLUE, "stroke-width": Math.max(1.5, cell * 0.06),
        "class": "dot"}, dotLayer);
    });
  },
  marks: function (now) {
    clear(markLayer);
    now.marks.forEach(function (m) {
      make("circle", {cx: x(m[1] + 0.5), cy: y(m[0] + 0.5), r: 0.32 * cell, fill: "none",
        stroke: RED, "stroke-width": Math.max(1.39, cell * 0.1), "class": "mark"}, markLayer);
    });
  }
};
function drawLabels(now) {
  clear(labelLayer);
  now.row_labels.forEach(function (label, r) {
    make("text", {x: S.left - font / 2, y: y(r + 0.5), "text-anchor": "end",
      "dominant-baseline": "central"}, labelLayer).textContent = label;
  });
  now.column_labels.forEach(function (label, c) {
    var parts = label.split("\\n");
    parts.forEach(function (piece, k) {
      var down = S.top - font / 4 - (parts.length - 1 - k) * 1.25 * font;
      make("text", {x: x(c + 0.5), y: down, "text-anchor": "middle"},
        labelLayer).textContent = piece;
    });
  });
}
function drawExtras(now) {
  for (var name in DRAW) {
    if (now[name] !== drawnExtras[name]) { DRAW[name](now); }
  }
  if (now.row_labels !== drawnExtras.row_labels ||
      now.column_labels !== drawnExtras.column_labels) { drawLabels(now); }
  drawnExtras = now;
}
function counted(f) {
  if (!data.steps) { return (f + 1) + " / " + N; }
  var step = frames[f].step;
  return step === undefined ? frames[f].caption : "step " + step + " of " + data.steps;
}
function show(target) {
  target = Math.max(0, Math.min(N - 1, target));
  while (current < target) { current += 1; apply(current); }
  while (current > target) { revert(current); current -= 1; }
  drawCells();
  drawPanels(extras[current].framed);
  drawExtras(extras[current]);
  var own = frames[current].scene_caption;
  caption.textContent = own === undefined || own === "" ? frames[current].caption : own;
  count.textContent = counted(current);
  slider.value = current;
  var old = list.querySelector("li.current"), item = items[current];
  var fold = item.parentNode.closest("details");
  if (old) { old.classList.remove("current"); }
  if (fold && !fold.open) { fold.open = true; }
  item.classList.add("current");
  if (item.offsetTop < list.scrollTop ||
      item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = item.offsetTop - list.clientHeight / 2;
  }
  if (current === N - 1) { stop(); }
}
var timer = null;
function stop() {
  if (timer !== null) { clearInterval(timer); timer = null; }
  playButton.textContent = "\\u25b6 play";
  playButton.setAttribute("aria-pressed", "false");
}
function play() {
  if (timer !== null) { stop(); return; }
  if (current === N - 1) { show(0); }
  timer = setInterval(function () { show(current + 1); }, FRAME_MS);
  playButton.textContent = "\\u2016 pause";
  playButton.setAttribute("aria-pressed", "true");
}
var items = [], group = null, groupEnd = 0;
function folded(frame) {
  var holder = document.createElement("li"), details = document.createElement("details");
  var summary = document.createElement("summary"), last = frame.step + frame.fold[0] - 1;
  holder.className = "unnumbered fold";
  summary.textContent = frame.step + "\u2013" + last + ". " + frame.fold[1];
  details.appendChild(summary);
  holder.appendChild(details);
  list.appendChild(holder);
  group = details.appendChild(document.createElement("ol"));
  groupEnd = last;
}
frames.forEach(function (frame, f) {
  var item = document.createElement("li");
  item.textContent = frame.caption;
  item.setAttribute("data-frame", f);
  if (data.steps && frame.step === undefined) { item.className = "unnumbered"; }
  else if (data.steps) { item.value = frame.step; }
  if (frame.fold) { folded(frame); }
  (group ? group : list).appendChild(item);
  if (group && frame.step >= groupEnd) { group = null; }
  items.push(item);
});
list.addEventListener("click", function (event) {
  var item = event.target.closest("li[data-frame]");
  if (item && list.contains(item)) { stop(); show(Number(item.getAttribute("data-frame"))); }
});
slider.max = N - 1;
slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
part("first").addEventListener("click", function () { stop(); show(0); });
part("prev").addEventListener("click", function () { stop(); show(current - 1); });
part("next").addEventListener("click", function () { stop(); show(current + 1); });
part("last").addEventListener("click", function () { stop(); show(N - 1); });
playButton.addEventListener("click", play);
var KEYS = {ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1};
var FIELDS = {INPUT: 1, TEXTAREA: 1, SELECT: 1};
function onKey(event) {
  var target = event.target;
  if (target === slider || event.altKey || event.ctrlKey || event.metaKey) { return; }
  if (FIELDS[target.tagName] || target.isContentEditable) { return; }
  if (KEYS[event.key] !== undefined) { stop(); show(current + KEYS[event.key]); }
  else if (event.key === "Home") { stop(); show(0); }
  else if (event.key === "End") { stop(); show(N - 1); }
  else if (event.key === " " && target.tagName !== "BUTTON") { play(); }
  else { return; }
  event.preventDefault();
  event.stopPropagation();
}
var wholePage = root.getAttribute("data-page");
(wholePage ? document : root).addEventListener("keydown", onKey);
part("nojs").hidden = true;
part("player").hidden = false;
show(0);
if (wholePage) { root.focus({preventScroll: true}); }
})();
""",
    {"FRAME_MS": FRAME_MS, "TEXT_SHARE": TEXT_SHARE, "CHAR_WIDTH": CHAR_WIDTH},
)
"""The player's script; ``ROOT_ID`` is replaced by its root's id as a JavaScript string."""
