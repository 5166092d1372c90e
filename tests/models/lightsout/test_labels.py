"""Graph boards name their nodes by label in JSON, as in text: the presses of ``solve``, the
quiet pattern of ``analyze`` and the certificate of ``explain``, read as labels, are checked
by a press rule written here from the edges the test itself lists (not from the board).

The labels are a shuffle of ``0 .. n-1`` in an order unrelated to the nodes' positions, so
that a position passed off as a label is caught.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import cspsolve
from cspsolve.explanation import Explanation
from cspsolve.instances import ROOT
from cspsolve.models.lightsout.board import LightsOut
from cspsolve.models.lightsout.formats import from_graph
from cspsolve.models.lightsout.kind import KIND

from ...conftest import run


@dataclass(frozen=True)
class Graph:
    """A graph board as the test knows it: labels, edges, lit labels and the press rule."""

    nodes: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    lit: frozenset[str]
    variant: str

    def near(self, label: str) -> set[str]:
        """The neighbours of a node, from the edges."""
        return {v for u, v in self.edges if u == label} | {u for u, v in self.edges if v == label}

    def after(self, presses: Iterable[str], lights: Iterable[str]) -> set[str]:
        """The lit labels after pressing ``presses`` once each (the press rule: a press toggles
        its neighbours, and itself in sigma-plus)."""
        on = set(lights)
        for label in presses:
            assert label in self.nodes, f"{label!r} is not a node's label"
            on ^= self.near(label) | ({label} if self.variant == "sigma-plus" else set())
        return on

    def quiet(self, presses: list[str]) -> bool:
        """Whether pressing ``presses`` changes no light."""
        return bool(presses) and not self.after(presses, ())

    def board(self) -> LightsOut:
        """The board made of the labels, edges and lit labels."""
        return from_graph(self.nodes, self.edges, lit=sorted(self.lit), variant=self.variant)


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    """A random graph whose labels are digits in an order unlike the nodes' positions."""
    n = draw(st.integers(2, 11))
    labels = tuple(draw(st.permutations([str(i) for i in range(n)])))
    pairs = [(labels[i], labels[j]) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=2 * n))
    lit = draw(st.sets(st.sampled_from(labels), min_size=1))
    variant = draw(st.sampled_from(["sigma-plus", "sigma"]))
    return Graph(labels, tuple(edges), frozenset(lit), variant)


def encoded(presses: object) -> list[str]:
    """JSON presses of a graph board: a list of labels (strings)."""
    assert isinstance(presses, list) and all(isinstance(label, str) for label in presses)
    return presses


def certificate(explanation: Explanation) -> list[str]:
    """The presses of an explanation's certificate step, through its JSON Lines."""
    records = [json.loads(line) for line in explanation.jsonl(KIND.encode).splitlines()]
    [step] = [r for r in records if r.get("rule") == "certificate"]
    return encoded(step["presses"])


@settings(max_examples=80, deadline=None)
@given(graph=graphs())
def test_json_presses_and_certificates_are_labels(graph: Graph) -> None:
    board = graph.board()
    record = json.loads(json.dumps(cspsolve.solve(board).to_json(KIND.encode)))
    if record["status"] == "unsolvable":
        pattern = encoded(cspsolve.analyze(board)["quiet_pattern"])
        assert graph.quiet(pattern) and len(set(pattern) & graph.lit) % 2 == 1
        witness = certificate(cspsolve.explain(board))
        assert graph.quiet(witness) and len(set(witness) & graph.lit) % 2 == 1
        return
    presses = encoded(record["solution"]["presses"])
    assert len(set(presses)) == len(presses) == record["solution"]["count"]
    assert graph.after(presses, graph.lit) == set(), "the presses leave lights on"
    explained = json.loads(cspsolve.explain(board).jsonl(KIND.encode).splitlines()[-1])
    assert sorted(encoded(explained["solution"]["presses"])) == sorted(presses)


def petersen() -> Graph:
    """The shipped Petersen board, read here from its edge list."""
    text = (ROOT / "lightsout" / "petersen.edges").read_text(encoding="utf-8")
    lines = [line.split() for line in text.splitlines() if line.strip()]
    lit = next(fields[1:] for fields in lines if fields[0] == "lit:")
    edges = tuple((u, v) for u, v in (f for f in lines if ":" not in f[0]))
    nodes = tuple(dict.fromkeys(label for edge in edges for label in edge))
    return Graph(nodes, edges, frozenset(lit), "sigma-plus")


def test_petersen_certificate_is_a_quiet_pattern_of_labels() -> None:
    graph = petersen()
    assert graph.nodes != tuple(sorted(graph.nodes)), "labels in another order than positions"
    [board] = cspsolve.read(ROOT / "lightsout" / "petersen.edges")
    pattern = encoded(cspsolve.analyze(board)["quiet_pattern"])
    assert graph.quiet(pattern) and len(set(pattern) & graph.lit) % 2 == 1
    assert certificate(cspsolve.explain(board)) == pattern


def test_cli_json_names_the_nodes_it_presses(tmp_path: Path) -> None:
    graph = Graph(
        ("north", "east", "west", "centre", "south"),
        (("centre", "north"), ("centre", "east"), ("centre", "west"), ("centre", "south")),
        frozenset({"north", "east", "west", "centre"}),
        "sigma-plus",
    )
    path = tmp_path / "star.edges"
    lines = [f"lit: {' '.join(sorted(graph.lit))}", *(f"{u} {v}" for u, v in graph.edges)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run("solve", path, "--format", "json")
    presses = encoded(json.loads(done.stdout)["solution"]["presses"])
    assert done.returncode == 0 and graph.after(presses, graph.lit) == set()
    text = run("solve", path).stdout
    assert f"press {len(presses)} nodes: {' '.join(presses)}" in text
