"""Many puzzles in input order, here or over many processes, a refusal as a value.

:func:`outcomes` is the one driver of the command line's solving commands and of
:func:`cspsolve.solve_many`: each puzzle comes back with the outcome of a
:mod:`cspsolve.tasks` call for each of its requests, in input order, and a request that does
not fit the puzzle (a ``ValueError`` of its kind) comes back as a :class:`Refused`. With one
process and no scheduler, or a single puzzle, the calls run here, one after another, each as
its outcome is asked for; the single puzzle's limits carry the processes and the scheduler
for a method that splits its search. With several puzzles and several processes (or a
scheduler), each puzzle goes as one :class:`Job` to an executor of
:func:`cspsolve.parallel.executor` (a local process pool or a Dask cluster) and the outcomes
come back through :func:`ordered`: the outcome of puzzle ``i`` comes once puzzles ``0..i`` are
done, so the output is the one of a single process, line for line. A job runs on one core
(its limits have ``workers=1``); puzzles go in chunks of several, so that small puzzles do not
pay a round trip each.

This module names no puzzle kind: a worker finds the kind by its name in
:mod:`cspsolve.registry`.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import functools
import itertools
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

import cspsolve.registry as registry
from cspsolve.kind import Kind
from cspsolve.limits import Limits, ProgressCallback, build
from cspsolve.tasks import Request

__all__ = ["Job", "Posed", "Refused", "attempt", "chunk_size", "ordered", "outcomes", "perform"]

A = TypeVar("A")
B = TypeVar("B")
T = TypeVar("T")

MAX_CHUNK = 8
"""Most puzzles in one chunk (one task of the executor)."""


@dataclass(frozen=True)
class Refused:
    """The outcome of a request that does not fit the puzzle (a ``ValueError`` of the kind,
    e.g. an :class:`~cspsolve.errors.OptionError`), here or in a worker: its one-line
    message."""

    message: str


@dataclass(frozen=True)
class Posed:
    """A puzzle and its kind, as :func:`outcomes` takes them (the command line's puzzles add
    where they came from)."""

    kind: Kind
    puzzle: Any
    """The kind's puzzle object (it must pickle to go to a pool)."""


P = TypeVar("P", bound=Posed)

Spinner = Callable[[P], AbstractContextManager[ProgressCallback | None]]
"""Around each call made here: a context that yields the progress callback of its limits."""
Bar = Callable[[int], AbstractContextManager[Callable[[int], None]]]
"""Around the work of a pool, given the number of puzzles: a context that yields the function
called with the number of puzzles of each task as it finishes."""
Pool = Callable[[int | None, str | None], AbstractContextManager[cf.Executor]]
"""Opens the executor of ``(workers, scheduler)``, as :func:`cspsolve.parallel.executor`."""


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


def attempt(
    call: Callable[..., T], kind: Kind, puzzle: Any, request: Request, limits: Limits
) -> T | Refused:
    """``call(kind, puzzle, request=request, limits=limits)``, or a :class:`Refused` where the
    kind raised a ``ValueError``; any other exception is a bug and propagates."""
    try:
        return call(kind, puzzle, request=request, limits=limits)
    except ValueError as e:
        return Refused(str(e))


def perform(job: Job) -> list[Any]:
    """Run a job (in a worker): the outcome of each request (:func:`attempt`), each with
    limits of its own."""
    kind = registry.get(job.kind)
    return [
        attempt(job.call, kind, job.puzzle, request, build(job.time_limit, job.max_nodes))
        for request in job.requests
    ]


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


