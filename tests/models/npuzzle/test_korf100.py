"""Korf's 100 random 15-puzzles (``tests/data/npuzzle/korf100.tsv``, Korf 1985, Table 1): the
file is well formed and every instance is solvable with a plausible length; the 20 instances
of the shared sample agree with it exactly; the easiest few are solved at their published
optimal length. Solving all 100 is ``benchmarks/npuzzle.py``'s work, not a test's."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cspsolve.models.npuzzle import tile_idastar
from cspsolve.models.npuzzle.board import Puzzle, check, korf_goal, solvability
from cspsolve.results import Status

from .conftest import SHARED

KORF100 = Path(__file__).resolve().parents[2] / "data" / "npuzzle" / "korf100.tsv"


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def puzzle_of(row: dict[str, str]) -> Puzzle:
    return Puzzle(4, 4, tuple(map(int, row["tiles_goal_blank_first"].split())), korf_goal(16))


def manhattan(tiles: tuple[int, ...]) -> int:
    """Manhattan distance to Korf's goal (tile t on cell t), written here."""
    return sum(abs(c // 4 - t // 4) + abs(c % 4 - t % 4) for c, t in enumerate(tiles) if t)


def test_korf100_is_well_formed() -> None:
    rows = rows_of(KORF100)
    assert [int(r["id"]) for r in rows] == list(range(1, 101))
    lengths = [int(r["optimal_length"]) for r in rows]
    assert sum(lengths) == 5305  # Korf's mean of 53.05 moves
    assert (min(lengths), max(lengths)) == (41, 66)
    for row, length in zip(rows, lengths, strict=True):
        puzzle = puzzle_of(row)
        assert solvability(puzzle)[0], row["id"]
        h = manhattan(puzzle.start)
        assert h <= length and (length - h) % 2 == 0, row["id"]


@pytest.mark.shared
@pytest.mark.skipif(
    not SHARED.is_dir(), reason="../shared/data/npuzzle not present (fresh clone); runs in CI"
)
def test_shared_sample_of_20_agrees_with_korf100() -> None:
    known = {r["id"]: r for r in rows_of(KORF100)}
    sample = rows_of(SHARED / "korf15_sample20.tsv")
    assert len(sample) == 20
    for row in sample:
        mine = known[row["id"]]
        assert mine["optimal_length"] == row["optimal_length"], row["id"]
        assert mine["tiles_goal_blank_first"] == row["tiles_goal_blank_first"], row["id"]


def test_easiest_instances_at_their_optimal_length() -> None:
    """The four shortest (41 and 42 moves) with the 5-5-5 databases (quick to build on an empty
    cache); the plans replay."""
    rows = sorted(rows_of(KORF100), key=lambda r: (int(r["optimal_length"]), int(r["id"])))
    assert [r["id"] for r in rows[:4]] == ["55", "16", "42", "79"]
    for row in rows[:4]:
        puzzle = puzzle_of(row)
        result = tile_idastar.solve(puzzle, "pdb", partition="5-5-5")
        assert result.status == Status.OPTIMAL, row["id"]
        assert result.solution is not None and check(puzzle, result.solution) == []
        assert len(result.solution) == int(row["optimal_length"]), row["id"]
