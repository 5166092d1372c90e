"""Rush Hour timings on ``../shared/data/rushhour`` (see its README.md), competitors side by side.

Tables, all in one run (targets in docs/benchmarks.md):

1. the 80 ThinkFun cards solved optimally (moves): the compiled cluster BFS (``--method bfs``,
   target <= 0.5 s total) against the generic engine's A* (``blockers`` heuristic) and BFS in
   plain Python;
2. database puzzles, optimum + cluster size per puzzle (target <= 5 ms each): the compiled
   whole-cluster BFS plus the multi-source BFS back from the goals, against a plain-Python
   whole-cluster BFS on the engine's state representation (on the first ``--python-db``
   puzzles only);
3. CP-SAT proof time per card: "no plan in T - 1" and "a plan in T" for the first
   ``--cpsat-cards`` original cards;
4. the course boards of ``uva_boards`` (the 9x9 included): compiled BFS vs engine A*;
5. large boards in the course CSV format (``--parts large``: the 9x9 course board and our
   generated 9x9 and 12x12 boards of ``tests/data/rushhour/large.tsv``; ``--boards`` picks some
   by file stem): every method of ``--methods`` (``bfida/union``: a method with its heuristic)
   in a fresh ``cspsolve solve`` process under ``/usr/bin/time``, side by side: wall-clock
   seconds, peak resident memory, and the answer (optimal moves; or a plan of beam search
   beside the proven lower bound, "plan U, >= L"; or the proven lower bound alone);
6. ``--parts anytime``: the ``anytime`` method on the 12x12 boards of ``large.tsv`` (or
   ``--boards``) with ``--large-limit`` seconds, for each count of ``--workers``: seconds to
   the first plan, the best plan, the proven lower bound, the status and the run's seconds.

Every optimum is compared with the published value and every plan is replayed by the
independent ``board.check``; mismatches are counted (they must be 0). The numba kernels are
compiled (or loaded from cache) once before timing; that time is printed separately.

Run from the repository root::

    python benchmarks/rushhour.py
    python benchmarks/rushhour.py --cpsat-cards 40 --python-db 500
    python benchmarks/rushhour.py --parts large --methods bfida,bfida/union,bfs --large-limit 60
    python benchmarks/rushhour.py --parts large --boards jammed9x9_26_s2,Rushhour9x9_4
    python benchmarks/rushhour.py --parts anytime --workers 1,2 --large-limit 60
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cspsolve import search as engine
from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.rushhour import Board, RushHourProblem, check, heuristic, parse, read
from cspsolve.models.rushhour import kind as rushhour
from cspsolve.models.rushhour.cluster import explore, goal_distances
from cspsolve.models.rushhour.cpsat import plan_within
from cspsolve.tasks import Request

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "rushhour"
OURS = Path(__file__).resolve().parents[1] / "tests" / "data" / "rushhour"


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _timed(call: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def _cards() -> list[tuple[str, Board, int]]:
    rows = _rows("thinkfun_original40.tsv") + _rows("thinkfun_later_edition40.tsv")
    return [
        (r["card"], parse(r["board"], fmt="string")[0].puzzle, int(r["optimal_moves"]))
        for r in rows
    ]


def _solver_runs(limit: float) -> dict[str, Callable[[Board], Any]]:
    def engine_astar(board: Board) -> Any:
        problem = RushHourProblem(board)
        return engine.astar(
            problem, heuristic("blockers", problem), limits=Limits(time_limit=limit)
        )

    def engine_bfs(board: Board) -> Any:
        return engine.bfs(RushHourProblem(board), limits=Limits(time_limit=limit))

    return {
        "compiled bfs": lambda b: tasks.solve(
            rushhour.KIND, b, request=Request(), limits=Limits(time_limit=limit)
        ),
        "engine astar (blockers)": engine_astar,
        "engine bfs": engine_bfs,
    }


def cards_table(limit: float) -> Table:
    """Table 1: every card by every solver."""
    cards = _cards()
    table = Table(title="80 ThinkFun cards, optimal moves (target: compiled bfs <= 0.5 s)")
    for name in ("solver", "total s", "median ms", "worst ms", "x compiled", "wrong"):
        table.add_column(name, justify="left" if name == "solver" else "right")
    base = None
    for solver, run in _solver_runs(limit).items():
        times, wrong = [], 0
        for _, board, optimum in cards:
            result, seconds = _timed(lambda b=board, r=run: r(b))  # type: ignore[misc]
            times.append(seconds)
            plan = result.solution
            if plan is None or len(plan) != optimum or check(board, plan):
                wrong += 1
        total = sum(times)
        base = base or total
        table.add_row(
            solver,
            f"{total:.3f}",
            f"{1000 * statistics.median(times):.2f}",
            f"{1000 * max(times):.1f}",
            f"{total / base:.1f}",
            str(wrong),
        )
    return table


def _python_cluster(board: Board) -> int:
    """Plain-Python whole-cluster BFS over the engine's state tuples (the competitor)."""
    problem = RushHourProblem(board)
    seen = {problem.initial}
    queue = deque([problem.initial])
    while queue:
        for _, nxt, _ in problem.successors(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen)