def outcomes(
    asked: Iterable[tuple[P, Sequence[Request]]],
    call: Callable[..., T],
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    here: bool = False,
    spinner: Spinner[P] | None = None,
    bar: Bar | None = None,
    pool: Pool | None = None,
) -> Iterator[tuple[P, Iterator[T | Refused]]]:
    """Each puzzle of ``asked`` with the outcome of ``call`` for each of its requests, in input
    order, here or on a pool (the module's docstring says which).

    Parameters
    ----------
    asked : iterable of (Posed, sequence of Request)
        The puzzles, each with its requests (one call each). Here, it is read as far as the
        outcomes are asked for; for a pool, whole first.
    call : callable
        A module-level function taking ``(kind, puzzle, *, request, limits)``:
        :func:`cspsolve.tasks.solve`, :func:`~cspsolve.tasks.verify`,
        :func:`~cspsolve.tasks.analyze` or (``here`` only) :func:`~cspsolve.tasks.explain`.
    time_limit, max_nodes : optional
        The limits of each call.
    workers : int
        Processes (:func:`cspsolve.limits.processes` reads a caller's words): a pool's for
        several puzzles, else the single puzzle's, for a method that splits its search.
    scheduler : str, optional
        A Dask scheduler's address, in place of local processes.
    here : bool
        Make every call here, whatever ``workers`` and ``scheduler`` say (for outcomes that
        do not pickle).
    spinner : callable, optional
        Around each call made here (:data:`Spinner`); by default no progress.
    bar : callable, optional
        Around the work of a pool (:data:`Bar`); by default nothing is shown.
    pool : callable, optional
        Opens the pool (:data:`Pool`); by default :func:`cspsolve.parallel.executor`.

    Yields
    ------
    (Posed, iterator)
        Each puzzle of ``asked`` with an iterator of its outcomes: ``call``'s, or a
        :class:`Refused` for a request that does not fit the puzzle. Here, each call is made
        as its outcome is asked for, with fresh limits (:func:`cspsolve.limits.build`) of its
        own cancellation event.

    Notes
    -----
    A ``SystemExit`` while ``asked`` is read for a pool (a command refusing a later file)
    comes after the outcomes of the puzzles before it, as it does here.
    """
    limits = functools.partial(build, time_limit, max_nodes, workers=workers, scheduler=scheduler)
    if here or (workers == 1 and scheduler is None):
        yield from _here(asked, call, limits, spinner or _still)
        return
    listed: list[tuple[P, Sequence[Request]]] = []
    stop: SystemExit | None = None
    try:
        listed.extend(asked)
    except SystemExit as e:
        stop = e
    if len(listed) > 1:
        jobs = [
            Job(call, posed.kind.name, posed.puzzle, tuple(requests), time_limit, max_nodes)
            for posed, requests in listed
        ]
        opened = (pool or _executor)(None if scheduler is not None else workers, scheduler)
        with closing(_pooled(jobs, workers, opened, bar or _unseen)) as done:
            for (posed, _), outcome in zip(listed, done, strict=True):
                yield posed, iter(outcome)
    else:
        yield from _here(listed, call, limits, spinner or _still)
    if stop is not None:
        raise stop


def _here(
    asked: Iterable[tuple[P, Sequence[Request]]],
    call: Callable[..., T],
    limits: Callable[..., Limits],
    spinner: Spinner[P],
) -> Iterator[tuple[P, Iterator[T | Refused]]]:
    """:func:`outcomes` in this process: each call made as its outcome is asked for, with
    ``limits(cancel=..., progress=...)`` of its own."""

    def each(posed: P, requests: Sequence[Request]) -> Iterator[T | Refused]:
        for request in requests:
            with spinner(posed) as progress:
                own = limits(cancel=threading.Event(), progress=progress)
                outcome = attempt(call, posed.kind, posed.puzzle, request, own)
            yield outcome

    for posed, requests in asked:
        yield posed, each(posed, requests)


def _pooled(
    jobs: list[Job],
    workers: int,
    opened: AbstractContextManager[cf.Executor],
    bar: Bar,
) -> Generator[list[Any], None, None]:
    """The outcomes of each job (:func:`perform`) on the executor ``opened``, in order, with
    ``bar`` around them."""
    chunk = chunk_size(len(jobs), workers)
    with (
        opened as executor,
        bar(len(jobs)) as advance,
        closing(ordered(executor, perform, jobs, chunk=chunk, done=advance)) as done,
    ):
        yield from done


def _still(posed: Posed) -> AbstractContextManager[None]:
    """No progress: the default :data:`Spinner`."""
    return nullcontext()


@contextmanager
def _unseen(total: int) -> Iterator[Callable[[int], None]]:
    """Nothing shown: the default :data:`Bar`."""
    yield lambda items: None


def _executor(workers: int | None, scheduler: str | None) -> AbstractContextManager[cf.Executor]:
    """:func:`cspsolve.parallel.executor`, the default :data:`Pool`."""
    from cspsolve.parallel import executor  # not at import: it loads ctypes

    return executor(workers, scheduler)
