"""Time and node limits, cancellation and progress reporting for solver runs.

A solver takes a :class:`Limits` (what the caller allows) and calls :meth:`Limits.start` to get a
:class:`Budget` (the running account), which it asks :meth:`Budget.exhausted` once per expanded
node, and :meth:`Budget.interrupted` (time and cancellation) within a long node. Work that a
single check cannot cut short (a compiled kernel, a call into another
solver) is stopped from a watcher thread by :meth:`Budget.alarm`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import numbers
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from cspsolve.errors import OptionError
from cspsolve.results import Stats, Status

__all__ = ["Budget", "Limits", "build", "processes"]

ProgressCallback = Callable[[Stats], None]
"""Called with the live :class:`Stats` of a run, at most every ``progress_interval`` seconds."""

ALARM_POLL = 0.01
"""Seconds between two looks of :meth:`Budget.alarm`'s watcher at a cancellation event."""


@dataclass(frozen=True)
class Limits:
    """What a solver run is allowed.

    Parameters
    ----------
    time_limit : float, optional
        Wall-clock seconds; ``None`` means no limit. 0 stops a run at once: a task
        (:mod:`cspsolve.tasks`) answers status ``limit`` with every method.
    max_nodes : int, optional
        Largest number of expanded nodes; ``None`` means no limit.
    cancel : threading.Event, optional
        When set (from any thread), the run stops with status ``cancelled``.
    progress : callable, optional
        Receives the live :class:`~cspsolve.results.Stats` now and then.
    progress_interval : float
        Seconds between two progress calls.
    workers : int
        Processes a method that splits its search may use (:mod:`cspsolve.parallel`); a
        method that cannot split runs on one whatever this says. Node limits count the nodes
        of every process.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``) whose workers take the pieces of a
        split search instead of local processes.

    Raises
    ------
    OptionError
        If a limit is not a number (a count for ``max_nodes`` and ``workers``), is negative or
        not finite, or ``workers`` is below 1.
    """

    time_limit: float | None = None
    max_nodes: int | None = None
    cancel: threading.Event | None = None
    progress: ProgressCallback | None = None
    progress_interval: float = 0.5
    workers: int = 1
    scheduler: str | None = None

    def __post_init__(self) -> None:
        for name, value, kinds in (
            ("time limit", self.time_limit, numbers.Real),
            ("node limit", self.max_nodes, numbers.Integral),
            ("workers", self.workers, numbers.Integral),
        ):
            if value is not None and (isinstance(value, bool) or not isinstance(value, kinds)):
                what = "a number of seconds" if name == "time limit" else "a whole number"
                raise OptionError(f"{name} must be {what}, got {value!r}")
        if self.time_limit is not None and math.isnan(self.time_limit):
            raise OptionError("time limit must be a number of seconds, got nan")
        if self.workers < 1:
            raise OptionError(f"workers must be at least 1, got {self.workers}")
        if self.time_limit is not None and self.time_limit < 0:
            raise OptionError(f"time limit must be >= 0, got {self.time_limit}")
        if self.max_nodes is not None and self.max_nodes < 0:
            raise OptionError(f"node limit must be >= 0, got {self.max_nodes}")

    @property
    def parallel(self) -> bool:
        """Whether a method that splits its search may use more than this process."""
        return self.workers > 1 or self.scheduler is not None

    def start(self, stats: Stats) -> Budget:
        """Start the clock for one run that counts into ``stats``."""
        return Budget(self, stats)


