"""Running the page's application under uvicorn, for ``cspsolve serve``."""

from __future__ import annotations

import socket

import click
import uvicorn

from cspsolve.web.access import is_loopback, new_token
from cspsolve.web.app import Settings, create_app

__all__ = ["listening", "serve"]


def listening(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0: any free port), for uvicorn to listen on.

    It is made with protocol ``IPPROTO_TCP``, not 0: asyncio turns Nagle's algorithm off
    (``TCP_NODELAY``) only on the connections of a socket that says TCP, and with it on, an
    answer written in two parts waits for the client's delayed ACK (40 ms a request on Linux).

    Raises
    ------
    click.UsageError
        When the address cannot be bound (in use, not this computer's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise click.UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def serve(host: str, port: int, workers: int, max_time_limit: float, max_input_bytes: int) -> None:
    """Serve the page at ``host:port`` until interrupted, printing its address first.

    The socket is bound here, so that port 0 (any free port) prints the port it got. Bound
    beyond the loopback, the server makes a token (:mod:`cspsolve.web.access`) and prints it in
    the link.
    """
    if max_time_limit <= 0:
        raise click.UsageError("--max-time-limit must be more than 0 seconds")
    local = is_loopback(host)
    settings = Settings(
        workers=workers,
        max_time_limit=max_time_limit,
        default_time_limit=min(30.0, max_time_limit),
        max_input_bytes=max_input_bytes,
        host=host,
        token=None if local else new_token(),
    )
    sock = listening(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    link = f"http://{shown}:{bound}/" + ("" if local else f"?token={settings.token}")
    click.echo(f"cspsolve: serving on {link} with {workers} worker(s)")
    if not local:
        click.echo(
            f"cspsolve: listening on {host}: whoever has the link (its token) may use this "
            "computer's CPU; keep it to yourself",
            err=True,
        )
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
