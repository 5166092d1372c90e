"""Solving: every method's plan replayed by the independent checker; optimal lengths against
exact breadth-first distances, the shared data's known lengths, and the engine's generic
searches against the compiled IDA*; the pattern-database cache."""

from __future__ import annotations

import csv
import random
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import search as engine
from cspsolve import tasks
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.models.npuzzle import kind, pdb, tile_idastar
from cspsolve.models.npuzzle.board import Puzzle, apply, check, default_goal, korf_goal
from cspsolve.models.npuzzle.search import PatternDatabaseHeuristic, SlidingTileProblem, heuristic
from cspsolve.results import Status
from cspsolve.tasks import Request

from .conftest import SHARED

needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason="../shared/data/npuzzle not present (fresh clone); runs in CI"
)


def rows_of(name: str) -> list[dict[str, str]]:
    with (SHARED / name).open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def tiles(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.split()))


def eight(row: dict[str, str]) -> Puzzle:
    goal = korf_goal(9) if row["goal"] == "blank_first" else default_goal(9)
    return Puzzle(3, 3, tiles(row["tiles"]), goal)


@needs_shared
@pytest.mark.shared
def test_every_eight_puzzle_board_at_its_optimal_length() -> None:
    """Default method (A* + pattern database) and the compiled IDA* + Manhattan distance."""
    seen_unsolvable = 0
    for row in rows_of("eight_puzzle.tsv"):
        puzzle, length = eight(row), int(row["optimal_length"])
        for request in (Request(), Request("tile-idastar", "manhattan")):
            result = tasks.solve(kind.KIND, puzzle, request=request)
            if length < 0:
                assert result.status == Status.UNSOLVABLE and "unsolvable" in result.message
                assert result.stats.expanded == 0  # decided without a search
                continue
            assert result.status == Status.OPTIMAL, row["id"]
            assert result.solution is not None and len(result.solution) == length, row["id"]
            assert check(puzzle, result.solution) == []
        seen_unsolvable += length < 0
    assert seen_unsolvable == 2


@needs_shared
@pytest.mark.shared
def test_generic_astar_manhattan_on_the_31_move_boards() -> None:
    for row in rows_of("eight_puzzle.tsv"):
        if row["optimal_length"] == "31":
            puzzle = eight(row)
            result = engine.astar(SlidingTileProblem(puzzle), heuristic("manhattan", puzzle))
            assert result.status == Status.OPTIMAL and result.stats.cost == 31
            assert result.solution is not None and check(puzzle, result.solution) == []


@needs_shared
@pytest.mark.shared
def test_easier_half_of_korf_sample_optimal_with_pattern_databases() -> None:
    """With the 5-5-5 partition (three databases of 524,160 entries, quick to build on an
    empty cache); the default 6-6-3 runs in ``benchmarks/npuzzle.py``."""
    rows = sorted(
        rows_of("korf15_sample20.tsv"), key=lambda r: int(r["korf1985_ida_md_nodes_published"])
    )
    for row in rows[:10]:
        puzzle = Puzzle(4, 4, tiles(row["tiles_goal_blank_first"]), korf_goal(16))
        result = tile_idastar.solve(puzzle, "pdb", partition="5-5-5")
        assert result.status == Status.OPTIMAL, row["id"]
        assert result.solution is not None
        assert len(result.solution) == int(row["optimal_length"]), row["id"]
        assert check(puzzle, result.solution) == []
        assert result.stats.extra["initial_h"] >= int(row["manhattan"])


def test_compiled_idastar_agrees_with_the_engine_on_the_easiest_korf_instance() -> None:
    """Korf #79 (42 moves): the engine's IDA* with the same pattern databases, same length and
    the same number of nodes expanded (same operator order, same pruning)."""
    puzzle = Puzzle(4, 4, tiles("0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"), korf_goal(16))
    fast = tile_idastar.solve(puzzle, "pdb", partition="5-5-5")
    databases = PatternDatabaseHeuristic(puzzle, chosen=pdb.PARTITIONS["5-5-5"])
    slow = engine.idastar(SlidingTileProblem(puzzle), databases)
    assert fast.status == slow.status == Status.OPTIMAL
    assert fast.stats.cost == slow.stats.cost == 42
    assert fast.stats.extra["iterations"] == slow.stats.extra["iterations"]
    assert fast.solution is not None and check(puzzle, fast.solution) == []
    assert slow.solution is not None and check(puzzle, slow.solution) == []


