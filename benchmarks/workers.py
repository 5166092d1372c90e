"""Many puzzles on many cores (issue 32): a tournament set solved with ``--workers 1`` and ``N``.

Times the whole command ``cspsolve solve SET --format json [--workers N]`` as users run it
(start-up, reading, the pool's processes, printing), each ``--repeat`` times, in turn, and
prints one table: median wall seconds, the speed-up over one worker and the efficiency
(speed-up / workers), and the CPU seconds of the command and its processes (user + system):
on a shared, loaded machine the wall seconds follow the load, the CPU seconds show what the
pool costs beside one process. The outputs are checked to hold the same answers (every
record's status and solution, in the same order). The set is a tournament set of ``../shared``
as ``benchmarks/nonogram.py`` finds it (1000 puzzles; ``--sets`` names others).

The issue's target: 1000 tournament puzzles on 2 workers in at most 9 s.

Run from the repository root::

    python benchmarks/workers.py                       # tcga2022, 1 and 2 workers, 3 runs
    python benchmarks/workers.py --sets taai2011,tcga2022 --workers 1,2 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from nonogram import DATA, set_file
from rich.console import Console
from rich.table import Table

COMMAND = [sys.executable, "-P", "-c", "from cspsolve.cli import main; main()"]
"""``cspsolve`` in a fresh interpreter (``-P``: the installed package, not the source folder)."""


def cpu() -> float:
    """CPU seconds (user + system) of the finished child processes of this one."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args: list[str]) -> tuple[float, float, list[tuple[Any, Any]]]:
    """Wall and CPU seconds of one run of ``cspsolve ARGS`` (its processes included) and each
    record's (status, solution)."""
    started, busy = time.perf_counter(), cpu()
    proc = subprocess.run([*COMMAND, *args], capture_output=True, text=True, check=False)
    seconds, busy = time.perf_counter() - started, cpu() - busy
    if proc.returncode not in (0, 1):
        sys.exit(f"cspsolve {' '.join(args)} exited {proc.returncode}: {proc.stderr[-500:]}")
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    return seconds, busy, [(r["status"], r["solution"]) for r in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="tcga2022", help="tournament sets (comma-separated)")
    parser.add_argument("--workers", default="1,2", help="worker counts to time (first: base)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command")
    parser.add_argument("--data", type=Path, default=DATA, help="shared nonogram data folder")
    args = parser.parse_args()
    if not args.data.is_dir():
        sys.exit(f"no tournament sets: {args.data} is absent (the shared data of ../shared)")
    counts = [int(n) for n in args.workers.split(",")]
    console = Console(width=120)  # the whole table, also when piped
    table = Table(title=f"cspsolve solve SET --format json --workers N, median of {args.repeat}")
    columns = (
        "set",
        "puzzles",
        "workers",
        "wall s",
        "min-max s",
        "speed-up",
        "efficiency",
        "cpu s",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "set" else "right")
    for name in args.sets.split(","):
        path = str(set_file(args, name))
        seconds: dict[int, list[float]] = {n: [] for n in counts}
        busy: dict[int, list[float]] = {n: [] for n in counts}
        answers: dict[int, list[tuple[Any, Any]]] = {}
        for _ in range(args.repeat):
            for n in counts:
                took, used, answers[n] = timed(
                    ["solve", path, "--format", "json", "--workers", str(n)]
                )
                seconds[n].append(took)
                busy[n].append(used)
        base = statistics.median(seconds[counts[0]])
        for n in counts:
            if answers[n] != answers[counts[0]]:
                sys.exit(f"{name}: the answers of {n} workers differ from those of {counts[0]}")
            wall = statistics.median(seconds[n])
            table.add_row(
                name,
                str(len(answers[n])),
                str(n),
                f"{wall:.2f}",
                f"{min(seconds[n]):.2f}-{max(seconds[n]):.2f}",
                f"{base / wall:.2f}",
                f"{base / wall / (n / counts[0]):.2f}",
                f"{statistics.median(busy[n]):.2f}",
            )
        table.add_section()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    table.caption = f"{os.cpu_count()} cores; load average (1, 5, 15 min) after the runs: {load}"
    console.print(table)


if __name__ == "__main__":
    main()
