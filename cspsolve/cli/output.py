"""What the command prints: styled lines on stdout (plain text when piped), one-line
errors on stderr, a spinner and a progress bar on stderr when it is a terminal."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import click

from cspsolve.cli.exits import EXIT_BAD_INPUT
from cspsolve.results import Stats, Status

if TYPE_CHECKING:
    from rich.console import Console


STATUS_STYLE = {
    Status.SOLVED: "bold green",
    Status.OPTIMAL: "bold green",
    Status.UNSOLVABLE: "bold red",
    Status.LIMIT: "bold yellow",
    Status.CANCELLED: "bold yellow",
}


@functools.cache
def console() -> Console:
    """The rich console for text output on stdout (plain text when piped)."""
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


def terminal() -> bool:
    """Whether text goes to a terminal (or ``FORCE_COLOR`` asks for colours anyway)."""
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


def say(text: str, style: str | None = None) -> None:
    """Print a line of text: styled by rich on a terminal, else as plain text with no ANSI
    code (a drawing may colour its cells with them), which costs no wrapping or markup."""
    if not terminal():
        click.echo(text, color=False)
        return
    from rich.text import Text

    console().print(Text.from_ansi(text), style=style)


def announce(sentence: str) -> None:
    """Tell the user on stderr what a long piece of work will take (e.g. a GIF's frames)."""
    click.echo(f"cspsolve: {sentence}", err=True)


def fail(message: str) -> NoReturn:
    """Print ``message`` as one line on stderr and exit 2 (bad input or usage)."""
    click.echo(f"cspsolve: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@contextmanager
def spinner(enabled: bool, label: str) -> Iterator[Callable[[Stats], None] | None]:
    """A spinner on stderr with live counters, when stderr is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    with Console(stderr=True).status(label) as status:

        def update(stats: Stats) -> None:
            status.update(
                f"{label}  expanded {stats.expanded:,}  backtracks {stats.backtracks:,}  "
                f"{stats.seconds:.1f} s"
            )

        yield update


@contextmanager
def bar(total: int, output: str, label: str = "batch") -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal (and the output text); yields the
    function that advances it by a number of items."""
    if output != "text" or not sys.stderr.isatty():
        yield lambda items: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task(label, total=total)
        yield lambda items: progress.advance(task, items)
