"""Sliding-tile explanations, replayed by a checker written here.

The checker moves the blank by its own rules and takes the true number of moves still to go
from the breadth-first tables of :mod:`.differential` (boards of at most 9 cells, any goal):
every step must replay, carry the right g, f and remaining, and have ``h`` at most the true
distance; an optimal plan's ``remaining`` is that distance at every step. Boards of 16 cells
(random walks from the goal) are checked against the plan's own remaining cost and the
compiled solver's optimum.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given

from cspsolve import tasks
from cspsolve.explanation import Explanation
from cspsolve.limits import Limits
from cspsolve.models.npuzzle.board import Puzzle
from cspsolve.models.npuzzle.kind import KIND
from cspsolve.results import Status
from cspsolve.tasks import Request
from tests.fuzzing import differential

from .differential import _fresh_cache, cases, optimum

INSTANCES = Path(__file__).resolve().parents[3] / "instances" / "npuzzle"
DATA = Path(__file__).resolve().parents[2] / "data" / "npuzzle"
STEP_KEYS = {"type", "step", "rule", "text", "move", "tile", "blank", "g", "h", "f", "remaining"}
BLANK_STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
LIMIT = 0.5
MARGIN = 0.5


def moved(puzzle: Puzzle, tiles: tuple[int, ...], move: str) -> tuple[int, ...]:
    """The board after the blank moves ``move``; fails when it leaves the board."""
    blank = tiles.index(0)
    r, c = divmod(blank, puzzle.cols)
    dr, dc = BLANK_STEPS[move]
    assert 0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols, f"{move} leaves the board"
    target = (r + dr) * puzzle.cols + c + dc
    board = list(tiles)
    board[blank], board[target] = board[target], 0
    return tuple(board)


def true_distance(puzzle: Puzzle, tiles: tuple[int, ...]) -> int | None:
    return optimum(Puzzle(puzzle.rows, puzzle.cols, tiles, puzzle.goal))


def replayed(explanation: Explanation, puzzle: Puzzle, best: int | None = None) -> None:
    """Replay every step; fail at the first wrong fact. True distances come from the tables
    on boards of at most 9 cells; otherwise ``best`` is the optimum and ``h`` is checked
    against the plan's remaining moves."""
    exact = puzzle.cells <= 9
    best = true_distance(puzzle, puzzle.start) if exact else best
    status = explanation.result.status
    if best is None:
        assert status is Status.UNSOLVABLE, explanation.text()
        assert explanation.steps == [] and "No plan" in " ".join(explanation.proof)
        assert explanation.summary["grade"] == "unsolvable"
        assert explanation.summary["lower_bound"] is None
        return
    assert status in (Status.OPTIMAL, Status.SOLVED), explanation.text()
    tiles, total = puzzle.start, len(explanation.steps)
    for g, step in enumerate(explanation.steps, 1):
        data = step.data
        before, tiles = tiles, moved(puzzle, tiles, data["move"])
        assert step.rule == "move" and step.state == tiles
        assert data["tile"] == before[tiles.index(0)] and data["blank"] == tiles.index(0)
        assert (data["g"], data["remaining"]) == (g, total - g)
        truth = true_distance(puzzle, tiles) if exact else data["remaining"]
        assert truth is not None and data["h"] <= truth, f"h overestimates at step {g}"
        assert data["f"] == data["g"] + data["h"]
        if status is Status.OPTIMAL:
            assert data["remaining"] == truth
    assert tiles == puzzle.goal
    summary = explanation.summary
    assert summary["cost"] == total and summary["overestimates"] == []
    if status is Status.OPTIMAL:
        assert total == best and summary["lower_bound"] == best
        assert f"No plan is shorter than {best} move" in " ".join(explanation.proof)
    else:
        assert total >= best and "not proven optimal" in " ".join(explanation.proof)


def explained(
    puzzle: Puzzle, method: str | None, heuristic: str | None, **options: str
) -> Explanation:
    return tasks.explain(KIND, puzzle, request=Request(method, heuristic, options))


FAST = ((None, None), ("idastar", "linear-conflict"), ("bfs", None))
ALL = (
    *FAST,
    ("astar", "manhattan"),
    ("astar", "gaschnig"),
    ("idastar", "pdb"),
    ("tile-idastar", "pdb"),
    ("tile-idastar", "manhattan"),
    ("weighted-astar", "manhattan"),
    ("greedy", "linear-conflict"),
)


@given(cases())
@differential(15)
def test_explanations_replay_on_random_boards(puzzle: Puzzle) -> None:
    with _fresh_cache():
        for method, heuristic in FAST:
            replayed(explained(puzzle, method, heuristic), puzzle)


@pytest.mark.slow
@given(cases())
@differential(80)
def test_every_method_explains_random_boards(puzzle: Puzzle) -> None:
    with _fresh_cache():
        for method, heuristic in ALL:
            replayed(explained(puzzle, method, heuristic), puzzle)
        if (true_distance(puzzle, puzzle.start) or 99) <= 10:
            replayed(explained(puzzle, "iddfs", None), puzzle)


def reference(puzzle: Puzzle) -> int:
    """The optimum by the compiled IDA* with the Manhattan distance."""
    result = tasks.solve(KIND, puzzle, request=Request("tile-idastar", "manhattan"))
    assert result.status is Status.OPTIMAL
    return int(result.stats.cost)


