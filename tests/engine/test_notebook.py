"""Pictures in Jupyter: puzzles, results and statistics show themselves (``_repr_svg_``,
``_repr_html_``) through each kind's own scenes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cspsolve import registry, tasks
from cspsolve.results import Result, Stats, Status

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = {
    "nonogram": "instances/nonogram/duck.non",
    "lightsout": "instances/lightsout/classic-5x5.lo",
    "rushhour": "instances/rushhour/seven.csv",
    "npuzzle": "instances/npuzzle/easy8.txt",
}


def shipped(kind: str) -> object:
    return registry.get(kind).read(ROOT / SHIPPED[kind])[0].puzzle


def svg_root(text: str | None) -> ET.Element:
    assert text is not None
    root = ET.fromstring(text)
    assert root.tag.endswith("svg")
    return root


def texts(root: ET.Element) -> set[str]:
    return {"".join(node.itertext()).strip() for node in root.iter() if node.tag.endswith("text")}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_puzzle_shows_itself_as_given(name: str) -> None:
    kind, puzzle = registry.get(name), shipped(name)
    assert kind.blank is not None
    given = kind.scenes(puzzle, kind.blank(puzzle))[0]
    solved = tasks.solve(kind, puzzle)
    first = kind.scenes(puzzle, solved.solution)[0]
    assert given.fills == (
        tuple(("white",) * len(row) for row in first.fills) if name == "nonogram" else first.fills
    )
    assert given.row_labels == first.row_labels
    assert not given.marks  # no press, no move shown
    shown = texts(svg_root(puzzle._repr_svg_()))  # type: ignore[attr-defined]
    assert {label for label in given.row_labels if label} <= shown


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_solved_result_shows_its_solution(name: str) -> None:
    kind, puzzle = registry.get(name), shipped(name)
    result = tasks.solve(kind, puzzle)
    assert result.picture is not None
    assert list(result.picture()) == kind.scenes(puzzle, result.solution)
    svg_root(result._repr_svg_())


def test_results_without_a_picture_show_as_text() -> None:
    assert Result(Status.UNSOLVABLE)._repr_svg_() is None
    kind = registry.get("lightsout")
    graph = kind.read(ROOT / "instances/lightsout/petersen.edges")[0].puzzle
    assert tasks.solve(kind, graph)._repr_svg_() is None  # unsolvable: nothing to show


def test_a_graph_board_shows_its_nodes_by_label() -> None:
    kind = registry.get("lightsout")
    graph = kind.read(ROOT / "instances/lightsout/petersen.edges")[0].puzzle
    root = svg_root(graph._repr_svg_())  # type: ignore[attr-defined]
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert set(graph.labels) <= texts


def test_stats_show_as_a_table_of_the_counters_run() -> None:
    stats = Stats(expanded=1234, depth=7, extra={"rounds": 2, "line_cache_hits": 0})
    table = ET.fromstring(stats._repr_html_())
    rows = {row[0].text: row[1].text for row in table}
    assert rows == {"expanded": "1,234", "depth": "7", "rounds": "2"}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_an_explanation_shows_itself_with_its_step_player(name: str) -> None:
    kind, puzzle = registry.get(name), shipped(name)
    explained = tasks.explain(kind, puzzle)
    shown = explained._repr_html_()
    assert shown is not None and "<script" in shown
    escapes = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
    for step in explained.steps:
        if step.state is not None:  # every drawn step's caption is in the player's data
            assert json.dumps(step.text)[1:-1].translate(escapes)[:40] in shown
