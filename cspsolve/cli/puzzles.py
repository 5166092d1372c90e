"""The puzzles of the command's files and the outcomes of a :mod:`cspsolve.tasks` call on
each, in input order, here or on a pool; a request that does not fit a puzzle is one line on
stderr and exit code 2."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cspsolve import registry, tasks
from cspsolve.cli.exits import EXIT_BAD_INPUT
from cspsolve.cli.options import Run, check_request
from cspsolve.cli.output import bar, fail, spinner
from cspsolve.errors import InputError, OptionError
from cspsolve.kind import Kind, PuzzleEntry
from cspsolve.limits import Limits
from cspsolve.tasks import Request

if TYPE_CHECKING:
    from concurrent.futures import Executor


T = TypeVar("T")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle to work on, with where it came from."""

    kind: Kind
    source: str
    entry: PuzzleEntry
    many: bool
    puzzle: Any
    """The entry's puzzle as the options shape it (the kind's ``prepare``, where it has one)."""

    @property
    def title(self) -> str:
        return f"{self.source}#{self.entry.id}" if self.many else self.source

    def record(self) -> dict[str, Any]:
        """The leading keys of this puzzle's JSON object."""
        record: dict[str, Any] = {"kind": self.kind.name, "file": self.source}
        if self.many:
            record["id"] = self.entry.id
        return record


def read_puzzles(files: tuple[str, ...], run: Run, codes: list[int]) -> Iterator[Puzzle]:
    """Every puzzle of ``files``; bad input is reported and adds exit code 2 to ``codes``."""
    for spec in files:
        try:
            kind, entries = registry.load(spec, run.kind)
        except InputError as e:
            click.echo(f"cspsolve: {e}", err=True)
            codes.append(EXIT_BAD_INPUT)
            continue
        model = registry.get(kind)
        check_request(model, run.request)
        source = str(registry.split_selector(spec)[0])
        many = len(entries) > 1 or entries[0].id is not None
        for entry in entries:
            try:
                shaped = tasks.prepare(model, entry.puzzle, request=run.request)
            except ValueError as e:  # an InputError (a broken entry of the file) names the file
                where = "" if isinstance(e, InputError) else f"{source}: "
                click.echo(f"cspsolve: {where}{e}", err=True)
                codes.append(EXIT_BAD_INPUT)
                continue
            yield Puzzle(model, source, entry, many, shaped)


def _guarded(
    puzzle: Puzzle,
    codes: list[int],
    call: Callable[..., T],
    request: Request,
    limits: Limits,
) -> T | None:
    """``call(kind, puzzle, request=request, limits=limits)`` (a :mod:`cspsolve.tasks` call),
    turning a ValueError (:class:`~cspsolve.errors.OptionError`: a request that does not fit
    the puzzle) into one line on stderr and exit code 2 in ``codes``."""
    try:
        return call(puzzle.kind, puzzle.puzzle, request=request, limits=limits)
    except ValueError as e:
        click.echo(f"cspsolve: {puzzle.title}: {e}", err=True)
        codes.append(EXIT_BAD_INPUT)
        return None


def worked(
    items: Iterable[tuple[Puzzle, list[Request]]],
    run: Run,
    codes: list[int],
    call: Callable[..., T],
    label: str | None = None,
) -> Iterator[tuple[Puzzle, Iterator[T | None]]]:
    """Each puzzle with the outcomes of ``call`` (a :mod:`cspsolve.tasks` function) for each
    of its requests, in input order; ``None`` for a request that does not fit the puzzle (one
    line on stderr, exit code 2 in ``codes``, as :func:`_guarded`).

    With one process (and no scheduler), or a single puzzle, the calls run here, one after
    another, with a spinner labelled ``label`` (none when ``None``); the single puzzle's
    limits carry ``run.workers`` and ``run.scheduler`` for a method that splits its search.
    With several puzzles and several processes (or a scheduler), the puzzles go one per task
    to a pool (:mod:`cspsolve.fanout`) and come back in input order as each is ready. A
    ``SystemExit`` while reading the puzzles (a request that does not fit a later file) comes
    after the outcomes of the puzzles before it, as with one process.
    """
    if not run.parallel:
        yield from here(items, run, codes, call, label)
        return
    listed: list[tuple[Puzzle, list[Request]]] = []
    stop: SystemExit | None = None
    try:
        listed.extend(items)
    except SystemExit as e:
        stop = e
    if len(listed) > 1:
        yield from _fanned(listed, run, codes, call)
    else:
        yield from here(listed, run, codes, call, label)
    if stop is not None:
        raise stop


def here(
    items: Iterable[tuple[Puzzle, list[Request]]],
    run: Run,
    codes: list[int],
    call: Callable[..., T],
    label: str | None,
) -> Iterator[tuple[Puzzle, Iterator[T | None]]]:
    """:func:`worked` in this process: each call made as its outcome is asked for."""

    def outcomes(puzzle: Puzzle, requests: list[Request]) -> Iterator[T | None]:
        for request in requests:
            shown = label is not None and run.output == "text"
            with spinner(shown, f"{label} {puzzle.title}") as progress:
                outcome = _guarded(puzzle, codes, call, request, run.limits(progress))
            yield outcome

    for puzzle, requests in items:
        yield puzzle, outcomes(puzzle, requests)


def _fanned(
    listed: list[tuple[Puzzle, list[Request]]],
    run: Run,
    codes: list[int],
    call: Callable[..., T],
) -> Iterator[tuple[Puzzle, Iterator[T | None]]]:
    """:func:`worked` over a pool of ``run.workers`` processes or the Dask scheduler, with a
    progress bar on stderr when it is a terminal (and the output text)."""
    from cspsolve import fanout

    jobs = (
        fanout.Job(call, p.kind.name, p.puzzle, tuple(r), run.time_limit, run.max_nodes)
        for p, r in listed
    )
    workers = None if run.scheduler is not None else run.workers
    chunk = fanout.chunk_size(len(listed), run.workers)
    with (
        open_pool(workers, run.scheduler) as pool,
        bar(len(listed), run.output, "puzzles") as advance,
        closing(fanout.ordered(pool, fanout.perform, jobs, chunk=chunk, done=advance)) as done,
    ):
        for (puzzle, _), outcomes in zip(listed, done, strict=True):
            yield puzzle, (_reported(puzzle, codes, outcome) for outcome in outcomes)


def _reported(puzzle: Puzzle, codes: list[int], outcome: Any) -> Any:
    """A worker's outcome, or ``None`` for a :class:`~cspsolve.fanout.Refused` (reported as
    :func:`_guarded` reports it)."""
    from cspsolve.fanout import Refused

    if isinstance(outcome, Refused):
        click.echo(f"cspsolve: {puzzle.title}: {outcome.message}", err=True)
        codes.append(EXIT_BAD_INPUT)
        return None
    return outcome


@contextmanager
def open_pool(workers: int | None, scheduler: str | None) -> Iterator[Executor]:
    """:func:`cspsolve.parallel.executor`, its errors turned into one line and exit code 2."""
    from cspsolve import parallel

    with ExitStack() as stack:
        try:
            pool = stack.enter_context(parallel.executor(workers, scheduler))
        except OptionError as e:
            fail(str(e))
        yield pool
