"""``cspsolve serve``: the local web page."""

from __future__ import annotations

import os

import click

from cspsolve.cli.options import Seconds
from cspsolve.cli.output import fail


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Beyond the loopback (0.0.0.0), requests need the token the "
    "printed link carries.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="N",
    help="Jobs run at once, one process each (default: the cores).",
)
@click.option(
    "--max-time-limit",
    type=Seconds(),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="The longest time limit a request may ask.",
)
@click.option(
    "--max-input-bytes",
    type=click.IntRange(min=1),
    default=1 << 20,
    show_default=True,
    metavar="N",
    help="The largest puzzle a request may send.",
)
def serve(
    host: str, port: int, workers: int | None, max_time_limit: float, max_input_bytes: int
) -> None:
    """Start the local web page: read, solve, explain, check and compare puzzles.

    Needs the web extra (pip install ".[web]" in the source folder). Stop it with Ctrl-C.

    \b
    Examples:
      cspsolve serve
      cspsolve serve --port 8080
      cspsolve serve --host 0.0.0.0
    """
    try:
        from cspsolve.web.server import serve as run_server
    except ImportError as e:
        fail(f'serve needs the web extra (pip install ".[web]" in the source folder): {e}')
    run_server(host, port, workers or os.cpu_count() or 1, max_time_limit, max_input_bytes)
