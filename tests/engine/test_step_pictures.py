"""Pictures of plans explained (Rush Hour, sliding tiles, Lights Out): each step's frame
outlines what the move changed, checked against the step's own data (the piece or tile that
moved, the presses)."""

from __future__ import annotations

import itertools

import cspsolve
from cspsolve import registry, tasks
from cspsolve.explanation import Explanation
from cspsolve.instances import ROOT
from cspsolve.render import Scene


def explained(path: str) -> Explanation:
    (puzzle,) = cspsolve.read(ROOT / path)
    kind = registry.get(path.split("/")[0])
    return tasks.explain(kind, puzzle)


def cells_named(scene: Scene, name: str) -> set[tuple[int, int]]:
    return {
        (r, c) for r, row in enumerate(scene.texts) for c, text in enumerate(row) if text == name
    }


def test_a_rush_hour_frame_outlines_the_car_that_moved_and_the_cells_it_left() -> None:
    why = explained("rushhour/card-32.txt")
    frames = why.frames()
    for before, after, step in zip(frames, frames[1:], why.steps, strict=False):
        piece = step.data["piece"]
        now, then = cells_named(after.scene, piece), cells_named(before.scene, piece)
        assert now and now != then, step.text
        assert after.scene.highlight == frozenset(now | (then - now)), step.text


def test_a_sliding_tile_frame_outlines_the_tile_and_the_blank() -> None:
    why = explained("npuzzle/worst8.json")
    frames = why.frames()
    for before, after, step in zip(frames, frames[1:], why.steps, strict=False):
        tile = cells_named(after.scene, str(step.data["tile"]))
        left = cells_named(before.scene, str(step.data["tile"]))
        assert after.scene.highlight == frozenset(tile | left), step.text
        (r, c) = left.pop()
        assert after.scene.texts[r][c] == ""  # the blank took its place


def test_a_lights_out_frame_outlines_the_lights_its_presses_toggled() -> None:
    why = explained("lightsout/classic-5x5.lo")
    frames = why.frames()
    for before, after in itertools.pairwise(frames):
        toggled = {
            (r, c)
            for r, row in enumerate(after.scene.fills)
            for c, fill in enumerate(row)
            if fill != before.scene.fills[r][c]
        }
        assert after.scene.highlight == frozenset(toggled)
