"""Lights Out explanations replayed by a checker written here, against the test-side oracles.

The checker (:func:`replay`) knows the press rule only through :class:`.differential.Board`
(the cells each press toggles, written from the board's data in the tests) and light chasing
only through :func:`chase_leftover` below. It replays every step: the presses of ``first``,
``chase`` and ``press`` steps and the lights they claim after; that a ``chase`` step presses
exactly under the lit cells of its row; that the ``leftover`` and ``first`` steps' last-row
lights are what chasing gives; that each quiet pattern and the certificate change no light
(and the certificate covers an odd number of lit cells); that ``solve``, ``leftover`` and
``coset`` state the nullity of an independent elimination. At the end the board must be dark
(or the board unsolvable, by the elimination), the presses must be the answer's, and their
count the oracle's minimum (brute force, coset enumeration or CP-SAT, see :mod:`.differential`)
when the minimum is claimed, and not below it otherwise.
"""

from __future__ import annotations

import json
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from cspsolve import tasks
from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.limits import Limits
from cspsolve.models.lightsout import formats
from cspsolve.models.lightsout.board import LightsOut
from cspsolve.models.lightsout.kind import KIND
from cspsolve.results import Status

from ... import fuzzing
from . import differential, strategies
from .differential import Board, eliminate, rank_and_solvable
from .test_limits import BOARDS, grid, random_solvable, toggled

KEYS = {
    "leftover": {"row", "leftover", "unknowns", "rank", "nullity"},
    "solve": {"unknowns", "rank", "nullity"},
    "quiet": {"index", "presses"},
    "coset": {"nullity", "groups", "combinations", "cpsat", "proven", "count"},
    "first": {"presses", "leftover", "rows", "lit"},
    "chase": {"row", "presses", "rows", "lit"},
    "press": {"presses", "lit"},
    "certificate": {"presses", "overlap"},
}
"""The data keys each rule must carry (a grid's ``press`` adds ``row`` and ``rows``)."""

PRESSING = ("first", "chase", "press")
"""The rules that press cells on the board."""


def explained(puzzle: LightsOut, limits: Limits | None = None) -> Explanation:
    return tasks.explain(KIND, puzzle, limits=limits)


def index(puzzle: LightsOut, cell: Any) -> int:
    """A cell of the data (``[row, col]``, or a node's label) as a flat index."""
    if puzzle.is_grid:
        r, c = cell
        assert 0 <= r < puzzle.rows and 0 <= c < puzzle.cols, cell
        return int(r) * puzzle.cols + int(c)
    assert isinstance(cell, str) and cell in puzzle.names, cell
    return puzzle.names.index(cell)


def press(board: Board, on: set[int], cells: set[int]) -> None:
    """Press ``cells`` (each enabled) on the lights ``on``."""
    for cell in cells:
        assert board.enabled(cell), f"presses the disabled cell {cell}"
        on ^= board.toggles[cell]


def quiet(board: Board, cells: set[int]) -> bool:
    """Whether pressing ``cells`` changes no light."""
    on: set[int] = set()
    press(board, on, cells)
    return not on


