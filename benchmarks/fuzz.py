"""Long differential fuzzing: every method of every kind against its independent oracle.

Draws random instances from each kind's ``tests/models/<kind>/differential.py``, a module of the
protocol :class:`tests.fuzzing.Differential` (the same generators and oracles the test suite
uses with a few hundred fixed cases), and prints a table of cases and disagreements per kind
and method, then the first disagreements found with the instance that caused them.

Usage::

    python benchmarks/fuzz.py                      # 10,000 cases per kind
    python benchmarks/fuzz.py --cases 500 --kinds nonogram,lightsout --seed 7

Exit code 1 when any method disagreed with its oracle.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cspsolve import registry

if TYPE_CHECKING:
    from tests.fuzzing import Differential

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tally:
    """Cases and disagreements of one kind, per method."""

    cases: int = 0
    runs: Counter[str] = field(default_factory=Counter)
    wrong: Counter[str] = field(default_factory=Counter)
    examples: list[tuple[str, str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def differential(kind: str) -> Differential:
    """The kind's ``differential`` module of the test suite (the checkout's ``tests`` folder is
    on ``sys.path`` only while it is imported: ``cspsolve`` stays the installed package)."""
    sys.path.insert(0, str(ROOT))
    try:
        from tests.fuzzing import differential_of

        return differential_of(kind)
    finally:
        sys.path.remove(str(ROOT))


def fuzz(kind: str, cases: int, seed: int, show: int) -> Tally:
    """Check ``cases`` random instances of ``kind`` (hypothesis, generation only)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fix_seed

    module = differential(kind)
    tally = Tally()
    started = time.perf_counter()

    @fix_seed(seed)
    @settings(
        max_examples=cases,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(module.cases())
    def one(case: Any) -> None:
        verdicts = module.check(case)
        tally.cases += 1
        for method, why in verdicts.items():
            tally.runs[method] += 1
            if why is not None:
                tally.wrong[method] += 1
                if len(tally.examples) < show:
                    tally.examples.append((method, why, case))
        if tally.cases % 100 == 0:
            print(f"  {kind}: {tally.cases:,} cases", file=sys.stderr, flush=True)

    one()
    tally.seconds = time.perf_counter() - started
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per kind (10,000)")
    parser.add_argument(
        "--kinds", default=",".join(registry.names()), help="comma-separated kinds (every kind)"
    )
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (0)")
    parser.add_argument("--show", type=int, default=5, help="disagreements shown per kind (5)")
    args = parser.parse_args()

    from rich.console import Console
    from rich.table import Table

    tallies = {}
    for kind in args.kinds.split(","):
        print(f"{kind}: {args.cases:,} cases, seed {args.seed}", file=sys.stderr, flush=True)
        tallies[kind] = fuzz(kind, args.cases, args.seed, args.show)
    table = Table(title=f"differential fuzzing, seed {args.seed}")
    for name in ("kind", "method", "cases", "disagreements", "seconds (kind)"):
        table.add_column(name, justify="left" if name in ("kind", "method") else "right")
    for kind, tally in tallies.items():
        for method in sorted(tally.runs):
            table.add_row(
                kind,
                method,
                f"{tally.runs[method]:,}",
                f"{tally.wrong[method]:,}",
                f"{tally.seconds:,.0f}",
            )
        table.add_section()
    console = Console()
    console.print(table)
    for kind, tally in tallies.items():
        for method, why, case in tally.examples:
            console.print(f"{kind} {method}: {why}\n  case: {case!r}", markup=False)
    return 1 if any(t.wrong for t in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
