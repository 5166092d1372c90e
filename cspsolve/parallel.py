"""Where parallel work runs: a local process pool or a Dask cluster, behind one Executor.

Two kinds of work are split over processes. Many puzzles go one per task (``batch``, and
``--workers`` on the solving commands). One hard puzzle goes as pieces of its own search:
a method whose search splits (subtrees below a fixed depth, partitions of a layer) reads
``limits.workers`` and ``limits.scheduler`` (:class:`~cspsolve.limits.Limits`) and sends its
pieces through :func:`executor`; a method that cannot split runs on one core whatever they say.

Both go through :class:`concurrent.futures.Executor`: a :class:`~concurrent.futures.
ProcessPoolExecutor` on this machine, or the executor of a ``distributed.Client`` connected to
a Dask scheduler (https://distributed.dask.org/en/stable/api.html#distributed.Client.get_executor),
so the code that splits the work is the same for both. Tasks must be module-level functions
whose arguments pickle; they cannot see the caller's cancellation event, so each carries its
own deadline and node budget and the caller stops handing out work when it is cancelled.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import ctypes
import numbers
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cspsolve.errors import OptionError

__all__ = ["cluster_size", "cores", "executor", "workers_value"]

PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a process gets when its parent dies (Linux)."""


def cores() -> int:
    """The number of cores this process may run on (its CPU affinity, else the CPU count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_value(text: str | int) -> int:
    """Read a ``--workers`` value (or the library's ``workers``): a positive count, as a
    whole number or its digits, or ``"auto"`` for :func:`cores`.

    Raises
    ------
    OptionError
        For anything else, a bool or a fraction among them (the message names the value).
    """
    if text == "auto":
        return cores()
    count = 0
    if isinstance(text, str | numbers.Integral) and not isinstance(text, bool):
        with contextlib.suppress(ValueError):
            count = int(text)
    if count < 1:
        raise OptionError(f"workers must be a positive count or 'auto', got {text!r}")
    return count


@contextmanager
def executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[cf.Executor]:
    """An executor for parallel tasks, shut down (its processes gone) on leaving the block.

    Leaving the block waits for the tasks still running (each ends at its own deadline or
    slice; the caller cancels those not started), except when it is left by an exception
    (Ctrl-C, a failed task): then a local pool's processes are ended at once. Ending a process
    that may be writing its result could leave the pool's result pipe half-written, so it is
    kept for that case. A local pool's processes ignore Ctrl-C (the terminal sends it to every
    process of the command; the process that made the pool ends it).

    Parameters
    ----------
    workers : int, optional
        Processes of the local pool; default :func:`cores`. Ignored with ``scheduler``.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``); its workers run the tasks.

    Raises
    ------
    OptionError
        When ``scheduler`` is given but Dask's ``distributed`` is not installed, or the
        scheduler cannot be reached within 30 s.
    """
    if scheduler is None:
        with cf.ProcessPoolExecutor(
            workers or cores(), initializer=_worker_start, initargs=(os.getpid(),)
        ) as pool:
            _launch(pool)
            try:
                yield pool
            except BaseException:
                _terminate(pool)
                raise
        return
    with _client(scheduler) as client:
        yield client.get_executor()


def cluster_size(scheduler: str) -> int:
    """The number of tasks the Dask cluster of ``scheduler`` runs at once (its workers'
    threads), at least 1: what ``Limits.workers`` says for a search split over that cluster.

    Raises
    ------
    OptionError
        As :func:`executor`.
    """
    with _client(scheduler) as client:
        return max(1, int(sum(client.nthreads().values())))


def _client(scheduler: str) -> Any:
    """A ``distributed.Client`` connected to ``scheduler`` (a context manager)."""
    try:
        from distributed import Client
    except ImportError:
        raise OptionError("a Dask scheduler needs Dask: pip install 'cspsolve[cluster]'") from None
    try:
        return Client(scheduler, timeout=30)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as e:
        raise OptionError(f"cannot reach the scheduler {scheduler}: {e}") from None


def _worker_start(parent: int) -> None:
    """A pool process's first act: ignore Ctrl-C, then let signals through again where
    :func:`_launch` held Ctrl-C back; on Linux, ask to be killed when the process that made
    the pool dies (``prctl(PR_SET_PDEATHSIG)``, prctl(2)), so that no worker outlives a
    killed command."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _hold_interrupts(False)
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)


def _launch(pool: cf.ProcessPoolExecutor) -> None:
    """Start the pool's processes with Ctrl-C held back until each ignores it.

    A process keeps its parent's mask of held-back signals (through ``fork`` and ``exec``):
    holding Ctrl-C back while the processes start covers the moment before
    :func:`_worker_start`, when an interrupt would kill a worker and break the pool. A Ctrl-C
    in that moment is not lost: this process gets it when it lets it through again.
    """
    main = threading.current_thread() is threading.main_thread()
    if main:
        _hold_interrupts(True)
    try:
        pool.submit(int)  # starts the processes
    finally:
        if main:
            _hold_interrupts(False)


def _hold_interrupts(held: bool) -> None:
    """Hold back Ctrl-C in this thread (it waits, pending) or let it through (POSIX only)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK if held else signal.SIG_UNBLOCK, {signal.SIGINT})


def _terminate(pool: cf.ProcessPoolExecutor) -> None:
    """End the pool's processes (its shutdown then reaps them)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
