"""The puzzles of the command's files, and the outcomes of a :mod:`cspsolve.tasks` call on
each in input order (the library's driver, :func:`cspsolve.fanout.outcomes`, runs them here or
on a pool); a request that does not fit a puzzle is one line on stderr and exit code 2."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cspsolve import fanout, registry, tasks
from cspsolve.cli.exits import EXIT_BAD_INPUT
from cspsolve.cli.options import Run, check_request
from cspsolve.cli.output import bar, fail, spinner
from cspsolve.errors import InputError, OptionError
from cspsolve.kind import PuzzleEntry
from cspsolve.tasks import Request

if TYPE_CHECKING:
    from concurrent.futures import Executor

T = TypeVar("T")


@dataclass(frozen=True)
class Puzzle(fanout.Posed):
    """One puzzle to work on, with where it came from; its ``puzzle`` is the entry's puzzle as
    the options shape it (the kind's ``prepare``, where it has one)."""

    source: str
    entry: PuzzleEntry
    many: bool

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
            yield Puzzle(kind=model, puzzle=shaped, source=source, entry=entry, many=many)


def worked(
    asked: Iterable[tuple[Puzzle, Sequence[Request]]],
    run: Run,
    codes: list[int],
    call: Callable[..., T],
    label: str | Callable[[Puzzle], str] | None = None,
    *,
    here: bool = False,
) -> Iterator[tuple[Puzzle, Iterator[T | None]]]:
    """Each puzzle with the outcomes of ``call`` (a :mod:`cspsolve.tasks` function) for each
    of its requests, in input order, as :func:`cspsolve.fanout.outcomes` gives them for
    ``run``'s limits, processes and scheduler (all here when ``here``); ``None`` for a request
    that does not fit the puzzle (one line on stderr, exit code 2 in ``codes``).

    A call made here shows a spinner on a terminal, labelled ``label`` and the puzzle's title,
    or by ``label(puzzle)`` when it is a function (called once per call; none when ``None``);
    a pool shows a progress bar, and its errors are one line and exit code 2
    (:func:`open_pool`).
    """
    shown = label is not None and run.output == "text"

    def labelled(puzzle: Puzzle) -> str:
        return label(puzzle) if callable(label) else f"{label} {puzzle.title}"

    done = fanout.outcomes(
        asked,
        call,
        time_limit=run.time_limit,
        max_nodes=run.max_nodes,
        workers=run.workers,
        scheduler=run.scheduler,
        here=here,
        spinner=lambda puzzle: spinner(shown, labelled(puzzle)),
        bar=lambda total: bar(total, run.output, "puzzles"),
        pool=open_pool,
    )
    for puzzle, outcomes in done:
        yield puzzle, (_reported(puzzle, codes, outcome) for outcome in outcomes)


def _reported(puzzle: Puzzle, codes: list[int], outcome: T | fanout.Refused) -> T | None:
    """An outcome, or ``None`` for a :class:`~cspsolve.fanout.Refused`: its message is one
    line on stderr and adds exit code 2 to ``codes``."""
    if isinstance(outcome, fanout.Refused):
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
