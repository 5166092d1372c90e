"""Sliding-tile benchmarks (targets in docs/benchmarks.md), in one run, printed as tables.

1. Pattern databases: the 6-6-3 databases of the 15-puzzle built from an empty cache (a fresh
   temporary ``CSPSOLVE_CACHE`` unless ``--keep-cache``; the two large ones at the same time,
   as a solve builds them), and numba's start-up (loading or compiling the kernels) measured
   apart.
2. ``korf15_sample20.tsv``: every instance solved optimally by the compiled IDA* with the 6-6-3
   databases, and by the compiled IDA* with the Manhattan distance (``--manhattan``; slow), side
   by side: length (checked against the published optimum, plan replayed), nodes generated,
   seconds. The sample holds every 5th instance of Korf's 100 by difficulty, so 5 x its total
   estimates the 100 (reported as an estimate, with the build time added once).
3. All 100 of Korf's 15-puzzles (``tests/data/npuzzle/korf100.tsv``, Korf 1985) in one process
   by the default method (``tasks.solve``: the compiled IDA* with the 6-6-3 databases), first
   with an empty ``CSPSOLVE_CACHE`` (a fresh temporary folder: the databases are built by the
   first solve and counted), then again with that cache filled; every plan replayed by the
   checker and its length equal to the published optimum. Total, database and slowest seconds,
   nodes expanded and generated; numba's start-up is measured before, apart.
4. The 8-puzzle: every board of ``eight_puzzle.tsv`` by the default method (A* + the exact
   database) and by the compiled IDA* + Manhattan; the worst time of each.
5. The engine: A* + Manhattan through the generic ``SearchProblem`` on the 31-move 8-puzzles,
   beside A* + linear conflict and IDA* + Manhattan through the same engine.

6. ``--only korf-felner`` (not in the default run: hours): Korf & Felner's 50 24-puzzles
   (``tests/data/npuzzle/korf-felner50.tsv``, 2002). First the 6-6-6-6 databases (read from the
   user's cache, or built and cached there when missing; ``--cold`` builds them in a fresh
   folder): seconds, entries, bytes, and the process's peak memory. Then ``--count`` instances,
   easiest first (by optimal length, then id; ``--ids`` picks them instead), each by the
   compiled IDA* with the 6-6-6-6 databases and their reflection, ``--time-limit`` seconds each
   (default 600): status, length (checked against the published optimum, plan replayed), start
   value, nodes, seconds, nodes per second; a line is printed as each finishes. ``--weight W``
   runs weighted IDA* instead and checks each plan against ``W`` times the optimum.

Run from the repository root (needs ``../shared/data/npuzzle``, except ``--only korf100`` and
``--only korf-felner``)::

    python benchmarks/npuzzle.py
    python benchmarks/npuzzle.py --manhattan     # adds Manhattan IDA* on the 15-puzzles
    python benchmarks/npuzzle.py --only korf100  # part 3 alone
    python benchmarks/npuzzle.py --only korf-felner --count 5          # the 5 easiest 24-puzzles
    python benchmarks/npuzzle.py --only korf-felner --count 50 --weight 2 --time-limit 60
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "npuzzle"
KORF100 = Path(__file__).resolve().parents[1] / "tests" / "data" / "npuzzle" / "korf100.tsv"
KORF_FELNER = KORF100.with_name("korf-felner50.tsv")
console = Console()


def rows_of(name: str | Path) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def tiles(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.split()))


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def startup() -> float:
    """Seconds to load (or compile) numba's kernels: a 2x2 board solved once."""
    from cspsolve.models.npuzzle import tile_idastar
    from cspsolve.models.npuzzle.board import Puzzle, korf_goal

    return timed(lambda: tile_idastar.solve(Puzzle(2, 2, (1, 0, 2, 3), korf_goal(4)), "pdb"))[1]


def databases(started: float) -> float:
    """Build the 15-puzzle's 6-6-3 databases (at the same time); print and return the seconds."""
    from cspsolve.models.npuzzle.pdb import PARTITIONS, load_all

    patterns = PARTITIONS["6-6-3"]
    built, total = timed(lambda: load_all(4, 4, patterns=patterns, blank=0))
    table = Table(title="15-puzzle pattern databases (6-6-3, blank-aware, empty cache)")
    for name in ("pattern cells", "entries"):
        table.add_column(name, justify="right")
    for pattern, db in zip(patterns, built, strict=True):
        table.add_row(" ".join(map(str, pattern)), f"{db.size:,}")
    table.add_row("all, built at the same time", f"{total:.2f} s")
    console.print(table)
    console.print(f"numba kernels loaded/compiled in {started:.2f} s (not counted above)")
    return total