def database_table(python_db: int) -> Table:
    """Table 2: optimum + cluster size per database puzzle."""
    entries = read(DATA / "db_sample.txt")

    def compiled(board: Board) -> tuple[int, int]:
        cluster, _, _ = explore(board, stop_at_goal=False)
        assert cluster is not None
        return int(goal_distances(cluster)[0]), cluster.size

    table = Table(title="database sample: optimum + cluster size per puzzle (target <= 5 ms)")
    for name in ("solver", "puzzles", "mean ms", "median ms", "worst ms", "x compiled", "wrong"):
        table.add_column(name, justify="left" if name == "solver" else "right")
    base_mean = None
    for solver, run, subset in (
        ("compiled cluster bfs", compiled, entries),
        ("plain Python cluster bfs", lambda b: (None, _python_cluster(b)), entries[:python_db]),
    ):
        times, wrong = [], 0
        compiled_on_subset = []
        for entry in subset:
            found, seconds = _timed(lambda b=entry.puzzle, r=run: r(b))  # type: ignore[misc]
            times.append(seconds)
            moves, size = found
            wrong += size != entry.cluster_size or moves not in (None, entry.optimal_moves)
            if base_mean is not None:
                compiled_on_subset.append(_timed(lambda b=entry.puzzle: compiled(b))[1])  # type: ignore[misc]
        mean = statistics.mean(times)
        ratio = mean / statistics.mean(compiled_on_subset) if compiled_on_subset else 1.0
        base_mean = base_mean or mean
        table.add_row(
            solver,
            str(len(subset)),
            f"{1000 * mean:.2f}",
            f"{1000 * statistics.median(times):.2f}",
            f"{1000 * max(times):.1f}",
            f"{ratio:.1f}",
            str(wrong),
        )
    return table


def cpsat_table(count: int) -> Table:
    """Table 3: CP-SAT's proof of each card's optimum."""
    rows = _rows("thinkfun_original40.tsv")[:count]
    table = Table(title=f"CP-SAT proof per card (first {count} original cards)")
    for name in ("card", "moves", "no plan in T-1 (s)", "plan in T (s)", "bound = optimum"):
        table.add_column(name, justify="left" if name == "card" else "right")
    below_times, at_times = [], []
    for row in rows:
        board = parse(row["board"], fmt="string")[0].puzzle
        optimum = int(row["optimal_moves"])
        below = plan_within(board, optimum - 1)
        at = plan_within(board, optimum)
        ok = below.status == "infeasible" and at.plan is not None and not check(board, at.plan)
        below_times.append(below.seconds)
        at_times.append(at.seconds)
        table.add_row(
            row["card"], str(optimum), f"{below.seconds:.2f}", f"{at.seconds:.2f}", str(ok)
        )
    table.add_row(
        "median", "", f"{statistics.median(below_times):.2f}", f"{statistics.median(at_times):.2f}"
    )
    return table


def boards_table(limit: float) -> Table:
    """Table 4: the course boards (6x6 and 9x9)."""
    table = Table(title="course boards (uva_boards)")
    for name in ("board", "size", "optimum", "compiled bfs s", "states", "engine astar s"):
        table.add_column(name, justify="left" if name == "board" else "right")
    for row in _rows("uva_boards/expected.tsv"):
        board = read(DATA / "uva_boards" / row["board_file"])[0].puzzle
        result, seconds = _timed(lambda b=board: tasks.solve(rushhour.KIND, b, request=Request()))  # type: ignore[misc]
        assert result.stats.cost == int(row["optimal_moves"])
        assert not check(board, result.solution)
        problem = RushHourProblem(board)
        h = heuristic("blockers", problem)
        other, other_s = _timed(
            lambda p=problem, h=h: engine.astar(p, h, limits=Limits(time_limit=limit))  # type: ignore[misc]
        )
        shown = f"{other_s:.2f}" if other.solution is not None else f">{limit:g} (limit)"
        table.add_row(
            row["board_file"],
            f"{board.size}x{board.size}",
            row["optimal_moves"],
            f"{seconds:.3f}",
            f"{result.stats.expanded:,}",
            shown,
        )
    return table


