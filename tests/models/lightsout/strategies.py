"""Hypothesis strategies for random Lights Out boards (shared by the test modules)."""

from __future__ import annotations

from hypothesis import strategies as st

from cspsolve.models.lightsout.board import LightsOut
from cspsolve.models.lightsout.formats import from_graph


@st.composite
def grids(draw: st.DrawFn, max_side: int = 5, odd: bool = True) -> LightsOut:
    """A random grid board: variant, torus and holes drawn too when ``odd``."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    variant = draw(st.sampled_from(["sigma-plus", "sigma"]))
    torus = draw(st.booleans()) if odd else False
    holes = tuple(
        draw(st.integers(0, (1 << cols) - 1)) if odd and draw(st.integers(0, 3)) == 0 else 0
        for _ in range(rows)
    )
    lights = tuple(draw(st.integers(0, (1 << cols) - 1)) & ~h for h in holes)
    return LightsOut(lights, cols, variant, torus, holes)


@st.composite
def graphs(draw: st.DrawFn, max_nodes: int = 10) -> LightsOut:
    """A random simple graph board."""
    n = draw(st.integers(1, max_nodes))
    pairs = [(str(i), str(j)) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    lit = draw(st.lists(st.sampled_from([str(i) for i in range(n)]), unique=True))
    variant = draw(st.sampled_from(["sigma-plus", "sigma"]))
    return from_graph([str(i) for i in range(n)], edges, lit=lit, variant=variant)


boards = st.one_of(grids(), graphs())