def scramble(rows: int, cols: int, steps: int, rng: random.Random) -> Puzzle:
    goal = default_goal(rows * cols)
    board = goal
    p = Puzzle(rows, cols, goal)
    for _ in range(steps):
        for move in rng.sample("UDLR", 4):
            try:
                board = apply(p, board, move=move)
                break
            except ValueError:
                continue
    return Puzzle(rows, cols, board, goal)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([(2, 3), (3, 3), (2, 4), (4, 2)]),
    st.integers(0, 60),
    st.randoms(use_true_random=False),
)
def test_every_optimal_method_finds_the_same_length(
    shape: tuple[int, int], steps: int, rng: random.Random
) -> None:
    """Compiled IDA* (both heuristics) against the engine's A* and BFS; plans replay."""
    puzzle = scramble(*shape, steps, rng)
    results = [
        tile_idastar.solve(puzzle, "manhattan"),
        tile_idastar.solve(puzzle, "pdb"),
        tasks.solve(kind.KIND, puzzle, request=Request("astar", "linear-conflict")),
    ]
    if puzzle.cells <= 9:
        results.append(tasks.solve(kind.KIND, puzzle, request=Request("bfs")))
    assert {r.status for r in results} == {Status.OPTIMAL}
    assert len({r.stats.cost for r in results}) == 1
    for r in results:
        assert r.solution is not None and check(puzzle, r.solution) == []


@pytest.mark.parametrize("method", kind.KIND.method_names)
def test_every_method_solves_a_small_board(method: str) -> None:
    puzzle = Puzzle(2, 3, (4, 1, 3, 0, 2, 5))  # 2x3, a few moves from 1 2 3 / 4 5 .
    result = tasks.solve(kind.KIND, puzzle, request=Request(method), limits=Limits(time_limit=30))
    assert result.status.has_solution, method
    assert result.solution is not None and check(puzzle, result.solution) == []
    assert result.status == (
        Status.OPTIMAL if method not in ("greedy", "weighted-astar", "dfs") else Status.SOLVED
    )


def test_limits_and_cancellation_stop_the_compiled_search() -> None:
    puzzle = Puzzle(4, 4, tiles("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6"), korf_goal(16))
    limited = tile_idastar.solve(puzzle, "manhattan", limits=Limits(max_nodes=1000))
    assert limited.status == Status.LIMIT and limited.solution is None
    assert limited.stats.expanded <= 1000 + limited.stats.extra["iterations"]
    cancel = threading.Event()
    cancel.set()
    assert (
        tile_idastar.solve(puzzle, "manhattan", limits=Limits(cancel=cancel)).status
        == Status.CANCELLED
    )


def test_compiled_search_refuses_unsolvable_boards_at_once() -> None:
    puzzle = Puzzle(4, 4, (*range(1, 14), 15, 14, 0))
    result = tile_idastar.solve(puzzle, "manhattan")
    assert result.status == Status.UNSOLVABLE and "inversion" in result.message


def test_options_that_do_not_fit() -> None:
    puzzle = Puzzle(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))
    with pytest.raises(OptionError, match="bfs is uninformed: it takes no heuristic"):
        tasks.solve(kind.KIND, puzzle, request=Request("bfs", "manhattan"))
    with pytest.raises(OptionError, match="tile-idastar takes pdb, manhattan, not 'gaschnig'"):
        tasks.solve(kind.KIND, puzzle, request=Request("tile-idastar", "gaschnig"))


def test_database_cache_is_rebuilt_when_corrupt(pdb_cache: Path) -> None:
    pattern = (0, 1, 2, 3, 4)  # 16*15*14*13*12 = 524,160 entries: cached
    fresh = pdb.load(4, 4, pattern=pattern)
    data, meta = pdb._paths(4, 4, pattern, None)
    assert data.is_file() and meta.is_file()
    assert np.array_equal(pdb.load(4, 4, pattern=pattern), fresh)
    data.write_bytes(data.read_bytes()[:-1] + b"\x07")  # flip the last entry
    assert pdb._read_cached(data, meta, fresh.size) is None
    assert np.array_equal(pdb.load(4, 4, pattern=pattern), fresh)
    meta.unlink()
    assert np.array_equal(pdb.load(4, 4, pattern=pattern), fresh)
    assert pdb._read_cached(data, meta, fresh.size) is not None


