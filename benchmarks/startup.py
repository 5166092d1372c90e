"""Start-up: one small solve of every kind as a whole process, as a user runs it.

Each command runs ``--repeat`` times in a fresh process after one warm-up run (which fills the
kernel caches on disk); the table gives the fastest and the median wall-clock time and the CPU
time (user + system) of the fastest, beside the target of 0.3 s, and which heavy modules the
process imported. CPU time is the steadier figure on a shared machine; wall-clock time is what
the user waits.

Usage: python benchmarks/startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.3
"""Seconds a small solve may take as a whole process (issue 22)."""
HEAVY = ("numpy", "numba", "ortools", "networkx", "matplotlib", "rich")
COMMANDS = {
    "--help": ["--help"],
    "nonogram 17x15": ["solve", "instances/nonogram/duck.non"],
    "nonogram 25x25 (search)": ["solve", "instances/nonogram/tournament-sample.txt#1"],
    "lightsout 5x5": ["solve", "instances/lightsout/classic-5x5.lo"],
    "rushhour 6x6": ["solve", "instances/rushhour/card-32.txt"],
    "npuzzle 3x3": ["solve", "instances/npuzzle/easy8.txt"],
}
PROBE = (
    "import json, sys\n"
    "args, heavy = json.loads(sys.argv[1]), set(json.loads(sys.argv[2]))\n"
    "sys.argv = ['cspsolve', *args]\n"
    "from cspsolve.cli import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "used = sorted({m.split('.')[0] for m in sys.modules} & heavy)\n"
    "sys.stderr.write('\\nHEAVY ' + ' '.join(used))\n"
)
"""Runs the command line in-process, then names the heavy modules it imported."""


def timed(args: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of ``cspsolve ARGS`` in a fresh process."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(
        [shutil.which("cspsolve") or "cspsolve", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def heavy_imports(args: list[str]) -> str:
    """The heavy modules a process running ``cspsolve ARGS`` imported."""
    import json

    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), json.dumps(HEAVY)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    line = done.stderr.rsplit("HEAVY", 1)[-1].strip()
    return line or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command (7)")
    args = parser.parse_args()
    table = Table(title=f"start-up, fastest and median of {args.repeat} runs (target {TARGET} s)")
    for column in ("command", "fastest s", "median s", "CPU s (fastest)", "vs target", "imports"):
        table.add_column(column, justify="left" if column in ("command", "imports") else "right")
    for name, command in COMMANDS.items():
        timed(command)  # warm-up: kernel caches filled
        runs = sorted(timed(command) for _ in range(args.repeat))
        walls = [wall for wall, _ in runs]
        fastest, cpu = runs[0]
        table.add_row(
            name,
            f"{fastest:.3f}",
            f"{statistics.median(walls):.3f}",
            f"{cpu:.3f}",
            f"{fastest / TARGET:.2f}x",
            heavy_imports(command),
        )
    Console().print(table)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
