"""The CP-SAT nonogram model and the explicit line-pattern model, against brute force and
the independent checker ``board.check``."""

from __future__ import annotations

import functools
import itertools
import threading
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cspsolve.csp.search import mac
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.models.nonogram import cpsat, explicit
from cspsolve.models.nonogram.board import Clue, Grid, Nonogram, check, clue_of
from cspsolve.results import Status

FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def puzzle_of(grid: Grid) -> Nonogram:
    """The clues of a drawn grid."""
    width = len(grid[0])
    return Nonogram(
        rows=[clue_of(ch == "#" for ch in row) for row in grid],
        columns=[clue_of(row[j] == "#" for row in grid) for j in range(width)],
    )


def grids(min_side: int = 1, max_side: int = 8) -> st.SearchStrategy[Grid]:
    return st.integers(min_side, max_side).flatmap(
        lambda h: st.integers(min_side, max_side).flatmap(
            lambda w: st.lists(
                st.text(alphabet="#.", min_size=w, max_size=w), min_size=h, max_size=h
            ).map(tuple)
        )
    )


def brute_force_count(puzzle: Nonogram, stop: int = 2) -> int:
    """Solutions among all 2**(w*h) grids, by ``board.check``; counting stops at ``stop``."""
    w, h = puzzle.width, puzzle.height
    count = 0
    for mask in range(1 << (w * h)):
        grid = tuple(
            "".join("#" if mask >> (i * w + j) & 1 else "." for j in range(w)) for i in range(h)
        )
        if not check(puzzle, grid):
            count += 1
            if count >= stop:
                break
    return count


