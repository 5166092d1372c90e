"""Lights Out benchmarks (targets: docs/benchmarks.md).

1. Random solvable sigma-plus boards (random presses on a dark board) at n = 100, 1000,
   10 000: one solution by light chasing in GF(2)[x]/(f_n), checked by the independent
   row-by-row checker.
2. Proven minimum presses of the all-on n x n sigma-plus boards for every n <= N (default 40),
   with the total time; each board gets --time-limit seconds (enumeration, then CP-SAT for a
   null space too large to enumerate) and is marked "not proven" unless settled in time;
   with --budget the boards stop when the total reaches it (the largest n up to which every
   board is proven is printed).
3. A* (packing heuristic) vs algebra vs CP-SAT on random solvable boards 5x5 ... 11x11.
4. Big all-on boards (default 991, nullity 640, and 2048): nullity, and the minimum-press search
   under --big-limit seconds (a valid answer at once, improved by local search in the time),
   with the run's own stats.seconds, which must stay within the limit + 0.5 s.

Usage: python benchmarks/lightsout.py [--sizes 100,1000,10000] [--allon 40] [--compare 11]
       [--big 991,2048] [--big-limit 5] [--time-limit 120] [--budget S]
"""

from __future__ import annotations

import argparse
import random
import time

from cspsolve.limits import Limits
from cspsolve.models.lightsout import algebra, cpsat, search
from cspsolve.models.lightsout.board import LightsOut, apply, check


def random_solvable(n: int, variant: str, rng: random.Random) -> LightsOut:
    dark = LightsOut((0,) * n, n, variant)
    presses = tuple(rng.getrandbits(n) for _ in range(n))
    return dark.with_lights(apply(dark, presses))


def large(sizes: list[int]) -> None:
    print("| n | cells | nullity | solve s | check s | target s |")
    print("|---:|---:|---:|---:|---:|---:|")
    rng = random.Random(1)
    for n in sizes:
        puzzle = random_solvable(n, "sigma-plus", rng)
        t = time.perf_counter()
        found = algebra.solve(puzzle)
        solve_s = time.perf_counter() - t
        assert found.presses is not None
        t = time.perf_counter()
        assert check(puzzle, found.presses) == []
        check_s = time.perf_counter() - t
        target = {1000: "1", 10000: "20"}.get(n, "-")
        print(f"| {n} | {n * n:,} | {found.nullity} | {solve_s:.3f} | {check_s:.3f} | {target} |")


def all_on(limit: int, time_limit: float, budget: float | None) -> None:
    print("| n | nullity | min presses | proven | s |")
    print("|---:|---:|---:|---|---:|")
    total, unproven, reached = 0.0, [], 0
    for n in range(1, limit + 1):
        left = time_limit if budget is None else min(time_limit, budget - total)
        if left <= 0:
            break
        puzzle = LightsOut(((1 << n) - 1,) * n, n)
        t = time.perf_counter()
        result = algebra.minimum(puzzle, limits=Limits(time_limit=left))
        seconds = time.perf_counter() - t
        total += seconds
        assert result.solution is not None and check(puzzle, result.solution) == []
        proven = result.proof["minimum"]
        if not proven:
            unproven.append(n)
        elif not unproven:
            reached = n
        print(
            f"| {n} | {result.proof['nullity']} | {int(result.stats.cost)} | "
            f"{'yes' if proven else 'no'} | {seconds:.2f} |"
        )
    print(
        f"\nall-on n = 1..{limit}: {total:.1f} s total (target 60 s for n <= 40); "
        f"every n <= {reached} proven; not proven: {unproven}"
    )


def compare(largest: int) -> None:
    columns = ["n", "presses", "algebra s", "A* s", "A* expanded", "CP-SAT s"]
    print("| " + " | ".join([*columns, "A*/algebra", "CP-SAT/algebra"]) + " |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    rng = random.Random(5)
    for n in range(5, largest + 1):
        puzzle = random_solvable(n, "sigma-plus", rng)
        t = time.perf_counter()
        exact = algebra.minimum(puzzle)
        a_s = time.perf_counter() - t
        t = time.perf_counter()
        star = search.solve(puzzle, method="astar", name="packing", limits=Limits(time_limit=120))
        s_s = time.perf_counter() - t
        t = time.perf_counter()
        sat = cpsat.solve(puzzle, limits=Limits(time_limit=120))
        c_s = time.perf_counter() - t
        costs = {exact.stats.cost, star.stats.cost, sat.stats.cost}
        note = "" if len(costs) == 1 else f" (costs {sorted(costs)}; {star.status}, {sat.status})"
        print(
            f"| {n} | {int(exact.stats.cost)}{note} | {a_s:.4f} | {s_s:.3f} | "
            f"{star.stats.expanded:,} | {c_s:.3f} | {s_s / a_s:,.0f} | {c_s / a_s:,.0f} |"
        )


def big(sizes: list[int], time_limit: float) -> None:
    print("| n | nullity | nullity s | presses | proven | minimum s | stats s | limit s |")
    print("|---:|---:|---:|---:|---|---:|---:|---:|")
    for n in sizes:
        puzzle = LightsOut(((1 << n) - 1,) * n, n)
        t = time.perf_counter()
        d = algebra.nullity(puzzle)
        null_s = time.perf_counter() - t
        t = time.perf_counter()
        result = algebra.minimum(puzzle, limits=Limits(time_limit=time_limit))
        min_s = time.perf_counter() - t
        assert result.solution is not None and check(puzzle, result.solution) == []
        proven = "yes" if result.proof["minimum"] else "no"
        print(
            f"| {n} | {d} | {null_s:.3f} | {int(result.stats.cost):,} | {proven} | "
            f"{min_s:.2f} | {result.stats.seconds:.2f} | {time_limit:g} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--allon", type=int, default=40)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds for all the all-on boards together"
    )
    parser.add_argument("--compare", type=int, default=11)
    parser.add_argument("--big", default="991,2048")
    parser.add_argument("--big-limit", type=float, default=5.0)
    args = parser.parse_args()
    large([int(s) for s in args.sizes.split(",") if s])
    print()
    all_on(args.allon, args.time_limit, args.budget)
    print()
    compare(args.compare)
    print()
    big([int(s) for s in args.big.split(",") if s], args.big_limit)


if __name__ == "__main__":
    main()
