"""Solution densities and weighted shares of a line against brute-force enumeration of its
fill patterns."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.models.nonogram.lines.bits import MAX_CELLS
from cspsolve.models.nonogram.lines.count import fill_density

from .conftest import enumerated_density
from .test_probing import bit_sets, partial_lines


def density(
    clue: tuple[int, ...], codes: list[int], n: int, odds: list[float] | None = None
) -> list[float]:
    can_fill, can_empty = bit_sets(codes)
    k = len(clue)
    out = np.full(n + 3, -1.0)
    tables = np.full((2, k + 1, n + 1), np.nan)  # nothing read is left unwritten
    bounds = np.zeros((2, k + 1, 2), np.int64)
    prefix = np.full(n + 1, np.nan)
    blocks = np.array((7, *clue), np.int64)  # the clue need not start the array
    weights = np.array(odds or [1.0] * n)
    args = (blocks, 1, k, weights, tables, bounds, prefix, out)
    fill_density(np.uint64(can_empty), np.uint64(can_fill), n, *args)
    assert (out[n:] == -1.0).all()
    return out[:n].tolist()


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(partial_lines(12))
def test_fill_density_matches_enumeration(case: tuple[tuple[int, ...], list[int]]) -> None:
    clue, codes = case
    expected = enumerated_density(clue, codes)
    got = density(clue, codes, len(codes))
    if expected is None:
        assert got == [0.5] * len(codes)
    else:
        assert np.allclose(got, expected)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(partial_lines(10), st.data())
def test_weighted_shares_match_enumeration(
    case: tuple[tuple[int, ...], list[int]], data: st.DataObject
) -> None:
    """With odds per cell (as belief propagation passes them, from 1e-3 to 1e3), each share is
    the enumerated weight of the patterns filling the cell over all, its own odds left out."""
    clue, codes = case
    odds = data.draw(st.lists(st.floats(1e-3, 1e3), min_size=len(codes), max_size=len(codes)))
    expected = enumerated_density(clue, codes, odds)
    got = density(clue, codes, len(codes), odds)
    if expected is None:
        assert got == [0.5] * len(codes)
    else:
        assert np.allclose(got, expected, rtol=1e-9, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_fill_density_of_long_open_lines_counts_every_placement(data: st.DataObject) -> None:
    """An open line of up to 62 cells and one block: cell ``x`` is filled by the placements
    that start from ``x - length + 1`` to ``x``."""
    n = data.draw(st.integers(1, MAX_CELLS))
    length = data.draw(st.integers(1, n))
    got = density((length,), [3] * n, n)
    placements = n - length + 1
    for x in range(n):
        covering = min(x, n - length) - max(0, x - length + 1) + 1
        assert got[x] == pytest.approx(covering / placements)
