"""The first run after install: each command as a whole process with numba's cache empty.

Every run gets a cache folder of its own (``NUMBA_CACHE_DIR``, empty), so each pays whatever
its kind compiles, as the first run of that command on a fresh install does; the table gives
its wall seconds beside the same command run again with the cache it filled (warm), and the
target of issue 47: at most 5 s for a first run. ``solve`` runs on every shipped instance,
``explain``, ``analyze`` and ``verify`` on one instance of each kind.

With ``--after-warm``, one empty cache is filled by ``cspsolve warm`` first (its seconds and
kernels compiled per kind in a table of their own), then every command runs once with it, the
table saying whether the command still compiled anything (numba's notice on stderr).

Usage: python benchmarks/first_run.py [--commands solve,explain,analyze,verify] [--after-warm]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
TARGET = 5.0
"""Seconds a first run may take (issue 47)."""
ONE = {
    "nonogram": "instances/nonogram/jwilk-data000.nin",
    "lightsout": "instances/lightsout/classic-5x5.lo",
    "rushhour": "instances/rushhour/card-32.txt",
    "npuzzle": "instances/npuzzle/worst8.json",
}
"""The instance of each kind that every command runs on."""
COMMAND = [sys.executable, "-P", "-c", "from cspsolve.cli import main; main()"]


def launched(args: list[str], cache: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Wall seconds of ``cspsolve ARGS`` with numba's cache in ``cache``, and the process."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    done = subprocess.run(
        [*COMMAND, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    return time.perf_counter() - started, done


def timed(args: list[str], cache: Path) -> float:
    """Wall seconds of ``cspsolve ARGS`` with numba's cache in ``cache``."""
    return launched(args, cache)[0]


def runs(commands: list[str]) -> list[list[str]]:
    """The commands measured: solve on every shipped instance, the others on one a kind."""
    out = []
    if "solve" in commands:
        for kind in ONE:
            for path in sorted((ROOT / "instances" / kind).iterdir()):
                if path.suffix not in {".md", ""} and not path.name.startswith("LICENSE"):
                    out.append(["solve", str(path.relative_to(ROOT))])
    out += [[command, path] for command in commands if command != "solve" for path in ONE.values()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", default="solve,explain,analyze,verify")
    parser.add_argument("--after-warm", action="store_true", help="measure after cspsolve warm")
    args = parser.parse_args()
    if args.after_warm:
        after_warm(runs(args.commands.split(",")))
        return
    table = Table(title=f"first run after install (cold numba cache), target {TARGET:g} s")
    for column in ("command", "instance", "first s", "warm s", "target"):
        table.add_column(column, justify="left" if column in ("command", "instance") else "right")
    for command, path in runs(args.commands.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            cold = timed([command, path], Path(folder))
            warm = timed([command, path], Path(folder))
        met = "met" if cold <= TARGET else f"missed by {cold - TARGET:.2f} s"
        table.add_row(command, path.removeprefix("instances/"), f"{cold:.2f}", f"{warm:.2f}", met)
    Console(width=120).print(table)


def after_warm(commands: list[list[str]]) -> None:
    """``cspsolve warm`` into an empty cache, then each command once with that cache."""
    console = Console(width=120)
    with tempfile.TemporaryDirectory() as folder:
        seconds, warmed = launched(["warm", "--format", "json"], Path(folder))
        table = Table(title=f"cspsolve warm, empty cache: {seconds:.1f} s wall")
        for column in ("kind", "runs", "kernels compiled", "seconds"):
            table.add_column(column, justify="left" if column == "kind" else "right")
        for line in warmed.stdout.splitlines():
            kind = json.loads(line)
            table.add_row(
                kind["kind"], str(kind["runs"]), str(kind["compiled"]), f"{kind['seconds']:.1f}"
            )
        console.print(table)
        table = Table(title=f"each command after cspsolve warm, target {TARGET:g} s")
        for column in ("command", "instance", "s", "compiled"):
            table.add_column(
                column, justify="left" if column in ("command", "instance") else "right"
            )
        for command, path in commands:
            seconds, done = launched([command, path], Path(folder))
            compiled = "yes" if "cspsolve: compiling" in done.stderr else "no"
            table.add_row(command, path.removeprefix("instances/"), f"{seconds:.2f}", compiled)
        console.print(table)


if __name__ == "__main__":
    main()
