"""The fast solver: the compiled line solver against the big-integer one, line logic against
the generic engine's GAC, probing against brute force (it never loses a solution)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.csp import propagate as gac
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Nonogram, check, clue_of
from cspsolve.models.nonogram.constraints import LineDomain, build_csp
from cspsolve.models.nonogram.lines.bigint import solve_line
from cspsolve.models.nonogram.lines.bits import MAX_CELLS, settle_bits
from cspsolve.models.nonogram.lines.cells import EMPTY, FILLED, UNKNOWN, scratch, settle_line
from cspsolve.models.nonogram.search import portfolio, probing, propagation
from cspsolve.models.nonogram.search.portfolio import children, solve_probing
from cspsolve.models.nonogram.search.probing import Probes, _trial, probe
from cspsolve.models.nonogram.search.propagation import Network, _propagate_all, line_logic
from cspsolve.results import Stats, Status

from .conftest import all_solutions, enumerated_density


@st.composite
def partial_lines(draw: st.DrawFn, longest: int = 30) -> tuple[tuple[int, ...], list[int]]:
    """A clue (often a real line's) and a partial line of cell codes, consistent or not."""
    n = draw(st.integers(1, longest))
    pattern = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    clue = draw(
        st.one_of(
            st.just(clue_of(pattern)),
            st.lists(st.integers(1, 4), max_size=5).map(tuple),
        )
    )
    codes = draw(st.lists(st.sampled_from([UNKNOWN] * 4 + [EMPTY, FILLED]), min_size=n, max_size=n))
    return clue, codes


def bit_sets(codes: list[int]) -> tuple[int, int]:
    """(can fill, can empty) of a line of cell codes, bit ``p`` for cell ``p``."""
    can_fill = sum(1 << p for p, c in enumerate(codes) if c & FILLED)
    can_empty = sum(1 << p for p, c in enumerate(codes) if c & EMPTY)
    return can_fill, can_empty


def reference(clue: tuple[int, ...], codes: list[int]) -> tuple[int, int] | None:
    """The big-integer line solver's answer, None when the clue cannot fit the line."""
    n = len(codes)
    fits = sum(clue) + len(clue) - 1 <= n
    return solve_line(clue, n, *bit_sets(codes)) if fits else None


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(partial_lines())
def test_settle_line_matches_the_big_integer_line_solver(
    case: tuple[tuple[int, ...], list[int]],
) -> None:
    clue, codes = case
    cells = np.array(codes, np.uint8)
    consistent = settle_line(cells, np.array(clue, np.int64), *scratch(len(codes), len(clue)))
    expected = reference(clue, codes)
    assert consistent == (expected is not None)
    if consistent:
        assert bit_sets(cells.tolist()) == expected


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(partial_lines(MAX_CELLS))
def test_settle_bits_matches_the_big_integer_line_solver(
    case: tuple[tuple[int, ...], list[int]],
) -> None:
    clue, codes = case
    n = len(codes)
    can_fill, can_empty = bit_sets(codes)
    work = np.zeros((4, len(clue) + 1), np.uint64)
    blocks = np.array(clue, np.int64)
    consistent, empty, filled = settle_bits(
        np.uint64(can_empty), np.uint64(can_fill), n, blocks, 0, len(clue), work
    )
    expected = reference(clue, codes)
    assert consistent == (expected is not None)
    if consistent:
        full = (1 << n) - 1
        assert (full & ~int(empty), full & ~int(filled)) == expected


def puzzle_of(rows: list[str], columns: list[str]) -> Nonogram:
    """Row clues from one grid, column clues from another (unique, several or no solutions)."""
    width = len(rows[0])
    return Nonogram(
        [clue_of(ch == "#" for ch in row) for row in rows],
        [clue_of(row[j] == "#" for row in columns) for j in range(width)],
    )


def grids(width: int, height: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.text("#.", min_size=width, max_size=width), min_size=height, max_size=height)


@st.composite
def puzzles(draw: st.DrawFn, most: int = 8) -> Nonogram:
    width, height = draw(st.integers(1, most)), draw(st.integers(1, most))
    rows = draw(grids(width, height))
    same = draw(st.booleans())
    return puzzle_of(rows, rows if same else draw(grids(width, height)))


@settings(max_examples=100, deadline=None)
@given(puzzles(10))
def test_line_logic_reaches_the_generic_gac_fixpoint(puzzle: Nonogram) -> None:
    consistent, grid, _ = line_logic(puzzle)
    csp = build_csp(puzzle)
    domains = dict(csp.domains)
    assert consistent == gac(csp, domains)
    if not consistent:
        return
    for i in range(puzzle.height):
        row = domains["row", i]
        assert isinstance(row, LineDomain)
        can_fill, can_empty = row.cells()
        expected = [(can_empty >> j & 1) | (can_fill >> j & 1) << 1 for j in range(puzzle.width)]
        assert grid[i].tolist() == expected


def probed(puzzle: Nonogram, order: int = portfolio.FEWER) -> tuple[int, Any, Any, Any]:
    """Line logic then probing from the empty grid: (outcome, grid, first child, second) with
    the children in ``order``, the grids as flat cell codes."""
    net = Network.build(puzzle)
    grid = net.unknown()
    if not _propagate_all(net, grid):
        return -1, net.codes(grid).ravel(), None, None
    probes = Probes.fresh(puzzle.width * puzzle.height)
    size = (net.height, net.width)
    args = (net.clues, net.work, net.counters)
    outcome = probe(grid, size, *args, net.trials, *vars(probes).values(), noise=0.0)
    if outcome < 0:
        return outcome, net.codes(grid).ravel(), None, None
    kids = np.empty((2, *grid.shape), np.uint64)
    children(grid, outcome, size, *args, net.trials, kids, order=order)
    return outcome, *(net.codes(g).ravel() for g in (grid, *kids))


def allows(grid: Any, solution: tuple[str, ...]) -> bool:
    flat = "".join(solution)
    return all(grid[p] & (FILLED if ch == "#" else EMPTY) for p, ch in enumerate(flat))


ORDERS = st.sampled_from([portfolio.LIKELIER, portfolio.FEWER, portfolio.MORE])


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(puzzles(4), ORDERS)
def test_probing_keeps_every_solution_and_children_split_them(puzzle: Nonogram, order: int) -> None:
    if puzzle.width * puzzle.height > 12:
        return
    solutions = all_solutions(puzzle)
    outcome, grid, first, second = probed(puzzle, order)
    if not solutions:
        assert outcome == -1
        return
    assert outcome != -1
    assert all(allows(grid, s) for s in solutions)
    if outcome == -2:
        flat = "".join("#" if c == FILLED else "." for c in grid)
        w = puzzle.width
        assert solutions == [tuple(flat[i : i + w] for i in range(0, len(flat), w))]
        return
    assert grid[outcome] == UNKNOWN
    assert first[outcome] != second[outcome] and {first[outcome], second[outcome]} == {1, 2}
    # Every solution lies in exactly one child.
    assert all(allows(first, s) != allows(second, s) for s in solutions)


def enumerated_beliefs(puzzle: Nonogram, codes: Any) -> tuple[list[Any], list[Any]]:
    """The rows' and columns' messages to their cells after the rounds of belief propagation
    of :func:`probing._beliefs` from messages of 0.5 (a fresh network), each line's weighted
    shares enumerated."""
    clip = probing._LEAST

    def odds(p: float) -> float:
        p = min(max(p, clip), 1 - clip)
        return p / (1 - p)

    rows: list[Any] = [[0.5] * puzzle.width for _ in puzzle.rows]
    cols: list[Any] = [[0.5] * puzzle.height for _ in puzzle.columns]
    for _ in range(probing._BP_ROUNDS):
        for r, clue in enumerate(puzzle.rows):
            if UNKNOWN in codes[r]:
                weights = [odds(cols[c][r]) for c in range(puzzle.width)]
                rows[r] = enumerated_density(clue, codes[r].tolist(), weights)
        for c, clue in enumerate(puzzle.columns):
            if UNKNOWN in codes[:, c]:
                weights = [odds(rows[r][c]) for r in range(puzzle.height)]
                cols[c] = enumerated_density(clue, codes[:, c].tolist(), weights)
    return rows, cols


@settings(max_examples=100, deadline=None)
@given(puzzles(9))
def test_the_lines_messages_are_those_of_belief_propagation(puzzle: Nonogram) -> None:
    """After probing, every line with undecided cells holds the messages to its cells that
    the rounds of belief propagation give, each line's weighted shares enumerated."""
    net = Network.build(puzzle)
    grid = net.unknown()
    if not _propagate_all(net, grid):
        return
    probes = Probes.fresh(puzzle.width * puzzle.height)
    args = (net.clues, net.work, net.counters, net.trials, *vars(probes).values())
    if probe(grid, (net.height, net.width), *args, noise=0.0) < 0:
        return
    codes = net.codes(grid)
    rows, cols = enumerated_beliefs(puzzle, codes)
    messages = net.work.messages
    for r in range(puzzle.height):
        if UNKNOWN in codes[r]:
            assert messages[r, : puzzle.width] == pytest.approx(rows[r])
    for c in range(puzzle.width):
        if UNKNOWN in codes[:, c]:
            assert messages[puzzle.height + c, : puzzle.height] == pytest.approx(cols[c])


@settings(max_examples=150, deadline=None)
@given(puzzles(6))
def test_the_likelier_child_comes_first(puzzle: Nonogram) -> None:
    """The first child takes the value of higher belief after the rounds of belief propagation
    between the lines, enumerated (a tie may go either way)."""
    outcome, grid, first, _ = probed(puzzle, portfolio.LIKELIER)
    if outcome < 0:
        return
    width = puzzle.width
    row, col = divmod(outcome, width)
    rows, cols = enumerated_beliefs(puzzle, grid.reshape(puzzle.height, width))
    filled = rows[row][col] * cols[col][row]
    empty = (1 - rows[row][col]) * (1 - cols[col][row])
    if not np.isclose(filled, empty):
        assert first[outcome] == (FILLED if filled > empty else EMPTY)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(puzzles(8))
def test_a_trial_counts_the_cells_it_decides(puzzle: Nonogram) -> None:
    """The count a trial returns (the branching score's factor) is the number of cells its
    grid decides that the node's does not, as the two grids' cell codes show."""
    net = Network.build(puzzle)
    grid = net.unknown()
    if not _propagate_all(net, grid):
        return
    before = net.codes(grid).ravel()
    size = (net.height, net.width)
    for cell in np.flatnonzero(before == UNKNOWN).tolist():
        for plane in (0, 1):
            trial = net.trials[plane]
            count = _trial(
                grid, trial, cell, plane, size, net.clues, net.work, net.counters, net.work.read
            )
            assert (net.codes(grid).ravel() == before).all()
            if count >= 0:
                assert count == int(
                    ((net.codes(trial).ravel() != UNKNOWN) & (before == UNKNOWN)).sum()
                )


def test_node_limit_and_counters() -> None:
    # Two interlocked diagonals: line logic and probing fix nothing.
    puzzle = puzzle_of(["#.", ".#"], ["#.", ".#"])
    assert solve_probing(puzzle, limits=Limits(max_nodes=0)).status is Status.LIMIT
    result = solve_probing(puzzle, max_solutions=2)
    assert result.status is Status.SOLVED and result.proof["unique"] is False
    assert result.stats.probes >= 8 and result.stats.propagations > 0
    assert result.stats.expanded == 3  # the root and its two children, each a solution


def dive_on(grid: list[str]) -> tuple[Network, Any, Any]:
    """The network of the puzzle whose solution is ``grid``, its root after line logic, and a
    likelier-first dive from that root."""
    net = Network.build(puzzle_of(grid, grid))
    root = net.unknown()
    assert _propagate_all(net, root)
    return net, root, portfolio._Dive(net, root, portfolio.LIKELIER, 0.0)


def test_the_last_conflict_is_branched_on_while_undecided() -> None:
    # Two interlocked diagonals: after line logic every cell is open.
    net, root, dive = dive_on(["#.", ".#"])
    assert dive.branching_cell(root, 0) == 0  # no conflict yet: the heuristic's cell
    dive.conflict = 3
    assert dive.branching_cell(root, 0) == 3
    kids = np.empty((2, *root.shape), np.uint64)
    size = (net.height, net.width)
    args = (net.clues, net.work, net.counters, net.trials, kids)
    children(root, 3, size, *args, order=portfolio.LIKELIER)
    # Cell 3 decided: the conflict is forgotten and the heuristic's cell comes back.
    assert dive.branching_cell(kids[0], 1) == 1
    assert dive.conflict == -1


@pytest.mark.parametrize("last_conflict", [False, True])
def test_a_dead_node_sets_the_last_conflict_only_when_asked(last_conflict: bool) -> None:
    # A 9x7 grid (found by a random search) whose depth-first search meets one dead node.
    grid = [
        "#..#..#",
        "#..#.#.",
        ".#.....",
        "....#.#",
        "....#.#",
        ".#...#.",
        "..#..#.",
        "##.#...",
        ".#.#.#.",
    ]
    net, root, dive = dive_on(grid)
    dive.last_conflict = last_conflict
    budget = Limits().start(Stats())
    settled = False
    while not budget.stats.backtracks and not settled:
        settled, _ = dive.advance(1, budget, [], 100)
    assert budget.stats.backtracks == 1
    if last_conflict:  # a cell the search decided: open at the root
        assert dive.conflict >= 0 and not propagation._known(root, dive.conflict, net.width)
    else:
        assert dive.conflict == -1


def test_cauldron_like_sizes_need_no_graph() -> None:
    """The generic CSP builds its networkx constraint graph only when asked for."""
    puzzle = puzzle_of(["#" * 40] * 30, ["#" * 40] * 30)
    csp = build_csp(puzzle)
    assert gac(csp, dict(csp.domains))
    assert "graph" not in vars(csp)
    assert csp.graph.number_of_edges() == 40 * 30


def search_restarting(puzzle: Nonogram, max_solutions: int, seed: int) -> tuple[Any, Stats]:
    """:func:`portfolio.search` with runs of one node, one, two, two, four... and randomized
    searches of one node, one, two, one...: every search that branches restarts, and reasons
    from the last conflict from the start."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(portfolio, "_FIRST_RUN", 1)
        patch.setattr(portfolio, "_RESTART_UNIT", 1)
        patch.setattr(portfolio, "_LAST_CONFLICT_ROUND", 0)
        budget = Limits().start(Stats())
        found = portfolio.search(
            Network.build(puzzle), budget, max_solutions=max_solutions, seed=seed
        )
    return found, budget.stats


def test_the_luby_sequence_starts_as_published() -> None:
    # Luby, Sinclair & Zuckerman 1993, §3: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
    expected = [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1]
    assert [portfolio.luby(i) for i in range(1, 17)] == expected
    with pytest.raises(ValueError, match="term 1"):
        portfolio.luby(0)


@pytest.mark.parametrize("k", range(1, 12))
def test_the_luby_sequence_repeats_itself_before_each_power_of_two(k: int) -> None:
    """Terms ``2**k .. 2**(k+1) - 2`` repeat terms ``1 .. 2**k - 1``, term ``2**(k+1) - 1`` is
    ``2**k``, and the first ``2**k - 1`` terms sum to ``k * 2**(k-1)`` (each power ``2**j < 2**k``
    takes a share ``2**(k-1)``)."""
    first = [portfolio.luby(i) for i in range(1, 2**k)]
    assert [portfolio.luby(i) for i in range(2**k, 2 ** (k + 1) - 1)] == first
    assert portfolio.luby(2 ** (k + 1) - 1) == 2**k
    assert sum(first) == k * 2 ** (k - 1)


def test_the_randomized_searches_restart_on_the_luby_schedule() -> None:
    """Given one node at a time, the randomized searches start afresh after 1, 1, 2, 1, 1, 2...
    units of two nodes (the 4x4 grid has several solutions: no search exhausts its tree within
    the nodes given)."""
    grid = ["#..#", ".##.", ".##.", "#..#"]
    net = Network.build(puzzle_of(grid, grid))
    root = net.unknown()
    assert _propagate_all(net, root)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(portfolio, "_RESTART_UNIT", 2)
        restarts = portfolio._Restarts(net, root)
        dives, started = [], []
        for _ in range(14):
            settled, stopped = restarts.advance(1, Limits().start(Stats()), [], 10**6)
            assert not settled and stopped is None
            dives.append(restarts.dive)
            started.append(restarts.started)
    assert started == [1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6, 6]  # 2, 2, 4, 2, 2, 4... nodes
    assert len({id(d) for d in dives}) == 6


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(puzzles(4), st.integers(0, 2**40))
def test_restarts_neither_lose_nor_invent_solutions(puzzle: Nonogram, seed: int) -> None:
    if puzzle.width * puzzle.height > 12:
        return
    expected = all_solutions(puzzle)
    (found, stopped), _ = search_restarting(puzzle, len(expected) + 1, seed)
    assert stopped is None
    assert sorted(found) == sorted(expected)


def test_a_seed_reproduces_its_search_and_every_seed_finds_the_same_solutions() -> None:
    """Ten sparse 6x6 grids, most with several solutions (up to 84), all of them wanted, the
    randomized searches running from the first round: a seed gives the same nodes again, and
    every seed the same solutions, each of which satisfies the clues."""
    rng = np.random.default_rng(7)
    puzzles = []
    for _ in range(10):
        grid = ["".join(rng.choice(["#", "."], 6, p=[0.2, 0.8])) for _ in range(6)]
        puzzles.append(puzzle_of(grid, grid))
    nodes: dict[int, list[int]] = {}
    solutions: dict[int, list[list[Any]]] = {}
    for seed in (0, 0, 1, 2**40):
        runs = [search_restarting(puzzle, 10**6, seed) for puzzle in puzzles]
        found = [sorted(grids) for (grids, _), _ in runs]
        assert all(not check(p, g) for p, grids in zip(puzzles, found, strict=True) for g in grids)
        assert solutions.setdefault(seed, found) == found
        counts = [stats.expanded for _, stats in runs]
        assert nodes.setdefault(seed, counts) == counts
    assert all(found == solutions[0] for found in solutions.values())
    assert max(len(found) for found in solutions[0]) > 10


def test_a_failed_propagation_weights_the_contradictory_line() -> None:
    # Rows first: row 0 ("2") fills both its cells, then column 1 (empty clue, line 3) has no
    # fill pattern left.
    puzzle = Nonogram([(2,), ()], [(1,), ()])
    net = Network.build(puzzle)
    assert not _propagate_all(net, net.unknown())
    assert net.work.conflicts.tolist() == [0, 0, 0, 1]


def test_the_conflict_weights_decay_at_every_node() -> None:
    # Two interlocked diagonals: no trial fails, so the weights only decay.
    net, _, dive = dive_on(["#.", ".#"])
    weights = np.array([1.0, 2.0, 0.0, 4.0])
    net.work.conflicts[:] = weights
    budget = Limits().start(Stats())
    dive.advance(2, budget, [], 100)
    assert budget.stats.expanded == 2
    assert net.work.conflicts == pytest.approx(weights * portfolio._DECAY**2)


def test_lines_longer_than_a_word_branch_and_find_both_solutions() -> None:
    """66 cells a line (two words; the cell-code line solver): columns 3.. are full, column 2
    empty, and the one cell of rows 0 and 1 left of the block lies on either diagonal of the
    corner 2x2 square, which only branching settles."""
    block = "#" * 63
    grid = ["#.." + block, ".#." + block] + ["..." + block] * 64
    swapped = [".#." + block, "#.." + block, *grid[2:]]
    puzzle = puzzle_of(grid, grid)
    budget = Limits().start(Stats())
    found, stopped = portfolio.search(Network.build(puzzle), budget, max_solutions=3)
    assert stopped is None
    assert sorted(found) == sorted([tuple(grid), tuple(swapped)])
    assert budget.stats.expanded >= 3
