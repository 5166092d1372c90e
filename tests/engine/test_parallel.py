"""cspsolve.parallel: the workers value, and a local pool that leaves no process behind — not
when its block ends by an exception with a task still running, and not when the process that
made it is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from cspsolve import parallel
from cspsolve.errors import OptionError
from cspsolve.limits import Limits


def test_workers_value() -> None:
    assert parallel.workers_value("auto") == parallel.cores() >= 1
    assert parallel.workers_value("3") == parallel.workers_value(3) == 3
    for bad in ("0", "-1", "x", "1.5", "", 1.5, True, 0):
        with pytest.raises(OptionError, match="positive count or 'auto'"):
            parallel.workers_value(bad)
    with pytest.raises(OptionError, match="at least 1"):
        Limits(workers=0)


def test_an_exception_ends_a_running_task_at_once() -> None:
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), parallel.executor(2) as pool:
        running = pool.submit(time.sleep, 60)
        time.sleep(0.5)
        assert running.running()
        workers = list(pool._processes)  # type: ignore[attr-defined]
        raise KeyboardInterrupt  # as Ctrl-C would
    assert time.perf_counter() - start < 10  # the 60 s task was not waited for
    assert workers and not any(psutil.pid_exists(p) for p in workers)


def test_a_task_error_still_ends_the_pool() -> None:
    before = {p.pid for p in psutil.Process().children()}
    with pytest.raises(ZeroDivisionError), parallel.executor(2) as pool:
        pool.submit(divmod, 1, 0).result()
    assert {p.pid for p in psutil.Process().children()} <= before


PARENT = """
import sys, time
from cspsolve import parallel
with parallel.executor(2) as pool:
    futures = [pool.submit(time.sleep, 120) for _ in range(2)]
    time.sleep(0.5)
    print(*[p.pid for p in pool._processes.values()], flush=True)
    time.sleep(120)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's")
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(PARENT), encoding="utf-8")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    workers = [int(p) for p in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(psutil.pid_exists(p) for p in workers)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while any(psutil.pid_exists(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(psutil.pid_exists(p) for p in workers), "a worker outlived its parent"