class Budget:
    """The running account of one solver run against its :class:`Limits`.

    Parameters
    ----------
    limits : Limits
        What the run is allowed.
    stats : Stats
        The run's counters; ``stats.expanded`` is compared with the node limit and
        ``stats.seconds`` is kept up to date by :meth:`exhausted` and :meth:`finish`.
    """

    __slots__ = ("_deadline", "_last_progress", "limits", "started", "stats")

    def __init__(self, limits: Limits, stats: Stats) -> None:
        self.limits = limits
        self.stats = stats
        self.started = time.perf_counter()
        self._deadline = (
            self.started + limits.time_limit if limits.time_limit is not None else float("inf")
        )
        self._last_progress = self.started

    def remaining(self) -> float | None:
        """Seconds left before the time limit, or ``None`` when there is none."""
        if self.limits.time_limit is None:
            return None
        return max(0.0, self._deadline - time.perf_counter())

    def nodes_left(self, promised: int = 0) -> int | None:
        """Nodes the run may still expand beyond those ``promised`` to work already handed out
        (a task in another process), at least 0; ``None`` when there is no node limit."""
        if self.limits.max_nodes is None:
            return None
        return max(0, self.limits.max_nodes - self.stats.expanded - promised)

    def rest(self) -> Limits:
        """The run's limits with the time spent so far taken off the time limit (for a second
        run that shares this one's time); the node limit, cancellation and progress are kept."""
        if self.limits.time_limit is None:
            return self.limits
        return dataclasses.replace(self.limits, time_limit=self.remaining())

    def part(self, promised: int = 0, seconds: float | None = None) -> Limits:
        """The limits of a part of this run that counts its own statistics: the time left (at
        most ``seconds``, which also bounds a run without a time limit), and the nodes left
        beyond those ``promised`` to work handed out (:meth:`nodes_left`); cancellation and
        progress are kept."""
        left = self.remaining()
        time_limit = left if seconds is None else seconds if left is None else min(seconds, left)
        return dataclasses.replace(
            self.limits, time_limit=time_limit, max_nodes=self.nodes_left(promised)
        )

    def exhausted(self) -> Status | None:
        """Return ``LIMIT`` or ``CANCELLED`` if the run must stop now, else ``None``.

        Also reports progress when it is due.
        """
        stopped = self.interrupted()
        if stopped:
            return stopped
        if self.limits.max_nodes is not None and self.stats.expanded >= self.limits.max_nodes:
            return Status.LIMIT
        return None

    def interrupted(self) -> Status | None:
        """:meth:`exhausted` without the node limit, for the checks within a node: ``LIMIT``
        when the time is up, ``CANCELLED`` when cancellation is set, else ``None``.

        Also reports progress when it is due.
        """
        now = time.perf_counter()
        self.stats.seconds = now - self.started
        limits = self.limits
        if limits.cancel is not None and limits.cancel.is_set():
            return Status.CANCELLED
        if now > self._deadline:
            return Status.LIMIT
        if limits.progress is not None and now - self._last_progress >= limits.progress_interval:
            self._last_progress = now
            limits.progress(self.stats)
        return None

    def step_through(self, steps: Iterable[object]) -> Status | None:
        """Do ``steps`` one by one, asking :meth:`interrupted` between two, and return its stop
        status when it says stop (``None`` when every step was done).

        For building a model of a large puzzle, which takes seconds: e.g. a generator that
        adds a line's constraints to the model, then yields.
        """
        for _ in steps:
            stopped = self.interrupted()
            if stopped:
                return stopped
        return None

    @contextlib.contextmanager
    def alarm(self, ring: Callable[[], None]) -> Iterator[None]:
        """While the context is open, call ``ring`` once, from a watcher thread, as soon as the
        time limit has passed or the cancellation event is set.

        For work that does not ask :meth:`exhausted` itself, such as a compiled kernel that
        releases the GIL: ``ring`` raises a flag that the work reads. One watcher thread, started
        once, serves every open alarm (see :class:`_Watcher`); without a time limit and a
        cancellation event there is nothing to watch. ``ring`` is called after the time limit,
        so :meth:`interrupted` then returns ``LIMIT`` (or ``CANCELLED``), and never after the
        context has closed.
        """
        limits = self.limits
        if limits.time_limit is None and limits.cancel is None:
            yield
            return
        key = _WATCHER.add(self._deadline, limits.cancel, ring)
        try:
            yield
        finally:
            _WATCHER.remove(key)

    def finish(self) -> Stats:
        """Stop the clock and return the final stats."""
        self.stats.seconds = time.perf_counter() - self.started
        return self.stats


