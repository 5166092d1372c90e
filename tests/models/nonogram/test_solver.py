"""The nonogram GAC model and its searches: answers checked by the independent checker and by
brute force; the implicit line domain; limits and unsolvable clues."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.csp import propagate
from cspsolve.limits import Limits
from cspsolve.models.nonogram import solve, solver
from cspsolve.models.nonogram.board import Nonogram, check, clue_of
from cspsolve.models.nonogram.constraints import LineDomain, build_csp
from cspsolve.models.nonogram.lines.cells import UNKNOWN
from cspsolve.models.nonogram.search.propagation import line_logic
from cspsolve.results import Status

from .conftest import all_solutions

ENGINE_METHODS = ["probing", "gac-astar", "mac"]

ROOT = Path(__file__).resolve().parents[3]

COMPILED = "probing, compiled only"
"""``probing`` with the pure-Python line logic of small puzzles turned off."""


def puzzle_of(grid: list[str]) -> Nonogram:
    width = len(grid[0])
    return Nonogram(
        [clue_of(ch == "#" for ch in row) for row in grid],
        [clue_of(row[j] == "#" for row in grid) for j in range(width)],
    )


def grids(max_side: int) -> st.SearchStrategy[list[str]]:
    return st.integers(1, max_side).flatmap(
        lambda w: st.lists(
            st.text(alphabet="#.", min_size=w, max_size=w), min_size=1, max_size=max_side
        )
    )


@pytest.mark.parametrize("method", ENGINE_METHODS)
@settings(max_examples=60, deadline=None)
@given(grid=grids(12))
def test_random_grid_clues_are_solved(method: str, grid: list[str]) -> None:
    puzzle = puzzle_of(grid)
    result = solve(puzzle, method)
    assert result.status is Status.SOLVED
    assert result.solution is not None
    assert check(puzzle, result.solution) == []


def crossed_puzzle(data: st.DataObject) -> Nonogram:
    """Rows from one grid, columns from another: unique, several or no solutions all occur."""
    w, h = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 3))
    shape = st.lists(st.text(alphabet="#.", min_size=w, max_size=w), min_size=h, max_size=h)
    rows, columns = data.draw(shape), data.draw(shape)
    return Nonogram(
        [clue_of(ch == "#" for ch in row) for row in rows],
        [clue_of(row[j] == "#" for row in columns) for j in range(w)],
    )


@pytest.mark.slow
@pytest.mark.parametrize("method", [*ENGINE_METHODS, COMPILED])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_uniqueness_and_unsolvability_match_brute_force(method: str, data: st.DataObject) -> None:
    puzzle = crossed_puzzle(data)
    expected = all_solutions(puzzle)
    if method == COMPILED:
        with (
            mock.patch.object(solver, "LINE_LOGIC_CELLS", 0),
            mock.patch.object(solver, "QUICK_CELLS", 0),
        ):
            result = solve(puzzle, "probing", unique=True)
    else:
        result = solve(puzzle, method, unique=True)
    if not expected:
        assert result.status is Status.UNSOLVABLE
        assert result.message
    else:
        assert result.status is Status.SOLVED
        assert result.solution in expected
        assert result.proof["unique"] == (len(expected) == 1)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_line_logic_decides_only_what_brute_force_proves(data: st.DataObject) -> None:
    puzzle = crossed_puzzle(data)
    expected = all_solutions(puzzle)
    decided = solver.python_line_logic(puzzle, max_solutions=2)
    if decided is None:
        return
    if decided.status is Status.UNSOLVABLE:
        assert expected == []
    else:
        assert expected == [decided.solution]
        assert decided.proof["unique"] is True


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data(), nodes=st.integers(1, 6))
def test_quick_mac_settles_only_what_brute_force_proves(data: st.DataObject, nodes: int) -> None:
    """It answers only a puzzle of one solution (that one) or of none, whatever was asked:
    those answers do not depend on the path a process took."""
    puzzle = crossed_puzzle(data)
    expected = all_solutions(puzzle)
    wanted = data.draw(st.integers(1, 3))
    found = solver.python_mac(puzzle, max_solutions=wanted, nodes=nodes)
    if found is None:
        return
    assert len(expected) <= 1
    if found.status is Status.UNSOLVABLE:
        assert expected == []
    else:
        assert found.status is Status.SOLVED and expected == [found.solution] == found.solutions
        assert found.proof.get("unique") is (True if wanted >= 2 else None)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), side=st.integers(15, 25), nodes=st.integers(1, 40))
def test_quick_mac_settles_only_what_cpsat_proves_on_puzzles_that_branch(
    seed: int, side: int, nodes: int
) -> None:
    """On random grids of 15 x 15 to 25 x 25 (where MAC branches, and may stop after a first
    solution), an answer of the plain-Python MAC is CP-SAT's: one solution, or none."""
    import random

    from cspsolve.models.nonogram import cpsat

    rng = random.Random(seed)
    grid = [[rng.random() < 0.5 for _ in range(side)] for _ in range(side)]
    puzzle = Nonogram(
        [clue_of(row) for row in grid], [clue_of(column) for column in zip(*grid, strict=True)]
    )
    found = solver.python_mac(puzzle, max_solutions=2, nodes=nodes)
    if found is None:
        return
    listed = cpsat.solve(puzzle, max_solutions=2)
    assert found.status is Status.SOLVED and listed.solutions == [found.solution]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), crossed=st.booleans())
