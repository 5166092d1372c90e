"""``tile-idastar`` split over processes (``Limits.workers``, ``Limits.scheduler``) against the
one-core run and an oracle written here.

The oracle is a breadth-first search from both ends (start and goal) that meets in the middle,
on boards a few dozen moves from the goal, and the whole-graph table of
:mod:`.differential` on the 8-puzzle's unsolvable boards. Each case runs on 2 workers and on
one core: the same status and optimal length, a plan that replays to the goal, and a tally per
f-limit that adds up to the nodes expanded. The limits: a time limit on a hard 24-puzzle (in
the search, and while building or after reading the databases) and a node limit are honoured
with all processes counted; cancelling from another thread stops the run within a task's
slice. The same search on a Dask ``LocalCluster`` of 2 workers gives the one-core answers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.npuzzle import kind, tile_idastar
from cspsolve.models.npuzzle.board import Puzzle, korf_goal
from cspsolve.models.npuzzle.pdb import PatternDatabases, partition
from cspsolve.results import Result, Status
from cspsolve.tasks import Request

from .differential import optimum, replay
from .differential import scrambled as scrambled_tiles

DATA = Path(__file__).resolve().parents[2] / "data" / "npuzzle"
SLACK = 0.5


def scrambled(rows: int, cols: int, moves: int, seed: int) -> Puzzle:
    """:func:`.differential.scrambled` as a puzzle."""
    return Puzzle(rows, cols, tuple(scrambled_tiles(rows, cols, moves, seed)))


def swapped(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with two tiles exchanged: the other parity class, unsolvable."""
    board = list(puzzle.start)
    a, b = [i for i, t in enumerate(board) if t][:2]
    board[a], board[b] = board[b], board[a]
    return Puzzle(puzzle.rows, puzzle.cols, tuple(board))


