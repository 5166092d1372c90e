"""``cspsolve compare``: every method and heuristic on each puzzle, tabulated or plotted."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import deque
from collections.abc import Iterator
from typing import Any

import click

from cspsolve import tasks
from cspsolve.cli.exits import EXIT_OK, worst
from cspsolve.cli.images import check_image_name
from cspsolve.cli.options import (
    KindCommand,
    Run,
    Seconds,
    format_option,
    kind_option,
    parallel_options,
    request_options,
    with_options,
    with_workers,
)
from cspsolve.cli.output import STATUS_STYLE, console, fail, say
from cspsolve.cli.puzzles import Puzzle, read_puzzles, worked
from cspsolve.cli.tables import NOTHING, cell, significant, table
from cspsolve.errors import OptionError
from cspsolve.results import Result
from cspsolve.tasks import Request


@click.command(cls=KindCommand)
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@kind_option
@click.option(
    "--methods",
    metavar="M1,M2,...",
    help="Only these methods (comma-separated; default: every method that suits the puzzle).",
)
@click.option(
    "--heuristics",
    metavar="H1,H2,...",
    help="Only these heuristics (comma-separated; default: every heuristic).",
)
@request_options(choose_method=False)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Limit of each run.",
)
@click.option(
    "--max-nodes", type=click.IntRange(min=0), metavar="N", help="Node limit of each run."
)
@format_option
@with_options(parallel_options)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    metavar="OUT.png|OUT.svg",
    help="Also plot expanded nodes and seconds per method and heuristic (log scale).",
)
def compare(
    files: tuple[str, ...],
    kind: str | None,
    methods: str | None,
    heuristics: str | None,
    request: Request,
    time_limit: float | None,
    max_nodes: int | None,
    output: str,
    workers: int | None,
    scheduler: str | None,
    plot: str | None,
) -> None:
    """Run every method and heuristic on each puzzle and tabulate the effort.

    Columns: status, cost, expanded, generated, max frontier, depth, seconds. Each run stops
    at --time-limit (status "limit"). On a terminal, stderr shows which run goes (run k of n)
    with live counters. With --format json: one object per run (JSON Lines).

    \b
    Examples:
      cspsolve compare instances/rushhour/walls.rh
      cspsolve compare instances/npuzzle/worst8.json --methods astar,idastar --heuristics pdb
      cspsolve compare instances/lightsout/classic-5x5.lo --time-limit 5 --plot effort.png
    """
    run = with_workers(Run(kind, request, time_limit, max_nodes, output), workers, scheduler)
    wanted_methods = _split(methods)
    wanted_heuristics = _split(heuristics)
    if plot is not None:
        check_image_name(plot, (".png", ".svg"))
    codes: list[int] = []
    plotted: list[tuple[str, str, float, float]] = []
    names: deque[str] = deque()
    """The spinner's label of each run to come, in the order they run."""

    def asked() -> Iterator[tuple[Puzzle, list[Request]]]:
        """Each puzzle with a request per method and heuristic to run on it."""
        for puzzle in read_puzzles(files, run, codes):
            try:
                pairs = tasks.comparisons(
                    puzzle.kind, puzzle.puzzle, methods=wanted_methods, heuristics=wanted_heuristics
                )
            except OptionError as e:
                fail(f"--methods/--heuristics: {e}")
            if not pairs:
                fail(f"{puzzle.title}: no method/heuristic pair matches --methods/--heuristics")
            names.extend(_progress_labels(puzzle, pairs))
            yield (
                puzzle,
                [dataclasses.replace(run.request, method=m, heuristic=h) for m, h in pairs],
            )

    for puzzle, outcomes in worked(asked(), run, codes, tasks.solve, lambda _: names.popleft()):
        rows = []
        for result in outcomes:
            if result is not None:
                rows.append(result)
                label = tasks.run_name(result.method, result.heuristic)
                plotted.append((puzzle.title, label, result.stats.expanded, result.stats.seconds))
                if output == "json":
                    click.echo(
                        json.dumps({**puzzle.record(), **result.to_json(puzzle.kind.encode)})
                    )
        if output == "text":
            _print_comparison(puzzle, rows)
        codes.append(EXIT_OK)
    if plot is not None and plotted:
        from cspsolve.render import plot_comparison

        try:
            plot_comparison(plotted, plot)
        except OSError as e:
            fail(f"{plot}: {e}")
        if output == "text":
            say(f"plot: {plot}")
    sys.exit(worst(codes))


def _progress_labels(puzzle: Puzzle, pairs: list[tuple[str, str | None]]) -> list[str]:
    """What the spinner says during each run of ``pairs`` on ``puzzle``: which run of how
    many, by which method and heuristic."""
    return [
        f"comparing {puzzle.title}: {tasks.run_name(m, h)} ({k} of {len(pairs)})"
        for k, (m, h) in enumerate(pairs, 1)
    ]


def _split(names: str | None) -> set[str] | None:
    return None if names is None else {n.strip() for n in names.split(",") if n.strip()}


def _print_comparison(puzzle: Puzzle, results: list[Result[Any]]) -> None:
    header = ["method / heuristic", "status", "cost", "expanded", "generated"]
    header += ["frontier", "depth", "seconds"]
    rows = [_comparison_row(r) for r in results]
    styles = [STATUS_STYLE[r.status] for r in results]
    title = f"{puzzle.title}: {puzzle.kind.describe(puzzle.puzzle)}"
    console().print(table(title, header, rows, styles))


def _comparison_row(result: Result[Any]) -> list[str]:
    """One run's row of the comparison: its counts with thousands separators, its seconds to
    three significant digits, ``-`` for the cost of a run without a solution."""
    s = result.stats
    run = result.method + (f" / {result.heuristic}" if result.heuristic else "")
    cost = cell(s.cost) if result.status.has_solution else NOTHING
    counts = (s.expanded, s.generated, s.max_frontier, s.depth)
    return [run, result.status.value, cost, *map(cell, counts), significant(s.seconds)]
