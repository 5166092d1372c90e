"""Solution densities of a line against brute-force enumeration of its fill patterns."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.models.nonogram.linebits import MAX_CELLS
from cspsolve.models.nonogram.linecount import fill_density

from .conftest import enumerated_density
from .test_probing import bit_sets, partial_lines


def density(clue: tuple[int, ...], codes: list[int], n: int) -> list[float]:
    can_fill, can_empty = bit_sets(codes)
    k = len(clue)
    out = np.full(n + 3, -1.0)
    tables = np.full((2, k + 1, n + 1), np.nan)  # nothing read is left unwritten
    bounds = np.zeros((2, k + 1, 2), np.int64)
    blocks = np.array((7, *clue), np.int64)  # the clue need not start the array
    fill_density(np.uint64(can_empty), np.uint64(can_fill), n, blocks, 1, k, tables, bounds, out)
    assert (out[n:] == -1.0).all()
    return out[:n].tolist()


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
