"""Compare the nonogram methods gac-astar, mac and cpsat on the shared data sets, in one run.

For every data set of ``../shared/data/nonogram`` (see its README.md) and every method, the
table gives the puzzles solved, the total, median and worst seconds per puzzle, and the ratio
of the method's total to CP-SAT's on the same puzzles. Every grid is checked with the
independent ``board.check``; failures are counted (they must be 0). A puzzle that hits the
per-puzzle time limit counts as unsolved, with the time it used. Each method runs over each
set in a fresh process, so no method profits from caches warmed by another (the line solver
memoises its results).

Two modes: the first solution (default), or ``--unique``, which also decides uniqueness by
searching for a second solution (solved = uniqueness settled; the ``unique`` column counts
the puzzles found unique, so the methods can be compared).

Run from the repository root::

    python benchmarks/nonogram.py                       # every set, first solution
    python benchmarks/nonogram.py --unique              # every set, uniqueness
    python benchmarks/nonogram.py --sets jwilk,taai2011 --taai 20 --time-limit 10
    python benchmarks/nonogram.py --skip-cauldron-cpsat # CP-SAT needs ~30 s on cauldron
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cspsolve.errors import InputError
from cspsolve.limits import Limits
from cspsolve.models.nonogram import Nonogram, check, read, solve

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "nonogram"
METHODS = ("gac-astar", "mac", "cpsat")
SETS = {
    "jwilk": "jwilk/*.nin",
    "nonogram-db": "nonogram-db/*/*.non",
    "webpbn-survey": "webpbn-survey/*.n[io]n",
    "webpbn-cc": "webpbn-cc/*.non",
    "picross-solver-patterns": "picross-solver-patterns/*.txt",
    "taai2011": "taai/question/taai2011.txt",
    "tcga2022": "taai/question/tcga2022.txt",
    "cauldron": "large/cauldron.non",
}
"""Data set name: glob of its files under the data folder."""
TOURNAMENT = ("taai2011", "tcga2022")
"""Sets of 1000 puzzles, of which only the first ``--taai`` are run."""
COLUMNS = ("set", "method", "puzzles", "solved", "unique", "check fails")
COLUMNS += ("total s", "median s", "worst s", "total / CP-SAT")


@dataclass
class Timing:
    """One method over one list of puzzles."""

    solved: int
    unique: int
    check_failures: int
    seconds: list[float]


def load(data: Path, name: str, first: int, console: Console) -> list[Nonogram]:
    """The puzzles of one data set (the first ``first`` of a tournament set)."""
    puzzles = []
    for path in sorted(data.glob(SETS[name])):
        try:
            puzzles += [entry.puzzle for entry in read(path)]
        except InputError as err:
            console.print(f"[yellow]left out (unreadable): {err}[/yellow]")
    return puzzles[:first] if name in TOURNAMENT else puzzles


def time_method(puzzles: list[Nonogram], method: str, unique: bool, limit: float) -> Timing:
    """Solve every puzzle by ``method``, checking each grid, and time each run."""
    timing = Timing(0, 0, 0, [])
    for puzzle in puzzles:
        start = time.perf_counter()
        result = solve(puzzle, method, Limits(time_limit=limit), unique=unique)
        timing.seconds.append(time.perf_counter() - start)
        if result.solution is not None and check(puzzle, result.solution):
            timing.check_failures += 1
        settled = not unique or result.proof.get("unique") is not None
        if result.status.has_solution and settled:
            timing.solved += 1
            timing.unique += result.proof.get("unique") is True
    return timing


def time_fresh(puzzles: list[Nonogram], method: str, unique: bool, limit: float) -> Timing:
    """:func:`time_method` in a new process (imports warmed up first, caches cold)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=warm_up) as pool:
        return pool.submit(time_method, puzzles, method, unique, limit).result()


def warm_up() -> None:
    """Import every method's code (OR-Tools) so that it is not charged to the first puzzle."""
    for method in METHODS:
        solve(Nonogram(rows=((1,),), columns=((1,),)), method)


def revision() -> str:
    """The git commit of the code measured (``-dirty`` when tracked files are modified)."""
    here = Path(__file__).resolve().parent
    command = ["git", "-C", str(here), "describe", "--always", "--dirty"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated data sets")
    parser.add_argument("--taai", type=int, default=100, help="first N tournament puzzles")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle")
    parser.add_argument("--unique", action="store_true", help="also decide uniqueness")
    parser.add_argument("--skip-cauldron-cpsat", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA, help="shared nonogram data folder")
    args = parser.parse_args(argv)
    names = args.sets.split(",")
    if unknown := [n for n in names if n not in SETS]:
        parser.error(f"unknown sets {unknown}; choose from {', '.join(SETS)}")

    console, progress = Console(width=max(120, Console().width)), Console(stderr=True)
    console.print(
        f"machine: {platform.platform()}, {platform.processor() or '?'}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    console.print(f"command: python {shlex.join(sys.argv)}")
    console.print(f"code: {revision()}")

    mode = "uniqueness" if args.unique else "first solution"
    table = Table(title=f"nonogram, {mode}, time limit {args.time_limit:g} s per puzzle")
    for column in COLUMNS:
        left = column in ("set", "method")
        table.add_column(column, justify="left" if left else "right", no_wrap=left)
    for name in names:
        puzzles = load(args.data, name, args.taai, progress)
        label = f"{name} (first {len(puzzles)})" if name in TOURNAMENT else name
        skip = {"cpsat"} if name == "cauldron" and args.skip_cauldron_cpsat else set()
        timings = {}
        for method in (m for m in METHODS if m not in skip):
            timings[method] = time_fresh(puzzles, method, args.unique, args.time_limit)
            progress.print(f"[dim]{name} {method}: {sum(timings[method].seconds):.1f} s[/dim]")
        reference = sum(timings["cpsat"].seconds) if "cpsat" in timings else None
        for i, (method, t) in enumerate(timings.items()):
            total = sum(t.seconds)
            table.add_row(
                "" if i else label,
                method,
                str(len(puzzles)),
                str(t.solved),
                str(t.unique) if args.unique else "-",
                str(t.check_failures),
                f"{total:.2f}",
                f"{statistics.median(t.seconds):.3f}" if t.seconds else "-",
                f"{max(t.seconds):.3f}" if t.seconds else "-",
                f"{total / reference:.2f}" if reference else "-",
            )
        table.add_section()
    console.print(table)


if __name__ == "__main__":
    main()
