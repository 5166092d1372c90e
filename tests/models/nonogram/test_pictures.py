"""Pictures of nonogram explanations (:mod:`cspsolve.models.nonogram.pictures`): each frame
against the step it shows, as the explainer's JSON data says it: the cells the step decided
outlined, the line it read, a probe's chain, conflict and assumption, a colour cell's colours
left; and the text frames' marks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import cspsolve
from cspsolve import registry, tasks
from cspsolve.explanation import Explanation
from cspsolve.instances import ROOT
from cspsolve.models.nonogram.pictures import UNDECIDED_INK

DATA = Path(__file__).resolve().parents[2] / "data" / "nonogram"
SMILE = DATA / "smile.non"
"""A 5x5 nonogram whose explanation has line steps and one probe."""
MUSHROOM = ROOT / "nonogram" / "mushroom.non"
"""A colour nonogram: line logic narrows cells to some of its colours."""


def explained(path: Any) -> Explanation:
    (puzzle,) = cspsolve.read(path)
    return tasks.explain(registry.get("nonogram"), puzzle)


def decided(data: dict[str, Any]) -> frozenset[tuple[int, int]]:
    """The cells a step's data says it decided (``fixed`` or ``narrowed``)."""
    cells = data.get("fixed", data.get("narrowed", ()))
    return frozenset((r, c) for r, c, _ in cells)


def test_each_frame_outlines_the_cells_its_step_decided() -> None:
    why = explained(SMILE)
    frames = why.frames()
    assert frames[0].scene.highlight == frozenset()
    for frame, step in zip(frames[1:], why.steps, strict=True):
        if step.rule in ("line", "probe"):
            assert frame.scene.highlight == decided(step.data), frame.caption


def test_a_line_step_outlines_the_line_it_read() -> None:
    why = explained(SMILE)
    for frame, step in zip(why.frames()[1:], why.steps, strict=True):
        if step.rule == "line":
            assert frame.scene.lines == ((step.data["axis"], step.data["index"], "read"),)
            assert frame.scene.marks == frozenset() and frame.scene.dots == ()


def test_a_probe_shows_its_assumption_its_chain_and_its_conflict() -> None:
    why = explained(SMILE)
    [(frame, step)] = [
        (f, s) for f, s in zip(why.frames()[1:], why.steps, strict=True) if s.rule == "probe"
    ]
    data = step.data
    row, col = data["cell"]
    assert frame.scene.marks == frozenset({(row, col)})
    chain = [(e["axis"], e["index"], "chain") for e in data["chain"]]
    conflict = (data["conflict"]["axis"], data["conflict"]["index"], "conflict")
    assert frame.scene.lines == (*chain, conflict)
    value = {0: "white", 1: "black"}
    supposed = [(row, col, value[data["assumed"]])]
    supposed += [(r, c, value[v]) for e in data["chain"] for r, c, v in e["fixed"]]
    assert frame.scene.dots == tuple(supposed)
    # the probe's cell took the other value
    assert frame.scene.fills[row][col] == value[1 - data["assumed"]]


def test_a_narrowed_colour_cell_shows_the_colours_left() -> None:
    why = explained(MUSHROOM)
    (puzzle,) = cspsolve.read(MUSHROOM)
    rgb = [colour.rgb for colour in puzzle.colours]
    frames = why.frames()
    narrowed_seen = 0
    for frame, step in zip(frames[1:], why.steps, strict=True):
        swatches = {(r, c): colours for r, c, colours in frame.scene.swatches}
        for r, c, left in step.data.get("narrowed", ()):
            if len(left) == 1:
                assert frame.scene.fills[r][c] == rgb[left[0]]
                assert (r, c) not in swatches
            elif len(left) < len(rgb):
                narrowed_seen += 1
                assert frame.scene.fills[r][c] == UNDECIDED_INK
                assert swatches[r, c] == tuple(rgb[v] for v in left)
    assert narrowed_seen > 10
    # an open cell with every colour left has no swatch
    assert all(len(colours) < len(rgb) for _, _, colours in frames[1].scene.swatches)
    assert frames[0].scene.swatches == ()


@pytest.mark.parametrize("path", [SMILE, MUSHROOM])
def test_text_frames_mark_the_cells_each_step_decided(path: Any) -> None:
    why = explained(path)
    assert why.draw is not None
    (puzzle,) = cspsolve.read(path)
    height, width = puzzle.height, puzzle.width
    wide = cell_width(puzzle)
    for step in why.steps[:8]:
        assert step.state is not None
        rows = [re.sub("\x1b\\[[0-9;]*m", "", line) for line in why.draw(step.state).splitlines()]
        cells = [row[len(row) - wide * width :] for row in rows[-height:]]
        marked = {
            (r, c)
            for r, row in enumerate(cells)
            for c in range(width)
            if row[wide * c : wide * (c + 1)] in ("▓" * wide, "x".rjust(wide))
        }
        open_left = {(r, c) for r, c, left in step.data.get("narrowed", ()) if len(left) > 1}
        assert marked == decided(step.data) - open_left, step.text


def cell_width(puzzle: Any) -> int:
    """The characters of a drawn cell: 2, or one more than the longest column clue."""
    written = getattr(puzzle, "written", lambda clue: [str(n) for n in clue])
    return max(2, *(len(n) + 1 for clue in puzzle.columns for n in written(clue)))
