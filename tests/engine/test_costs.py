"""A cost that counts (moves, steps, presses) is an int, in ``Result`` and in JSON; a sum of
fractional step costs stays a float."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cspsolve
from cspsolve import registry
from cspsolve.instances import ROOT
from cspsolve.results import Result
from cspsolve.search import astar, bfs, dfs, greedy, idastar, iddfs


@dataclass(frozen=True)
class Climb:
    """Reach ``target`` from 0 by adding one or doubling (no state beyond it); every step
    costs the engine's default."""

    target: int

    @property
    def initial(self) -> int:
        return 0

    def actions(self, n: int) -> list[str]:
        return ["+1", "*2"] if n < self.target else []

    def result(self, n: int, action: str) -> int:
        return n + 1 if action == "+1" else max(1, 2 * n)

    def is_goal(self, n: int) -> bool:
        return n == self.target


@dataclass(frozen=True)
class WeightedClimb(Climb):
    """The climb with a doubling costing ``doubling``."""

    doubling: float = 0.5

    def cost(self, n: int, action: str, after: int) -> float:
        return self.doubling if action == "*2" else 1.0


def distance(n: int) -> float:
    return 0.0


SEARCHES: dict[str, Callable[[Any], Result[list[str]]]] = {
    "bfs": bfs,
    "dfs": dfs,
    "iddfs": iddfs,
    "astar": lambda p: astar(p, distance),
    "idastar": lambda p: idastar(p, distance),
    "greedy": lambda p: greedy(p, distance),
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
@given(target=st.integers(1, 40))
def test_a_count_of_steps_is_an_int(name: str, target: int) -> None:
    result = SEARCHES[name](Climb(target))
    assert result.solution is not None
    assert type(result.stats.cost) is int and result.stats.cost == len(result.solution)


@pytest.mark.parametrize("name", ["astar", "idastar", "dfs"])
@given(target=st.integers(2, 40))
def test_fractional_step_costs_sum_to_a_float(name: str, target: int) -> None:
    problem = WeightedClimb(target)
    result = SEARCHES[name](problem)
    assert result.solution is not None
    paid = sum(problem.doubling if a == "*2" else 1.0 for a in result.solution)
    assert type(result.stats.cost) is float and result.stats.cost == paid


@pytest.mark.parametrize(
    ("path", "options"),
    [
        ("rushhour/walls.rh", {}),
        ("rushhour/walls.rh", {"metric": "steps"}),
        ("npuzzle/easy8.txt", {}),
        ("lightsout/classic-5x5.lo", {}),
    ],
)
def test_every_method_of_a_kind_counts_in_ints(path: str, options: dict[str, Any]) -> None:
    [puzzle] = cspsolve.read(ROOT / path)
    kind = registry.kind_of(puzzle)
    for result in cspsolve.compare(puzzle, time_limit=20, **options):
        assert result.solution is not None, result.method
        record = json.loads(json.dumps(result.to_json(kind.encode)))
        cost = record["stats"]["cost"]
        assert type(result.stats.cost) is int and type(cost) is int, result.method
        if options.get("metric") != "steps":
            assert cost == record["solution"]["count"], result.method
