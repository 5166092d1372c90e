"""The worker processes that run the page's jobs, so that a long solve never blocks the page.

Each worker is a process of its own (started by ``spawn``) serving one job at a time; a thread
of the server hands it jobs from one queue and reads back its progress and answer. A job has
an id; cancelling it sets the worker's cancellation event, which the run's
:class:`~cspsolve.limits.Limits` watch. A worker that has not answered :data:`GRACE` seconds
after its job's time limit, or after the job was cancelled, is killed and replaced.

A job is cancelled, too, when no client has asked about it for :data:`LEASE` seconds: the
page that started it follows it until it ends, so a job nobody asks about is one whose page
was closed (or crashed, or lost its network) and whose answer nobody will read.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import secrets
import signal
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event as ProcessEvent
from typing import Any

from cspsolve.errors import CspsolveError
from cspsolve.web.work import Spec

__all__ = ["GRACE", "LEASE", "BusyError", "Job", "Pool"]

GRACE = 2.0
"""Seconds a worker may run past its job's time limit, or after a cancel, before it is killed."""

LEASE = 15.0
"""Seconds a queued or running job may go without a client asking about it (``GET``, counted
from its answer) before it is cancelled; more than the longest wait of one ``GET``."""

POLL = 0.02
"""Seconds between two looks of a server thread at its worker (and a worker at its cancel)."""


class BusyError(Exception):
    """Too many jobs are waiting; the request is refused (ask again later)."""


@dataclass
class Job:
    """One request's work, as the page follows it.

    Attributes
    ----------
    id : str
        Unguessable id (``GET``/``DELETE /api/jobs/ID``).
    spec : Spec
        What to do.
    state : str
        ``queued``, ``running``, ``done``, ``failed`` or ``cancelled``.
    progress : dict or None
        The run's live counters (``Stats`` JSON) while it runs.
    answer : dict or None
        The JSON answer when done.
    error : str or None
        One line when failed (a request that does not fit, a worker killed past its limit),
        or cancelled for want of a client asking about it.
    abandoned : str
        Why the pool cancelled the job (no client asked about it within the lease), or "".
    asked : float
        When a client last asked about the job (:func:`time.monotonic`).
    """

    id: str
    spec: Spec
    state: str = "queued"
    progress: dict[str, Any] | None = None
    answer: dict[str, Any] | None = None
    error: str | None = None
    cancel_asked: bool = False
    abandoned: str = ""
    asked: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def over(self) -> bool:
        """Whether the job has ended (done, failed or cancelled)."""
        return self.done.is_set()

    def end(self, state: str, *, answer: dict[str, Any] | None = None, error: str = "") -> None:
        """Record how the job ended."""
        error = self.abandoned or error
        self.state, self.answer, self.error = state, answer, error or None
        self.finished = time.monotonic()
        self.done.set()

    def to_json(self) -> dict[str, Any]:
        """What ``GET /api/jobs/ID`` answers."""
        seconds = None
        if self.started is not None:
            seconds = round((self.finished or time.monotonic()) - self.started, 3)
        return {
            "id": self.id,
            "action": self.spec.action,
            "kind": self.spec.kind,
            "time_limit": self.spec.time_limit,
            "state": self.state,
            "cancel_asked": self.cancel_asked,
            "seconds": seconds,
            "progress": self.progress,
            "answer": self.answer,
            "error": self.error,
        }


