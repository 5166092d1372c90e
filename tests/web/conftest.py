"""Clients of the page's application: without workers (routes that start no job), with a
shared pool of workers, and with the example ``queens`` kind registered."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's notice that httpx2 will replace httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cspsolve import registry
from cspsolve.web import sources
from cspsolve.web.app import Settings, create_app

from ..conftest import command

HERE = Path(__file__).resolve().parent
KINDS = HERE.parent / "kinds"
SETTINGS = Settings(
    workers=2, max_time_limit=20.0, default_time_limit=10.0, max_input_bytes=4096 << 4
)
"""The tests' server: two workers, requests of at most 20 s, puzzles of at most 64 KiB."""

HOSTILE = "<script>alert('hostile')</script>"
"""Markup an input may hold; it must never reach an HTML answer as markup."""


def client_of(app: Any, **options: Any) -> TestClient:
    """A client that asks as the page does: to 127.0.0.1, the address served."""
    return TestClient(app, base_url="http://127.0.0.1", **options)


@pytest.fixture(scope="module")
def plain() -> TestClient:
    """A client of an application whose workers never start (no lifespan)."""
    return client_of(create_app(SETTINGS))


@pytest.fixture(scope="module")
def served() -> Iterator[TestClient]:
    """A client of an application with its worker processes running."""
    with client_of(create_app(SETTINGS)) as client:
        yield client


@pytest.fixture(scope="module")
def queens_kind() -> Iterator[None]:
    """The example ``queens`` kind (read from text: ``web_queens``) registered for this
    process and the workers it starts."""
    saved_env, saved_path = os.environ.get(registry.EXTRA_KINDS_ENV), list(sys.path)
    os.environ[registry.EXTRA_KINDS_ENV] = "web_queens"
    sys.path[:0] = [str(HERE), str(KINDS)]
    registry.kinds.cache_clear()
    sources.instances.cache_clear()
    try:
        yield
    finally:
        if saved_env is None:
            del os.environ[registry.EXTRA_KINDS_ENV]
        else:
            os.environ[registry.EXTRA_KINDS_ENV] = saved_env
        sys.path[:] = saved_path
        registry.kinds.cache_clear()
        sources.instances.cache_clear()


@pytest.fixture(scope="module")
def queens_served(queens_kind: None) -> Iterator[TestClient]:
    with client_of(create_app(SETTINGS)) as client:
        yield client


def finished(client: TestClient, job: dict[str, Any], within: float = 60.0) -> dict[str, Any]:
    """The job once it has ended (failing the test if it runs ``within`` seconds)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        found = client.get(f"/api/jobs/{job['id']}", params={"wait": 5}).json()
        if found["state"] in ("done", "failed", "cancelled"):
            return found
    raise AssertionError(f"job {job['id']} still {found['state']} after {within} s")


def started(client: TestClient, action: str, body: dict[str, Any]) -> dict[str, Any]:
    """Start a job; it must be accepted."""
    answer = client.post(f"/api/{action}", json=body)
    assert answer.status_code == 202, answer.text
    return answer.json()


@dataclass
class Server:
    """A ``cspsolve serve`` process: its address (``http://127.0.0.1:PORT/``) and process."""

    address: str
    process: subprocess.Popen[str]
    errors: str = ""


@contextlib.contextmanager
def serving(*args: str) -> Iterator[Server]:
    """A real server on a free port (``cspsolve serve --port 0 ARGS``), answering when yielded;
    stopped by Ctrl-C (SIGINT) after, its stderr then in ``errors``, which must hold no
    traceback."""
    import httpx

    environment = {k: v for k, v in os.environ.items() if k != "CSPSOLVE_DEBUG"}
    process = subprocess.Popen(
        command("serve", "--port", "0", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("cspsolve: serving on http://127.0.0.1:"), line
        server = Server(line.split()[3], process)
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(server.address + "api/kinds", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.1)
        yield server
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, errors = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    server.errors = errors
    assert "Traceback" not in errors, errors


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """A real server for the browser tests: two workers, requests of at most 30 s."""
    with serving("--workers", "2", "--max-time-limit", "30") as running:
        yield running


@pytest.fixture(scope="session")
def page(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The page at a desk's size, 1280 x 900 (a :class:`tests.web.pages.Page`)."""
    from .pages import page_of

    yield from page_of(1280, 900, server, tmp_path_factory.mktemp("screenshots"))


@pytest.fixture(scope="session")
def phone(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The page on a phone's screen, 390 x 844 (a :class:`tests.web.pages.Page`)."""
    from .pages import page_of

    yield from page_of(390, 844, server, tmp_path_factory.mktemp("screenshots"))