def test_python_line_fixpoint_is_the_compiled_line_logic(
    data: st.DataObject, crossed: bool
) -> None:
    puzzle = crossed_puzzle(data) if crossed else puzzle_of(data.draw(grids(20)))
    consistent, grid, _ = line_logic(puzzle)
    fixed = int((grid != UNKNOWN).sum()) if consistent else 0
    assert solver.python_line_fixpoint(puzzle) == (consistent, fixed)


ANALYZED = """
import json, sys
from cspsolve import analyze, compiling
from cspsolve.models.nonogram import read
entry = read(sys.argv[1])[0]
KEYS = ("line_solvable", "fixed_by_line_logic", "cells", "unique", "status")
def facts():
    found = analyze(entry.puzzle)
    return [found[key] for key in KEYS]
plain = facts()
loaded = "numba" in sys.modules
with compiling.eager():
    print(json.dumps([loaded, plain == facts(), plain]))
"""


@pytest.mark.parametrize(
    ("path", "spared"),
    [
        ("instances/nonogram/jwilk-data000.nin", True),  # line logic settles it
        ("tests/data/nonogram/test_pattern_13.txt", False),  # two solutions: a search
        ("instances/nonogram/tournament-sample.txt", False),  # 25 x 25, a search
    ],
)
def test_analyze_spares_the_kernels_where_line_logic_settles_the_puzzle(
    path: str, spared: bool
) -> None:
    """And says what it says with them (:func:`cspsolve.compiling.eager`)."""
    done = subprocess.run(
        [sys.executable, "-P", "-c", ANALYZED, str(ROOT / path)], capture_output=True, text=True
    )
    loaded, agree, facts = json.loads(done.stdout)
    assert loaded is not spared and agree, (facts, done.stderr)