@st.composite
def tiny_puzzles(draw: st.DrawFn) -> Nonogram:
    """Row clues of one random grid and column clues of another (often contradictory), or
    both of the same grid; at most 12 cells."""
    h = draw(st.integers(1, 4))
    w = draw(st.integers(1, 12 // h))
    cell_lists = st.lists(st.text(alphabet="#.", min_size=w, max_size=w), min_size=h, max_size=h)
    a = tuple(draw(cell_lists))
    b = a if draw(st.booleans()) else tuple(draw(cell_lists))
    return Nonogram(rows=puzzle_of(a).rows, columns=puzzle_of(b).columns)


# --- CP-SAT model -------------------------------------------------------------------------------


@FAST
@given(grids())
def test_cpsat_solves_random_grids(grid: Grid) -> None:
    puzzle = puzzle_of(grid)
    result = cpsat.solve(puzzle)
    assert result.status == Status.SOLVED
    assert result.method == "cpsat"
    assert result.solution is not None
    assert check(puzzle, result.solution) == []
    assert {"conflicts", "branches"} <= set(result.stats.extra)


@pytest.mark.slow
@settings(FAST, max_examples=60)
@given(tiny_puzzles())
def test_cpsat_uniqueness_agrees_with_brute_force(puzzle: Nonogram) -> None:
    count = brute_force_count(puzzle)
    result = cpsat.solve(puzzle, max_solutions=2)
    assert result.stats.extra["solutions"] == count
    if count == 0:
        assert result.status == Status.UNSOLVABLE
        assert result.solution is None
    else:
        assert result.status == Status.SOLVED
        assert result.solution is not None
        assert check(puzzle, result.solution) == []
        assert result.proof["unique"] == (count == 1)


def test_contradictory_clues_are_unsolvable() -> None:
    # Row sums 1, column sums 0.
    puzzle = Nonogram(rows=[(1,), ()], columns=[(), ()])
    assert brute_force_count(puzzle) == 0
    for max_solutions in (1, 2):
        result = cpsat.solve(puzzle, max_solutions=max_solutions)
        assert result.status == Status.UNSOLVABLE
        assert result.solution is None
    # Equal sums, but no grid: row 1 must be "#.#", which fills column 3, not column 2.
    puzzle = Nonogram(rows=[(1, 1), ()], columns=[(1,), (1,), ()])
    assert brute_force_count(puzzle) == 0
    assert cpsat.solve(puzzle, max_solutions=2).status == Status.UNSOLVABLE


@st.composite
def grid_pairs(draw: st.DrawFn) -> tuple[Grid, Grid]:
    """Two random grids of the same random size (1..8 x 1..8)."""
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cell_lists = st.lists(st.text(alphabet="#.", min_size=w, max_size=w), min_size=h, max_size=h)
    return tuple(draw(cell_lists)), tuple(draw(cell_lists))


@FAST
@given(grid_pairs())
def test_cpsat_mismatched_sums_are_unsolvable(pair: tuple[Grid, Grid]) -> None:
    """Rows of one grid, columns of another with a different number of filled cells."""
    rows = puzzle_of(pair[0]).rows
    columns = puzzle_of(pair[1]).columns
    assume(sum(map(sum, rows)) != sum(map(sum, columns)))
    result = cpsat.solve(Nonogram(rows=rows, columns=columns), max_solutions=2)
    assert result.status == Status.UNSOLVABLE


def test_cpsat_limits() -> None:
    puzzle = puzzle_of(("#.#", ".#.", "#.#"))
    assert cpsat.solve(puzzle, limits=Limits(time_limit=0)).status == Status.LIMIT
    cancel = threading.Event()
    cancel.set()
    assert cpsat.solve(puzzle, limits=Limits(cancel=cancel)).status == Status.CANCELLED
    with pytest.raises(OptionError, match="max_solutions"):
        cpsat.solve(puzzle, max_solutions=0)
    with pytest.raises(OptionError, match="workers"):
        cpsat.solve(puzzle, workers=0)


def test_cpsat_with_several_workers() -> None:
    grid = ("##.#", "#.##", ".##.")
    puzzle = puzzle_of(grid)
    result = cpsat.solve(puzzle, max_solutions=2, workers=2)
    assert result.solution is not None and check(puzzle, result.solution) == []
    assert result.proof["unique"] == (brute_force_count(puzzle) == 1)


def _accepts(clue: Clue, line: tuple[int, ...]) -> bool:
    start, finals, transitions = cpsat.automaton(clue)
    delta = {(s, a): t for s, a, t in transitions}
    state: int | None = start
    for a in line:
        state = delta.get((state, a)) if state is not None else None
    return state in finals


@pytest.mark.parametrize("length", range(0, 9))
def test_automaton_language_is_the_clue(length: int) -> None:
    lines = list(itertools.product((0, 1), repeat=length))
    for clue in {clue_of(map(bool, line)) for line in lines}:
        transitions = cpsat.automaton(clue)[2]
        assert len({(s, a) for s, a, _ in transitions}) == len(transitions)  # deterministic
        for line in lines:
            assert _accepts(clue, line) == (clue_of(map(bool, line)) == clue)


# --- explicit patterns --------------------------------------------------------------------------


def _starts(mask: int, length: int) -> tuple[int, ...]:
    """Start positions of the runs of a bitmask (bit p = cell p)."""
    return tuple(p for p in range(length) if mask >> p & 1 and (p == 0 or not mask >> (p - 1) & 1))


@pytest.mark.parametrize("length", range(0, 11))
def test_patterns_are_the_filtered_bitmasks(length: int) -> None:
    by_clue: dict[Clue, list[int]] = {}
    for mask in range(1 << length):
        clue = clue_of(bool(mask >> p & 1) for p in range(length))
        by_clue.setdefault(clue, []).append(mask)
    for clue, masks in by_clue.items():
        got = explicit.patterns(clue, length)
        assert sorted(got) == sorted(masks)
        # Documented order: block start positions, lexicographically.
        assert got == sorted(masks, key=functools.partial(_starts, length=length))
        assert explicit.count_patterns(clue, length) == len(got)


@pytest.mark.parametrize(
    ("clue", "length"), [((5,), 3), ((1, 1), 2), ((2, 2), 4), ((1,), 0), ((3, 1, 2), 7)]
)
def test_patterns_of_clues_that_do_not_fit(clue: Clue, length: int) -> None:
    assert explicit.patterns(clue, length) == []
    assert explicit.count_patterns(clue, length) == 0


def test_count_patterns_is_closed_form() -> None:
    """Large lines: counted instantly, never enumerated."""
    started = time.perf_counter()
    assert explicit.count_patterns((), 500) == 1
    n = explicit.count_patterns((1,) * 40, 400)
    assert n > 10**50
    assert time.perf_counter() - started < 0.1


# --- explicit CSP and python-constraint ---------------------------------------------------------


@settings(FAST, max_examples=25)
@given(grids(4, 6))
def test_python_constraint_agrees_with_cpsat(grid: Grid) -> None:
    puzzle = puzzle_of(grid)
    by_pc = explicit.solve_python_constraint(puzzle, max_solutions=2)
    by_cpsat = cpsat.solve(puzzle, max_solutions=2)
    assert by_pc.method == "python-constraint"
    assert by_pc.status == by_cpsat.status == Status.SOLVED
    assert by_pc.solution is not None and by_cpsat.solution is not None
    assert check(puzzle, by_pc.solution) == []
    assert by_pc.proof["unique"] == by_cpsat.proof["unique"]
    assert by_pc.stats.extra["solutions"] == by_cpsat.stats.extra["solutions"]


@settings(FAST, max_examples=30)
@given(tiny_puzzles())
def test_python_constraint_and_mac_agree_with_brute_force(puzzle: Nonogram) -> None:
    count = brute_force_count(puzzle)
    by_pc = explicit.solve_python_constraint(puzzle, max_solutions=2)
    by_mac = mac(explicit.explicit_csp(puzzle), max_solutions=2)
    for result in (by_pc, by_mac):
        assert result.status == (Status.SOLVED if count else Status.UNSOLVABLE)
        assert result.stats.extra["solutions"] == count
    if count:
        assert by_pc.solution is not None and by_mac.solution is not None
        assert check(puzzle, by_pc.solution) == []
        assert check(puzzle, explicit.grid_from_assignment(puzzle, by_mac.solution)) == []
        assert by_pc.proof["unique"] == by_mac.proof["unique"] == (count == 1)


def test_explicit_csp_shape() -> None:
    puzzle = puzzle_of(("#.#", "##.", "..#", "###"))
    csp = explicit.explicit_csp(puzzle)
    assert set(csp.variables) == {("row", i) for i in range(4)} | {("col", j) for j in range(3)}
    assert len(csp.constraints) == 12
    for i, clue in enumerate(puzzle.rows):
        assert csp.domains["row", i].size() == explicit.count_patterns(clue, 3)


def test_over_the_cap() -> None:
    # Row 3 has C(51, 10) = 1.3e10 patterns: counted, never enumerated.
    wide = [(1,)] * 60
    puzzle = Nonogram(rows=[(1,), (1,), (1,) * 10], columns=wide)
    started = time.perf_counter()
    with pytest.raises(OptionError, match=r"python-constraint: row 3 has 1\.\de\d+ patterns"):
        explicit.solve_python_constraint(puzzle)
    with pytest.raises(OptionError, match="row 3"):
        explicit.explicit_csp(puzzle)
    assert time.perf_counter() - started < 0.5
    small = puzzle_of(("#.#.", "....", "#..#"))
    with pytest.raises(OptionError, match="row 1 has 3 patterns, cap 2"):
        explicit.solve_python_constraint(small, max_patterns=2)
    with pytest.raises(OptionError, match="column 1 has 2 patterns, cap 1"):
        explicit.explicit_csp(puzzle_of(("####", "....")), max_patterns=1)


def test_python_constraint_limits() -> None:
    puzzle = puzzle_of(("#.#", ".#.", "#.#"))
    assert (
        explicit.solve_python_constraint(puzzle, limits=Limits(time_limit=0)).status == Status.LIMIT
    )
