"""Options and helpers of the whole suite: ``--fuzz N``, and :func:`run` for CLI tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import settings

from .fuzzing import FUZZ_ENV

COMPILING = "cspsolve: compiling the "
"""How the notice of :func:`cspsolve.compiling.notice` begins."""

TIMEOUT = 120.0
"""Seconds a command may take before the test fails as a hang."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz",
        type=int,
        default=None,
        metavar="N",
        help=f"draw N random cases in every differential test (as {FUZZ_ENV}=N)",
    )


def pytest_configure(config: pytest.Config) -> None:
    fuzz = config.getoption("--fuzz")
    if fuzz is not None:
        os.environ[FUZZ_ENV] = str(fuzz)
    # Every property test draws a fixed set of examples, so that a run is repeatable and CI
    # never meets a new case by chance (a fresh seed once hung CI); --fuzz draws fresh ones.
    settings.register_profile("suite", derandomize=not os.environ.get(FUZZ_ENV))
    settings.load_profile("suite")


def command(*args: object) -> list[str]:
    """``cspsolve ARGS...`` in a fresh interpreter. ``-P`` keeps the working directory off
    ``sys.path``: from the repository root, ``import cspsolve`` would otherwise find the source
    folder instead of the install."""
    return [sys.executable, "-P", "-c", "from cspsolve.cli import main; main()", *map(str, args)]


def run(
    *args: object, timeout: float = TIMEOUT, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``cspsolve ARGS...`` and capture its output (UTF-8); a hang fails at ``timeout``.

    ``env`` adds to the environment; ``CSPSOLVE_DEBUG`` is dropped, so that errors show as
    users see them, and a traceback on stderr fails the test (users never get one). The
    once-only notice that numba is compiling a kind's kernels (:data:`COMPILING`) is taken out
    of stderr: whether a run compiles depends on the tests before it, not on the run.
    """
    environment = {k: v for k, v in os.environ.items() if k != "CSPSOLVE_DEBUG"}
    environment |= {"PYTHONIOENCODING": "utf-8", **(env or {})}
    proc = subprocess.run(
        command(*args),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=environment,
        timeout=timeout,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    proc.stderr = "".join(
        line for line in proc.stderr.splitlines(keepends=True) if not line.startswith(COMPILING)
    )
    return proc


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of a local Dask cluster of two single-threaded worker processes, started
    once for every test that sends work to a cluster."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def short() -> Iterator[Callable[[Path], Path]]:
    """Copy a file to a short path (``/tmp/csXXXXXXXX/NAME``), for tests of output whose
    width matters: an installed package's instances lie under a long site-packages path."""
    folder = Path(tempfile.mkdtemp(prefix="cs"))

    def copy(path: Path) -> Path:
        return Path(shutil.copy(path, folder / path.name))

    yield copy
    shutil.rmtree(folder, ignore_errors=True)
