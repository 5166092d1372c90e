"""``cspsolve methods``: every kind with its methods, options and reference."""

from __future__ import annotations

import json
from typing import Any

import click

from cspsolve import registry
from cspsolve.cli.options import kind_flags
from cspsolve.cli.output import console, say
from cspsolve.cli.tables import NOTHING, cell, table
from cspsolve.kind import Kind


@click.command()
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text: a table per kind; json: one object per kind (JSON Lines); markdown: one "
    "table of every method (as in docs/design.md).",
)
def methods(output: str) -> None:
    """List every puzzle kind: its methods with their heuristics (the first is the default),
    whether their answers are proven optimal and whether they are complete, what computes
    them, which is the default; the kind's own options, the reference method of 'verify' and
    what 'analyze' reports.

    \b
    Examples:
      cspsolve methods
      cspsolve methods --format markdown
    """
    if output == "markdown":
        click.echo(registry.method_table(), nl=False)
        return
    for kind in registry.kinds().values():
        if output == "json":
            click.echo(json.dumps(_kind_record(kind)))
        else:
            _print_kind(kind)


def _yes(value: bool | None) -> str:
    return NOTHING if value is None else cell(value)


def _kind_record(kind: Kind) -> dict[str, Any]:
    """What ``cspsolve methods`` says of a kind, as JSON-ready data."""
    rows = [
        {
            "method": m.name,
            "heuristics": list(m.heuristics),
            "optimal": m.optimal,
            "complete": m.complete,
            "backend": m.backend,
            "default": m.default if isinstance(m.default, bool) else "for some puzzles",
            "summary": m.summary,
        }
        for m in kind.methods
    ]
    flags = [kind_flags()[name].flag for name in kind.option_names]
    return {
        "kind": kind.name,
        "title": kind.title,
        "extensions": sorted(kind.extensions),
        "options": flags,
        "reference": kind.reference,
        "analysis": kind.analysis,
        "methods": rows,
    }


def _method_cells(row: dict[str, Any]) -> tuple[str, ...]:
    """A method's row of the kind's table, from its record (:func:`_kind_record`)."""
    default = row["default"] if isinstance(row["default"], str) else _yes(row["default"])
    heuristics = ", ".join(row["heuristics"]) or NOTHING
    optimal, complete = _yes(row["optimal"]), _yes(row["complete"])
    return row["method"], heuristics, optimal, complete, row["backend"], default


def _print_kind(kind: Kind) -> None:
    """A table of the kind's methods, then what each computes and the kind's options."""
    record = _kind_record(kind)
    header = ["method", "heuristics", "optimal", "complete", "backend", "default"]
    rows = [_method_cells(row) for row in record["methods"]]
    console().print(table(f"{kind.name} ({kind.title})", header, rows))
    for row in record["methods"]:
        say(f"  {row['method']}: {row['summary']}")
    say(f"  options: {', '.join(record['options']) or 'none'}")
    say(f"  verify checks against: {record['reference']}")
    say(f"  analyze reports: {kind.analysis}\n")
