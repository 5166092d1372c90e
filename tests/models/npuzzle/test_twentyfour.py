"""The 24-puzzle: Korf & Felner's 50 instances (``tests/data/npuzzle/korf-felner50.tsv``), the
6-6-6-6 partition, and weighted IDA*'s bound against exact optimal lengths.

The 6-6-6-6 databases themselves (510 MB) are ``benchmarks/npuzzle.py --only korf-felner``'s
work. Here the same code paths run on small databases: the 6-6-6-6 name is pointed at a
partition of the 5x5 into 3-tile patterns (each split from one of Korf & Felner's patterns),
so a solve with ``partition="6-6-6-6"`` builds, looks up and reflects 5x5 databases exactly as
the real one does; its lengths are checked against the engine's A* with the Manhattan
distance (a search and a heuristic that share no code with the databases or the compiled
IDA*) and against the published optima.
"""

from __future__ import annotations

import csv
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import search as engine
from cspsolve import tasks
from cspsolve.errors import OptionError
from cspsolve.models.npuzzle import kind, pdb, tile_idastar
from cspsolve.models.npuzzle.board import Puzzle, apply, check, default_goal, korf_goal
from cspsolve.models.npuzzle.search import SlidingTileProblem, heuristic
from cspsolve.results import Status
from cspsolve.tasks import Request

from .conftest import SHARED

KORF_FELNER = Path(__file__).resolve().parents[2] / "data" / "npuzzle" / "korf-felner50.tsv"

SMALL = tuple(half for pattern in pdb.PARTITIONS["6-6-6-6"] for half in (pattern[:3], pattern[3:]))
"""Korf & Felner's four patterns, each cut in two: eight databases of 13,800 entries."""


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def tiles(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.split()))


