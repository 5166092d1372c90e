"""Nonogram speed and reach (issue 3): the fast solver beside CP-SAT and the engine's searches.

One run prints one table:

* ``taai2011`` and ``tcga2022`` (1000 tournament puzzles each; ``--sets all``: all 28 public
  sets of TAAI, TCGA and ICGA 2011-2023, with the slowest set and puzzle named): the default method
  (``probing``) on every puzzle, first solution, every grid checked with the independent
  ``board.check``; total, median and worst seconds. CP-SAT needs about 14 minutes per set, so it
  runs on a stated sample (every k-th puzzle, ``--cpsat-sample``), beside ``probing`` on the
  same puzzles (timed in the full run).
* ``gac-astar`` and ``mac`` (the generic engine) beside ``probing`` on the first
  ``--engine-sample`` puzzles of ``taai2011``.
* ``large/cauldron.non`` (512x512): every method but python-constraint.
* ``webpbn-survey``: uniqueness settled for each puzzle, ``probing``, ``sat`` and CP-SAT, with
  their verdicts compared.
* ``colour``: colour puzzles (``instances/nonogram/mushroom.non``, ``tests/data/nonogram/colour/
  tricolour.non`` and seeded random colour grids of 2 to 5 colours, clues derived), uniqueness
  settled by ``probing`` and by CP-SAT, verdicts compared.
* ``--parts large`` (not run by default, ~10 min): uniqueness of large puzzles, ``probing``
  beside ``sat`` and CP-SAT: the webpbn-cc puzzles (up to 60x60), cauldron (512x512) and
  random grids of 40x40 to 100x100 at fill probabilities 0.5-0.8 (clues derived;
  ``--large-seed``); the table counts the puzzles another method settles and ``probing`` does not.
* ``--parts random`` (not run by default, ~1 min): uniqueness of random 35x35 and 40x40
  puzzles at fill 0.5 (``--random-count`` of each side, seeded), probing beside sat and CP-SAT.
* ``--parts hard`` (not run by default): uniqueness of the hard puzzles ``--hard`` names
  (files outside the repository, ``FILE`` or ``FILE#N`` for puzzle ``N`` of a tournament set),
  by ``probing`` with each number of ``--workers`` (its search split over processes beyond one,
  :mod:`cspsolve.models.nonogram.search.split`), each run in a fresh process.
* ``--parts seeds`` (not run by default, ~6 min): the probing search's nodes on both
  tournament sets for several seeds of its randomized searches (``--seeds``), every puzzle
  capped at ``--seed-node-cap`` nodes: how much of the figures above is the default seed's luck.

A puzzle that hits the per-puzzle time limit counts as unsolved, with the time it used. Each
method runs over each list in a fresh process (imports and compiled kernels loaded first,
caches cold), so no method profits from work done by another.

Run from the repository root::

    python benchmarks/nonogram.py                           # the whole table (~40 min here)
    python benchmarks/nonogram.py --tournament 100 --cpsat-sample 20 --engine-sample 20
    python benchmarks/nonogram.py --skip-cauldron-cpsat     # CP-SAT needs ~30 s on cauldron
    python benchmarks/nonogram.py --sets taai2011 --parts tournament   # one set only
    python benchmarks/nonogram.py --sets all --parts tournament --cpsat-sample 0 --engine-sample 0
    python benchmarks/nonogram.py --parts survey,large --time-limit 60
    python benchmarks/nonogram.py --parts seeds --seeds 0,1000,2000,3000,4000
    python benchmarks/nonogram.py --parts colour                         # ~2 min
    python benchmarks/nonogram.py --parts hard --workers 1,2 --time-limit 60 \
        --hard DATA/taai/question/taai2021.txt#499,faase.nin
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.table import Table

from cspsolve import registry
from cspsolve.limits import Limits
from cspsolve.models.nonogram import Nonogram, check, clue_of, colour_board, read, solve
from cspsolve.models.nonogram.colour_board import Colour, ColourNonogram
from cspsolve.models.nonogram.search.portfolio import solve_probing

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "nonogram"
TOURNAMENT = ("taai2011", "tcga2022")
"""The sets run by default; ``--sets all`` runs every set of ``taai/question/``."""
SURVEY = "webpbn-survey"
ROOT = Path(__file__).resolve().parents[1]
COLOUR_FILES = (
    ROOT / "instances/nonogram/mushroom.non",
    ROOT / "tests/data/nonogram/colour/tricolour.non",
)
COLOUR_SETS = ((20, 20, 0.7, 20), (30, 30, 0.7, 20), (40, 40, 0.7, 10), (25, 25, 0.45, 20))
"""Random colour sets: width, height, share of coloured cells, puzzles."""
PALETTE = tuple(
    Colour(key, name, rgb)
    for key, name, rgb in (
        (".", "white", "#ffffff"),
        ("r", "red", "#d62728"),
        ("g", "green", "#2ca02c"),
        ("b", "blue", "#1f77b4"),
        ("y", "yellow", "#ffd700"),
        ("k", "black", "#000000"),
    )
)
CAULDRON = "large/cauldron.non"
LARGE_SIDES = (40, 60, 80, 100)
LARGE_DENSITIES = (0.5, 0.6, 0.65, 0.8)
"""Random grids of ``--parts large``: every side at every fill probability."""
_T = TypeVar("_T")
COLUMNS = ("set", "method", "puzzles", "solved", "check fails", "unique")
COLUMNS += ("total s", "median s", "worst s", "vs probing")


@dataclass
class Timing:
    """One method over one list of puzzles."""

    solved: int
    unique: int
    check_failures: int
    seconds: list[float]
    verdicts: list[bool | None]

    def take(self, indices: list[int]) -> Timing:
        """The same figures over the puzzles at ``indices`` only (solved counts not kept)."""
        seconds = [self.seconds[i] for i in indices]
        verdicts = [self.verdicts[i] for i in indices]
        return Timing(-1, -1, -1, seconds, verdicts)


def time_method(puzzles: list[Nonogram], method: str, unique: bool, limit: float) -> Timing:
    """Solve every puzzle by ``method``, checking each grid, and time each run."""
    timing = Timing(0, 0, 0, [], [])
    for puzzle in puzzles:
        start = time.perf_counter()
        result = solve(puzzle, method, limits=Limits(time_limit=limit), unique=unique)
        timing.seconds.append(time.perf_counter() - start)
        if result.solution is not None and check(puzzle, result.solution):
            timing.check_failures += 1
        verdict = result.proof.get("unique")
        timing.verdicts.append(verdict)
        if result.status.has_solution and (not unique or verdict is not None):
            timing.solved += 1
            timing.unique += verdict is True
    return timing


def in_fresh_process(function: Callable[..., _T], *args: Any) -> _T:
    """``function(*args)`` in a new process (code loaded first, caches cold)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=warm_up) as pool:
        return pool.submit(function, *args).result()


