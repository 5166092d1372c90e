"""The browser side of the player (:mod:`cspsolve.player`): the controls it brings to life
(HTML), its style and the page's (CSS), and the script that draws each frame as SVG and steps
through them (JavaScript). Everything is inline, so the page fetches nothing."""

from __future__ import annotations

from cspsolve.render import CHAR_WIDTH, TEXT_SHARE

__all__ = ["CONTROLS", "FRAME_MS", "PAGE_STYLE", "SCRIPT", "STYLE"]


FRAME_MS = 600
"""Milliseconds a frame is shown when the player plays (as in the GIF of an explanation)."""


PAGE_STYLE = (
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


CONTROLS = (
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


STYLE = """
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


SCRIPT = _filled(
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