def walk(rows: int, cols: int, length: int, seed: int) -> Puzzle:
    """A board ``length`` random moves of the blank from the goal."""
    rng = random.Random(seed)
    goal = Puzzle(rows, cols, tuple(range(rows * cols)))
    tiles = goal.goal
    for _ in range(length):
        options = []
        for move in BLANK_STEPS:
            try:
                options.append(moved(goal, tiles, move))
            except AssertionError:
                continue
        tiles = rng.choice(options)
    return Puzzle(rows, cols, tiles)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_fifteen_puzzles_replay(seed: int) -> None:
    puzzle = walk(4, 4, 30, seed)
    best = reference(puzzle)
    for method, heuristic in ((None, None), ("astar", "linear-conflict")):
        replayed(explained(puzzle, method, heuristic), puzzle, best)


@pytest.mark.parametrize("name", ["easy8.txt", "worst8.json", "small2x4.txt", "unsolvable8.json"])
def test_shipped_instances_replay(name: str) -> None:
    puzzle = KIND.read(INSTANCES / name)[0].puzzle
    replayed(explained(puzzle, None, None), puzzle)


def test_an_unsolvable_board_is_proven_by_parity() -> None:
    puzzle = KIND.read(INSTANCES / "unsolvable8.json")[0].puzzle
    explanation = explained(puzzle, None, None)
    assert explanation.result.status is Status.UNSOLVABLE
    assert "inversion" in explanation.proof[0] and explanation.summary["lower_bound"] is None


def test_json_lines_carry_the_documented_keys() -> None:
    puzzle = KIND.read(INSTANCES / "worst8.json")[0].puzzle
    explanation = explained(puzzle, None, None)
    records = [json.loads(line) for line in explanation.jsonl(KIND.encode).splitlines()]
    *steps, summary = records
    assert len(steps) == 31
    for number, record in enumerate(steps, 1):
        assert set(record) == STEP_KEYS and record["step"] == number
    facts = summary["explanation"]
    assert summary["type"] == "summary" and summary["status"] == "optimal"
    assert {"lower_bound", "cost", "grade", "expanded", "counts", "manhattan"} <= set(facts)
    assert facts["lower_bound"] == facts["cost"] == 31 and facts["grade"] == "expert"


def test_the_proof_counts_what_ida_star_expanded() -> None:
    puzzle = KIND.read(INSTANCES / "worst8.json")[0].puzzle
    explanation = explained(puzzle, "idastar", "manhattan")
    counts = explanation.summary["counts"]
    limits = [bound for bound, _ in counts]
    assert limits[0] == explanation.summary["h_start"] == 21 and limits[-1] == 31
    assert all(b - a == 2 for a, b in itertools.pairwise(limits))  # parity
    assert sum(n for _, n in counts) == explanation.result.stats.expanded


def test_the_compiled_method_counts_its_nodes_per_f_limit() -> None:
    puzzle = walk(4, 4, 16, 1)
    explanation = explained(puzzle, "tile-idastar", "manhattan")
    assert explanation.result.method == "tile-idastar"
    assert explanation.summary["per"] == "f-limit"
    counts = explanation.summary["counts"]
    limits = [bound for bound, _ in counts]
    assert limits[0] == explanation.summary["h_start"] and limits[-1] == reference(puzzle)
    assert all(b - a == 2 for a, b in itertools.pairwise(limits))  # parity
    assert sum(n for _, n in counts) == explanation.result.stats.expanded
    engine = explained(puzzle, "idastar", "manhattan").summary["counts"]
    assert [b for b, _ in engine] == limits
    assert counts[:-1] == engine[:-1]  # the iterations searched in full expand the same nodes
    replayed(explanation, puzzle, reference(puzzle))


def test_a_weighted_search_is_not_called_optimal() -> None:
    puzzle = KIND.read(INSTANCES / "worst8.json")[0].puzzle
    explanation = explained(puzzle, "tile-idastar", "manhattan", weight="2")
    replayed(explanation, puzzle)


def test_explain_keeps_within_the_time_limit() -> None:
    tiles = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # Korf's first, 57 moves
    puzzle = Puzzle(4, 4, tuple(int(t) for t in tiles.split()), tuple(range(16)))
    for method in (None, "astar"):
        explanation = tasks.explain(
            KIND, puzzle, request=Request(method), limits=Limits(time_limit=LIMIT)
        )
        result = explanation.result
        assert result.stats.seconds <= LIMIT + MARGIN
        if result.status is Status.LIMIT:
            assert explanation.steps == []
            assert "limit" in " ".join(explanation.proof).lower()
        else:  # the compiled search can finish Korf's first within the limit
            assert result.status is Status.OPTIMAL and len(explanation.steps) == 57
            replayed(explanation, puzzle, best=57)


def test_explain_keeps_within_the_node_limit() -> None:
    puzzle = KIND.read(INSTANCES / "worst8.json")[0].puzzle
    for method in ("astar", "idastar", "bfs"):
        explanation = tasks.explain(
            KIND, puzzle, request=Request(method), limits=Limits(max_nodes=5)
        )
        assert explanation.result.status is Status.LIMIT
        assert explanation.result.stats.expanded <= 5
        bound = explanation.summary["lower_bound"]
        assert bound is None or bound <= 31
        assert explanation.summary["grade"] is None  # a stopped run grades nothing
        assert "grade: not known (stopped at a limit)" in explanation.text()
        assert "grade: " not in explanation.text().replace("grade: not known", "")


def test_frames_draw_every_board() -> None:
    puzzle = KIND.read(INSTANCES / "worst8.json")[0].puzzle
    explanation = explained(puzzle, None, None)
    frames = explanation.frames()
    assert len(frames) == len(explanation.steps) + 1
    goal = tuple(str(t) if t else "" for t in puzzle.goal)
    assert tuple(t for row in frames[-1][1].texts for t in row) == goal
