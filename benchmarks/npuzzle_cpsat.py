"""Sliding tiles by CP-SAT's time-expanded model beside the searches, as tables in one run.

1. The 8-puzzle: the worst board (31 moves, ``instances/npuzzle/worst8.json``) and
   ``--boards`` random solvable boards (seeded, the goal ``1 2 ... 8`` then the blank), each
   solved by A* (the default method: the pattern database) and by ``cpsat`` (deepened from the
   Manhattan distance); both plans replayed and of one length, CP-SAT's proven optimal.
   Seconds per board (mean, median, largest) side by side, and CP-SAT's ratio to A*.
2. Korf's first ``--korf`` 15-puzzles (``tests/data/npuzzle/korf100.tsv``): the lower bound
   CP-SAT proves within ``--time-limit`` seconds each (the horizon after the last one proven
   infeasible, deepened from the Manhattan distance), beside the published optimum and the
   Manhattan distance, with the horizons decided and CP-SAT's conflicts.

Run from the repository root::

    python benchmarks/npuzzle_cpsat.py                         # 100 boards, 10 x 60 s
    python benchmarks/npuzzle_cpsat.py --boards 20 --korf 3 --time-limit 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from npuzzle import KORF100, tiles
from rich.console import Console
from rich.table import Table

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.npuzzle import kind
from cspsolve.models.npuzzle.board import Puzzle, check, korf_goal, solvability
from cspsolve.models.npuzzle.search import heuristic
from cspsolve.results import Result, Status

console = Console()
WORST = Path(__file__).resolve().parents[1] / "instances" / "npuzzle" / "worst8.json"


def eight_puzzles(count: int, seed: int) -> list[Puzzle]:
    """The worst 8-puzzle, then ``count`` random solvable ones."""
    [entry] = kind.KIND.read(WORST)
    boards = [entry.puzzle]
    rng = random.Random(seed)
    while len(boards) < count + 1:
        start = list(range(9))
        rng.shuffle(start)
        puzzle = Puzzle(3, 3, tuple(start))
        if solvability(puzzle)[0]:
            boards.append(puzzle)
    return boards


def solved(puzzle: Puzzle, method: str, limits: Limits | None = None) -> tuple[Result, float]:
    """The method's result (its plan checked) and its wall seconds."""
    began = time.perf_counter()
    result = tasks.solve(kind.KIND, puzzle, request=tasks.Request(method), limits=limits)
    seconds = time.perf_counter() - began
    if result.solution is not None:
        assert check(puzzle, result.solution) == [], (method, puzzle)
    return result, seconds


def eight(count: int, seed: int) -> None:
    boards = eight_puzzles(count, seed)
    solved(boards[1], "astar")  # A*'s database and imports, once, before the clock
    seconds: dict[str, list[float]] = {"astar": [], "cpsat": []}
    for k, puzzle in enumerate(boards):
        astar, a = solved(puzzle, "astar")
        cpsat, c = solved(puzzle, "cpsat")
        assert astar.status is cpsat.status is Status.OPTIMAL, (astar.status, cpsat.status)
        assert astar.stats.cost == cpsat.stats.cost, puzzle
        seconds["astar"].append(a)
        seconds["cpsat"].append(c)
        if k == 0:
            worst = (a, c, int(cpsat.stats.cost), cpsat.proof["infeasible"])
        if k % 20 == 0:
            console.print(f"  8-puzzle {k}/{len(boards) - 1}", style="dim")
    table = Table(title=f"The 8-puzzle: A* (pdb) and CP-SAT, seconds a board (seed {seed})")
    for name in ("boards", "method", "mean", "median", "max", "total", "CP-SAT / A*"):
        table.add_column(name, justify="right")
    a, c, moves, infeasible = worst
    table.add_row(f"worst ({moves} moves)", "astar", f"{a:.3f}", "", "", "", "")
    table.add_row("", "cpsat", f"{c:.3f}", "", "", "", f"{c / a:.0f}x")
    rest = {name: values[1:] for name, values in seconds.items()}
    for name, values in rest.items():
        ratio = sum(rest["cpsat"]) / sum(rest["astar"]) if name == "cpsat" else None
        table.add_row(
            f"{len(values)} random" if name == "astar" else "",
            name,
            f"{statistics.mean(values):.3f}",
            f"{statistics.median(values):.3f}",
            f"{max(values):.3f}",
            f"{sum(values):.1f}",
            "" if ratio is None else f"{ratio:.0f}x",
        )
    console.print(table)
    console.print(f"worst board: CP-SAT proved horizons {infeasible} infeasible")


def korf(count: int, time_limit: float) -> None:
    table = Table(title=f"Korf's 15-puzzles: the bound CP-SAT proves in {time_limit:g} s")
    for name in ("id", "optimum", "Manhattan", "bound", "infeasible", "status", "s", "conflicts"):
        table.add_column(name, justify="right")
    rows = KORF100.read_text(encoding="utf-8").splitlines()[1 : count + 1]
    for row in rows:
        ident, best, board = row.split("\t")
        puzzle = Puzzle(4, 4, tiles(board), korf_goal(16))
        manhattan = int(heuristic("manhattan", puzzle)(bytes(puzzle.start)))
        result, seconds = solved(puzzle, "cpsat", Limits(time_limit=time_limit))
        bound = result.proof["lower_bound"]
        assert bound <= int(best), (ident, bound, best)
        infeasible = result.proof["infeasible"]
        table.add_row(
            ident,
            best,
            str(manhattan),
            str(bound),
            f"{infeasible[0]}..{infeasible[-1]}" if infeasible else "",
            result.status.value,
            f"{seconds:.1f}",
            f"{result.stats.extra.get('conflicts', 0):,}",
        )
        console.print(f"  id {ident}: bound {bound} (optimum {best})", style="dim")
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100, help="random 8-puzzles")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random 8-puzzles")
    parser.add_argument("--korf", type=int, default=10, help="Korf's first N 15-puzzles")
    parser.add_argument("--time-limit", type=float, default=60, help="seconds a 15-puzzle")
    args = parser.parse_args()
    eight(args.boards, args.seed)
    korf(args.korf, args.time_limit)


if __name__ == "__main__":
    main()
