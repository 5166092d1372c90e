"""Explanations render alike for every kind: numbered text, JSON Lines, frames and files."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation, Step
from cspsolve.render import Scene
from cspsolve.results import Result, Stats, Status


def scene(state: tuple[int, ...], caption: str) -> Scene:
    """A 1 x 3 strip with the cells of ``state`` black."""
    return Scene((tuple("black" if c in state else "white" for c in range(3)),), caption=caption)


def counting() -> Explanation:
    """Three steps, each filling one more cell of a 1 x 3 strip."""
    steps = [Step("fill", f"fill cell {c + 1}", {"cell": c}, tuple(range(c + 1))) for c in range(3)]
    return Explanation(
        "strip",
        Result(Status.SOLVED, (0, 1, 2), Stats(cost=3), "count"),
        steps,
        ["Every cell is filled."],
        {"grade": "easy", "cells": 3},
        start=(),
        scene=scene,
        draw=lambda state: "".join("#" if c in state else "." for c in range(3)),
    )


def test_text_numbers_the_steps_then_gives_the_proof_and_summary() -> None:
    lines = counting().text().splitlines()
    assert lines == [
        "1. fill cell 1",
        "2. fill cell 2",
        "3. fill cell 3",
        "Every cell is filled.",
        "grade: easy, cells: 3",
    ]


def test_frames_draw_the_board_after_each_step() -> None:
    text = counting().text(frames=True)
    assert text.index("1. fill cell 1") < text.index("#..") < text.index("2. fill cell 2")
    assert text.count("###") == 1
    frames = counting().frames()
    assert [(f.caption, f.step) for f in frames] == [
        ("start", None),
        ("fill cell 1", 1),
        ("fill cell 2", 2),
        ("fill cell 3", 3),
    ]
    assert [f.scene.caption for f in frames[1:]] == [
        f"step {n} of 3: fill cell {n}" for n in (1, 2, 3)
    ]
    fills = [f.scene.fills[0] for f in frames]
    assert [row.count("black") for row in fills] == [0, 1, 2, 3]


def test_a_frame_outlines_what_its_step_changed_unless_the_kind_says() -> None:
    frames = counting().frames()
    assert [f.scene.highlight for f in frames] == [
        frozenset(),
        frozenset({(0, 0)}),
        frozenset({(0, 1)}),
        frozenset({(0, 2)}),
    ]
    told = counting()
    told.detail = lambda scene, step: replace(scene, highlight=frozenset({(0, 2)}))
    assert {f.scene.highlight for f in told.frames()[1:]} == {frozenset({(0, 2)})}


def test_the_notes_are_the_proof_then_the_summary_in_sentences() -> None:
    why = counting()
    why.summary = {
        "grade": "search",
        "steps": 1,
        "guesses": 2,
        "nodes": 1234,
        "lower_bound": 31,
        "minimum_proven": False,
        "per": "depth",
        "counts": [[0, 1]],
        "odd_fact": 2.5,
    }
    assert why.notes() == [
        "Every cell is filled.",
        "Grade: search.",
        "Counted: 1 step, 2 guesses, 1234 search nodes.",
        "No plan costs less than 31.",
        "The minimum is not proven.",
        "Odd fact: 2.5.",
    ]
    stopped = counting()
    stopped.result = Result(Status.LIMIT)
    stopped.summary = {"grade": None}
    assert stopped.notes()[1:] == ["Grade: not known (stopped at a limit)."]


def test_json_lines_hold_one_object_a_step_then_the_summary() -> None:
    records = [json.loads(line) for line in counting().jsonl(list).splitlines()]
    assert [r["type"] for r in records] == ["step"] * 3 + ["summary"]
    assert [(r["step"], r["rule"], r["cell"]) for r in records[:3]] == [
        (1, "fill", 0),
        (2, "fill", 1),
        (3, "fill", 2),
    ]
    summary = records[-1]
    assert summary["solution"] == [0, 1, 2] and summary["status"] == "solved"
    assert summary["explanation"] == {"grade": "easy", "cells": 3}
    assert summary["words"] == ["Every cell is filled."] and summary["steps"] == 3


def test_a_board_without_grid_has_no_frames_but_text() -> None:
    plain = counting()
    plain.scene = None
    assert "3. fill cell 3" in plain.text()
    with pytest.raises(OptionError, match="no grid"):
        plain.frames()
    assert plain._repr_html_() is None


def test_write_knows_its_formats(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=r"\.html"):
        counting().write(tmp_path / "out.bmp")
    counting().write(tmp_path / "out.gif")
    with Image.open(tmp_path / "out.gif") as gif:
        assert gif.n_frames == 4
