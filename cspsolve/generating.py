"""Puzzles made to order: ``count`` puzzles of a kind, each with what was proven about it.

A kind that makes puzzles declares a :class:`~cspsolve.kind.Generator`. :func:`made` runs its
``make`` once per puzzle, each with a random generator of its own seeded by the run's seed and
the puzzle's index (``random.Random("SEED:INDEX")``: a string seed is hashed with SHA-512, the
same in every process and Python version), so that puzzle ``i`` is the same whichever process
makes it and however many there are. With several processes (or a Dask scheduler) the
puzzles are made in parallel (:func:`cspsolve.parallel.executor`) and come back in order
(:func:`cspsolve.fanout.ordered`). A time limit covers the whole run: each puzzle gets the
time left, and the run ends with the first puzzle a limit stopped, keeping those made before.

This module names no puzzle kind: a worker finds the kind by its name in
:mod:`cspsolve.registry`.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import cspsolve.registry as registry
from cspsolve.errors import OptionError
from cspsolve.kind import Generator, Kind, Made
from cspsolve.limits import Limits

__all__ = ["Generated", "generator_of", "made", "options_of", "seeded"]


@dataclass(frozen=True)
class Generated:
    """One puzzle made to order.

    Attributes
    ----------
    kind : str
        The kind's name.
    seed : int
        The run's seed.
    index : int
        The puzzle's place in the run, from 0: with ``seed`` it fixes the puzzle.
    puzzle : object
        The puzzle, as the kind's ``read`` would give it.
    certificate : dict
        What was proven about it (the :class:`~cspsolve.kind.Made` certificate), JSON-ready.
    """

    kind: str
    seed: int
    index: int
    puzzle: Any
    certificate: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The puzzle's record without the puzzle: kind, seed, index and certificate."""
        return {"kind": self.kind, "seed": self.seed, "index": self.index, **self.certificate}


def generator_of(kind: Kind) -> Generator:
    """The kind's generator.

    Raises
    ------
    OptionError
        When the kind makes no puzzles.
    """
    if kind.generator is None:
        makers = ", ".join(k.name for k in registry.kinds().values() if k.generator)
        raise OptionError(f"kind {kind.name} makes no puzzles (these do: {makers or 'none'})")
    return kind.generator


def options_of(generator: Generator, values: Mapping[str, Any]) -> Any:
    """The generator's options dataclass from ``values`` (``None`` keeps a field's default).

    Raises
    ------
    OptionError
        When a name is not one of the generator's options.
    """
    known = [f.name for f in dataclasses.fields(generator.options)]
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise OptionError(f"no option {unknown[0]!r} to generate with (known: {', '.join(known)})")
    return generator.options(**{k: v for k, v in values.items() if v is not None})


def seeded(seed: int, index: int) -> random.Random:
    """The random generator of puzzle ``index`` of a run of seed ``seed``.

    Examples
    --------
    >>> seeded(7, 2).random() == seeded(7, 2).random() != seeded(7, 3).random()
    True
    """
    return random.Random(f"{seed}:{index}")


@dataclass(frozen=True)
class _Task:
    """One puzzle to make, as it travels to a worker process (it pickles)."""

    kind: str
    options: Any
    seed: int
    index: int
    deadline: float | None
    """Wall-clock time (``time.time()``, shared by the processes) the run must end by."""


def _make(task: _Task) -> tuple[int, Made | None]:
    """The task's index and its puzzle (``None``: a limit stopped it); a module-level
    function, for the executor's workers."""
    generator = generator_of(registry.get(task.kind))
    left = None if task.deadline is None else max(0.0, task.deadline - time.time())
    rng = seeded(task.seed, task.index)
    return task.index, generator.make(task.options, rng, Limits(time_limit=left))


def made(
    kind: Kind,
    options: Any,
    *,
    seed: int,
    indices: Iterable[int],
    workers: int = 1,
    scheduler: str | None = None,
    time_limit: float | None = None,
    done: Callable[[int], None] | None = None,
) -> Iterator[Generated]:
    """The puzzles of ``indices`` made to ``options``, in that order, as they are made.

    Parameters
    ----------
    kind : Kind
        A kind with a generator.
    options : dataclass
        The generator's options (:func:`options_of`).
    seed : int
        The run's seed: with a puzzle's index it fixes the puzzle (:func:`seeded`).
    indices : iterable of int
        Which puzzles of the run to make (``range(count)``; a resumed run skips those made).
    workers, scheduler
        Processes, or a Dask scheduler's address, to make them on (1 and ``None``: here).
    time_limit : float, optional
        Seconds for the whole run; the iterator ends with the first puzzle it stopped.
    done : callable, optional
        Called with the number of puzzles of each task as it finishes (a progress bar).

    Raises
    ------
    OptionError
        From the kind's ``make``, for options no puzzle can meet.
    """
    generator_of(kind)
    deadline = None if time_limit is None else time.time() + time_limit
    tasks = (_Task(kind.name, options, seed, i, deadline) for i in indices)
    for index, result in _results(tasks, workers, scheduler, done):
        if result is None:
            return
        yield Generated(kind.name, seed, index, result.puzzle, result.certificate)


def _results(
    tasks: Iterator[_Task], workers: int, scheduler: str | None, done: Callable[[int], None] | None
) -> Iterator[tuple[int, Made | None]]:
    """``_make`` of each task, here or on an executor, in order."""
    if workers == 1 and scheduler is None:
        for task in tasks:
            result = _make(task)
            if done is not None:
                done(1)
            yield result
        return
    import cspsolve.fanout as fanout
    import cspsolve.parallel as parallel

    with parallel.executor(workers, scheduler) as pool:
        yield from fanout.ordered(pool, _make, tasks, window=2 * workers, done=done)