def manhattan(start: tuple[int, ...]) -> int:
    """Manhattan distance to Korf's 5x5 goal (tile t on cell t), written here."""
    return sum(abs(c // 5 - t // 5) + abs(c % 5 - t % 5) for c, t in enumerate(start) if t)


def inversions(start: tuple[int, ...]) -> int:
    order = [t for t in start if t]
    return sum(a > b for i, a in enumerate(order) for b in order[i + 1 :])


@pytest.fixture
def small_6666(monkeypatch: pytest.MonkeyPatch) -> None:
    """The name 6-6-6-6 stands for :data:`SMALL` (same board, same cells, smaller patterns)."""
    monkeypatch.setitem(pdb.PARTITIONS, "6-6-6-6", SMALL)


def walk(rows: int, cols: int, steps: int, rng: random.Random, goal: tuple[int, ...]) -> Puzzle:
    """A board ``steps`` random moves from ``goal`` (a move never undoes the one before)."""
    board, last = goal, ""
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    for _ in range(steps):
        for move in rng.sample("UDLR", 4):
            if move == undo.get(last):
                continue
            try:
                board = apply(Puzzle(rows, cols, goal, goal), board, move=move)
            except ValueError:
                continue
            last = move
            break
    return Puzzle(rows, cols, board, goal)


def test_korf_felner50_is_well_formed() -> None:
    rows = rows_of(KORF_FELNER)
    assert [int(r["id"]) for r in rows] == list(range(1, 51))
    lengths = [int(r["optimal_length"]) for r in rows]
    assert sum(lengths) == 5039  # the published mean of 100.78 moves
    assert (min(lengths), max(lengths)) == (81, 114)
    for row, length in zip(rows, lengths, strict=True):
        start = tiles(row["tiles_goal_blank_first"])
        assert sorted(start) == list(range(25)), row["id"]
        assert inversions(start) % 2 == 0, row["id"]  # odd width: even inversions solve
        h = manhattan(start)
        assert h <= length and (length - h) % 2 == 0, row["id"]


@pytest.mark.shared
@pytest.mark.skipif(
    not SHARED.is_dir(), reason="../shared/data/npuzzle not present (fresh clone); runs in CI"
)
def test_shared_korf_felner_rows_agree() -> None:
    known = {r["id"]: r for r in rows_of(KORF_FELNER)}
    shared = [r for r in rows_of(SHARED / "twentyfour_puzzle.tsv") if r["id"].startswith("kf")]
    assert len(shared) == 3
    for row in shared:
        mine = known[row["id"].removeprefix("kf")]
        assert mine["optimal_length"] == row["optimal_length"], row["id"]
        assert mine["tiles_goal_blank_first"] == row["tiles_goal_blank_first"], row["id"]


def test_the_6666_partition_covers_the_24_puzzle() -> None:
    korf = Puzzle(5, 5, korf_goal(25), korf_goal(25))
    chosen = pdb.partition(korf, "6-6-6-6")
    assert chosen == pdb.PARTITIONS["6-6-6-6"]
    assert [len(p) for p in chosen] == [6, 6, 6, 6]
    assert sorted(c for p in chosen for c in p) == list(range(1, 25))
    everyday = Puzzle(5, 5, default_goal(25))  # blank's goal in the last corner: mirrored
    mirrored = pdb.partition(everyday, "6-6-6-6")
    assert mirrored == tuple(tuple(24 - c for c in p) for p in chosen)
    assert pdb.partition(korf) != chosen  # the default stays the small 5-tile patterns
    for name, board in [("6-6-6-6", korf_goal(16)), ("6-6-3", korf_goal(25))]:
        side = math.isqrt(len(board))
        with pytest.raises(OptionError, match=f"the {name} partition is for"):
            pdb.partition(Puzzle(side, side, board, board), name)
    middle = (*range(1, 13), 0, *range(13, 25))
    with pytest.raises(OptionError, match="corner"):
        pdb.partition(Puzzle(5, 5, middle, middle), "6-6-6-6")
    with pytest.raises(OptionError, match="unknown partition"):
        pdb.partition(korf, "7-8")


@pytest.mark.usefixtures("small_6666")
@settings(max_examples=12, deadline=None)
@given(
    goal=st.sampled_from([korf_goal(25), default_goal(25)]),
    steps=st.integers(0, 34),
    rng=st.randoms(use_true_random=False),
)
def test_6666_path_on_the_5x5_agrees_with_astar_manhattan(
    goal: tuple[int, ...], steps: int, rng: random.Random
) -> None:
    """The compiled IDA* on the (small) 6-6-6-6 path, for Korf's goal (reflected lookup) and
    the everyday goal (mirrored partition): optimal, with an admissible start value of the
    optimum's parity; the engine's A* + Manhattan as oracle."""
    puzzle = walk(5, 5, steps, rng, goal)
    fast = tile_idastar.solve(puzzle, "pdb", partition="6-6-6-6")
    oracle = engine.astar(SlidingTileProblem(puzzle), heuristic("manhattan", puzzle))
    assert fast.status == oracle.status == Status.OPTIMAL
    assert fast.stats.cost == oracle.stats.cost
    assert fast.solution is not None and check(puzzle, fast.solution) == []
    assert fast.stats.extra["initial_h"] <= oracle.stats.cost
    assert (oracle.stats.cost - fast.stats.extra["initial_h"]) % 2 == 0


@pytest.mark.usefixtures("small_6666")
def test_6666_path_through_the_kind_and_its_options() -> None:
    """``--partition 6-6-6-6`` reaches the databases from the kind (tile-idastar, and the
    engine's A* with the pdb heuristic); the start values agree."""
    puzzle = walk(5, 5, 30, random.Random(3), korf_goal(25))
    request = Request("tile-idastar", "pdb", {"partition": "6-6-6-6"})
    fast = tasks.solve(kind.KIND, puzzle, request=request)
    slow = tasks.solve(kind.KIND, puzzle, request=Request("astar", "pdb", {"partition": "6-6-6-6"}))
    default = tasks.solve(kind.KIND, puzzle, request=Request("astar", "manhattan"))
    assert fast.status == slow.status == default.status == Status.OPTIMAL
    assert fast.stats.cost == slow.stats.cost == default.stats.cost
    databases = pdb.PatternDatabases.for_puzzle(puzzle, chosen=SMALL)
    assert databases.reflect and databases.partition == SMALL
    assert fast.stats.extra["initial_h"] == databases.value(puzzle.start)


@pytest.mark.usefixtures("small_6666")
@pytest.mark.parametrize("row_id", ["25", "40"])
def test_weighted_6666_path_on_korf_felner_within_its_bound(row_id: str) -> None:
    """The two easiest of the 50 (81 and 82 moves) by weighted IDA* with w = 3 on the small
    databases: the plans replay and cost at most 3 x the published optimum."""
    row = {r["id"]: r for r in rows_of(KORF_FELNER)}[row_id]
    puzzle = Puzzle(5, 5, tiles(row["tiles_goal_blank_first"]), korf_goal(25))
    best = int(row["optimal_length"])
    result = tile_idastar.solve(puzzle, "pdb", partition="6-6-6-6", weight=3)
    assert result.status == Status.SOLVED
    assert result.solution is not None and check(puzzle, result.solution) == []
    assert best <= result.stats.cost <= 3 * best
    assert result.proof["suboptimality_bound"] == 3.0
    assert manhattan(puzzle.start) <= result.proof["lower_bound"] <= best


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    state=st.integers(0, 181_439),
    weight=st.sampled_from([Fraction(1), Fraction(5, 4), Fraction(3, 2), Fraction(2), 3.5]),
    h=st.sampled_from(tile_idastar.HEURISTICS),
)
def test_weighted_idastar_within_its_bound_on_every_kind_of_8_puzzle(
    eight_distances: dict[bytes, int], state: int, weight: Fraction | float, h: str
) -> None:
    """Against the exact breadth-first distances of the 8-puzzle."""
    board = sorted(eight_distances)[state]
    best = eight_distances[board]
    puzzle = Puzzle(3, 3, tuple(board), default_goal(9))
    result = tile_idastar.solve(puzzle, h, weight=weight)
    assert result.solution is not None and check(puzzle, result.solution) == []
    assert result.stats.cost <= float(weight) * best
    if weight == 1:
        assert result.status == Status.OPTIMAL and result.stats.cost == best
        assert result.proof == {}
    else:
        assert result.status == Status.SOLVED
        assert result.proof["suboptimality_bound"] == float(weight)
        assert result.proof["lower_bound"] <= best


def test_weighted_idastar_on_korf100_easiest_within_its_bound() -> None:
    """Korf's #55 and #79 (41 and 42 moves) with the 5-5-5 databases: every plan keeps within
    its bound of the published optimum, and w = 2 generates fewer nodes than w = 1."""
    korf100 = {r["id"]: r for r in rows_of(KORF_FELNER.with_name("korf100.tsv"))}
    for row in (korf100["55"], korf100["79"]):
        puzzle = Puzzle(4, 4, tiles(row["tiles_goal_blank_first"]), korf_goal(16))
        best = int(row["optimal_length"])
        nodes = []
        for w in (1, 1.25, 1.5, 2):
            result = tile_idastar.solve(puzzle, "pdb", partition="5-5-5", weight=w)
            assert result.solution is not None and check(puzzle, result.solution) == []
            assert best <= result.stats.cost <= w * best
            nodes.append(result.stats.generated)
        assert nodes[-1] < nodes[0]


@pytest.mark.parametrize("weight", ["0.99", "x", "1/0", "4/3000001", "-2"])
def test_weights_that_do_not_fit(weight: str) -> None:
    with pytest.raises(OptionError, match="--weight must be"):
        kind.SlidingTileOptions(weight=weight)
    with pytest.raises(OptionError, match="the weight must be"):
        tile_idastar.solve(Puzzle(2, 2, (1, 0, 2, 3), korf_goal(4)), "manhattan", weight=0.5)


def test_weight_is_refused_by_methods_that_take_none_and_dropped_by_verify() -> None:
    puzzle = Puzzle(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))
    with pytest.raises(OptionError, match="--weight is for tile-idastar and weighted-astar"):
        tasks.solve(kind.KIND, puzzle, request=Request("astar", "manhattan", {"weight": "2"}))
    weighted = tasks.solve(
        kind.KIND, puzzle, request=Request("weighted-astar", None, {"weight": "3"})
    )
    assert weighted.status == Status.SOLVED and weighted.proof["suboptimality_bound"] == 3.0
    verdict = tasks.verify(
        kind.KIND, puzzle, request=Request("tile-idastar", "pdb", {"weight": "2"})
    )
    assert verdict.agree and verdict.search.status == Status.OPTIMAL
