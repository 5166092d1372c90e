"""``cspsolve serve``: its help, and a real server on a free port that serves the page."""

from __future__ import annotations

import asyncio
import re
import socket

import httpx
import pytest
from click.testing import CliRunner

from cspsolve import cli
from cspsolve.web.server import listening

from ..conftest import run
from .conftest import serving


def test_serve_help_names_its_options() -> None:
    shown = run("serve", "--help")
    assert shown.returncode == 0
    for flag in ("--host", "--port", "--workers", "--max-time-limit", "--max-input-bytes"):
        assert flag in shown.stdout


def test_bad_serve_options_are_one_line_errors() -> None:
    for args in (["--port", "70000"], ["--workers", "0"], ["--max-time-limit", "0"]):
        refused = run("serve", *args)
        assert refused.returncode == 2, args
        assert refused.stderr.startswith("cspsolve: ") and refused.stderr.count("\n") == 1


def test_beyond_this_computer_a_warning_and_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    said = CliRunner().invoke(cli.cli, ["serve", "--host", "0.0.0.0", "--port", "0"])
    assert said.exit_code == 0, said.output
    assert "whoever has the link (its token) may use this computer's CPU" in said.output
    link = re.search(r"http://0\.0\.0\.0:\d+/\?token=([\w-]+) ", said.output)
    assert link is not None and len(link.group(1)) == 32, said.output
    again = CliRunner().invoke(cli.cli, ["serve", "--host", "0.0.0.0", "--port", "0"])
    assert link.group(1) not in again.output  # a new token each time
    quiet = CliRunner().invoke(cli.cli, ["serve", "--port", "0"])
    assert "token" not in quiet.output and "http://127.0.0.1:" in quiet.output


def test_connections_to_the_listening_socket_send_at_once() -> None:
    """asyncio sets TCP_NODELAY on each connection it accepts there (else an answer written
    in two parts waits 40 ms for the client's delayed ACK)."""

    async def accepted_nodelay() -> int:
        sock = listening("127.0.0.1", 0)
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            raw = writer.get_extra_info("socket")
            seen.set_result(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accept, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(*sock.getsockname())
            nodelay = await asyncio.wait_for(seen, 5)
            writer.close()
        return nodelay

    assert asyncio.run(accepted_nodelay()) != 0


@pytest.mark.slow
def test_serve_on_a_free_port_serves_the_page() -> None:
    with serving("--workers", "1") as server:
        page = httpx.get(server.address, timeout=5)
        assert page.status_code == 200 and "cspsolve" in page.text
        kinds = httpx.get(server.address + "api/kinds", timeout=5).json()
        assert "nonogram" in [k["name"] for k in kinds]