def korf(build_seconds: float, manhattan: bool) -> None:
    from cspsolve.models.npuzzle import tile_idastar
    from cspsolve.models.npuzzle.board import Puzzle, check, korf_goal

    heuristics = ["pdb", "manhattan"] if manhattan else ["pdb"]
    table = Table(title="Korf's 15-puzzles (sample of 20), compiled IDA*")
    for name in ("id", "optimal", "Korf 1985 MD nodes"):
        table.add_column(name, justify="right")
    for h in heuristics:
        for name in ("h0", "nodes", "s"):
            table.add_column(f"{h} {name}", justify="right")
    if manhattan:
        table.add_column("time md / pdb", justify="right")
    totals = dict.fromkeys(heuristics, 0.0)
    rows = sorted(
        rows_of("korf15_sample20.tsv"), key=lambda r: int(r["korf1985_ida_md_nodes_published"])
    )
    for row in rows:
        puzzle = Puzzle(4, 4, tiles(row["tiles_goal_blank_first"]), korf_goal(16))
        cells = [
            row["id"],
            row["optimal_length"],
            f"{int(row['korf1985_ida_md_nodes_published']):,}",
        ]
        seconds = {}
        for h in heuristics:
            result, seconds[h] = timed(lambda h=h, p=puzzle: tile_idastar.solve(p, h))
            assert result.solution is not None and check(puzzle, result.solution) == []
            assert len(result.solution) == int(row["optimal_length"]), row["id"]
            totals[h] += seconds[h]
            s = result.stats
            cells += [f"{int(s.extra['initial_h'])}", f"{s.generated:,}", f"{seconds[h]:.3f}"]
        if manhattan:
            cells.append(f"{seconds['manhattan'] / seconds['pdb']:.0f}x")
        table.add_row(*cells)
    console.print(table)
    pdb_total = totals["pdb"]
    console.print(
        f"6-6-3: 20 instances solved in {pdb_total:.1f} s (+ {build_seconds:.1f} s building the "
        f"databases). Estimate for all 100 (each sample row stands for 5 of Korf's instances of "
        f"similar difficulty): 5 x {pdb_total:.1f} + {build_seconds:.1f} = "
        f"{5 * pdb_total + build_seconds:.0f} s (target 60 s)."
    )


def korf100(started: float) -> None:
    """All 100 of Korf's instances, one process, empty then filled database cache."""
    from cspsolve import tasks
    from cspsolve.models.npuzzle.board import Puzzle, check, korf_goal
    from cspsolve.models.npuzzle.kind import KIND
    from cspsolve.models.npuzzle.pdb import cache_at

    rows = rows_of(KORF100)
    table = Table(title="Korf's 100 15-puzzles, default method (tasks.solve), one process")
    for name in ("cache", "total s", "PDB s", "search s", "slowest", "expanded", "generated"):
        table.add_column(name, justify="right")
    totals = {}
    with tempfile.TemporaryDirectory() as fresh, cache_at(fresh):
        for cache in ("cold", "warm"):
            build = expanded = generated = 0.0
            slowest = ("", 0.0)
            start = time.perf_counter()
            for row in rows:
                puzzle = Puzzle(4, 4, tiles(row["tiles_goal_blank_first"]), korf_goal(16))
                result, seconds = timed(lambda p=puzzle: tasks.solve(KIND, p))
                assert result.method == "tile-idastar" and result.heuristic == "pdb"
                assert result.solution is not None and check(puzzle, result.solution) == []
                assert len(result.solution) == int(row["optimal_length"]), row["id"]
                s = result.stats
                build += s.extra["database_seconds"]
                expanded, generated = expanded + s.expanded, generated + s.generated
                search = seconds - s.extra["database_seconds"]
                slowest = max(slowest, (row["id"], search), key=lambda pair: pair[1])
            totals[cache] = total = time.perf_counter() - start
            table.add_row(
                cache,
                f"{total:.2f}",
                f"{build:.2f}",
                f"{total - build:.2f}",
                f"#{slowest[0]}, {slowest[1]:.2f}",
                f"{expanded:,.0f}",
                f"{generated:,.0f}",
            )
    console.print(table)
    console.print(
        "All 100 optimal (plans replayed, lengths as published). PDB s: getting the databases "
        "(cold: built, as the first solve does; warm: read from the cache); slowest: the "
        "longest search (id, s) apart from the databases."
    )
    console.print(
        f"all 100 in one run, databases built: {totals['cold']:.1f} s (goal 30 s, target 60 s); "
        f"with the cache filled: {totals['warm']:.1f} s; numba start-up before: {started:.2f} s"
    )


