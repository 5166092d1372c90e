"""Pictures of Lights Out boards (:mod:`cspsolve.models.lightsout.pictures`): a graph board
drawn as its nodes, placed by networkx, joined by its edges and named by their labels; its
presses as frames; and a step player of its pictures."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from cspsolve import registry, tasks
from cspsolve.explanation import Explanation, Step
from cspsolve.instances import ROOT
from cspsolve.models.lightsout.board import LightsOut, apply, bits
from cspsolve.models.lightsout.formats import from_graph
from cspsolve.models.lightsout.pictures import LIT, OFF, board, scenes
from cspsolve.render import Scene
from cspsolve.results import Result, Status

KIND = registry.get("lightsout")


def petersen() -> LightsOut:
    puzzle = KIND.read(ROOT / "lightsout" / "petersen.edges")[0].puzzle
    assert isinstance(puzzle, LightsOut)
    return puzzle


def wheel() -> LightsOut:
    """A solvable graph board with long labels: a hub and five spokes in a ring."""
    rim = ["north", "east", "south", "west", "up"]
    edges = [(a, b) for a, b in zip(rim, rim[1:] + rim[:1], strict=True)]
    edges += [("centre", node) for node in rim]
    return from_graph(["centre", *rim], edges, lit=["north", "south"], variant="sigma-plus")


def nodes_of(scene: Scene) -> dict[str, tuple[int, int]]:
    """Each node's cell, by the label written in it."""
    return {text: (r, c) for r, row in enumerate(scene.texts) for c, text in enumerate(row) if text}


@pytest.mark.parametrize("puzzle", [petersen(), wheel()], ids=["petersen", "wheel"])
def test_a_graph_is_drawn_as_its_nodes_joined_by_its_edges(puzzle: LightsOut) -> None:
    scene = board(puzzle, puzzle.lights, (1,), "as given")
    at = nodes_of(scene)
    assert sorted(at) == sorted(puzzle.labels)  # each node in a cell of its own
    assert puzzle.graph is not None
    joined = {frozenset((at[puzzle.labels[i]], at[puzzle.labels[j]])) for i, j in _edges(puzzle)}
    assert {frozenset(((r0, c0), (r1, c1))) for r0, c0, r1, c1 in scene.edges} == joined
    lit = {puzzle.labels[i] for i in bits(puzzle.lights[0])}
    for label, (r, c) in at.items():
        assert scene.fills[r][c] == (LIT if label in lit else OFF)
    filled = sum(fill is not None for row in scene.fills for fill in row)
    assert filled == len(puzzle.labels) and not scene.framed
    assert scene.marks == frozenset({at[puzzle.labels[0]]})
    assert board(puzzle, puzzle.lights, (0,), "again").fills == scene.fills  # a fixed layout


def test_the_layout_keeps_the_graph_s_shape() -> None:
    """Nodes joined by an edge are drawn nearer, on the average, than nodes that are not."""
    puzzle = wheel()
    at = nodes_of(board(puzzle, puzzle.lights, (0,), ""))
    near = set(map(frozenset, _edges(puzzle)))
    pairs = nx.complete_graph(len(puzzle.labels)).edges

    def distance(i: int, j: int) -> float:
        (r0, c0), (r1, c1) = at[puzzle.labels[i]], at[puzzle.labels[j]]
        return float(((r0 - r1) ** 2 + (c0 - c1) ** 2) ** 0.5)

    joined = [distance(i, j) for i, j in pairs if frozenset((i, j)) in near]
    apart = [distance(i, j) for i, j in pairs if frozenset((i, j)) not in near]
    assert sum(joined) / len(joined) < sum(apart) / len(apart)


def test_a_graph_s_presses_are_a_frame_each() -> None:
    puzzle = wheel()
    result = tasks.solve(KIND, puzzle)
    assert result.solution is not None
    frames = scenes(puzzle, result.solution)
    pressed = bits(result.solution[0])
    assert len(frames) == len(pressed) + 1
    at = nodes_of(frames[0])
    assert frames[0].marks == {at[puzzle.labels[i]] for i in pressed}
    assert [f.caption.split(": ")[-1] for f in frames[1:]] == [puzzle.labels[i] for i in pressed]
    assert all(fill != LIT for row in frames[-1].fills for fill in row)  # every light off


def test_a_graph_board_s_steps_play_in_the_player() -> None:
    puzzle = wheel()
    node = puzzle.labels.index("north")

    def scene(state: tuple[int, int], caption: str) -> Scene:
        return board(puzzle, (state[0],), (state[1],), caption)

    after = apply(puzzle, (1 << node,))[0]
    explained = Explanation(
        "lightsout",
        Result(Status.SOLVED),
        [Step("press", "press north", {}, (after, 1 << node))],
        start=(puzzle.lights[0], 0),
        scene=scene,
    )
    shown = explained._repr_html_()
    assert shown is not None
    (data,) = [
        json.loads(text)
        for text in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', shown)
    ]
    assert len(data["frames"]) == 2 and len(data["frames"][0]["edges"]) == len(_edges(puzzle))
    assert data["frames"][0]["framed"] is False
    toggled = bits(puzzle.lights[0] ^ after)
    at = nodes_of(scene((after, 0), ""))
    cells = [at[puzzle.labels[i]] for i in toggled]
    sides = {
        side
        for r, c in cells
        for side in (
            (r, c, r, c + 1),
            (r + 1, c, r + 1, c + 1),
            (r, c, r + 1, c),
            (r, c + 1, r + 1, c + 1),
        )
    }
    assert _unit_sides(data["frames"][1]["outline"]) == sides  # the lights the press toggled


def _edges(puzzle: LightsOut) -> list[tuple[int, int]]:
    assert puzzle.graph is not None
    return [(i, j) for i, near in enumerate(puzzle.graph) for j in near if i < j]


def _unit_sides(segments: list[list[int]]) -> set[tuple[int, int, int, int]]:
    """An outline's segments cut into the sides of single cells."""
    sides = set()
    for r0, c0, r1, c1 in segments:
        if r0 == r1:
            sides |= {(r0, c, r0, c + 1) for c in range(c0, c1)}
        else:
            sides |= {(r, c0, r + 1, c0) for r in range(r0, r1)}
    return sides


@pytest.mark.parametrize("puzzle", [petersen(), wheel()], ids=["petersen", "wheel"])
def test_a_graph_board_s_explanation_has_a_player(puzzle: LightsOut) -> None:
    """``explain`` of a graph board draws every frame as the graph, lit as its steps leave it:
    the last frame of a solvable board is dark, and the page holds every frame."""
    explained = tasks.explain(KIND, puzzle)
    frames = explained.frames()
    assert len(frames) == 1 + sum(step.state is not None for step in explained.steps)
    for frame in frames:
        assert sorted(nodes_of(frame.scene)) == sorted(puzzle.labels) and frame.scene.edges
    assert frames[0].scene.fills == board(puzzle, puzzle.lights, (0,), "").fills
    if explained.result.status.has_solution:
        assert all(fill != LIT for row in frames[-1].scene.fills for fill in row)
    page = explained._repr_html_()
    assert page is not None and page.count('"caption"') >= len(frames)
