"""The nonogram explanations as proofs: how long each is and whether any guess stands.

For every puzzle of the sets below, ``tasks.explain`` runs with the default method and a time
limit per puzzle (``--time-limit``), after a warm-up that loads the compiled kernels. The
table gives, per puzzle, its grade and verdict, the steps, the refutations and their steps,
the guesses left standing at the end (guesses less backtracks: 0 for a complete proof), and
the seconds of ``explain`` beside those of ``solve`` (``--unique``) and their ratio.

Sets: the webpbn survey and Creative Commons puzzles of ``../shared/data/nonogram``
(``webpbn-survey``, ``webpbn-cc``, ``large``), the TAAI 2011 puzzles that need probes of depth
2 (``taai/question/taai2011.txt``), and the shipped ``instances/nonogram``; a set whose folder
is absent is left out, and said so.

Run from the repository root::

    python benchmarks/explain_proofs.py                 # ~1 min here
    python benchmarks/explain_proofs.py --time-limit 120
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
from cspsolve.limits import Limits

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "nonogram"
FOLDERS = ("webpbn-survey", "webpbn-cc", "large")
TAAI = DATA / "taai" / "question" / "taai2011.txt"
TAAI_DEEP = (66,)
"""The TAAI 2011 puzzles whose explanation needs probes of depth 2."""


COLUMNS = (
    "puzzle", "size", "grade", "verdict", "steps", "refutations", "refutation steps",
    "guesses standing", "explain s", "solve s", "ratio",
)  # fmt: skip


def puzzles() -> Iterator[tuple[str, Any]]:
    """(name, puzzle) of every set measured."""
    files = [p for folder in FOLDERS for p in sorted((DATA / folder).glob("*.n[io]n"))]
    if not files:
        print(f"{DATA} is absent: only the shipped instances are measured")
    files += sorted((ROOT / "instances" / "nonogram").glob("*.n[io]n"))
    for path in files:
        _, entries = registry.load(str(path))
        for entry in entries:
            yield path.stem, entry.puzzle
    if TAAI.exists():
        for number in TAAI_DEEP:
            _, entries = registry.load(f"{TAAI}#{number}")
            yield f"taai2011#{number}", entries[0].puzzle


def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = call(*args, **kwargs)
    return out, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    kind = registry.kinds()["nonogram"]
    limits = Limits(time_limit=args.time_limit)
    unique = tasks.Request(options={"unique": True})
    warm = next(puzzles())[1]
    tasks.explain(kind, warm, limits=limits)
    table = Table(title=f"nonogram explanations as proofs (time limit {args.time_limit:g} s)")
    for column in COLUMNS:
        table.add_column(column, justify="left" if column in ("puzzle", "grade") else "right")
    standing = 0
    for name, puzzle in puzzles():
        why, explaining = timed(tasks.explain, kind, puzzle, limits=limits)
        _, solving = timed(tasks.solve, kind, puzzle, request=unique, limits=limits)
        summary = why.summary
        left = summary["guesses"] - summary["backtracks"]
        standing += left
        table.add_row(
            name, f"{puzzle.width}x{puzzle.height}", str(summary["grade"]),
            str(summary["verdict"]), str(summary["steps"]), str(summary.get("refutations", 0)),
            str(summary.get("refutation steps", 0)), str(left), f"{explaining:.3f}",
            f"{solving:.3f}", f"{explaining / max(solving, 1e-6):.1f}",
        )  # fmt: skip
    Console(width=150).print(table)
    print(f"guesses standing over every explanation: {standing}")


if __name__ == "__main__":
    main()