def eight() -> None:
    from cspsolve import tasks
    from cspsolve.models.npuzzle.board import Puzzle, check, default_goal, korf_goal
    from cspsolve.models.npuzzle.kind import KIND
    from cspsolve.tasks import Request

    table = Table(title="8-puzzle: every board of eight_puzzle.tsv")
    for name in ("method", "boards", "worst s", "total s"):
        table.add_column(name, justify="right")
    for request in (Request(), Request("tile-idastar", "manhattan")):
        worst = total = 0.0
        count = 0
        for row in rows_of("eight_puzzle.tsv"):
            if row["optimal_length"] == "-1":
                continue
            goal = korf_goal(9) if row["goal"] == "blank_first" else default_goal(9)
            puzzle = Puzzle(3, 3, tiles(row["tiles"]), goal)
            tasks.solve(KIND, puzzle, request=request)  # warm: databases, kernels
            result, seconds = timed(lambda p=puzzle, r=request: tasks.solve(KIND, p, request=r))
            assert result.solution is not None and check(puzzle, result.solution) == []
            assert len(result.solution) == int(row["optimal_length"])
            worst, total, count = max(worst, seconds), total + seconds, count + 1
        label = f"{result.method} + {result.heuristic}"
        table.add_row(label, str(count), f"{worst * 1000:.2f} ms", f"{total:.3f}")
    console.print(table)
    console.print("target: any 8-puzzle optimally <= 20 ms")


def engine() -> None:
    from cspsolve import search
    from cspsolve.models.npuzzle.board import Puzzle, default_goal, korf_goal
    from cspsolve.models.npuzzle.search import SlidingTileProblem, heuristic

    table = Table(title="the engine on the 31-move 8-puzzles (generic SearchProblem)")
    runs = [("astar", "manhattan"), ("astar", "linear-conflict"), ("idastar", "manhattan")]
    table.add_column("board", justify="right")
    for method, h in runs:
        table.add_column(f"{method} + {h} expanded", justify="right")
        table.add_column("s", justify="right")
    for row in rows_of("eight_puzzle.tsv"):
        if row["optimal_length"] != "31":
            continue
        goal = korf_goal(9) if row["goal"] == "blank_first" else default_goal(9)
        puzzle = Puzzle(3, 3, tiles(row["tiles"]), goal)
        cells = [f"{row['id']} ({row['goal']})"]
        for method, h in runs:
            algorithm = getattr(search, method)
            result, seconds = timed(
                lambda a=algorithm, h=h, p=puzzle: a(SlidingTileProblem(p), heuristic(h, p))
            )
            assert result.stats.cost == 31
            cells += [f"{result.stats.expanded:,}", f"{seconds:.3f}"]
        table.add_row(*cells)
    console.print(table)
    console.print("target: A* + Manhattan <= 0.5 s each (aima-python: about 60 s)")


def databases_6666(cold: bool) -> None:
    """Get the 24-puzzle's 6-6-6-6 databases (built when missing); print time and memory."""
    import resource

    from cspsolve.models.npuzzle.pdb import PARTITIONS, _to_build, cache_dir, load_all

    patterns = PARTITIONS["6-6-6-6"]
    if cold:
        os.environ["CSPSOLVE_CACHE"] = tempfile.mkdtemp(prefix="npuzzle-pdb-")
    missing = _to_build(5, 5, patterns, 0)
    built, seconds = timed(lambda: load_all(5, 5, patterns=patterns, blank=0))
    how = "built (two at a time)" if missing else "read from the cache"
    table = Table(title=f"24-puzzle 6-6-6-6 databases, blank-aware, {how}, {cache_dir()}")
    for name in ("pattern cells", "entries", "MB", "largest entry"):
        table.add_column(name, justify="right")
    for pattern, db in zip(patterns, built, strict=True):
        table.add_row(
            " ".join(map(str, pattern)),
            f"{db.size:,}",
            f"{db.nbytes / 1e6:.1f}",
            str(int(db.max())),
        )
    total = sum(db.nbytes for db in built)
    table.add_row("all four", f"{sum(db.size for db in built):,}", f"{total / 1e6:.1f}", "")
    console.print(table)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    console.print(f"{how} in {seconds:.1f} s; peak memory of this process so far {peak:.2f} GB")


