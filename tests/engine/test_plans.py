"""cspsolve.plans (a plan's g, h, f table and its proof in words) and the tallies of the
engine's optimal searches, checked against a grid world whose distances are computed here."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import plans
from cspsolve import search as engine
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

Cell = tuple[int, int]


@dataclass
class Maze:
    """A grid with blocked cells: moves to the four neighbours cost 1; goal: the far corner."""

    size: int
    blocked: frozenset[Cell]
    initial: Cell = (0, 0)
    unit_cost = True

    @property
    def goal(self) -> Cell:
        return (self.size - 1, self.size - 1)

    def is_goal(self, state: Cell) -> bool:
        return state == self.goal

    def successors(self, state: Cell) -> Iterator[tuple[str, Cell, float]]:
        r, c = state
        for name, (dr, dc) in (("U", (-1, 0)), ("D", (1, 0)), ("L", (0, -1)), ("R", (0, 1))):
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < self.size and 0 <= nxt[1] < self.size and nxt not in self.blocked:
                yield name, nxt, 1.0

    def actions(self, state: Cell) -> list[str]:
        return [a for a, _, _ in self.successors(state)]

    def result(self, state: Cell, action: str) -> Cell:
        return next(s for a, s, _ in self.successors(state) if a == action)

    def manhattan(self, state: Cell) -> float:
        return float(abs(self.goal[0] - state[0]) + abs(self.goal[1] - state[1]))


def to_goal(maze: Maze) -> dict[Cell, int]:
    """True distances to the goal, by breadth-first search from it (moves are reversible)."""
    dist = {maze.goal: 0}
    queue = deque([maze.goal])
    while queue:
        here = queue.popleft()
        for _, nxt, _ in maze.successors(here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


@st.composite
def mazes(draw: st.DrawFn) -> Maze:
    size = draw(st.integers(2, 7))
    cells = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    blocked = frozenset(draw(st.lists(cells, max_size=size * size // 3))) - {
        (0, 0),
        (size - 1, size - 1),
    }
    return Maze(size, blocked)


def walk(maze: Maze, plan: list[str]) -> list[Cell]:
    states = [maze.initial]
    for move in plan:
        states.append(maze.result(states[-1], move))
    return states


def test_plan_table_by_hand() -> None:
    rows = plans.plan_table(["a", "b", "c"], [2.0, 1.0], {"a": 3.0, "b": 1.0, "c": 0.0}.get)
    assert [(r.g, r.h, r.f, r.remaining) for r in rows] == [
        (0, 3, 3, 3),
        (2, 1, 3, 1),
        (3, 0, 3, 0),
    ]
    assert rows[1].data() == {"g": 2, "h": 1, "f": 3, "remaining": 1}
    assert plans.overestimates(rows) == []
    bad = plans.plan_table(["a", "b"], [1.0], {"a": 1.0, "b": 2.0}.get)
    assert plans.overestimates(bad) == [1]
    with pytest.raises(ValueError, match="states"):
        plans.plan_table(["a"], [1.0], {"a": 0.0}.get)


def test_numbers_and_grades() -> None:
    assert plans.number(math.inf) is None and plans.number(2.0) == 2 and plans.number(0.5) == 0.5
    assert plans.amount(1, "moves") == "1 move" and plans.amount(2.0, "steps") == "2 steps"
    assert plans.grade(None, 31) == "unsolvable"


@given(optimum=st.integers(0, 500), scale=st.integers(1, 200))
def test_a_grade_is_the_quarter_of_the_scale_the_optimum_reaches(optimum: int, scale: int) -> None:
    quarters = min(3, 4 * optimum // scale)  # whole quarters of the scale reached, at most 3
    assert plans.grade(optimum, scale) == plans.GRADES[quarters]


@settings(max_examples=60, deadline=None)
@given(mazes())
def test_tallies_and_tables_against_true_distances(maze: Maze) -> None:
    dist = to_goal(maze)
    optimum = dist.get(maze.initial)
    bounded = Limits(time_limit=20)  # a safety net: every run here ends in well under a second
    runs = {
        "depth": lambda p, tally: engine.bfs(p, tally=tally, limits=bounded),
        "f-value": lambda p, tally: engine.astar(p, p.manhattan, tally=tally, limits=bounded),
    }
    # IDA* and IDDFS are tree searches: on a maze without a way out they would walk every
    # self-avoiding path, and IDDFS walks all those shorter than the plan, so they run only
    # where that is small.
    if optimum is not None:
        runs["f-limit"] = lambda p, tally: engine.idastar(
            p, p.manhattan, tally=tally, limits=bounded
        )
        if maze.size <= 5:
            runs["iddfs"] = lambda p, tally: engine.iddfs(
                p, tally=tally, max_depth=maze.size**2, limits=bounded
            )
    for proof, run in runs.items():
        tally: dict[float, int] = {}
        result = run(maze, tally=tally)
        if optimum is None:
            assert result.status is Status.UNSOLVABLE
            continue
        assert result.status is Status.OPTIMAL and result.stats.cost == optimum
        if proof != "iddfs":
            assert sum(tally.values()) == result.stats.expanded
        keys = list(tally)
        assert keys == sorted(keys)
        if proof in ("f-value", "f-limit"):
            assert not keys or max(keys) <= optimum
        if proof == "depth":
            assert not keys or max(keys) <= max(optimum - 1, 0)
        states = walk(maze, result.solution or [])
        rows = plans.plan_table(states, [1.0] * (len(states) - 1), maze.manhattan)
        assert [r.remaining for r in rows] == [dist[s] for s in states]
        assert plans.overestimates(rows) == []
        searched = plans.Searched(result, "search", "depth" if proof == "iddfs" else proof, tally)
        assert searched.lower_bound == optimum
        words = " ".join(searched.words("moves"))
        assert f"No plan is shorter than {plans.amount(optimum, 'moves')}" in words


def test_words_of_each_status() -> None:
    def searched(status: Status, **proof: float) -> plans.Searched:
        result: Result[list[str]] = Result(status, ["R"], Stats(expanded=7, cost=1))
        result.proof.update(proof)
        return plans.Searched(result, "greedy search")

    assert "not proven optimal" in searched(Status.SOLVED).words("moves")[0]
    assert "at least 3 moves" in searched(Status.SOLVED, lower_bound=3).words("moves")[0]
    limited = searched(Status.LIMIT, lower_bound=4).words("steps")[0]
    assert "7 nodes" in limited and "at least 4 steps" in limited
    ida = plans.Searched(Result(Status.LIMIT, None, Stats()), "IDA*", "f-limit", {5: 1, 7: 9})
    assert ida.lower_bound == 7
    none = plans.Searched(Result(Status.UNSOLVABLE, None, Stats()), "BFS", claim="No plan: x.")
    assert none.words("moves") == ["No plan: x."]


def test_tally_leaves_the_default_path_alone() -> None:
    maze = Maze(5, frozenset({(1, 1), (2, 2)}))
    plain = engine.astar(maze, maze.manhattan)
    counted = engine.astar(maze, maze.manhattan, tally={})
    assert plain.solution == counted.solution and plain.stats.expanded == counted.stats.expanded
    assert "tally" not in plain.stats.extra
