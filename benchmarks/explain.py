"""What an explanation costs: ``explain`` beside ``solve`` on the same puzzles, per kind.

For every set, each puzzle is solved by the kind's default method (``tasks.solve``) and then
explained (``tasks.explain``), both timed in this process after a warm-up (compiled kernels and
pattern databases loaded first); the table gives the totals and their ratio. The target of the
nonogram row (the tournament set ``tcga2022``) is an explanation costing at most 3x the solve.

Sets: ``tcga2022`` (the first ``--count`` of the 1000 tournament puzzles of
``../shared/data/nonogram/taai/question``; ``instances/nonogram/tournament-sample.txt`` when
that folder is absent), the Rush Hour database sample (``../shared/data/rushhour/
db_sample.txt``), and the shipped instances of every kind (Korf's 15-puzzles among them).

Run from the repository root::

    python benchmarks/explain.py                 # ~1 min here
    python benchmarks/explain.py --count 200 --kinds nonogram
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cspsolve import registry, tasks
from cspsolve.kind import Kind

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
TOURNAMENT = SHARED / "nonogram" / "taai" / "question" / "tcga2022.txt"


def sets(count: int) -> list[tuple[str, str, list[Path]]]:
    """(kind, label, files) of every set measured."""
    tournament = TOURNAMENT
    if not TOURNAMENT.exists():
        tournament = ROOT / "instances/nonogram/tournament-sample.txt"
        print(f"{TOURNAMENT} is absent: the nonogram row runs the shipped sample instead")
    database = SHARED / "rushhour" / "db_sample.txt"
    out = [("nonogram", tournament.stem, [tournament])]
    if database.exists():
        out.append(("rushhour", "db_sample", [database]))
    for kind in ("nonogram", "lightsout", "rushhour", "npuzzle"):
        shipped = sorted(
            p for p in (ROOT / "instances" / kind).iterdir() if p.suffix not in {".md", ""}
        )
        out.append((kind, "instances", [p for p in shipped if not p.name.startswith("LICENSE")]))
    return [(kind, label, files) for kind, label, files in out if files]


def puzzles(kind: str, files: list[Path], count: int) -> Iterator[Any]:
    """The first ``count`` puzzles of ``files`` (every one when ``count`` is 0)."""
    taken = 0
    for path in files:
        for entry in registry.load(str(path), kind)[1]:
            if count and taken >= count:
                return
            taken += 1
            yield entry.puzzle


def timed(kind: Kind, puzzle: Any, explain: bool) -> float:
    start = time.perf_counter()
    if explain:
        tasks.explain(kind, puzzle)
    else:
        tasks.solve(kind, puzzle)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="Puzzles a set at most (0: all).")
    parser.add_argument("--kinds", default="nonogram,lightsout,rushhour,npuzzle")
    args = parser.parse_args()
    wanted = set(args.kinds.split(","))
    table = Table(title="explain beside solve (default method, seconds in this process)")
    for column in ("kind", "set", "puzzles", "solve s", "explain s", "explain / solve"):
        table.add_column(column, justify="right" if column.endswith(("s", "solve")) else "left")
    for name, label, files in sets(args.count):
        if name not in wanted:
            continue
        kind = registry.get(name)
        chosen = list(puzzles(name, files, args.count))
        for explain in (False, True):  # warm up: compiled kernels, databases
            timed(kind, chosen[0], explain)
        solved = sum(timed(kind, p, False) for p in chosen)
        explained = sum(timed(kind, p, True) for p in chosen)
        ratio = f"{explained / solved:.1f}x"
        table.add_row(name, label, str(len(chosen)), f"{solved:.2f}", f"{explained:.2f}", ratio)
    Console().print(table)


if __name__ == "__main__":
    main()