@pytest.mark.parametrize(
    ("path", "first"),
    [
        ("instances/nonogram/duck.non", 1),  # settled by line logic
        ("instances/nonogram/tournament-sample.txt", 2),  # 25 x 25 puzzles that need search
    ],
)
def test_small_solves_settled_in_plain_python_leave_the_kernels(path: str, first: int) -> None:
    """The first puzzles of the file (of one solution each), each answer checked by the kind's
    checker."""
    code = (
        "import sys; from cspsolve.models.nonogram import read, solve, board\n"
        f"for entry in read({path!r})[:{first}]:\n"
        "    r = solve(entry.puzzle)\n"
        "    print(r.status.value, board.check(entry.puzzle, r.solution))\n"
        "print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    *solved, loaded = done.stdout.splitlines()
    assert solved == ["solved []"] * first and loaded == "False", done.stderr


def test_line_logic_spares_the_kernels_of_a_larger_puzzle_it_settles() -> None:
    """A 60 x 60 puzzle (over ``LINE_LOGIC_CELLS``, within ``QUICK_CELLS``) that line logic
    settles is answered, unique, in a process that never imports numba."""
    code = (
        "import sys; from cspsolve.models.nonogram import Nonogram, solve, board\n"
        "p = Nonogram(rows=[(59,)] * 60, columns=[(60,)] * 59 + [()])\n"
        "r = solve(p, unique=True)\n"
        "print(r.status.value, r.proof['unique'], board.check(p, r.solution),\n"
        "      'numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["solved", "True", "[]", "False"], done.stderr


SEVERAL = """
import json, sys
from cspsolve import compiling
from cspsolve.models.nonogram import read, solve
entry = read("instances/nonogram/tournament-sample.txt")[2]  # two solutions at least
first = solve(entry.puzzle)
loaded = "numba" in sys.modules
with compiling.eager():
    print(json.dumps([loaded, first.solution == solve(entry.puzzle).solution]))
"""


def test_a_puzzle_of_several_solutions_gets_the_compiled_searchs_answer() -> None:
    """Whichever path a process takes, a puzzle gets one answer: the plain-Python search
    leaves a puzzle of several solutions to the compiled one."""
    done = subprocess.run([sys.executable, "-c", SEVERAL], capture_output=True, text=True, cwd=ROOT)
    assert json.loads(done.stdout) == [True, True], done.stderr


def test_plain_python_is_not_tried_past_its_seconds_in_a_process() -> None:
    easy = puzzle_of(["#.", ".#"])
    with mock.patch.object(solver, "_COMPILED", "not a loaded module"):
        assert solver._quick_nodes(easy) == solver.QUICK_NODES
        with mock.patch.object(solver, "_quick_spent", solver.QUICK_TOTAL):
            assert solver._quick_nodes(easy) == 0


def test_contradictory_totals_are_a_result_not_an_error() -> None:
    puzzle = Nonogram([(1,), (1,)], [(2,), (1,)])
    result = solve(puzzle, "mac")
    assert result.status is Status.UNSOLVABLE
    assert "row clues fill 2 cells, the column clues 3" in result.message


def test_node_limit_stops_a_search_that_needs_branching() -> None:
    # Two interlocked diagonals: line logic alone fixes nothing.
    puzzle = puzzle_of(["#.", ".#"])
    assert solve(puzzle, "mac", limits=Limits(max_nodes=0)).status is Status.LIMIT
    assert solve(puzzle, "mac", limits=Limits(max_nodes=1)).status is Status.SOLVED


def test_line_domain_is_the_set_of_compatible_patterns() -> None:
    clue, n = (2, 1), 5
    domain = LineDomain.unknown(clue, n)
    members = [m for m in range(1 << n) if m in domain]
    assert members == [
        m for m in range(1 << n) if clue_of(bool(m >> p & 1) for p in range(n)) == clue
    ]
    assert domain.size() == len(members) == 3
    parts = [{m for m in members if m in part} for part in domain.split()]
    assert len(parts) == 2 and parts[0] and parts[1]
    assert parts[0] | parts[1] == set(members) and not parts[0] & parts[1]
    fixed = domain.restrict(0, False, True)  # first cell empty leaves one pattern: .##.#
    assert fixed.size() == 1 and fixed.value() == 0b10110  # bit p = cell p
    assert domain.restrict(1, False, True).restrict(0, False, True).is_empty()


def test_propagation_requeues_only_lines_crossing_changed_cells() -> None:
    """After fixing one cell, only the crossing lines whose cells changed are revised."""
    puzzle = puzzle_of(["#....", ".....", ".....", ".....", "....#"])
    csp = build_csp(puzzle)
    assert csp.graph.number_of_edges() == puzzle.width * puzzle.height
    domains = dict(csp.domains)
    assert propagate(csp, domains)
    # Line logic cannot place the two single cells; every line is still open.
    assert all(domains[v].size() > 1 for v in (("row", 0), ("col", 0)))
    row0 = domains["row", 0]
    assert isinstance(row0, LineDomain)
    narrowed = row0.restrict(0, True, False)
    domains["row", 0] = narrowed
    from cspsolve.results import Stats

    stats = Stats()
    assert propagate(csp, domains, changed={("row", 0): row0}, stats=stats)
    solved = solve(puzzle, "mac")
    assert solved.solution == ("#....", ".....", ".....", ".....", "....#")
    # Far fewer revisions than re-queuing every neighbour of every changed line would make.
    assert 0 < stats.propagations < 2 * puzzle.width * puzzle.height