def time_fresh(puzzles: list[Nonogram], method: str, unique: bool, limit: float) -> Timing:
    """:func:`time_method` in a new process (code loaded first, caches cold)."""
    return in_fresh_process(time_method, puzzles, method, unique, limit)


def warm_up() -> None:
    """Load every method's code (OR-Tools, the compiled kernels) before any clock starts."""
    for method in ("probing", "cdcl", "gac-astar", "mac", "cpsat", "sat"):
        solve(Nonogram(rows=((1,),), columns=((1,),)), method)
    for method in ("probing", "cpsat"):
        solve(ColourNonogram(rows=(((1, 1),),), columns=(((1, 1),),), colours=PALETTE[:2]), method)


def revision() -> str:
    """The git commit of the code measured (``-dirty`` when tracked files are modified)."""
    here = Path(__file__).resolve().parent
    command = ["git", "-C", str(here), "describe", "--always", "--dirty"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def add_row(
    table: Table,
    label: str,
    method: str,
    t: Timing,
    reference: Timing | None,
    unique: bool,
    *extra: str,
) -> None:
    """One table row; ``vs probing`` is this method's total over probing's on the same list;
    ``extra`` cells follow."""
    total = sum(t.seconds)
    ratio = "-"
    if reference is not None and sum(reference.seconds) > 0:
        ratio = f"{total / sum(reference.seconds):.1f}x"
    counted = t.solved >= 0
    table.add_row(
        label,
        method,
        str(len(t.seconds)),
        str(t.solved) if counted else "(same)",
        str(t.check_failures) if counted else "",
        str(sum(v is True for v in t.verdicts)) if unique else "-",
        f"{total:.2f}",
        f"{statistics.median(t.seconds):.3f}" if t.seconds else "-",
        f"{max(t.seconds):.3f}" if t.seconds else "-",
        ratio,
        *extra,
    )


def tournament(args: argparse.Namespace, table: Table, progress: Console) -> None:
    """The two tournament sets: probing on all, CP-SAT (and ``--cdcl-sample``: cdcl) on a
    sample, the engine on the first."""
    slowest: list[tuple[float, str, int, float]] = []
    for name in set_names(args):
        puzzles = [e.puzzle for e in read(set_file(args, name))][: args.tournament]
        full = time_fresh(puzzles, "probing", False, args.time_limit)
        worst = max(range(len(puzzles)), key=full.seconds.__getitem__)
        slowest.append((sum(full.seconds), name, worst + 1, full.seconds[worst]))
        progress.print(
            f"[dim]{name} probing: {full.solved} solved, {full.check_failures} check fails, "
            f"total {sum(full.seconds):.1f} s, median {statistics.median(full.seconds):.3f} s, "
            f"worst {full.seconds[worst]:.2f} s (#{worst + 1})[/dim]"
        )
        add_row(table, f"{name} (all {len(puzzles)})", "probing", full, None, False)
        for method, count in (("cpsat", args.cpsat_sample), ("cdcl", args.cdcl_sample)):
            if not count:
                continue
            step = max(1, len(puzzles) // count)
            picked = list(range(0, len(puzzles), step))[:count]
            sample = [puzzles[i] for i in picked]
            other = time_fresh(sample, method, False, args.time_limit)
            label = f"{name} (every {step}th, {len(sample)})"
            add_row(table, label, "probing", full.take(picked), None, False)
            add_row(table, "", method, other, full.take(picked), False)
            progress.print(f"[dim]{name} {method} sample: {sum(other.seconds):.1f} s[/dim]")
        if name == "taai2011" and args.engine_sample:
            first = list(range(min(args.engine_sample, len(puzzles))))
            add_row(table, f"{name} (first {len(first)})", "probing", full.take(first), None, False)
            for method in ("gac-astar", "mac"):
                t = time_fresh([puzzles[i] for i in first], method, False, args.engine_limit)
                add_row(table, "", method, t, full.take(first), False)
                progress.print(f"[dim]{name} {method}: {sum(t.seconds):.1f} s[/dim]")
        table.add_section()
    if len(slowest) > 1:
        total, name, number, seconds = max(slowest)
        table.caption = (
            f"{len(slowest)} sets, probing {sum(s[0] for s in slowest):.1f} s in all; slowest set "
            f"{name} ({total:.1f} s), its slowest puzzle #{number} ({seconds:.2f} s)"
        )


def set_names(args: argparse.Namespace) -> list[str]:
    """The tournament sets asked for: ``--sets`` names them, ``all`` is every set found."""
    if args.sets == "all":
        return sorted(p.stem for p in (args.data / "taai" / "question").glob("*.txt"))
    return args.sets.split(",")


def set_file(args: argparse.Namespace, name: str) -> Path:
    return args.data / "taai" / "question" / f"{name}.txt"


def count_nodes(puzzles: list[Nonogram], seed: int, cap: int) -> tuple[int, int, int, float]:
    """Solve every puzzle by probing with ``seed``, each capped at ``cap`` nodes: nodes in all,
    puzzles solved, grids failing their check, seconds in all."""
    nodes = solved = check_failures = 0
    start = time.perf_counter()
    for puzzle in puzzles:
        result = solve_probing(puzzle, Limits(max_nodes=cap), seed=seed)
        nodes += result.stats.expanded
        solved += result.status.has_solution
        check_failures += result.solution is not None and bool(check(puzzle, result.solution))
    return nodes, solved, check_failures, time.perf_counter() - start


def seeds(args: argparse.Namespace, console: Console, progress: Console) -> None:
    """The probing search's nodes on each tournament set for each seed in ``--seeds``."""
    table = Table(title=f"probing nodes by seed, each puzzle capped at {args.seed_node_cap:,}")
    for column in ("set", "seed", "puzzles", "solved", "check fails", "nodes", "vs seed 0", "s"):
        table.add_column(column, justify="left" if column == "set" else "right")
    for name in set_names(args):
        puzzles = [e.puzzle for e in read(set_file(args, name))][: args.tournament]
        reference = None
        for seed in (int(s) for s in args.seeds.split(",")):
            counted = in_fresh_process(count_nodes, puzzles, seed, args.seed_node_cap)
            nodes, solved, check_failures, seconds = counted
            reference = nodes if seed == 0 else reference
            ratio = f"{nodes / reference:.2f}" if reference else "-"
            row = (name, str(seed), str(len(puzzles)), str(solved), str(check_failures))
            table.add_row(*row, f"{nodes:,}", ratio, f"{seconds:.1f}")
            progress.print(f"[dim]{name} seed {seed}: {nodes:,} nodes, {seconds:.1f} s[/dim]")
        table.add_section()
    console.print(table)


def cauldron(args: argparse.Namespace, table: Table, progress: Console) -> None:
    """The 512x512 puzzle, by every method that can take it."""
    puzzles = [e.puzzle for e in read(args.data / CAULDRON)]
    methods = ["probing", "gac-astar", "mac"] + ([] if args.skip_cauldron_cpsat else ["cpsat"])
    reference = None
    for i, method in enumerate(methods):
        t = time_fresh(puzzles, method, False, args.time_limit)
        reference = reference or t
        add_row(table, "" if i else "cauldron 512x512", method, t, reference if i else None, False)
        progress.print(f"[dim]cauldron {method}: {sum(t.seconds):.1f} s[/dim]")
    table.add_section()


def survey(args: argparse.Namespace, console: Console, progress: Console) -> None:
    """Uniqueness of each webpbn-survey puzzle: probing and CP-SAT, one row per puzzle."""
    files = sorted((args.data / SURVEY).glob("*.n[io]n"))
    named = [(f.name, read(f)[0].puzzle) for f in files]
    title = f"{SURVEY}: uniqueness of each puzzle (target <= 0.5 s each)"
    console.print(uniqueness_table(title, named, args, progress))


def large(args: argparse.Namespace, console: Console, progress: Console) -> None:
    """Uniqueness of large puzzles: the 40x40-60x60 puzzles of ``../shared`` and random grids
    of 40x40 to 100x100 at several densities (clues derived, seeded)."""
    files = [*sorted((args.data / "webpbn-cc").glob("*.non")), args.data / CAULDRON]
    named = [(f.name, read(f)[0].puzzle) for f in files]
    rng = random.Random(args.large_seed)
    for side in LARGE_SIDES:
        for density in LARGE_DENSITIES:
            grid = [[rng.random() < density for _ in range(side)] for _ in range(side)]
            named.append((f"random {side}x{side} p={density}", from_grid(grid)))
    title = f"large puzzles: uniqueness, {args.time_limit:g} s limit each (target <= 1 s)"
    console.print(uniqueness_table(title, named, args, progress))


def from_grid(grid: list[list[bool]]) -> Nonogram:
    """The puzzle whose clues are the runs of ``grid`` (rows of filled flags)."""
    columns = [[row[j] for row in grid] for j in range(len(grid[0]))]
    return Nonogram(rows=[clue_of(row) for row in grid], columns=[clue_of(c) for c in columns])


UNIQUENESS_METHODS = ("probing", "cdcl", "sat", "cpsat")
"""The methods that settle uniqueness side by side in :func:`uniqueness_table`."""


def uniqueness_table(
    title: str, named: list[tuple[str, Nonogram]], args: argparse.Namespace, progress: Console
) -> Table:
    """Uniqueness settled by each of :data:`UNIQUENESS_METHODS` (each in a fresh process), one
    row a puzzle, the verdicts compared, and the puzzles another method settles and probing
    does not counted."""
    puzzles = [p for _, p in named]
    runs = {m: time_fresh(puzzles, m, True, args.time_limit) for m in UNIQUENESS_METHODS}
    totals = ", ".join(f"{m} {sum(t.seconds):.2f} s" for m, t in runs.items())
    progress.print(f"[dim]{title}: {totals}")
    table = Table(title=title)
    columns = ["puzzle", "size"]
    for method in UNIQUENESS_METHODS:
        columns += [f"{method} s", f"unique ({method})"]
    for column in (*columns, "agree"):
        table.add_column(column, justify="left" if column == "puzzle" else "right")
    for k, (name, p) in enumerate(named):
        verdicts = {runs[m].verdicts[k] for m in UNIQUENESS_METHODS} - {None}
        agree = "-" if not verdicts else "yes" if len(verdicts) == 1 else "NO"
        cells = [x for t in runs.values() for x in (f"{t.seconds[k]:.3f}", str(t.verdicts[k]))]
        table.add_row(name, f"{p.width}x{p.height}", *cells, agree)
    ours = runs["probing"].verdicts
    missed = sum(
        ours[k] is None and any(t.verdicts[k] is not None for t in runs.values())
        for k in range(len(named))
    )
    blank = ["", ""] * len(runs)
    sums = [cell for t in runs.values() for cell in (f"{sum(t.seconds):.3f}", "")]
    table.add_row("all", "", *sums, "", end_section=True)
    worst = [cell for t in runs.values() for cell in (f"{max(t.seconds):.3f}", "")]
    table.add_row("worst", "", *worst, "")
    table.add_row("settled by another method only", "", str(missed), *blank[1:], "")
    return table


RANDOM_SIDES = (35, 40)
"""``--parts random``: square puzzles of these sides, every cell filled with chance 0.5."""


def random_square(args: argparse.Namespace, console: Console, progress: Console) -> None:
    """Uniqueness of ``--random-count`` random puzzles of each of :data:`RANDOM_SIDES`: clues
    from a random grid at fill 0.5, grid ``i`` of side ``n`` drawn by
    ``random.Random(f"{n}:{i}")``."""
    named = []
    for side in RANDOM_SIDES:
        for i in range(args.random_count):
            rng = random.Random(f"{side}:{i}")
            grid = [[rng.random() < 0.5 for _ in range(side)] for _ in range(side)]
            named.append((f"random {side}x{side} #{i}", from_grid(grid)))
    title = f"random puzzles at fill 0.5: uniqueness, {args.time_limit:g} s limit each"
    console.print(uniqueness_table(title, named, args, progress))


def random_colour(width: int, height: int, fill: float, rng: random.Random) -> ColourNonogram:
    """The clues of a random grid of 2 to 5 colours, each cell coloured with chance ``fill``."""
    colours = rng.randint(2, 5)
    grid = [
        [rng.randint(1, colours) if rng.random() < fill else 0 for _ in range(width)]
        for _ in range(height)
    ]
    rows = [colour_board.clue_of(row) for row in grid]
    columns = [colour_board.clue_of(column) for column in zip(*grid, strict=True)]
    return ColourNonogram(rows, columns, PALETTE[: colours + 1])


def hard_one(puzzle: Nonogram, workers: int, limit: float) -> tuple[str, ...]:
    """Settle the uniqueness of ``puzzle`` by ``probing`` on ``workers`` processes: the table
    cells of the run (status, verdict, nodes, tasks, its own ``stats.seconds``, the wall-clock
    seconds of the call, whether the grid checks)."""
    start = time.perf_counter()
    limits = Limits(time_limit=limit, workers=workers)
    result = solve_probing(puzzle, limits=limits, max_solutions=2)
    seconds = time.perf_counter() - start
    checked = result.solution is None or not check(puzzle, result.solution)
    return (
        result.status.value,
        str(result.proof.get("unique", "-")),
        f"{result.stats.expanded:,}",
        str(result.stats.extra.get("tasks", "-")),
        f"{result.stats.seconds:.2f}",
        f"{seconds:.2f}",
        "yes" if checked else "NO",
    )


def hard(args: argparse.Namespace, console: Console, progress: Console) -> None:
    """Uniqueness of the ``--hard`` puzzles with each number of ``--workers``."""
    table = Table(title=f"hard puzzles, uniqueness, time limit {args.time_limit:g} s")
    columns = ("puzzle", "size", "workers", "status", "unique", "nodes", "tasks", "s", "wall s")
    for column in (*columns, "ok"):
        table.add_column(column, justify="left" if column == "puzzle" else "right")
    for spec in filter(None, args.hard.split(",")):
        _, entries = registry.load(spec, "nonogram")  # FILE#KEY as the command line reads it
        puzzle = entries[0].puzzle
        assert isinstance(puzzle, Nonogram)
        for workers in map(int, args.workers.split(",")):
            cells = in_fresh_process(hard_one, puzzle, workers, args.time_limit)
            progress.print(f"[dim]{spec} on {workers}: {' '.join(cells)}[/dim]")
            size = f"{puzzle.width}x{puzzle.height}"
            table.add_row(Path(spec).name, size, str(workers), *cells)
        table.add_section()
    console.print(table)


def colour(args: argparse.Namespace, console: Console, progress: Console) -> None:
    """Colour puzzles: uniqueness by probing and by CP-SAT, one row per set and method."""
    rng = random.Random(args.colour_seed)
    sets: list[tuple[str, list[Any]]] = [
        ("mushroom, tricolour", [read(f)[0].puzzle for f in COLOUR_FILES])
    ]
    for width, height, fill, count in COLOUR_SETS:
        puzzles = [random_colour(width, height, fill, rng) for _ in range(count)]
        sets.append((f"{width}x{height}, fill {fill:g}", puzzles))
    table = Table(title=f"colour nonograms, uniqueness settled, seed {args.colour_seed}")
    for column in (*COLUMNS, "agree"):
        left = column in ("set", "method")
        table.add_column(column, justify="left" if left else "right", no_wrap=left)
    for label, puzzles in sets:
        mine = time_fresh(puzzles, "probing", True, args.time_limit)
        cpsat = time_fresh(puzzles, "cpsat", True, args.time_limit)
        agree = sum(a == b is not None for a, b in zip(mine.verdicts, cpsat.verdicts, strict=True))
        progress.print(
            f"[dim]{label}: {sum(mine.seconds):.2f} s, cpsat {sum(cpsat.seconds):.2f} s[/dim]"
        )
        add_row(table, label, "probing", mine, None, True, f"{agree}/{len(puzzles)}")
        add_row(table, "", "cpsat", cpsat, mine, True, "")
        table.add_section()
    console.print(table)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", default=",".join(TOURNAMENT), help="tournament sets to run, or all"
    )
    parser.add_argument("--tournament", type=int, default=1000, help="first N of each set")
    parser.add_argument("--cpsat-sample", type=int, default=50, help="CP-SAT on N of each set")
    parser.add_argument("--cdcl-sample", type=int, default=0, help="cdcl on N of each set")
    parser.add_argument("--engine-sample", type=int, default=50, help="gac-astar, mac on N")
    parser.add_argument("--engine-limit", type=float, default=20.0, help="their s per puzzle")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle")
    parser.add_argument("--skip-cauldron-cpsat", action="store_true")
    parser.add_argument(
        "--parts",
        default="tournament,cauldron,survey,colour",
        help="and: seeds, large, random, hard",
    )
    parser.add_argument("--large-seed", type=int, default=1, help="random grids of large")
    parser.add_argument("--random-count", type=int, default=10, help="for --parts random")
    parser.add_argument("--seeds", default="0,1000,2000,3000,4000", help="for --parts seeds")
    parser.add_argument("--seed-node-cap", type=int, default=60000, help="nodes per puzzle")
    parser.add_argument("--data", type=Path, default=DATA, help="shared nonogram data folder")
    parser.add_argument("--colour-seed", type=int, default=2026, help="of the colour sets")
    parser.add_argument("--hard", default="", help="for --parts hard: FILE or FILE#KEY, ...")
    parser.add_argument("--workers", default="1,2", help="for --parts hard: process counts")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))

    console, progress = Console(width=max(120, Console().width)), Console(stderr=True)
    console.print(
        f"machine: {platform.platform()}, {platform.processor() or '?'}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average at start {os.getloadavg()[0]:.2f}"
    )
    console.print(f"command: python {shlex.join(sys.argv)}")
    console.print(f"code: {revision()}")
    table = Table(title=f"nonogram, first solution, time limit {args.time_limit:g} s per puzzle")
    for column in COLUMNS:
        left = column in ("set", "method")
        table.add_column(column, justify="left" if left else "right", no_wrap=left)
    if "tournament" in parts:
        tournament(args, table, progress)
    if "cauldron" in parts:
        cauldron(args, table, progress)
    if parts & {"tournament", "cauldron"}:
        console.print(table)
    if "survey" in parts:
        survey(args, console, progress)
    if "large" in parts:
        large(args, console, progress)
    if "seeds" in parts:
        seeds(args, console, progress)
    if "colour" in parts:
        colour(args, console, progress)
    if "random" in parts:
        random_square(args, console, progress)
    if "hard" in parts:
        hard(args, console, progress)
    console.print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
