"""The 24-puzzle's IDA* split over worker processes: scaling, and what a cluster would need.

Korf & Felner's 24-puzzles (``tests/data/npuzzle/korf-felner50.tsv``) by the compiled IDA*
with the 6-6-6-6 databases (read from ``CSPSOLVE_CACHE``, built there first when missing), the
same search as ``cspsolve solve --method tile-idastar --partition 6-6-6-6 --workers N``.

1. Scaling (``--ids``, ``--workers``): each instance on each number of workers (1 is the
   one-core search, no pool), one at a time: status, length (replayed by the checker, equal to
   the published optimum), nodes expanded, search seconds (without getting the databases),
   speed-up over the first worker count and efficiency (speed-up / workers); then, from the
   nodes alone (whatever else loads the machine): the nodes against the first run's
   (``nodes/1``), and the balanced efficiency (``bal.eff.``): the first run's nodes / workers
   over the nodes above the split plus, per iteration, the busiest worker's when the measured
   subtrees go largest first to the least loaded worker.
2. ``--estimate ID``: one instance the budget cannot finish, split into ``--subtrees`` subtrees
   (the split of a ``--cluster``-worker cluster at 16 a worker) and refined after each
   iteration as for the cluster, searched on ``--workers`` processes for ``--budget`` seconds.
   For each complete iteration: its bound, nodes expanded,
   the growth over the previous one, and the share of its largest subtree. Then the estimate
   for the published optimum: the growth ratio of the last complete iterations (their
   geometric mean) carried from the last complete bound to the optimum, the nodes of every
   iteration still to do (the last one searched in full: an upper figure), and their makespan
   on the cluster at the measured nodes per second and worker (``--rate``: another speed,
   e.g. a quiet machine's): each iteration takes at least
   its nodes / workers, and at least its largest subtree (the share measured in the last
   complete iteration).

Run from the repository root::

    python benchmarks/npuzzle_parallel.py --ids 38,40,32 --workers 1,2
    python benchmarks/npuzzle_parallel.py --estimate 20 --budget 300 --workers 2
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import time

from npuzzle import KORF_FELNER, tiles
from rich.console import Console
from rich.table import Table

console = Console(width=150)


def instances() -> dict[str, tuple[int, tuple[int, ...]]]:
    """Korf & Felner's 50 by id: (published optimum, tiles with Korf's goal)."""
    with KORF_FELNER.open(encoding="utf-8") as f:
        return {
            r["id"]: (int(r["optimal_length"]), tiles(r["tiles_goal_blank_first"]))
            for r in csv.DictReader(f, delimiter="\t")
        }


def load() -> str:
    """The load averages of the machine, as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def balanced(sizes: dict[int, list[int]], workers: int) -> int:
    """Nodes on the busiest worker, summed over the iterations, when each iteration's subtrees
    (their measured sizes) go largest first to the least loaded worker: the search's length
    in nodes on ``workers`` equal cores, whatever else loads this machine."""
    total = 0
    for counts in sizes.values():
        loads = [0] * workers
        for n in sorted(counts, reverse=True):
            loads[loads.index(min(loads))] += n
        total += max(loads)
    return total


def scaling(ids: list[str], workers: list[int], time_limit: float) -> None:
    """Each instance on each number of workers; a row as each finishes."""
    from cspsolve.limits import Limits
    from cspsolve.models.npuzzle import tile_idastar
    from cspsolve.models.npuzzle.board import Puzzle, check, korf_goal

    table = Table(title=f"24-puzzle IDA* + 6-6-6-6 on N workers ({load()} at the start)")
    for name in (
        "id",
        "optimal",
        "workers",
        "status",
        "length",
        "expanded",
        "s",
        "speed-up",
        "eff.",
        "nodes/1",
        "bal.eff.",
    ):
        table.add_column(name, justify="right")
    known = instances()
    for ident in ids:
        best, tiles = known[ident]
        puzzle = Puzzle(5, 5, tiles, korf_goal(25))
        first: float | None = None
        serial: int | None = None
        for n in workers:
            limits = Limits(time_limit=time_limit, workers=n)
            sizes: dict[int, list[int]] = {}
            result = tile_idastar.solve(
                puzzle, "pdb", limits=limits, partition="6-6-6-6", subtrees=sizes
            )
            s = result.stats
            seconds = s.seconds - s.extra.get("database_seconds", 0.0)
            length = ""
            if result.solution is not None:
                assert check(puzzle, result.solution) == [], ident
                assert len(result.solution) == best, ident
                length = str(len(result.solution))
            first = seconds if first is None else first
            serial = s.expanded if serial is None else serial
            speedup = first / seconds
            above = s.expanded - sum(map(sum, sizes.values()))
            balance = f"{serial / n / (above + balanced(sizes, n)):.2f}" if sizes else ""
            table.add_row(
                ident,
                str(best),
                str(n),
                result.status.value,
                length,
                f"{s.expanded:,}",
                f"{seconds:.1f}",
                f"{speedup:.2f}",
                f"{speedup * workers[0] / n:.2f}",
                f"{s.expanded / serial:.2f}",
                balance,
            )
            console.print(f"id {ident} on {n}: {result.status.value} {seconds:.1f} s ({load()})")
    console.print(table)


