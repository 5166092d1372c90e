"""The line solver and the pattern counter against brute-force enumeration of fill patterns."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.models.nonogram.board import Clue, clue_of
from cspsolve.models.nonogram.lines.bigint import count_completions, solve_line

MAX_N = 12


@cache
def patterns_by_clue(n: int) -> dict[Clue, list[int]]:
    """Every bit mask of ``n`` cells, grouped by the clue it satisfies."""
    groups: dict[Clue, list[int]] = defaultdict(list)
    for mask in range(1 << n):
        groups[clue_of(bool(mask >> p & 1) for p in range(n))].append(mask)
    return dict(groups)


def brute_force(
    clue: Clue, n: int, can_fill: int, can_empty: int
) -> tuple[tuple[int, int] | None, int]:
    """(narrowed partial line or None, number of compatible patterns), by enumeration."""
    full = (1 << n) - 1
    fits = [
        m
        for m in patterns_by_clue(n).get(clue, [])
        if not m & ~can_fill and not ~m & full & ~can_empty
    ]
    if not fits:
        return None, 0
    fill = empty = 0
    for m in fits:
        fill |= m
        empty |= ~m & full
    return (fill, empty), len(fits)


def partial_lines(n: int, rng: random.Random, samples: int) -> list[tuple[int, int]]:
    """All partial lines of ``n`` cells when there are few, else a sample (always the open line)."""
    full = (1 << n) - 1
    if 3**n <= samples:
        out = []
        for states in itertools.product(range(3), repeat=n):
            fill = sum(1 << p for p, s in enumerate(states) if s != 1)
            empty = sum(1 << p for p, s in enumerate(states) if s != 2)
            out.append((fill, empty))
        return out
    out = [(full, full)]
    for _ in range(samples):
        fill = empty = full
        for p in range(n):
            r = rng.random()
            if r < 0.15:
                empty &= ~(1 << p)
            elif r < 0.30:
                fill &= ~(1 << p)
        out.append((fill, empty))
    return out


@pytest.mark.parametrize("n", range(1, MAX_N + 1))
def test_every_clue_against_brute_force(n: int) -> None:
    rng = random.Random(n)
    clues = list(patterns_by_clue(n))
    # Clues that cannot fit the line must be refuted too.
    clues += [(n + 1,), (n, 1)] if n > 1 else [(2,)]
    samples = 729 if n <= 6 else 25
    checked = 0
    for clue in clues:
        for fill, empty in partial_lines(n, rng, samples):
            expected, count = brute_force(clue, n, fill, empty)
            assert solve_line.__wrapped__(clue, n, fill, empty) == expected, (clue, fill, empty)
            assert count_completions.__wrapped__(clue, n, fill, empty) == count
            checked += 1
    assert checked >= len(clues)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_long_lines_keep_a_known_pattern(data: st.DataObject) -> None:
    """On long lines: a pattern compatible with the input stays compatible with the output."""
    n = data.draw(st.integers(20, 300))
    cells = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    pattern = sum(1 << p for p, c in enumerate(cells) if c)
    clue = clue_of(cells)
    full = (1 << n) - 1
    known = data.draw(st.integers(0, full))  # cells revealed from the pattern
    can_fill = full & ~(known & ~pattern)
    can_empty = full & ~(known & pattern)
    result = solve_line(clue, n, can_fill, can_empty)
    assert result is not None
    fill, empty = result
    assert pattern & ~fill == 0
    assert ~pattern & full & ~empty == 0
    assert fill & ~can_fill == 0 and empty & ~can_empty == 0
    if known == full:
        assert (fill, empty) == (pattern, ~pattern & full)


@pytest.mark.slow
@pytest.mark.parametrize("n", [7, 8, 9, 10])
def test_all_partial_lines_for_a_sample_of_clues(n: int) -> None:
    """Every one of the 3^n partial lines, for a sample of clues of each length."""
    rng = random.Random(100 + n)
    clues = rng.sample(sorted(patterns_by_clue(n)), 8)
    lines = partial_lines(n, rng, 3**n)
    assert len(lines) == 3**n
    for clue in clues:
        for fill, empty in lines:
            expected, count = brute_force(clue, n, fill, empty)
            assert solve_line.__wrapped__(clue, n, fill, empty) == expected, (clue, fill, empty)
            assert count_completions.__wrapped__(clue, n, fill, empty) == count