def _large_boards() -> list[tuple[str, Path, int | None]]:
    """(name, file, optimal moves or None) of table 5."""
    boards: list[tuple[str, Path, int | None]] = []
    course = DATA / "uva_boards" / "Rushhour9x9_4.csv"
    if course.exists():
        boards.append(("Rushhour9x9_4 (course)", course, 27))
    with (OURS / "large.tsv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            optimum = row["optimal_moves"]
            boards.append((row["board_file"], OURS / row["board_file"], int(optimum or 0) or None))
    return boards


def _measured(path: Path, method: str, limit: float) -> tuple[str, float, float]:
    """(answer, wall seconds, peak MB) of one ``cspsolve solve`` run under /usr/bin/time;
    ``method`` is a method name or ``method/heuristic``."""
    name, _, heuristic = method.partition("/")
    command = [
        "/usr/bin/time", "-f", "%e %M", sys.executable, "-c",
        "from cspsolve.cli import main; main()", "solve",
        str(path), "--method", name, "--format", "json", "--time-limit", str(limit),
        *(["--heuristic", heuristic] if heuristic else []),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds, kilobytes = done.stderr.strip().splitlines()[-1].split()
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        answer = "refused" if done.returncode == 2 else f"exit {done.returncode}"
        return answer, float(seconds), int(kilobytes) / 1024
    out = json.loads(lines[-1])
    board = read(path)[0].puzzle
    plan = out["solution"]
    if plan is not None:
        from cspsolve.models.rushhour import Move

        assert not check(board, [Move.parse(m) for m in plan["moves"]]), (path, method)
    bound = out["proof"].get("lower_bound")
    if out["status"] == "optimal":
        answer = f"{plan['count']}"
    elif plan is not None:
        answer = f"plan {plan['count']}, >= {bound}"
    else:
        answer = out["status"] + (f", >= {bound}" if bound is not None else "")
    return answer, float(seconds), int(kilobytes) / 1024


def large_table(methods: list[str], limit: float, only: set[str] | None = None) -> Table:
    """Table 5: large boards (those whose file stem is in ``only``, if given), every method in
    its own process."""
    table = Table(title=f"large boards: seconds / peak MB / answer ({limit:g} s limit a run)")
    for name in ("board", "pieces", "optimum", *methods):
        table.add_column(name, justify="left" if name == "board" else "right")
    for name, path, optimum in _large_boards():
        if only is not None and path.stem not in only:
            continue
        board = read(path)[0].puzzle
        cells = []
        for method in methods:
            answer, seconds, megabytes = _measured(path, method, limit)
            if optimum is not None and answer.isdigit():
                assert int(answer) == optimum, (name, method, answer)
            cells.append(f"{seconds:.2f} s / {megabytes:,.0f} MB / {answer}")
        size = f"{board.size}x{board.size}"
        table.add_row(f"{name} ({size})", str(len(board.pieces)), str(optimum or "?"), *cells)
    return table


def anytime_table(workers: list[int], limit: float, only: set[str] | None = None) -> Table:
    """Table 6: ``anytime`` on the 12x12 boards (those whose file stem is in ``only``, if
    given), once for each count of ``workers``; every plan replayed by ``board.check``."""
    table = Table(title=f"anytime, {limit:g} s limit a run")
    for name in ("board", "workers", "first plan", "plan", "lower bound", "status", "seconds"):
        table.add_column(name, justify="left" if name == "board" else "right", no_wrap=True)
    for name, path, _ in _large_boards():
        board = read(path)[0].puzzle
        if board.size != 12 or (only is not None and path.stem not in only):
            continue
        for count in workers:
            limits = Limits(time_limit=limit, workers=count)
            result = tasks.solve(rushhour.KIND, board, request=Request("anytime"), limits=limits)
            plan = result.solution
            assert plan is None or not check(board, plan), (name, count)
            first = result.stats.extra.get("first_plan_seconds")
            table.add_row(
                name,
                str(count),
                "-" if first is None else f"{first:.1f} s",
                "-" if plan is None else str(len(plan)),
                str(result.proof.get("lower_bound", "-")),
                str(result.status),
                f"{result.stats.seconds:.2f}",
            )
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpsat-cards", type=int, default=12, help="cards for table 3")
    parser.add_argument("--python-db", type=int, default=300, help="db puzzles, plain Python")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per engine run")
    parser.add_argument("--parts", default="cards,database,cpsat,boards,large")
    parser.add_argument(
        "--methods",
        default="bfida,bfs,astar",
        help="table 5's methods (METHOD or METHOD/HEURISTIC)",
    )
    parser.add_argument("--large-limit", type=float, default=60.0, help="per run of table 5")
    parser.add_argument(
        "--boards", help="table 5's boards only (file stems, comma-separated), e.g. jammed9x9_26_s2"
    )
    parser.add_argument("--workers", default="1,2", help="table 6's counts of workers")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    console = Console()
    only = set(args.boards.split(",")) if args.boards else None
    if "anytime" in parts:
        workers = [int(count) for count in args.workers.split(",")]
        console.print(anytime_table(workers, args.large_limit, only))
    if "large" in parts:
        console.print(large_table(args.methods.split(","), args.large_limit, only))
    if not parts - {"large", "anytime"}:
        return
    _, warm = _timed(lambda: explore(_cards()[0][1]))
    console.print(f"numba kernels compiled or loaded from cache in {warm:.2f} s (not counted)")
    if "cards" in parts:
        console.print(cards_table(args.time_limit))
    if "database" in parts:
        console.print(database_table(args.python_db))
    if "cpsat" in parts:
        console.print(cpsat_table(args.cpsat_cards))
    if "boards" in parts:
        console.print(boards_table(args.time_limit))


if __name__ == "__main__":
    main()