def meet_in_the_middle(puzzle: Puzzle) -> int:
    """The fewest moves from start to goal: breadth-first from both ends, a level at a time
    from the smaller side, until they meet (the board must be solvable)."""
    cols = puzzle.cols

    def successors(board: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        blank = board.index(0)
        r, c = divmod(blank, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < puzzle.rows and 0 <= c + dc < cols:
                cell = (r + dr) * cols + c + dc
                nxt = list(board)
                nxt[blank], nxt[cell] = board[cell], 0
                yield tuple(nxt)

    sides = [{puzzle.start: 0}, {puzzle.goal: 0}]
    fronts = [[puzzle.start], [puzzle.goal]]
    if puzzle.start == puzzle.goal:
        return 0
    while True:
        k = 0 if len(fronts[0]) <= len(fronts[1]) else 1
        seen, other = sides[k], sides[1 - k]
        grown = []
        best = None
        for board in fronts[k]:
            for nxt in successors(board):
                if nxt in other:
                    total = seen[board] + 1 + other[nxt]
                    best = total if best is None else min(best, total)
                if nxt not in seen:
                    seen[nxt] = seen[board] + 1
                    grown.append(nxt)
        if best is not None:
            return best
        fronts[k] = grown


def solve(puzzle: Puzzle, heuristic: str = "pdb", **limits: object) -> Result[list[str]]:
    request = Request("tile-idastar", heuristic)
    return tasks.solve(kind.KIND, puzzle, request=request, limits=Limits(**limits))  # type: ignore[arg-type]


CASES = [
    *(scrambled(3, 3, moves, seed) for moves, seed in ((30, 1), (60, 2), (90, 3), (200, 4))),
    *(scrambled(4, 4, moves, seed) for moves, seed in ((24, 5), (30, 6), (36, 7))),
    scrambled(3, 4, 40, 8),
    scrambled(4, 3, 40, 9),
    scrambled(2, 5, 60, 10),
    scrambled(2, 2, 7, 11),
]


RUNS = [
    *((puzzle, "manhattan", None) for puzzle in CASES),
    *((puzzle, "pdb", None) for puzzle in CASES[:4]),
    *((puzzle, "pdb", "5-5-5") for puzzle in CASES[4:7]),
]
"""(board, heuristic, partition): the databases of the 8-puzzle (built in a moment) and the
small 5-5-5 ones of the 15-puzzle."""


@pytest.mark.parametrize(
    ("puzzle", "heuristic", "chosen"),
    RUNS,
    ids=lambda x: f"{x.rows}x{x.cols}" if isinstance(x, Puzzle) else str(x),
)
def test_two_workers_find_the_optimum_of_one_core_and_the_oracle(
    puzzle: Puzzle, heuristic: str, chosen: str | None
) -> None:
    best = meet_in_the_middle(puzzle)
    tally: dict[float, int] = {}
    split = tile_idastar.solve(
        puzzle, heuristic, limits=Limits(workers=2), partition=chosen, tally=tally
    )
    serial: dict[float, int] = {}
    one = tile_idastar.solve(puzzle, heuristic, partition=chosen, tally=serial)
    assert one.status == split.status == Status.OPTIMAL
    assert split.solution is not None
    assert replay(puzzle, split.solution) is None
    assert len(split.solution) == len(one.solution or []) == best == split.stats.cost
    assert sum(tally.values()) == split.stats.expanded > 0
    if "subtrees" in split.stats.extra:  # else the plan was found above the split
        assert list(tally) == list(serial)  # the same f-limits, in the same order
    assert max(tally) == best


def test_the_split_search_really_runs_tasks() -> None:
    """The cases above are deeper than the split: the subtrees are searched as tasks."""
    split = solve(CASES[6], "manhattan", workers=2)
    assert split.stats.extra["subtrees"] >= 32
    assert split.stats.extra["iterations"] >= 2


@pytest.mark.parametrize("seed", range(3))
def test_unsolvable_boards_are_unsolvable_on_two_workers(seed: int) -> None:
    puzzle = swapped(scrambled(3, 3, 40, seed))
    assert optimum(puzzle) is None
    assert solve(puzzle, workers=2).status == Status.UNSOLVABLE == solve(puzzle).status
    big = swapped(scrambled(4, 4, 40, seed))
    assert solve(big, workers=2).status == Status.UNSOLVABLE


def test_weighted_search_on_two_workers_keeps_its_bound() -> None:
    puzzle = CASES[6]
    best = meet_in_the_middle(puzzle)
    result = tile_idastar.solve(puzzle, "manhattan", limits=Limits(workers=2), weight=2)
    assert result.status == Status.SOLVED and result.solution is not None
    assert replay(puzzle, result.solution) is None
    assert best <= len(result.solution) <= 2 * best
    assert result.proof["lower_bound"] <= best


def test_the_explained_proof_holds_on_two_workers() -> None:
    puzzle = CASES[6]
    best = meet_in_the_middle(puzzle)
    request = Request("tile-idastar", "manhattan")
    explanation = tasks.explain(kind.KIND, puzzle, request=request, limits=Limits(workers=2))
    serial = tasks.explain(kind.KIND, puzzle, request=request)
    counts = explanation.summary["counts"]
    assert [b for b, _ in counts] == [b for b, _ in serial.summary["counts"]]
    assert counts[-1][0] == best
    assert sum(n for _, n in counts) == explanation.result.stats.expanded
    assert f"No plan is shorter than {best} moves" in " ".join(explanation.proof)
    assert len(explanation.steps) == best


def hardest_24() -> Puzzle:
    """Korf & Felner's instance with the longest optimal plan (no plan within seconds)."""
    rows = [line.split("\t") for line in (DATA / "korf-felner50.tsv").read_text().splitlines()]
    row = max(rows[1:], key=lambda r: int(r[1]))
    return Puzzle(5, 5, tuple(map(int, row[2].split())), korf_goal(25))


def test_time_limit_in_the_search_counts_the_workers() -> None:
    started = time.perf_counter()
    result = solve(hardest_24(), "manhattan", time_limit=1.0, workers=2)
    wall = time.perf_counter() - started
    assert result.status == Status.LIMIT and result.solution is None
    assert result.stats.seconds <= 1.0 + SLACK
    assert wall <= 1.0 + SLACK + 0.2  # the pool is gone within the run's own time


def test_time_limit_from_a_cold_then_a_warm_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cold: the 24-puzzle's databases are being built when the limit comes. Warm: the
    15-puzzle's 5-5-5 databases, read from the cache, then the search on both workers."""
    monkeypatch.setenv("CSPSOLVE_CACHE", str(tmp_path))
    cold = solve(hardest_24(), time_limit=1.0, workers=2)
    assert cold.status == Status.LIMIT and cold.stats.seconds <= 1.0 + SLACK
    row = (DATA / "korf100.tsv").read_text().splitlines()[60].split("\t")  # 66 moves, 40 M nodes
    fifteen = Puzzle(4, 4, tuple(map(int, row[2].split())), korf_goal(16))
    PatternDatabases.for_puzzle(fifteen, chosen=partition(fifteen, "5-5-5"))
    warm = tile_idastar.solve(fifteen, limits=Limits(time_limit=1.0, workers=2), partition="5-5-5")
    assert warm.stats.seconds <= 1.0 + SLACK
    assert warm.status == Status.LIMIT or len(warm.solution or []) == int(row[1]) == 66


def test_a_node_limit_counts_every_process() -> None:
    result = solve(hardest_24(), "manhattan", max_nodes=300_000, workers=2)
    assert result.status == Status.LIMIT
    assert result.stats.expanded >= 300_000


def test_cancelling_from_another_thread_stops_the_workers_promptly() -> None:
    cancel = threading.Event()
    fired: list[float] = []

    def fire() -> None:
        fired.append(time.perf_counter())
        cancel.set()

    timer = threading.Timer(0.5, fire)
    timer.start()
    try:
        result = solve(hardest_24(), "manhattan", cancel=cancel, workers=2)
        returned = time.perf_counter()
    finally:
        timer.cancel()
    assert result.status == Status.CANCELLED and result.solution is None
    assert returned - fired[0] <= SLACK


@pytest.mark.parametrize("puzzle", [CASES[2], CASES[5], CASES[7]], ids=lambda p: str(p.cells))
def test_a_dask_cluster_gives_the_one_core_answer(dask_scheduler: str, puzzle: Puzzle) -> None:
    one = solve(puzzle)
    spread = solve(puzzle, workers=2, scheduler=dask_scheduler)
    assert spread.status == one.status == Status.OPTIMAL
    assert spread.solution is not None and replay(puzzle, spread.solution) is None
    assert len(spread.solution) == len(one.solution or [])
    assert spread.stats.extra["subtrees"] >= 32