def estimate(
    ident: str, workers: int, budget: float, subtrees: int, cluster: int, speed: float | None
) -> None:
    """Measure the iterations of one instance within ``budget`` and extrapolate to its optimum."""
    from cspsolve.limits import Limits
    from cspsolve.models.npuzzle import tile_idastar
    from cspsolve.models.npuzzle.board import Puzzle, korf_goal
    from cspsolve.models.npuzzle.tile_idastar import split

    best, tiles = instances()[ident]
    puzzle = Puzzle(5, 5, tiles, korf_goal(25))
    split.SUBTREES_PER_WORKER = math.ceil(subtrees / workers)
    split.REFINE = split.REFINE * cluster // workers  # subtrees refined as for the cluster
    tally: dict[float, int] = {}
    sizes: dict[int, list[int]] = {}
    started = time.perf_counter()
    result = tile_idastar.solve(
        puzzle,
        "pdb",
        limits=Limits(time_limit=budget, workers=workers),
        partition="6-6-6-6",
        tally=tally,
        subtrees=sizes,
    )
    wall = time.perf_counter() - started
    s = result.stats
    searched = s.seconds - s.extra.get("database_seconds", 0.0)
    measured = s.expanded / searched / workers
    rate = speed or measured
    complete = sorted(tally)[:-1] if result.solution is None else sorted(tally)
    table = Table(
        title=f"24-puzzle {ident} (optimum {best}, h0 {s.extra['initial_h']}): "
        f"{s.extra['subtrees']} subtrees at depth {s.extra['split_depth']}, {workers} workers, "
        f"{searched:.0f} s, {measured / 1e6:.1f} M nodes/s a worker ({load()})"
    )
    for name in ("bound", "expanded", "growth", "largest subtree", "share"):
        table.add_column(name, justify="right")
    growths = []
    for k, bound in enumerate(complete):
        largest = max(sizes.get(int(bound), [0]))
        growth = ""
        if k > 0:
            growths.append(tally[bound] / tally[complete[k - 1]])
            growth = f"{growths[-1]:.2f}"
        share = largest / tally[bound]
        table.add_row(f"{bound:g}", f"{tally[bound]:,}", growth, f"{largest:,}", f"{share:.3f}")
    console.print(table)
    console.print(f"status {result.status.value} after {wall:.0f} s")
    if len(growths) < 2 or result.solution is not None:
        console.print("too few complete iterations to extrapolate (or solved)")
        return
    last = complete[-1]
    ratio = math.prod(growths[-2:]) ** (1 / 2)
    steps = round((best - last) / 2)
    iterations = [tally[last] * ratio**i for i in range(1, steps + 1)]
    share = max(sizes[int(last)]) / tally[last]
    makespan = sum(max(n / cluster, share * n) for n in iterations) / rate
    console.print(
        f"growth per iteration (geometric mean of the last 2): {ratio:.2f}; "
        f"{steps} iterations from bound {last:g} to {best}: "
        f"{sum(iterations):.3g} nodes (the last {iterations[-1]:.3g}); "
        f"on {cluster} workers at {rate / 1e6:.1f} M nodes/s each, largest subtree share "
        f"{share:.3f}: makespan {makespan:,.0f} s ({makespan / 3600:.1f} h); "
        f"perfect balance {sum(iterations) / cluster / rate:,.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="38,40,32", help="instances to scale (comma-separated)")
    parser.add_argument("--workers", default="1,2", help="worker counts (comma-separated)")
    parser.add_argument("--time-limit", type=float, default=600, help="seconds a run")
    parser.add_argument("--estimate", help="an open instance's id: measure and extrapolate")
    parser.add_argument("--budget", type=float, default=300, help="--estimate: seconds")
    parser.add_argument("--subtrees", type=int, default=512, help="--estimate: split into")
    parser.add_argument("--cluster", type=int, default=32, help="--estimate: cluster workers")
    parser.add_argument("--rate", type=float, help="--estimate: nodes/s a worker (else measured)")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    if args.estimate:
        estimate(args.estimate, counts[-1], args.budget, args.subtrees, args.cluster, args.rate)
    else:
        scaling(args.ids.split(","), counts, args.time_limit)


if __name__ == "__main__":
    main()
