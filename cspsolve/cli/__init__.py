"""The ``cspsolve`` command: parse arguments, call the library, print results.

Exit codes (``cspsolve --help`` lists them too):

- 0: every puzzle solved (``verify``: the answers agree; ``batch``: every job has its row);
- 1: some puzzle proven unsolvable;
- 2: bad input or usage (one line on stderr, ``cspsolve: FILE[:LINE]: what is wrong``);
- 3: a limit was reached without an answer;
- 4: disagreement: ``verify``'s two answers differ;
- 70: internal error, a bug: an unexpected exception is shown as one line
  (``cspsolve: internal error: ...``; ``CSPSOLVE_DEBUG=1`` shows its traceback instead), and
  ``batch`` exits so when a worker process dies (rows stored are kept);
- 130: interrupted (Ctrl-C).

Over many puzzles the command exits with the first of 4, 2, 3, 1 that occurs, else 0.

This module holds the click group and :func:`main`; each command lives in a module of its
group (:mod:`~cspsolve.cli.solving`, :mod:`~cspsolve.cli.explaining`,
:mod:`~cspsolve.cli.comparing`, :mod:`~cspsolve.cli.batching`, :mod:`~cspsolve.cli.listing`,
:mod:`~cspsolve.cli.files`, :mod:`~cspsolve.cli.generating`, :mod:`~cspsolve.cli.serving`,
:mod:`~cspsolve.cli.warming`) over the shared flags
(:mod:`~cspsolve.cli.options`), puzzles (:mod:`~cspsolve.cli.puzzles`), printing
(:mod:`~cspsolve.cli.output`), image names (:mod:`~cspsolve.cli.images`) and exit codes
(:mod:`~cspsolve.cli.exits`).
"""

from __future__ import annotations

import os
import sys

import click

from cspsolve.cli.batching import batch
from cspsolve.cli.comparing import compare
from cspsolve.cli.exits import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK
from cspsolve.cli.explaining import explain
from cspsolve.cli.files import convert, graph
from cspsolve.cli.generating import generate
from cspsolve.cli.listing import methods
from cspsolve.cli.output import terminal
from cspsolve.cli.serving import serve
from cspsolve.cli.solving import analyze, solve, verify
from cspsolve.cli.warming import warm_command
from cspsolve.scenes import ansi_colours

__all__ = ["main"]


@click.group(
    commands=[
        *(solve, verify, explain, analyze, compare, batch, methods, convert, graph),
        *(generate, serve, warm_command),
    ],
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="cspsolve")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Solve logic puzzles by search and by constraint models, and check one against the other.

    \b
    Examples:
      cspsolve solve duck.non
      cspsolve solve puzzles.txt#17 --format json
      cspsolve verify card.rh
      cspsolve analyze board.lo
      cspsolve explain duck.non --image duck.html
      cspsolve compare start.json --time-limit 5
      cspsolve methods
      cspsolve generate npuzzle --size 4 --moves 50 --count 5 --out tiles/
      cspsolve warm

    The folder instances/ of the source holds an example of every kind.

    A FILE holding many puzzles (tournament files, picross-solver grids, database files) is
    solved puzzle by puzzle; FILE#KEY picks one (by its $N number, GRID name or line).

    Text counts rows and columns from 1, a cell being (row, column); JSON (--format json)
    counts them from 0. A graph Lights Out board names its nodes by their labels in both.

    \b
    Exit codes (over many puzzles, the first of 4, 2, 3, 1 that occurs, else 0):
      0    solved (every puzzle; verify: the answers agree)
      1    unsolvable: some puzzle is proven to have no solution
      2    bad input or usage (one line on stderr)
      3    limit reached without an answer
      4    disagreement: verify's two answers differ
      70   internal error, a bug (set CSPSOLVE_DEBUG=1 for its traceback); batch: a worker died
      130  interrupted (Ctrl-C)
    """
    ctx.with_resource(ansi_colours(terminal()))


def main() -> None:
    """Entry point of the ``cspsolve`` console script.

    Usage errors are one line on stderr (``cspsolve: ...``, exit 2), like bad input; an
    unexpected exception is one line too (exit 70) unless ``CSPSOLVE_DEBUG`` is set.
    """
    try:
        code = cli.main(prog_name="cspsolve", standalone_mode=False)
    except click.UsageError as e:
        no_args = getattr(click.exceptions, "NoArgsIsHelpError", ())
        if isinstance(e, no_args) and e.ctx is not None:
            click.echo(e.ctx.get_help(), err=True)
        else:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            click.echo(f"cspsolve: {e.format_message()}{hint}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.Abort:
        sys.exit(130)
    except Exception as e:
        if os.environ.get("CSPSOLVE_DEBUG"):
            raise
        click.echo(
            f"cspsolve: internal error: {type(e).__name__}: {e} "
            "(set CSPSOLVE_DEBUG=1 for a traceback)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
    sys.exit(code if isinstance(code, int) else EXIT_OK)
