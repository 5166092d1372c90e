"""The orbit-wise compiled search (:mod:`cspsolve.models.lightsout.symmetry`) against pure
Python enumeration of the whole coset, on boards whose lights have symmetries."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.limits import Limits
from cspsolve.models.lightsout import algebra
from cspsolve.models.lightsout.board import LightsOut, flatten, unflatten
from cspsolve.models.lightsout.symmetry import grid_maps, orbit_basis
from cspsolve.results import Stats

SIDES = [(4, 4), (5, 5), (9, 9), (11, 11), (16, 16), (4, 9), (5, 11), (9, 4)]
"""Shapes with quiet patterns (sigma-plus); sigma boards always have some."""


def symmetric(rows: int, cols: int, variant: str, seed: int) -> LightsOut:
    """A board whose lights are the union of a random board's images under the grid's
    symmetries (so every symmetry fixes them)."""
    rng = random.Random(seed)
    board = LightsOut((0,) * rows, cols, variant)
    lights = rng.getrandbits(rows * cols) & rng.getrandbits(rows * cols)
    for g in grid_maps(board):
        lights |= g(lights)
    return board.with_lights(unflatten(lights, rows=rows, cols=cols))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(SIDES),
    st.sampled_from(["sigma-plus", "sigma"]),
    st.integers(0, 1 << 30),
    st.integers(1, 4),
)
def test_orbit_search_equals_pure_python(
    shape: tuple[int, int], variant: str, seed: int, low: int
) -> None:
    puzzle = symmetric(*shape, variant, seed)
    found = algebra.solve(puzzle)
    if found.presses is None:
        return
    start = flatten(found.presses, puzzle.cols)
    vectors = [flatten(q, puzzle.cols) for q in algebra.quiet_patterns(puzzle)]
    if not vectors:
        return
    pure = algebra._lightest(start, vectors)
    maps = grid_maps(puzzle)
    budget = Limits().start(Stats())
    compiled, complete = algebra._lightest_compiled(start, vectors, budget, low=low, maps=maps)
    assert complete and compiled.bit_count() == pure.bit_count()
    combos = {start}
    for v in vectors:
        combos |= {c ^ v for c in combos}
    assert compiled in combos


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SIDES), st.integers(0, 1 << 30), st.integers(0, 1 << 40))
def test_orbit_maps_act_on_the_quotient(shape: tuple[int, int], seed: int, pick: int) -> None:
    """``g(start + Σ c_i b_i)`` has quotient coordinates ``S_g p + t_g``."""
    puzzle = symmetric(*shape, "sigma-plus", seed)
    found = algebra.solve(puzzle)
    assert found.presses is not None
    start = flatten(found.presses, puzzle.cols)
    vectors = [flatten(q, puzzle.cols) for q in algebra.quiet_patterns(puzzle)]
    maps = grid_maps(puzzle)
    orbits = orbit_basis(start, vectors, maps, low=2, most=8)
    high = len(orbits.basis) - orbits.low
    p = pick >> orbits.low & ((1 << high) - 1)
    point = start
    for i, v in enumerate(orbits.basis):
        if pick >> i & 1:
            point ^= v
    span = _span(vectors)
    kept = [g for g in maps if g(start) ^ start in span and all(g(v) in span for v in vectors)]
    assert len(kept) == len(orbits.shifts)
    for g, column, shift in zip(kept, orbits.images, orbits.shifts, strict=True):
        image = shift
        for b in range(high):
            if p >> b & 1:
                image ^= column[b]
        moved = g(point) ^ start
        assert _quotient(moved, orbits.basis, orbits.low) == image


def _span(vectors: list[int]) -> set[int]:
    out = {0}
    for v in vectors:
        out |= {c ^ v for c in out}
    return out


def _quotient(v: int, basis: list[int], low: int) -> int:
    """Coordinates of ``v`` over ``basis[low:]`` by brute force (small bases)."""
    for code in range(1 << len(basis)):
        w = 0
        for i, u in enumerate(basis):
            if code >> i & 1:
                w ^= u
        if w == v:
            return code >> low
    raise AssertionError("not in the span")