def chase_leftover(board: Board, lights: set[int], first: set[int]) -> set[int]:
    """Light chasing written here: press ``first`` in row 0, then under every light of each
    row but the last; the flat cells left on (all in the last row)."""
    p = board.puzzle
    on = set(lights)
    press(board, on, first)
    for r in range(p.rows - 1):
        press(board, on, {cell + p.cols for cell in on if cell // p.cols == r})
    assert all(cell // p.cols == p.rows - 1 for cell in on)
    return on


def replay(puzzle: LightsOut, explanation: Explanation) -> set[int]:
    """Replay every step, checking its claims; the cells pressed in all."""
    board = Board(puzzle)
    nullity = len(board.cells) - rank_and_solvable(board)[0]
    on = set(board.lit)
    pressed: set[int] = set()
    listed: list[int] = []
    leftover: set[int] | None = None
    for step in explanation.steps:
        data = step.data
        json.dumps(data)
        assert KEYS[step.rule] <= set(data), (step.rule, data)
        cells = {index(puzzle, c) for c in data.get("presses", [])}
        if step.rule in PRESSING:
            before = set(on)
            press(board, on, cells)
            assert not cells & pressed, "a cell is pressed twice"
            pressed |= cells
            check_lit(puzzle, on, data)
        if step.rule == "chase":
            row = data["row"]
            under = {cell + puzzle.cols for cell in before if cell // puzzle.cols == row}
            assert cells == under, "a chase presses under the lit cells of its row"
            assert not any(cell // puzzle.cols == row for cell in on)
        elif step.rule == "first":
            assert all(cell < puzzle.cols for cell in cells)
            claimed = {index(puzzle, c) for c in data["leftover"]}
            assert chase_leftover(board, set(), cells) == claimed == leftover
        elif step.rule == "leftover":
            assert puzzle.plain
            leftover = {index(puzzle, c) for c in data["leftover"]}
            assert chase_leftover(board, board.lit, set()) == leftover
            assert data["row"] == puzzle.rows - 1 and data["unknowns"] == puzzle.cols
            assert data["nullity"] == nullity and data["rank"] == puzzle.cols - nullity
            if explanation.result.status is Status.UNSOLVABLE:
                assert on == leftover, "the chase steps leave the leftover lights"
        elif step.rule == "solve":
            assert not puzzle.plain
            assert data["unknowns"] == len(board.cells)
            assert (data["rank"], data["nullity"]) == (len(board.cells) - nullity, nullity)
        elif step.rule == "quiet":
            assert quiet(board, cells) and cells, "a quiet pattern changes no light"
            listed.append(sum(1 << c for c in cells))
            assert data["index"] == len(listed)
        elif step.rule == "coset":
            assert data["nullity"] == nullity
            assert data["proven"] == bool(explanation.result.proof.get("minimum"))
        elif step.rule == "certificate":
            assert quiet(board, cells), "the certificate changes no light"
            assert data["overlap"] == len(cells & board.lit) and data["overlap"] % 2 == 1
    assert len(eliminate(listed)) == len(listed) <= nullity, "the listed quiet patterns"
    if explanation.result.status.has_solution:
        assert not on, "the presses leave lights on"
    return pressed


def check_lit(puzzle: LightsOut, on: set[int], data: dict[str, Any]) -> None:
    """The lights a pressing step claims after it: those of its ``rows`` (a grid) or every
    light (a graph)."""
    claimed = {index(puzzle, c) for c in data["lit"]}
    if puzzle.is_grid:
        rows = set(data["rows"])
        assert {cell for cell in on if cell // puzzle.cols in rows} == claimed
    else:
        assert on == claimed


def judge(puzzle: LightsOut, explanation: Explanation, best: int | None = None) -> None:
    """Replay, then compare the answer with the oracles (``best``: the minimum, when known)."""
    board = Board(puzzle)
    _, solvable = rank_and_solvable(board)
    result = explanation.result
    pressed = replay(puzzle, explanation)
    if result.status in (Status.LIMIT, Status.CANCELLED):
        assert explanation.proof and result.solution is None
        return
    assert solvable == (result.status is not Status.UNSOLVABLE)
    rules = [s.rule for s in explanation.steps]
    if not solvable:
        assert rules[-1] == "certificate" and explanation.summary["grade"] == "unsolvable"
        return
    assert result.solution is not None
    answer = {index(puzzle, c) for c in KIND.encode(result.solution)["presses"]}
    assert pressed == answer, "the steps press the answer's cells"
    proven = explanation.summary["minimum_proven"]
    assert explanation.summary["presses"] == len(pressed)
    if best is None:
        best = board.minimum()
    if best is not None:
        assert len(pressed) >= best
        assert not proven or len(pressed) == best, f"{len(pressed)} claimed, minimum {best}"


# --- the fast subset ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(puzzle=strategies.boards)
def test_small_boards_replay(puzzle: LightsOut) -> None:
    judge(puzzle, explained(puzzle))


@pytest.mark.parametrize(
    "shape",
    [(1, 1), (1, 9), (9, 1), (3, 70), (70, 3), (2, 100), (5, 5), (4, 5), (16, 16)],
)
@pytest.mark.parametrize("variant", ["sigma-plus", "sigma"])
def test_plain_grids_of_every_shape_replay(shape: tuple[int, int], variant: str) -> None:
    rows, cols = shape
    rng = np.random.default_rng(rows * 1000 + cols)
    full = (1 << cols) - 1
    lights = tuple(int.from_bytes(rng.bytes(cols // 8 + 1), "little") & full for _ in range(rows))
    puzzle = LightsOut(lights, cols, variant)
    best = Board(puzzle).coset_minimum
    judge(puzzle, explained(puzzle), best)


@pytest.mark.parametrize(
    "name",
    [
        "all-on-7x7",
        "classic-5x5",
        "corner-5x5",
        "holes-6x6",
        "petersen",
        "seed-style-5x5",
        "sigma-11x11",
        "torus-6x6",
    ],
)
def test_shipped_instances_replay(name: str) -> None:
    from pathlib import Path

    folder = Path(__file__).parents[3] / "instances" / "lightsout"
    path = next(p for p in folder.iterdir() if p.stem == name)
    puzzle = formats.read(path)[0].puzzle
    explanation = explained(puzzle)
    judge(puzzle, explanation)
    assert explanation.text()


def test_json_lines_carry_the_documented_keys() -> None:
    boards = [
        LightsOut((0b11011, 0b00010, 0b01110, 0b11101, 0b10010), 5),
        LightsOut((0b1, 0, 0, 0, 0), 5),
        LightsOut((0b111, 0b101, 0b111), 3, torus=True),
        formats.from_graph(
            ["a", "b", "c"], [("a", "b"), ("b", "c")], lit=["a"], variant="sigma-plus"
        ),
    ]
    for puzzle in boards:
        explanation = explained(puzzle)
        lines = explanation.jsonl(KIND.encode).splitlines()
        records = [json.loads(line) for line in lines]
        assert [r["type"] for r in records] == ["step"] * len(explanation.steps) + ["summary"]
        for number, record in enumerate(records[:-1], 1):
            assert record["step"] == number and isinstance(record["text"], str)
            assert KEYS[record["rule"]] <= set(record)
        summary = records[-1]["explanation"]
        assert {"grade", "nullity", "presses", "coset", "minimum_proven"} <= set(summary)


def test_pictures_and_frames() -> None:
    puzzle = LightsOut((0b11011, 0b00010, 0b01110, 0b11101, 0b10010), 5)
    explanation = explained(puzzle)
    frames = explanation.frames()
    assert len(frames) == len(explanation.steps) + 1
    last = frames[-1][1]
    assert all(fill != "gold" for row in last.fills for fill in row), "the end is dark"
    assert "P" in explanation.text(frames=True)
    graph = formats.from_graph(["a", "b"], [("a", "b")], lit=["a", "b"], variant="sigma-plus")
    explanation = explained(graph)
    assert "lit: a b" in explanation.text(frames=True)
    assert len(explanation.frames()) == len(explanation.steps) + 1  # drawn as a graph


def test_other_methods_are_refused() -> None:
    puzzle = LightsOut((1,), 1)
    with pytest.raises(OptionError):
        tasks.explain(KIND, puzzle, request=tasks.Request(method="cpsat"))


def test_a_node_limit_leaves_the_minimum_open() -> None:
    puzzle = LightsOut(((1 << 9) - 1,) * 9, 9)
    explanation = explained(puzzle, Limits(max_nodes=0))
    assert explanation.summary["minimum_proven"] is False
    assert any("not proven" in sentence for sentence in explanation.proof)
    judge(puzzle, explanation)


# --- the differential cases and large boards ----------------------------------------------------


@pytest.mark.slow
@fuzzing.differential(ci=400)
@given(case=differential.cases())
def test_differential_cases_replay(case: differential.Case) -> None:
    judge(case.puzzle, explained(case.puzzle))
    limited = explained(case.puzzle, Limits(max_nodes=case.max_nodes))
    judge(case.puzzle, limited)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "cols", "torus"), [(40, 40, False), (12, 130, False), (27, 27, True)]
)
def test_larger_boards_replay(rows: int, cols: int, torus: bool) -> None:
    lights = random_solvable(rows, cols, rows + cols, torus=torus).tolist()
    packed = tuple(sum(v << c for c, v in enumerate(row)) for row in lights)
    puzzle = LightsOut(packed, cols, torus=torus)
    judge(puzzle, explained(puzzle), Board(puzzle).coset_minimum)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "limit"), [("all-on-991", 2.0), ("random-1000", 1.0), ("torus-128", 0.5)]
)
def test_explain_stops_at_the_time_limit(name: str, limit: float, tmp_path: Any) -> None:
    path = tmp_path / f"{name}.lo"
    path.write_text(BOARDS[name](), encoding="utf-8")
    puzzle = formats.read(path)[0].puzzle
    start = time.perf_counter()
    explanation = explained(puzzle, Limits(time_limit=limit))
    assert explanation.result.stats.seconds <= limit + 0.5
    assert time.perf_counter() - start <= limit + 1.0
    result = explanation.result
    if result.status in (Status.LIMIT, Status.CANCELLED):
        assert result.solution is None and explanation.proof
        return
    assert result.solution is not None
    presses = np.zeros((puzzle.rows, puzzle.cols), np.uint8)
    for step in explanation.steps:
        if step.rule in PRESSING:
            for r, c in step.data["presses"]:
                presses[r, c] ^= 1
    left = grid(puzzle.lights, puzzle.cols) ^ toggled(presses, torus=puzzle.torus)
    assert not left.any(), "the explained presses leave lights on"
    assert (presses == grid(result.solution, puzzle.cols)).all()
