"""Many puzzles over many processes, their results in input order as soon as each is ready.

The command line (``--workers N`` or ``--scheduler`` with several puzzles) and
:func:`cspsolve.solve_many` send each puzzle as one :class:`Job` to an executor of
:func:`cspsolve.parallel.executor` (a local process pool or a Dask cluster) and read the
outcomes through :func:`ordered`: the outcome of puzzle ``i`` comes once puzzles ``0..i`` are
done, so the output is the one of a single process, line for line. A job runs on one core (its
limits have ``workers=1``); puzzles go in chunks of several, so that small puzzles do not pay a
round trip each.

This module names no puzzle kind: a worker finds the kind by its name in
:mod:`cspsolve.registry`.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import itertools
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import cspsolve.registry as registry
from cspsolve.limits import Limits
from cspsolve.tasks import Request

__all__ = ["Job", "Refused", "chunk_size", "ordered", "perform"]

A = TypeVar("A")
B = TypeVar("B")

MAX_CHUNK = 8
"""Most puzzles in one chunk (one task of the executor)."""


@dataclass(frozen=True)
class Refused:
    """What a worker returns for a request that does not fit the puzzle (a ``ValueError`` of
    the kind, e.g. an :class:`~cspsolve.errors.OptionError`): its one-line message."""

    message: str


@dataclass(frozen=True)
class Job:
    """One puzzle and what to do with it, as a worker process receives it.

    Attributes
    ----------
    call : callable
        A module-level function taking ``(kind, puzzle, *, request, limits)``:
        :func:`cspsolve.tasks.solve`, :func:`~cspsolve.tasks.verify` or
        :func:`~cspsolve.tasks.analyze`.
    kind : str
        The puzzle kind's name (:func:`cspsolve.registry.get` finds it in the worker).
    puzzle : object
        The kind's puzzle object (it must pickle).
    requests : tuple of Request
        One call per request, each with limits of its own (``compare`` has several).
    time_limit, max_nodes : optional
        The limits of each call.
    """

    call: Callable[..., Any]
    kind: str
    puzzle: Any
    requests: tuple[Request, ...]
    time_limit: float | None = None
    max_nodes: int | None = None


def perform(job: Job) -> list[Any]:
    """Run a job (in a worker): the outcome of each request, a :class:`Refused` where the kind
    raised a ``ValueError``; any other exception is a bug and propagates."""
    kind = registry.get(job.kind)
    outcomes: list[Any] = []
    for request in job.requests:
        limits = Limits(time_limit=job.time_limit, max_nodes=job.max_nodes)
        try:
            outcomes.append(job.call(kind, job.puzzle, request=request, limits=limits))
        except ValueError as e:
            outcomes.append(Refused(str(e)))
    return outcomes


def _chunk(function: Callable[[A], B], items: Sequence[A]) -> list[B]:
    """``function`` over a chunk of items (one task)."""
    return [function(item) for item in items]


def chunk_size(count: int, workers: int) -> int:
    """Puzzles per task: enough that each worker gets about eight tasks at least, so the
    last ones finish together, and at most :data:`MAX_CHUNK`, so results come in steadily."""
    return max(1, min(MAX_CHUNK, count // (8 * workers)))


def ordered(
    executor: cf.Executor,
    function: Callable[[A], B],
    items: Iterable[A],
    *,
    chunk: int = 1,
    window: int = 16,
    done: Callable[[int], None] | None = None,
) -> Generator[B, None, None]:
    """``function(item)`` for every item, run on ``executor``, yielded in the order of ``items``.

    The result of item ``i`` is yielded as soon as items ``0..i`` are done. Items go to the
    executor in chunks of ``chunk``, at most ``window`` chunks at a time, so an iterator of
    items is read only as far as needed. When the iterator is closed early (or the caller
    raises), the chunks not yet started are cancelled.

    Parameters
    ----------
    executor : concurrent.futures.Executor
        Its workers run ``function``: a module-level function whose arguments and results
        pickle.
    function : callable
        Applied to each item.
    items : iterable
        The items, in the order of the results.
    chunk : int
        Items per task.
    window : int
        Most tasks submitted and not yet yielded.
    done : callable, optional
        Called with the number of items of each task as it finishes, in any order and from
        any thread (e.g. to advance a progress bar).

    Raises
    ------
    Exception
        What ``function`` raised for an item, when the results reach that item.
    """
    remaining = iter(items)
    chunks = iter(lambda: list(itertools.islice(remaining, chunk)), [])
    pending: collections.deque[cf.Future[list[B]]] = collections.deque()
    try:
        for part in itertools.islice(chunks, window):
            pending.append(_submit(executor, function, part, done))
        while pending:
            results = pending.popleft().result()
            for part in itertools.islice(chunks, 1):
                pending.append(_submit(executor, function, part, done))
            yield from results
    finally:
        for future in pending:
            future.cancel()


def _submit(
    executor: cf.Executor,
    function: Callable[[A], B],
    part: list[A],
    done: Callable[[int], None] | None,
) -> cf.Future[list[B]]:
    future = executor.submit(_chunk, function, part)
    if done is not None:
        future.add_done_callback(lambda f: f.cancelled() or done(len(part)))
    return future
