"""Lights Out facts of ``../shared/data/lightsout`` (see its README.md): nullity tables, minimum
presses of all-on boards, the 5x5 facts, the example boards and the small press histograms.

Skipped in a fresh clone, where ``../shared/data`` is absent.
"""

from __future__ import annotations

import collections
import csv
import json
from pathlib import Path
from typing import Any

import pytest

from cspsolve.models.lightsout import algebra, cpsat
from cspsolve.models.lightsout.board import LightsOut, check, flatten

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "lightsout"
if not SHARED.is_dir():
    pytest.skip(
        "../shared/data/lightsout not present (fresh clone); these tests run in CI",
        allow_module_level=True,
    )

pytestmark = pytest.mark.shared


def rows_of(name: str) -> list[dict[str, str]]:
    with (SHARED / name).open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def table(name: str) -> dict[tuple[int, int], str]:
    """An m x n table whose first column is m and whose header holds n."""
    with (SHARED / name).open(encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        return {
            (int(row[0]), int(n)): value
            for row in reader
            for n, value in zip(header[1:], row[1:], strict=True)
        }


def all_on(m: int, n: int, variant: str = "sigma-plus", torus: bool = False) -> LightsOut:
    return LightsOut(((1 << n) - 1,) * m, n, variant, torus)


def parse_board(text: str) -> tuple[int, ...]:
    return tuple(int(row[::-1], 2) for row in text.split("/"))


def test_square_nullities() -> None:
    for row in rows_of("nullity_square_n1-30.csv"):
        n = int(row["n"])
        assert algebra.nullity(all_on(n, n)) == int(row["sigma_plus_nullity(A159257)"]), n
        assert algebra.nullity(all_on(n, n, "sigma")) == int(row["sigma_nullity(=n)"]), n
        if n <= 16:  # the torus goes through Gauss-Jordan on n**2 unknowns
            torus = all_on(n, n, torus=True)
            assert algebra.nullity(torus) == int(row["sigma_plus_torus_nullity(A165738)"]), n


@pytest.mark.parametrize("variant", ["sigma-plus", "sigma"])
def test_rectangular_nullities(variant: str) -> None:
    name = f"nullity_rect_{variant.replace('-', '_')}_1-20.csv"
    for (m, n), value in table(name).items():
        assert algebra.nullity(all_on(m, n, variant)) == int(value), (m, n)
        if m * n <= 100:  # Gauss-Jordan agrees too
            assert algebra._solve_general(all_on(m, n, variant)).nullity == int(value)


def test_all_on_minimum_presses_square() -> None:
    for row in rows_of("min_presses_allon_square_n1-12.csv"):
        n = int(row["n"])
        best = algebra.minimum(all_on(n, n))
        assert best.proof["minimum"] and best.stats.cost == int(
            row[next(k for k in row if "A075464" in k)]
        )
        sigma = algebra.minimum(all_on(n, n, "sigma"))
        expected = row["sigma_min_presses_all_on"]
        if expected:
            assert sigma.proof["minimum"] and sigma.stats.cost == int(expected), n
        else:
            assert sigma.solution is None and row["sigma_all_on_solvable"] == "no"


@pytest.mark.parametrize("variant", ["sigma-plus", "sigma"])
def test_all_on_minimum_presses_rectangular(variant: str) -> None:
    name = f"min_presses_allon_rect_{variant.replace('-', '_')}_1-10.csv"
    for (m, n), value in table(name).items():
        puzzle = all_on(m, n, variant)
        best = algebra.minimum(puzzle)
        if value:
            assert best.proof["minimum"] and best.stats.cost == int(value), (m, n)
            assert check(puzzle, best.solution) == []
        else:
            assert best.solution is None and best.status.value == "unsolvable"


def test_classic_5x5_facts() -> None:
    facts = json.loads((SHARED / "classic_5x5_facts.json").read_text(encoding="utf-8"))
    puzzle = all_on(5, 5)
    assert algebra.nullity(puzzle) == facts["nullity"] == 25 - facts["rank_gf2"]
    quiet = {flatten(q, 5) for q in algebra.quiet_patterns(puzzle)}
    span = {0, *quiet, quiet.pop() ^ quiet.pop()} if len(quiet) == 2 else set()
    expected = {flatten(parse_board(q), 5) for q in facts["quiet_patterns_rows_top_to_bottom"]}
    assert span - {0} == expected
    solutions = {flatten(s, 5) for s in algebra.solutions(puzzle)}
    assert solutions == {flatten(parse_board(s), 5) for s in facts["all_on_solutions"]}
    assert algebra.minimum(puzzle).stats.cost == facts["all_on_min_presses"]
    centre = LightsOut((0, 0, 0b100, 0, 0), 5)
    assert algebra.minimum(centre).stats.cost == 11
    assert not algebra.solve(LightsOut((1, 0, 0, 0, 0), 5)).solvable


def example_boards() -> list[dict[str, Any]]:
    return list(json.loads((SHARED / "example_boards.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("example", example_boards(), ids=lambda e: e["name"])
def test_example_boards(example: dict[str, Any]) -> None:
    variant = "sigma" if example["variant"].startswith("sigma(") else "sigma-plus"
    puzzle = LightsOut(parse_board(example["board"]), example["cols"], variant)
    assert puzzle.rows == example["rows"]
    best = algebra.minimum(puzzle)
    assert best.proof["nullity"] == example["nullity"]
    assert best.status.has_solution == example["solvable"]
    if example["solvable"]:
        assert best.proof["minimum"] and best.stats.cost == example["min_presses"]
        assert check(puzzle, best.solution) == []
        given = [0] * puzzle.rows
        for r, c in example["example_min_solution"]:
            given[r] |= 1 << c
        assert check(puzzle, tuple(given)) == []
        assert example["num_solutions"] == 2 ** best.proof["nullity"]
        if puzzle.cells <= 49:
            assert cpsat.solve(puzzle).stats.cost == example["min_presses"]
    else:
        assert best.message.startswith("unsolvable: the quiet pattern")


def test_min_press_distribution_of_small_boards() -> None:
    expected: dict[tuple[str, int], dict[int, int]] = collections.defaultdict(dict)
    for row in rows_of("min_press_distribution_small.csv"):
        expected[row["variant"], int(row["n"])][int(row["min_presses"])] = int(
            row["num_solvable_states"]
        )
    for (variant, n), histogram in expected.items():
        if n > 4:
            continue  # 5x5 means 2**23 boards: too slow for a unit test
        counts: collections.Counter[int] = collections.Counter()
        kernel = [
            flatten(q, n) for q in algebra.quiet_patterns(all_on(n, n, variant.replace("_", "-")))
        ]
        # one representative press set per solvable state: the best of its coset
        seen: dict[int, int] = {}
        board = all_on(n, n, variant.replace("_", "-"))
        masks = board.toggle_masks
        for presses in range(1 << (n * n)):
            state = 0
            for i in range(n * n):
                if presses >> i & 1:
                    state ^= masks[i]
            weight = presses.bit_count()
            if weight < seen.get(state, n * n + 1):
                seen[state] = weight
        counts.update(seen.values())
        assert dict(counts) == histogram, (variant, n)
        assert len(seen) == 2 ** (n * n - len(kernel))
