"""GF(2) algebra: light chasing against Gauss-Jordan elimination and brute force."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.limits import Limits
from cspsolve.models.lightsout import algebra
from cspsolve.models.lightsout.board import LightsOut, apply, check, flatten, unflatten
from cspsolve.models.lightsout.gf2 import pdivmod, pgcdex, pmod, pmul, reduced_basis, solve_system
from cspsolve.results import Stats, Status

from .strategies import boards, grids


def brute_force(puzzle: LightsOut) -> list[int]:
    """Every solving press set (flat) by trying all 2**cells of them."""
    found = []
    for flat in range(1 << puzzle.cells):
        if flat & ~puzzle.enabled:
            continue
        presses = unflatten(flat, rows=puzzle.rows, cols=puzzle.cols)
        if not any(apply(puzzle, presses)):
            found.append(flat)
    return found


def general(puzzle: LightsOut) -> algebra.Solution:
    """Force the Gauss-Jordan path on a plain grid (by pretending it has holes)."""
    return algebra._solve_general(puzzle)


@settings(max_examples=100, deadline=None)
@given(grids(max_side=3))
def test_solutions_match_brute_force(puzzle: LightsOut) -> None:
    expected = brute_force(puzzle)
    got = sorted(flatten(p, puzzle.cols) for p in algebra.solutions(puzzle))
    assert got == expected
    found = algebra.solve(puzzle)
    assert found.solvable == bool(expected)
    if expected:
        assert len(expected) == 2**found.nullity
        best = algebra.minimum(puzzle)
        assert best.stats.cost == min(s.bit_count() for s in expected)
        assert best.proof == {"nullity": found.nullity, "minimum": True}
        assert check(puzzle, best.solution) == []


@settings(max_examples=200, deadline=None)
@given(grids(max_side=9, odd=False))
def test_light_chasing_agrees_with_elimination(puzzle: LightsOut) -> None:
    chased, eliminated = algebra.solve(puzzle), general(puzzle)
    assert chased.nullity == eliminated.nullity
    assert chased.solvable == eliminated.solvable
    for found in (chased, eliminated):
        if found.presses is not None:
            assert check(puzzle, found.presses) == []
        else:
            assert found.witness is not None
            assert not any(apply(puzzle.with_lights((0,) * puzzle.rows), found.witness))
            assert (flatten(found.witness, puzzle.cols) & puzzle.flat).bit_count() % 2 == 1


@settings(max_examples=100, deadline=None)
@given(boards)
def test_quiet_patterns_are_a_basis_of_quiet_press_sets(puzzle: LightsOut) -> None:
    dark = puzzle.with_lights((0,) * puzzle.rows)
    quiet = algebra.quiet_patterns(puzzle)
    assert len(quiet) == algebra.nullity(puzzle)
    assert len(reduced_basis([flatten(q, puzzle.cols) for q in quiet])) == len(quiet)
    for q in quiet:
        assert not any(apply(dark, q))


def test_sigma_plus_all_on_is_always_solvable_and_sigma_needs_even_n() -> None:
    for n in range(1, 41):
        full = ((1 << n) - 1,) * n
        assert algebra.solve(LightsOut(full, n)).solvable
        assert algebra.solve(LightsOut(full, n, "sigma")).solvable == (n % 2 == 0)


def test_large_board_is_solved_and_checked() -> None:
    n = 300
    puzzle = LightsOut(tuple(((i * 7919) ^ (i << 5)) & ((1 << n) - 1) for i in range(n)), n)
    found = algebra.solve(puzzle)
    if found.presses is not None:
        assert check(puzzle, found.presses) == []
    else:
        assert (flatten(found.witness or (), n) & puzzle.flat).bit_count() % 2 == 1


def test_polynomial_arithmetic() -> None:
    for a, b in itertools.product(range(1, 64), range(1, 16)):
        q, r = pdivmod(a, b)
        assert pmul(q, b) ^ r == a and r.bit_length() < b.bit_length()
        d, s = pgcdex(a, b)
        assert pmod(a, d) == 0 and pmod(b, d) == 0
        assert pmod(pmul(s, a) ^ d, b) == 0 or b == 1
    with pytest.raises(ZeroDivisionError):
        pdivmod(5, 0)


def test_solve_system_on_an_inconsistent_system() -> None:
    # x0 + x1 = 1, x0 + x1 = 0
    found = solve_system([0b11, 0b11], 0b01, size=2)
    assert found.particular is None and len(found.kernel) == 1


def test_large_null_space_falls_back_to_cpsat_and_says_so() -> None:
    puzzle = LightsOut(((1 << 6) - 1,) * 6, 6, "sigma")  # nullity 6: two groups of 3
    exact = algebra.minimum(puzzle)
    capped = algebra.minimum(puzzle, enumeration_limit=1)
    assert exact.proof["minimum"] is True and capped.stats.cost == exact.stats.cost
    assert capped.proof["minimum"] is (capped.status.value == "optimal")
    assert check(puzzle, capped.solution) == []


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 14).flatmap(
        lambda k: st.tuples(
            st.integers(0, (1 << 150) - 1),
            st.lists(st.integers(1, (1 << 150) - 1), min_size=k, max_size=k),
        )
    ),
    st.integers(1, 4) | st.just(algebra.TRANSFORM_BITS),
)
def test_compiled_enumeration_equals_pure_python(case: tuple[int, list[int]], low: int) -> None:
    """Small transforms (``low``) put vectors in all three parts of the compiled search: the
    transform, the Gray-code middle and the chunk prefix."""
    start, vectors = case
    pure = algebra._lightest(start, vectors)
    budget = Limits().start(Stats())
    compiled, complete = algebra._lightest_compiled(start, vectors, budget, low=low)
    assert complete
    assert compiled.bit_count() == pure.bit_count()
    combos = {start}
    for v in vectors:
        combos |= {c ^ v for c in combos}
    assert compiled in combos
    assert compiled.bit_count() == min(c.bit_count() for c in combos)


def test_minimum_through_the_compiled_enumeration() -> None:
    """The 16x16 all-on board (nullity 8) with the pure-Python limit lowered to force it."""
    puzzle = LightsOut(((1 << 16) - 1,) * 16, 16)
    pure = algebra.minimum(puzzle)
    original = algebra.PYTHON_LIMIT
    try:
        algebra.PYTHON_LIMIT = 2
        compiled = algebra.minimum(puzzle)
    finally:
        algebra.PYTHON_LIMIT = original
    assert compiled.status is pure.status is Status.OPTIMAL
    assert compiled.stats.cost == pure.stats.cost
    assert compiled.solution is not None and check(puzzle, compiled.solution) == []


def test_compiled_enumeration_stops_at_the_time_limit() -> None:
    vectors = [(1 << 300) - 1 - (1 << i) for i in range(30)]
    start = (1 << 300) - 1
    best, complete = algebra._lightest_compiled(start, vectors, Limits(time_limit=0).start(Stats()))
    assert not complete and best == start


def test_minimum_stops_at_the_node_limit_with_its_best_so_far() -> None:
    puzzle = LightsOut(((1 << 16) - 1,) * 16, 16)  # nullity 8: 256 press sets to look at
    exact = algebra.minimum(puzzle)
    capped = algebra.minimum(puzzle, limits=Limits(max_nodes=3))
    assert exact.status is Status.OPTIMAL and capped.status is Status.SOLVED
    assert capped.proof["minimum"] is False and capped.proof["stopped"] == "limit"
    assert capped.stats.expanded <= 3 and capped.stats.cost >= exact.stats.cost
    assert capped.solution is not None and check(puzzle, capped.solution) == []


def test_a_spent_time_limit_still_returns_the_chased_solution() -> None:
    puzzle = LightsOut(((1 << 16) - 1,) * 16, 16)
    result = algebra.minimum(puzzle, limits=Limits(time_limit=0))
    assert result.status is Status.SOLVED and result.proof["minimum"] is False
    assert result.proof["nullity"] == 8  # OEIS A159257(16)
    assert result.solution is not None and check(puzzle, result.solution) == []


def test_elimination_stops_at_the_time_limit() -> None:
    torus = LightsOut((0b111,) * 3, 3, torus=True)
    result = algebra.minimum(torus, limits=Limits(time_limit=0))
    assert result.status is Status.LIMIT and result.solution is None
    assert result.proof["nullity"] is None


@pytest.mark.parametrize("variant", ["sigma-plus", "sigma"])
def test_wide_grids_are_chased_along_their_length(variant: str) -> None:
    wide = LightsOut((0b1011001,) * 3, 7, variant)
    tall = wide.transposed()
    assert (tall.rows, tall.cols) == (7, 3) and tall.transposed() == wide
    a, b = algebra.minimum(wide), algebra.minimum(tall)
    assert a.status is b.status and a.stats.cost == b.stats.cost
    assert a.proof["nullity"] == b.proof["nullity"] == len(algebra.quiet_patterns(wide))
    if a.solution is not None:
        assert check(wide, a.solution) == []
    else:
        named = [tuple(map(int, m)) for m in re.findall(r"\((\d+), (\d+)\)", a.message)]
        assert named and all(1 <= r <= 3 and 1 <= c <= 7 for r, c in named)
        assert max(c for _, c in named) > 3


A075464 = {
    14: 56, 16: 104, 17: 147, 19: 141, 23: 231, 24: 270, 29: 345, 30: 376, 32: 428, 33: 469,
    34: 520, 35: 563, 39: 561, 41: 891, 44: 772, 47: 971, 49: 1165, 50: 1220, 53: 1487, 54: 1400,
}  # fmt: skip
"""Minimum presses of the all-on n x n sigma-plus board, OEIS A075464 (data line, n <= 54),
for the n in 13..54 with quiet patterns (nullity > 0)."""


@pytest.mark.parametrize("n", sorted(A075464))
def test_all_on_minimum_equals_oeis(n: int) -> None:
    """The whole series takes a few seconds (n = 39, nullity 32, about 1-2 s)."""
    puzzle = LightsOut(((1 << n) - 1,) * n, n)
    result = algebra.minimum(puzzle)
    assert result.status is Status.OPTIMAL and result.proof["minimum"] is True
    assert result.stats.cost == A075464[n]
    assert result.solution is not None and check(puzzle, result.solution) == []
