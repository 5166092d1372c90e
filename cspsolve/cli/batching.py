"""``cspsolve batch``: many puzzles through a pool into a SQLite file, and the totals of
one."""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING

import click

from cspsolve import registry
from cspsolve.cli.exits import EXIT_INTERNAL
from cspsolve.cli.options import (
    KindCommand,
    check_request,
    exclusive,
    limit_options,
    output_option,
    request_options,
    scheduler_option,
    with_options,
)
from cspsolve.cli.output import bar, console, fail, say
from cspsolve.cli.puzzles import open_pool
from cspsolve.cli.tables import cell, significant, table
from cspsolve.tasks import Request

if TYPE_CHECKING:
    from cspsolve.batch import Store


@click.command(cls=KindCommand)
@click.argument("paths", nargs=-1, metavar="PATH...")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    metavar="RESULTS.sqlite",
    help="The SQLite file of results (created if missing; jobs already in it are skipped).",
)
@click.option(
    "--summary",
    "summary_of",
    type=click.Path(dir_okay=False),
    metavar="RESULTS.sqlite",
    help="Run nothing: print the totals of a results file by kind and status.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="N",
    help="Processes of the local pool (default: the number of cores).",
)
@scheduler_option
@click.option(
    "--shard",
    metavar="K/N",
    help="Only the K-th of N shares of the puzzles (1 <= K <= N), for job arrays.",
)
@click.option(
    "--kind",
    type=click.Choice(registry.names()),
    help="Only files of this kind (others are skipped with a note).",
)
@request_options()
@with_options(limit_options)
@output_option("How to print the final summary (json: one object).")
def batch(
    paths: tuple[str, ...],
    out: str | None,
    summary_of: str | None,
    workers: int | None,
    scheduler: str | None,
    shard: str | None,
    kind: str | None,
    request: Request,
    time_limit: float | None,
    max_nodes: int | None,
    output: str,
) -> None:
    """Solve every puzzle under PATH... (folders walked) and store the results in SQLite.

    One row per puzzle (every puzzle of a multi-puzzle file; an id that repeats in its file
    becomes ID@POSITION) in the table 'results', committed as it arrives; a re-run with the
    same options skips the rows already there, so a killed batch resumes where it stopped.
    Files no kind recognises, and a file reached a second time, are skipped with a note; files
    that cannot be read become rows with status 'error' whose error names the file.
    --time-limit applies to each puzzle.

    \b
    Examples:
      cspsolve batch puzzles/ --out results.sqlite --time-limit 60
      cspsolve batch puzzles/ --out part3.sqlite --shard 3/10
      cspsolve batch puzzles/ --out results.sqlite --scheduler tcp://10.0.0.5:8786
      cspsolve batch --summary results.sqlite

    Exit codes: 0 every job has its row (see its status and error), 2 bad usage, 70 a worker
    died (the rows stored are kept: run again to resume).
    """
    if summary_of is not None:
        if paths or out:
            fail("--summary prints a results file; give it no PATH or --out")
        _print_totals(summary_of, output)
        return
    if not paths or out is None:
        fail("batch needs PATH... and --out RESULTS.sqlite (or --summary RESULTS.sqlite)")
    exclusive(workers, scheduler)
    from cspsolve import batch as batches

    plan = batches.plan(
        paths,
        [request],
        kind=kind,
        time_limit=time_limit,
        max_nodes=max_nodes,
        shard=_shard(shard),
    )
    for note in plan.skipped:
        click.echo(f"cspsolve: skipped {note}", err=True)
    for found in sorted({job.kind for job in plan.jobs if job.kind is not None}):
        check_request(registry.get(found), request)
    store = _store(out)
    todo = store.todo(plan.jobs)
    statuses: dict[str, int] = {}
    with open_pool(workers, scheduler) as executor, bar(len(todo), output) as advance:

        def arrived(outcome: batches.Outcome) -> None:
            statuses[outcome.status] = statuses.get(outcome.status, 0) + 1
            advance(1)

        try:
            batches.run(todo, executor, store, on_outcome=arrived)
        except BrokenExecutor as e:
            click.echo(f"cspsolve: a worker died ({e}); rows stored are kept: run again", err=True)
            sys.exit(EXIT_INTERNAL)
    summary = {
        "out": out,
        "jobs": len(plan.jobs),
        "ran": sum(statuses.values()),
        "already_done": len(plan.jobs) - len(todo),
        "files_skipped": len(plan.skipped),
        "statuses": dict(sorted(statuses.items())),
    }
    if output == "json":
        click.echo(json.dumps(summary))
    else:
        counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "nothing new"
        say(
            f"{out}: ran {summary['ran']} of {summary['jobs']} jobs ({counts}); "
            f"{summary['already_done']} already done, {summary['files_skipped']} files skipped"
        )


def _shard(spec: str | None) -> tuple[int, int]:
    """``"K/N"`` (1-based, from the command line) → ``(K - 1, N)``; exit 2 when malformed."""
    if spec is None:
        return (0, 1)
    k, _, n = spec.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        fail(f"--shard {spec}: expected K/N with 1 <= K <= N, e.g. 3/10")
    return (int(k) - 1, int(n))


def _store(path: str) -> Store:
    """Open the results file; exit 2 when it cannot be."""
    import sqlite3

    from cspsolve.batch import Store

    try:
        return Store(path)
    except sqlite3.Error as e:
        fail(f"{path}: not a usable SQLite file ({e})")


def _print_totals(path: str, output: str) -> None:
    """Rows of a results file by kind and status, as a table or JSON."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    store = _store(path)
    try:
        totals = store.totals()
    finally:
        store.close()
    if output == "json":
        keys = ("kind", "status", "count", "seconds")
        click.echo(json.dumps([dict(zip(keys, row, strict=True)) for row in totals]))
        return
    rows = [
        [kind, status, cell(count), significant(seconds)] for kind, status, count, seconds in totals
    ]
    everything = [
        "all",
        "",
        cell(sum(t[2] for t in totals)),
        significant(sum(t[3] for t in totals)),
    ]
    console().print(table(path, ["kind", "status", "puzzles", "seconds"], [*rows, everything]))