class _Watcher:
    """The thread that rings the open alarms of :meth:`Budget.alarm`.

    One daemon thread for the whole process, started with the first alarm: a thread started
    and joined for each run cost milliseconds of scheduling on a loaded machine, which added up
    over many small solves. It sleeps until the earliest deadline, or :data:`ALARM_POLL` seconds
    while an alarm has a cancellation event to look at, or until an alarm is added.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._alarms: dict[int, tuple[float, threading.Event | None, Callable[[], None]]] = {}
        self._keys = itertools.count()
        self._thread: threading.Thread | None = None

    def add(self, deadline: float, cancel: threading.Event | None, ring: Callable[[], None]) -> int:
        """Ring ``ring`` once after ``deadline`` (a :func:`time.perf_counter` time) or when
        ``cancel`` is set; returns the key to :meth:`remove` the alarm with."""
        with self._changed:
            key = next(self._keys)
            self._alarms[key] = (deadline, cancel, ring)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="cspsolve-alarm", daemon=True
                )
                self._thread.start()
            self._changed.notify()
        return key

    def remove(self, key: int) -> None:
        """Drop an alarm (rung or not); its ``ring`` is not called afterwards."""
        with self._changed:
            self._alarms.pop(key, None)

    def _run(self) -> None:
        """Ring the alarms that are due, then sleep until the next may be."""
        with self._changed:
            while True:
                now = time.perf_counter()
                sleep: float | None = None
                for key, (deadline, cancel, ring) in list(self._alarms.items()):
                    if (cancel is not None and cancel.is_set()) or now > deadline:
                        del self._alarms[key]
                        ring()
                        continue
                    left = deadline - now + 1e-4
                    if cancel is not None:
                        left = min(left, ALARM_POLL)
                    sleep = left if sleep is None else min(sleep, left)
                self._changed.wait(sleep)


_WATCHER = _Watcher()


def processes(workers: int | str, scheduler: str | None = None) -> int:
    """The processes a run may use: ``workers`` read as ``--workers`` is (a positive count,
    or ``"auto"`` for every core: :func:`cspsolve.parallel.workers_value`); with a
    ``scheduler`` and one worker, every thread of its cluster
    (:func:`cspsolve.parallel.cluster_size`).

    Raises
    ------
    OptionError
        For anything but a positive count or ``"auto"``; when the scheduler cannot be reached.
    """
    if type(workers) is int and workers >= 1 and not scheduler:
        return workers
    from cspsolve.parallel import cluster_size, workers_value  # not at import: loads ctypes

    count = workers_value(workers)
    return cluster_size(scheduler) if scheduler and count == 1 else count


def build(
    time_limit: float | None = None,
    max_nodes: int | None = None,
    cancel: threading.Event | None = None,
    progress: ProgressCallback | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
) -> Limits:
    """The limits of one run from a caller's words: the one place the library's calls
    (:mod:`cspsolve.api`), the driver of many puzzles (:func:`cspsolve.fanout.outcomes`, for
    the command line and :func:`cspsolve.solve_many`) and the pool's workers build them.

    Parameters
    ----------
    time_limit, max_nodes, cancel, progress, scheduler
        As :class:`Limits` (in its order).
    workers : int or "auto"
        Read by :func:`processes`.

    Raises
    ------
    OptionError
        For a limit of the wrong type or range (:class:`Limits`), or as :func:`processes`.
    """
    return Limits(
        time_limit=time_limit,
        max_nodes=max_nodes,
        cancel=cancel,
        progress=progress,
        workers=processes(workers, scheduler),
        scheduler=scheduler,
    )