def _serve(conn: Connection, cancel: ProcessEvent) -> None:
    """A worker process: run the jobs ``conn`` sends, one at a time, until it sends ``None``.

    It ignores Ctrl-C (the server ends it), so that stopping the server shows no traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from cspsolve import registry
    from cspsolve.limits import Limits
    from cspsolve.web.work import run

    registry.kinds()  # import every kind before the first job
    sending = threading.Lock()

    def send(message: tuple[str, Any]) -> None:
        with sending:
            conn.send(message)

    while (spec := conn.recv()) is not None:
        stop, finished = threading.Event(), threading.Event()

        def watch(stop: threading.Event = stop, finished: threading.Event = finished) -> None:
            while not finished.is_set():
                if cancel.wait(POLL):
                    stop.set()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        limits = Limits(
            time_limit=spec.wall,
            cancel=stop,
            progress=lambda stats: send(("progress", stats.to_json())),
        )
        try:
            send(("done", run(spec, limits)))
        except CspsolveError as e:
            send(("error", str(e)))
        except Exception as e:  # a bug: one line, as the command line says it
            send(("error", f"internal error: {type(e).__name__}: {e}"))
        finished.set()
        watcher.join()


class _Worker:
    """One worker process, its pipe and its cancellation event."""

    def __init__(self, context: Any) -> None:
        self.cancel: ProcessEvent = context.Event()
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve, args=(child, self.cancel), daemon=True, name="cspsolve-web-worker"
        )
        self.process.start()
        child.close()

    def stop(self, *, kill: bool) -> None:
        """End the process: at once when ``kill``, else after asking it to finish."""
        if not kill and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(GRACE)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


class Pool:
    """Worker processes and the jobs they run.

    Parameters
    ----------
    workers : int
        How many jobs run at once (one process each).
    max_queued : int
        How many jobs may wait; :meth:`submit` refuses more (:class:`BusyError`).
    keep : int
        How many ended jobs are kept for ``GET``, the oldest forgotten first.
    lease : float
        Seconds a job may go unasked (:meth:`asked`) before it is cancelled.
    """

    def __init__(
        self, workers: int, *, max_queued: int = 64, keep: int = 256, lease: float = LEASE
    ) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self.max_queued, self.keep, self.lease = max_queued, keep, lease
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._closing = threading.Event()
        self._context = multiprocessing.get_context("spawn")
        self._threads: list[threading.Thread] = []
        self.replaced = 0
        """How many workers were killed and replaced so far."""

    def start(self) -> None:
        """Start the workers (each in the background: the first job may wait for one)."""
        for number in range(self.workers):
            thread = threading.Thread(
                target=self._dispatch, name=f"cspsolve-web-{number}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def close(self) -> None:
        """Cancel every job and end the workers."""
        self._closing.set()
        with self._lock:
            for job in self.jobs.values():
                job.cancel_asked = True
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    def submit(self, spec: Spec) -> Job:
        """Queue a job.

        Raises
        ------
        BusyError
            When :attr:`max_queued` jobs are waiting already, or the pool is closing.
        """
        with self._lock:
            waiting = sum(job.state == "queued" for job in self.jobs.values())
            if waiting >= self.max_queued or self._closing.is_set():
                raise BusyError(f"{waiting} jobs are waiting; try again later")
            job = Job(secrets.token_urlsafe(12), spec)
            self.jobs[job.id] = job
            ended = [key for key, j in self.jobs.items() if j.over]
            for key in ended[: max(0, len(ended) - self.keep)]:
                del self.jobs[key]
        self._queue.put(job)
        return job

    def get(self, job_id: str) -> Job | None:
        """The job of that id, if it is known."""
        with self._lock:
            return self.jobs.get(job_id)

    @staticmethod
    def asked(job: Job) -> None:
        """Note that a client asked about ``job`` now, which renews its lease."""
        job.asked = time.monotonic()

    def _abandon_unasked(self, job: Job) -> None:
        """Cancel ``job`` if no client asked about it within the lease."""
        if not job.cancel_asked and time.monotonic() - job.asked > self.lease:
            job.cancel_asked = True
            job.abandoned = f"cancelled: no client asked about it for {self.lease:g} s"

    def cancel(self, job: Job) -> None:
        """Ask a job to stop: a queued job never runs; a running one stops at its next check
        (its worker is replaced if it has not stopped :data:`GRACE` seconds later)."""
        job.cancel_asked = True
        with self._lock:
            if job.state == "queued":
                job.end("cancelled")

    def _dispatch(self) -> None:
        """A server thread: keep one worker busy with the queue's jobs."""
        worker = _Worker(self._context)
        try:
            while (job := self._queue.get()) is not None:
                with self._lock:
                    self._abandon_unasked(job)
                    if job.abandoned:
                        job.end("cancelled")
                    if job.over:
                        continue
                    job.state, job.started = "running", time.monotonic()
                if not self._run(worker, job):
                    worker.stop(kill=True)
                    self.replaced += 1
                    if not self._closing.is_set():
                        worker = _Worker(self._context)
        finally:
            worker.stop(kill=self._closing.is_set())

    def _run(self, worker: _Worker, job: Job) -> bool:
        """Run ``job`` on ``worker``; ``False`` when the worker must be replaced."""
        worker.cancel.clear()
        try:
            worker.conn.send(job.spec)
        except (OSError, ValueError) as e:
            job.end("failed", error=f"the worker could not take the job ({e})")
            return False
        deadline = time.monotonic() + job.spec.wall + GRACE
        while True:
            self._abandon_unasked(job)
            if job.cancel_asked and not worker.cancel.is_set():
                worker.cancel.set()
                deadline = min(deadline, time.monotonic() + GRACE)
            try:
                ready = worker.conn.poll(POLL)
                message = worker.conn.recv() if ready else None
            except (EOFError, OSError):
                job.end("failed", error="the worker process died")
                return False
            if message is not None:
                tag, data = message
                if tag == "progress":
                    job.progress = data
                    continue
                if tag == "error":
                    job.end("failed", error=data)
                else:
                    job.end("cancelled" if job.cancel_asked else "done", answer=data)
                return True
            if time.monotonic() > deadline or self._closing.is_set():
                over = job.cancel_asked or self._closing.is_set()
                job.end(
                    "cancelled" if over else "failed",
                    error="" if over else f"stopped: it ran {GRACE:g} s past its time limit",
                )
                return False
