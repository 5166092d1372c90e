"""Explanations as users run them: ``cspsolve explain`` beside ``cspsolve solve`` as whole
commands over a tournament set, and the animated GIF of a long explanation.

The first table times the whole commands (start-up, reading, solving or explaining, printing)
on the first ``--count`` puzzles of a tournament set, their output written to a file (plain
text, as when piped; then JSON Lines), each ``--repeat`` times in turn: median wall and CPU
seconds (user + system; the steadier figure on a shared machine) and the ratios explain /
solve side by side. Every solution of the JSON runs is checked against
its clues. The issue's target: explain at most 3x solve.

The second table draws the GIF of ``--gif`` (default ``tournament-sample.txt#3``, 192 steps)
with ``cspsolve explain FILE --image OUT.gif``, beside the same command without a picture:
wall and CPU seconds and the peak memory of the process (its ``ru_maxrss``, through
``os.wait4``), and the frames written (one per step and the start). The issue's target: at most
500 MB at the peak.

Run from the repository root::

    python benchmarks/explain_command.py                      # tcga2022, 200 puzzles, 3 runs
    python benchmarks/explain_command.py --sets taai2011,tcga2022 --count 1000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from nonogram import DATA, ROOT, set_file
from PIL import Image
from rich.console import Console
from rich.table import Table

from cspsolve import registry
from cspsolve.models.nonogram import board

COMMAND = [sys.executable, "-P", "-c", "from cspsolve.cli import main; main()"]
"""``cspsolve`` in a fresh interpreter (``-P``: the installed package, not the source folder)."""
GIF = "instances/nonogram/tournament-sample.txt#3"
MEASURE = """
import os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:])
_, status, used = os.wait4(child.pid, 0)
wall = time.perf_counter() - started
code = os.waitstatus_to_exitcode(status)
print("MEASURED", wall, used.ru_utime + used.ru_stime, used.ru_maxrss, code, file=sys.stderr)
"""
"""Runs a command and reports its wall and CPU seconds, its peak memory (KB) and its exit
code. A child's ``ru_maxrss`` counts the memory of the process it was forked from, so the
command is started from this small process, not from the benchmark's."""


def first(source: Path, count: int, folder: Path) -> Path:
    """The first ``count`` puzzles of a tournament file, as a file of their own (each puzzle
    starts at a line ``$N``)."""
    lines = source.read_text().splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("$")] + [len(lines)]
    out = folder / f"{source.stem}-{count}.txt"
    out.write_text("".join(lines[: starts[min(count, len(starts) - 1)]]))
    return out


def run(args: list[str], output: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds and the peak memory in KB of ``cspsolve ARGS``, its standard output
    written to ``output``; measured by a small process of its own (:data:`MEASURE`)."""
    with output.open("w") as out:
        proc = subprocess.run(
            [sys.executable, "-c", MEASURE, *COMMAND, *args],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    *errors, report = proc.stderr.splitlines()
    wall, cpu, peak, code = report.split()[1:]
    if int(code) not in (0, 1):
        sys.exit(f"cspsolve {' '.join(args)} failed: {' '.join(errors)[-500:]}")
    return float(wall), float(cpu), int(peak)


def check(puzzles: Path, output: Path, summary: bool) -> None:
    """Check every solution of a JSON Lines output against its clues, one for each puzzle."""
    entries = {entry.id: entry.puzzle for entry in registry.load(str(puzzles), "nonogram")[1]}
    records = [json.loads(line) for line in output.read_text().splitlines()]
    answers = [r for r in records if not summary or r.get("type") == "summary"]
    for record in answers:
        grid = record["solution"]["grid"]
        problems = board.check(entries[record["id"]], grid)
        if problems:
            sys.exit(f"{output.name}: puzzle {record['id']}: {problems[0]}")
    if len(answers) != len(entries):
        sys.exit(f"{output.name}: {len(answers)} answers for {len(entries)} puzzles")


def ratios(args: argparse.Namespace, folder: Path) -> Table:
    """The table of explain beside solve over the tournament sets: wall and CPU seconds."""
    table = Table(
        title=f"whole commands over the first {args.count} puzzles, median of {args.repeat}"
    )
    columns = ("solve s", "explain s", "ratio", "solve CPU s", "explain CPU s", "CPU ratio")
    for column in ("set", "puzzles", "output", *columns):
        table.add_column(column, justify="left" if column in ("set", "output") else "right")
    for name in args.sets.split(","):
        puzzles = first(set_file(args, name), args.count, folder)
        count = len(registry.load(str(puzzles), "nonogram")[1])
        for output, flags in (("text", []), ("json", ["--format", "json"])):
            walls: dict[str, list[float]] = {"solve": [], "explain": []}
            cpus: dict[str, list[float]] = {"solve": [], "explain": []}
            for _ in range(args.repeat):
                for command in walls:
                    written = folder / f"{command}.{output}"
                    wall, cpu, _ = run([command, str(puzzles), *flags], written)
                    walls[command].append(wall)
                    cpus[command].append(cpu)
            if output == "json":
                check(puzzles, folder / "solve.json", summary=False)
                check(puzzles, folder / "explain.json", summary=True)
            row: list[str] = []
            for times in (walls, cpus):
                solve, explain = (statistics.median(times[c]) for c in ("solve", "explain"))
                row += [f"{solve:.2f}", f"{explain:.2f}", f"{explain / solve:.2f}x"]
            table.add_row(name, str(count), output, *row)
    return table


def gif(args: argparse.Namespace, folder: Path) -> Table:
    """The table of the GIF of a long explanation beside the explanation alone."""
    table = Table(title=f"cspsolve explain {args.gif} [--image OUT.gif]")
    for column in ("picture", "frames", "wall s", "CPU s", "peak MB", "file MB"):
        table.add_column(column, justify="left" if column == "picture" else "right")
    image = folder / "explained.gif"
    steps = folder / "steps.json"
    for label, extra in (("none", ["--format", "json"]), ("GIF", ["--image", str(image)])):
        output = steps if label == "none" else folder / "explain.txt"
        seconds, cpu, peak = run(["explain", args.gif, *extra], output)
        frames, size = "-", "-"
        if label == "GIF":
            with Image.open(image) as drawn:
                frames = str(drawn.n_frames)
            size = f"{image.stat().st_size / 1e6:.1f}"
            wanted = json.loads(steps.read_text().splitlines()[-1])["steps"] + 1
            if int(frames) != wanted:
                sys.exit(f"the GIF has {frames} frames, not one per step and the start ({wanted})")
        table.add_row(label, frames, f"{seconds:.1f}", f"{cpu:.1f}", f"{peak / 1024:.0f}", size)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="tcga2022", help="tournament sets (comma-separated)")
    parser.add_argument("--count", type=int, default=200, help="first puzzles of each set")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command")
    parser.add_argument("--gif", default=GIF, help="the explanation drawn as a GIF ('': none)")
    parser.add_argument("--data", type=Path, default=DATA, help="shared nonogram data folder")
    args = parser.parse_args()
    console = Console(width=120)  # the whole table, also when piped
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        if args.data.is_dir():
            console.print(ratios(args, folder))
        else:
            print(f"no tournament sets: {args.data} is absent (the shared data of ../shared)")
        if args.gif:
            console.print(gif(args, folder))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores; load average (1, 5, 15 min) after the runs: {load}")


if __name__ == "__main__":
    main()
