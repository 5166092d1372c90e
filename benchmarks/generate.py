"""Puzzles made to order: the sets of issue 41's targets, each made by ``cspsolve generate`` as
a whole command (start-up included) on 1 and on 2 workers, side by side.

Each set goes to a fresh temporary folder; the table gives the wall-clock seconds of each run,
the ratio of the two, the target (60 s on 2 workers) and whether the files of both runs are
the same (they must be: a seed makes the same puzzles on any number of workers).

Usage: python benchmarks/generate.py [--seed 1] [--sets nonogram,lightsout,...]
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

TARGET = 60.0
"""Seconds each set may take on 2 workers (issue 41)."""
SETS = {
    "nonogram": ("100 unique 25x25 nonograms of grade probing",
                 ["nonogram", "--count", "100", "--size", "25x25", "--grade", "probing"]),
    "lightsout": ("20 Lights Out 9x9 of proven minimum 20",
                  ["lightsout", "--count", "20", "--size", "9", "--min-presses", "20"]),
    "rushhour": ("20 Rush Hour 6x6 of optimum >= 40",
                 ["rushhour", "--count", "20", "--size", "6", "--min-moves", "40"]),
    "npuzzle": ("20 15-puzzles of optimum exactly 50",
                ["npuzzle", "--count", "20", "--size", "4", "--moves", "50"]),
}  # fmt: skip


def timed(args: list[str], out: Path, workers: int, seed: int) -> float:
    """Seconds ``cspsolve generate ARGS`` takes, writing to ``out``."""
    command = [sys.executable, "-m", "cspsolve", "generate", *args, "--seed", str(seed),
               "--workers", str(workers), "--out", str(out)]  # fmt: skip
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    return seconds


def same_files(one: Path, two: Path) -> bool:
    names = sorted(p.name for p in one.iterdir() if p.name != "generated.jsonl")
    _, mismatch, errors = filecmp.cmpfiles(one, two, names, shallow=False)
    return bool(names) and not mismatch and not errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", default=",".join(SETS))
    asked = parser.parse_args()
    table = Table(title=f"cspsolve generate, seed {asked.seed} (seconds, whole command)")
    for column in ("set", "1 worker", "2 workers", "ratio", "target", "met", "same files"):
        table.add_column(column, justify="left" if column == "set" else "right")
    for name in asked.sets.split(","):
        title, args = SETS[name]
        with tempfile.TemporaryDirectory() as folder:
            one, two = Path(folder) / "one", Path(folder) / "two"
            alone = timed(args, one, 1, asked.seed)
            paired = timed(args, two, 2, asked.seed)
            table.add_row(title, f"{alone:.1f}", f"{paired:.1f}", f"{alone / paired:.2f}",
                          f"{TARGET:.0f}", "yes" if paired <= TARGET else "NO",
                          "yes" if same_files(one, two) else "NO")  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    main()