def korf_felner(args: argparse.Namespace) -> None:
    """Korf & Felner's 24-puzzles, easiest first, each under the time limit."""
    import resource
    from fractions import Fraction

    from cspsolve.limits import Limits
    from cspsolve.models.npuzzle import tile_idastar
    from cspsolve.models.npuzzle.board import Puzzle, check, korf_goal

    with KORF_FELNER.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    rows.sort(key=lambda r: (int(r["optimal_length"]), int(r["id"])))
    if args.ids:
        wanted = args.ids.split(",")
        rows = [r for w in wanted for r in rows if r["id"] == w]
    rows = rows[: args.count]
    weight = Fraction(args.weight)
    databases_6666(args.cold)
    title = "Korf & Felner's 24-puzzles, compiled IDA* + 6-6-6-6 (reflected)"
    table = Table(title=f"{title}, w = {weight}" if weight != 1 else title)
    names = ("id", "optimal", "status", "length", "h0", "generated", "expanded", "s", "M nodes/s")
    for name in names:
        table.add_column(name, justify="right")
    solved = 0
    total = 0.0
    ratios = []
    for row in rows:
        puzzle = Puzzle(5, 5, tiles(row["tiles_goal_blank_first"]), korf_goal(25))
        best = int(row["optimal_length"])
        limits = Limits(time_limit=args.time_limit)
        result, seconds = timed(
            lambda p=puzzle, lim=limits: tile_idastar.solve(
                p, "pdb", limits=lim, partition="6-6-6-6", weight=weight
            )
        )
        s = result.stats
        length = ""
        if result.solution is not None:
            assert check(puzzle, result.solution) == [], row["id"]
            length = str(len(result.solution))
            assert best <= len(result.solution) <= weight * best, row["id"]
            assert weight != 1 or len(result.solution) == best, row["id"]
            ratios.append(len(result.solution) / best)
            solved += 1
        total += seconds
        cells = [
            row["id"],
            str(best),
            result.status.value,
            length,
            str(int(s.extra.get("initial_h", 0))),
            f"{s.generated:,}",
            f"{s.expanded:,}",
            f"{seconds:.1f}",
            f"{s.generated / max(seconds, 1e-9) / 1e6:.1f}",
        ]
        table.add_row(*cells)
        console.print(" | ".join(cells), highlight=False)
    console.print(table)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    if ratios and weight != 1:
        console.print(
            f"length / optimum: mean {sum(ratios) / len(ratios):.3f}, worst {max(ratios):.3f} "
            f"(bound {float(weight):g})"
        )
    console.print(
        f"peak memory of the process {peak:.2f} GB; "
        f"{solved} of {len(rows)} solved within {args.time_limit:g} s each ({total:.0f} s in "
        f"all; load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}); every plan "
        "replayed, every length checked against the published optimum"
        + (f" (at most {weight} x it)" if weight != 1 else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manhattan", action="store_true", help="also IDA* + Manhattan on 15s")
    parser.add_argument("--keep-cache", action="store_true", help="use the user's PDB cache")
    parser.add_argument("--only", choices=["korf100", "korf-felner"], help="run this part alone")
    parser.add_argument(
        "--count", type=int, default=50, help="korf-felner: how many, easiest first"
    )
    parser.add_argument("--ids", help="korf-felner: these instance ids (comma-separated) instead")
    parser.add_argument("--time-limit", type=float, default=600, help="korf-felner: s each")
    parser.add_argument("--weight", default="1", help="korf-felner: weighted IDA* with this w")
    parser.add_argument("--cold", action="store_true", help="korf-felner: build the databases")
    args = parser.parse_args()
    console.print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    if args.only == "korf-felner":
        korf_felner(args)
        return
    started = startup()
    if args.only == "korf100":
        korf100(started)
        return
    with tempfile.TemporaryDirectory() as fresh:
        if not args.keep_cache:
            os.environ["CSPSOLVE_CACHE"] = fresh
        build_seconds = databases(started)
        korf(build_seconds, args.manhattan)
        korf100(started)
        eight()
        engine()


if __name__ == "__main__":
    main()
