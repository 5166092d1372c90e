"""What the ``lightsout`` kind prints: counts in the singular and plural, graph nodes by name."""

from __future__ import annotations

from cspsolve.models.lightsout import kind
from cspsolve.models.lightsout.board import LightsOut, check
from cspsolve.models.lightsout.formats import from_graph


def test_counts_are_singular_for_one() -> None:
    one = LightsOut((1,), 1)
    assert kind.scenes(one, (1,))[0].caption == "1 press (ringed)"
    assert kind.scenes(LightsOut((0b11,), 2, "sigma"), (0b11,))[0].caption == "2 presses (ringed)"
    assert check(one, (0,)) == ["1 light still on: (1, 1)"]
    assert check(LightsOut((0, 0b100), 3), (0, 0)) == ["1 light still on: (2, 3)"]
    holed = LightsOut((0b10, 0), 2, holes=(0b01, 0))
    assert kind.describe(holed) == "2x2 sigma-plus, 1 disabled cell, 1 lit"


def test_graph_nodes_are_named_not_given_cells() -> None:
    pair = from_graph(["a", "b", "c"], [("a", "b")], lit=["a", "c"], variant="sigma")
    assert kind.describe(pair) == "graph of 3 nodes, sigma, 2 lit"
    assert check(pair, (0,)) == ["2 lights still on: a, c"]
    assert kind.draw(pair, (0b110,)) == "press 2 nodes: b c"