def test_databases_read_once_per_process(pdb_cache: Path) -> None:
    """A database read or built stays in memory (read-only) while its files are unchanged."""
    first, *_ = pdb.load_all(4, 4, patterns=[(0, 1, 2, 3, 5)])
    assert pdb.load(4, 4, pattern=(0, 1, 2, 3, 5)) is first
    assert not first.flags.writeable


def test_databases_joined_once_while_unchanged(pdb_cache: Path) -> None:
    """Solving again with the same cached databases reuses their concatenation; other
    databases get their own."""
    puzzle = Puzzle(4, 4, korf_goal(16), korf_goal(16))
    chosen = pdb.PARTITIONS["5-5-5"]
    first = pdb.PatternDatabases.for_puzzle(puzzle, chosen=chosen)
    again = pdb.PatternDatabases.for_puzzle(puzzle, chosen=chosen)
    assert again.table is first.table and not first.table.flags.writeable
    other = pdb.PatternDatabases.for_puzzle(puzzle, chosen=pdb.PARTITIONS["6-6-3"])
    assert other.table is not first.table and other.table.size == 2 * 5_765_760 + 3_360
    parts = pdb.load_all(4, 4, patterns=chosen, blank=0)
    assert np.array_equal(first.table, np.concatenate(parts))


@pytest.mark.parametrize(
    ("rows", "cols", "pattern", "blank"), [(4, 4, (1, 2, 3), 0), (3, 3, (1, 2, 4, 5), 0)]
)
def test_region_table_and_flood_fill_build_the_same_database(
    monkeypatch: pytest.MonkeyPatch, rows: int, cols: int, pattern: tuple[int, ...], blank: int
) -> None:
    """Boards of at most 16 cells look the blank's regions up in a table; larger ones flood."""
    from cspsolve.models.npuzzle import _kernels

    table = pdb.build(rows, cols, pattern=pattern, blank=blank)
    monkeypatch.setattr(_kernels, "LABELLED_UP_TO", 0)
    assert np.array_equal(pdb.build(rows, cols, pattern=pattern, blank=blank), table)


def test_partitions() -> None:
    assert pdb.partition(Puzzle(4, 4, korf_goal(16), korf_goal(16))) == pdb.PARTITIONS["6-6-3"]
    mirrored = pdb.partition(Puzzle(4, 4, default_goal(16)))
    assert sorted(c for p in mirrored for c in p) == list(range(15))
    assert (
        pdb.partition(Puzzle(4, 4, korf_goal(16), korf_goal(16)), "5-5-5")
        == pdb.PARTITIONS["5-5-5"]
    )
    five = pdb.partition(Puzzle(5, 5, default_goal(25)))
    assert [len(p) for p in five] == [5, 5, 5, 5, 4]
    with pytest.raises(OptionError, match="4x4"):
        pdb.partition(Puzzle(3, 3, default_goal(9)), "6-6-3")


def test_scenes_one_picture_per_board_of_the_plan() -> None:
    puzzle = Puzzle(2, 3, (1, 2, 3, 4, 0, 5))
    pictures = kind.scenes(puzzle, ["R"])
    assert len(pictures) == 2
    assert pictures[0].texts == (("1", "2", "3"), ("4", "", "5"))
    assert pictures[1].texts == (("1", "2", "3"), ("4", "5", ""))
    assert pictures[1].caption == "move 1 of 1: R"
    assert "1 move of the blank: R" in kind.draw(puzzle, ["R"])


@pytest.mark.parametrize("heuristic", tile_idastar.HEURISTICS)
def test_compiled_search_names_the_moves_of_a_single_column(heuristic: str) -> None:
    """On one column a step of one cell is a move down or up (it was read as right or left)."""
    puzzle = Puzzle(3, 1, (0, 1, 2), (1, 2, 0))
    result = tile_idastar.solve(puzzle, heuristic)
    assert result.solution == ["D", "D"] and check(puzzle, result.solution) == []
