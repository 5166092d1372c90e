"""``cspsolve warm``: compile every kernel ahead of a first run (:mod:`cspsolve.warming`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from cspsolve import registry
from cspsolve.cli.options import output_option
from cspsolve.cli.output import say
from cspsolve.render import plural
from cspsolve.warming import Warmed, warm


@click.command("warm")
@click.argument("kinds", nargs=-1, type=click.Choice(registry.names()), metavar="[KIND]...")
@output_option("text: one line per kind; json: one JSON object per kind (JSON Lines).")
def warm_command(kinds: tuple[str, ...], output: str) -> None:
    """Compile the kernels of every kind (or the KINDs named) ahead of their first run.

    numba compiles a kind's kernels the first time a command needs them, once per install
    (up to about 20 s for the nonogram kernels), and loads them from its cache after. Run
    this once after installing, before timing anything or handing the machine to others; a
    second run only loads the cached code. It runs each kind's shipped samples through
    solve (every compiled method), explain and analyze, each within 10 s.

    \b
    Examples:
      cspsolve warm
      cspsolve warm nonogram rushhour
      cspsolve warm --format json
    """
    for name in kinds or registry.kinds():
        with _status() as progress:
            [warmed] = warm([name], progress=progress)
        if output == "json":
            click.echo(json.dumps(vars(warmed)))
        else:
            say(_line(warmed))


def _line(warmed: Warmed) -> str:
    """``nonogram: 12 runs, 41 kernels compiled in 59.4 s`` or ``... loaded from the cache``."""
    done = (
        f"{plural(warmed.compiled, 'kernel')} compiled"
        if warmed.compiled
        else "kernels loaded from numba's cache"
    )
    return f"{warmed.kind}: {plural(warmed.runs, 'run')}, {done} in {warmed.seconds:.1f} s"


@contextmanager
def _status() -> Iterator[Callable[[str], None] | None]:
    """A spinner on stderr naming the run under way, when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    with Console(stderr=True).status("warming") as status:
        yield lambda name: status.update(f"warming {name}")
