"""The command line's flags: the shared options, the kinds' own options made into flags
(:func:`kind_flags`), and their packing into one :class:`~cspsolve.tasks.Request` and one
:class:`Run` handed to a command."""

from __future__ import annotations

import dataclasses
import functools
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from cspsolve import registry, tasks
from cspsolve.cli.output import fail
from cspsolve.errors import OptionError
from cspsolve.kind import Kind
from cspsolve.limits import processes
from cspsolve.tasks import Request

kind_option = click.option(
    "--kind",
    type=click.Choice(registry.names()),
    help="Puzzle kind (default: detected from the file's extension and content).",
)


class Seconds(click.FloatRange):
    """A finite, non-negative number of seconds (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


class Number(click.ParamType[float]):
    """A finite number (``nan`` and ``inf`` are refused)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


limit_options = [
    click.option(
        "--time-limit",
        type=Seconds(),
        metavar="SECONDS",
        help="Stop each run after this many seconds (0 stops it at once; exit 3 if no answer).",
    ),
    click.option(
        "--max-nodes",
        type=click.IntRange(min=0),
        metavar="N",
        help="Stop each run after expanding N search nodes.",
    ),
]


class Workers(click.ParamType[int]):
    """A ``--workers`` value: a positive count, or ``auto`` for the cores (read by
    :func:`cspsolve.parallel.workers_value`)."""

    name = "workers"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from cspsolve import parallel

        try:
            return parallel.workers_value(value)
        except OptionError as e:
            self.fail(str(e), param, ctx)


scheduler_option = click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help="Run on a Dask distributed cluster instead (needs cspsolve[cluster]).",
)


parallel_options = [
    click.option(
        "--workers",
        type=Workers(),
        metavar="N|auto",
        help="Processes to use (default 1; auto: the cores). Several puzzles go one per "
        "process, printed in input order; one puzzle uses them where its method splits its "
        "search.",
    ),
    scheduler_option,
]


def exclusive(workers: int | None, scheduler: str | None) -> None:
    """Exit 2 when both ``--workers`` and ``--scheduler`` are given."""
    if workers is not None and scheduler is not None:
        fail("--workers and --scheduler exclude each other (the cluster has its own workers)")


_choice_options = [
    click.option(
        "--method",
        metavar="NAME",
        help="Solving method (default: the kind's choice for the puzzle; see 'cspsolve methods').",
    ),
    click.option(
        "--heuristic",
        metavar="NAME",
        help="Heuristic for informed search (default: the method's first; see 'cspsolve methods').",
    ),
]


@dataclass(frozen=True)
class Flag:
    """A command-line flag made from a field of the kinds' options dataclasses."""

    name: str
    """The field's name (the parameter the command receives)."""
    titles: tuple[str, ...]
    """The titles of the kinds that have the field."""
    field: dataclasses.Field[Any]
    annotation: Any

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def option(self) -> Callable[[Any], Any]:
        """The click option: a switch for a bool, a --x/--no-x pair for an optional bool, a
        choice when the field names choices, a count (at least 1) for an optional int, a
        finite number for an optional float, else a string; absent means ``None``."""
        told = self.field.metadata.get("help", "")
        help_text = told[:1].upper() + told[1:]
        choices = self.field.metadata.get("choices")
        if self.annotation is bool:
            return click.option(self.flag, self.name, is_flag=True, default=None, help=help_text)
        if self.annotation == bool | None:
            pair = f"{self.flag}/--no-{self.flag[2:]}"
            return click.option(pair, self.name, default=None, help=help_text)
        if self.annotation == int | None:
            count = click.IntRange(min=1)
            return click.option(self.flag, self.name, type=count, metavar="N", help=help_text)
        if self.annotation == float | None:
            number = Number()
            return click.option(self.flag, self.name, type=number, metavar="X", help=help_text)
        kind = click.Choice(list(choices)) if choices else click.STRING
        metavar = self.field.metadata.get("metavar")
        return click.option(
            self.flag, self.name, type=kind, default=None, metavar=metavar, help=help_text
        )


class KindCommand(click.Command):
    """A command whose help lists the kinds' own options under a heading per kind, after its
    other options (a flag that several kinds share is under each of them)."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        flags = kind_flags()
        general: list[tuple[str, str]] = []
        by_kind: dict[str, list[tuple[str, str]]] = {kind.title: [] for kind in _kinds()}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            flag = flags.get(param.name or "")
            for title in flag.titles if flag else ():
                by_kind.setdefault(title, []).append(record)
            if flag is None:
                general.append(record)
        with formatter.section("Options"):
            formatter.write_dl(general)
        for title, records in by_kind.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


def _kinds() -> list[Kind]:
    """The kinds, in the registry's order."""
    return list(registry.kinds().values())


@functools.cache
def kind_flags() -> dict[str, Flag]:
    """Every kind's options as flags, by field name (a field several kinds share is one flag)."""
    flags: dict[str, Flag] = {}
    for kind in registry.kinds().values():
        hints = typing.get_type_hints(kind.options)
        for field in dataclasses.fields(kind.options):
            if field.name in flags:
                known = flags[field.name]
                flags[field.name] = dataclasses.replace(known, titles=(*known.titles, kind.title))
            else:
                flags[field.name] = Flag(field.name, (kind.title,), field, hints[field.name])
    return flags


def output_option(help_text: str) -> Callable[[Any], Any]:
    """``--format text|json`` (default text), handed to the command as ``output``."""
    return click.option(
        "--format",
        "output",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=help_text,
    )


format_option = output_option(
    "text: drawings and a stats line; json: one JSON object per puzzle (JSON Lines)."
)


def with_options(options: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def apply(f: Any) -> Any:
        for option in reversed(options):
            f = option(f)
        return f

    return apply


@dataclass(frozen=True)
class Run:
    """The command-line options every solving command shares."""

    kind: str | None
    request: Request
    time_limit: float | None
    max_nodes: int | None
    output: str
    workers: int = 1
    """Processes (``--workers``): a pool for several puzzles, else the single run's."""
    scheduler: str | None = None
    """A Dask scheduler's address (``--scheduler``), in place of local processes."""


def request_options(*, choose_method: bool = True) -> Callable[[Any], Any]:
    """Add the model options to a command and hand them to it as one ``request`` argument
    (a :class:`~cspsolve.tasks.Request`): ``--method`` and ``--heuristic`` unless the command
    chooses them itself, and every kind's own options (:func:`kind_flags`)."""
    flags = kind_flags()
    added = (_choice_options if choose_method else []) + [f.option() for f in flags.values()]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(command)
        def unpacked(**params: Any) -> None:
            given = {name: params.pop(name) for name in flags}
            options = {name: value for name, value in given.items() if value is not None}
            method, heuristic = params.pop("method", None), params.pop("heuristic", None)
            command(request=Request(method, heuristic, options), **params)

        return with_options(added)(unpacked)  # type: ignore[no-any-return]

    return decorate


def run_options() -> Callable[[Any], Any]:
    """The options of the commands that work puzzle by puzzle (solve, verify, analyze, explain)
    — ``--kind``, the model options, the limits, ``--format``, ``--workers`` and
    ``--scheduler`` — handed to the command as one ``run`` argument (a :class:`Run`)."""

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(command)
        def packed(
            kind: str | None,
            request: Request,
            time_limit: float | None,
            max_nodes: int | None,
            output: str,
            workers: int | None,
            scheduler: str | None,
            **rest: Any,
        ) -> None:
            run = Run(kind, request, time_limit, max_nodes, output)
            command(run=with_workers(run, workers, scheduler), **rest)

        added = [kind_option, request_options(), *limit_options, format_option, *parallel_options]
        return with_options(added)(packed)  # type: ignore[no-any-return]

    return decorate


def with_workers(run: Run, workers: int | None, scheduler: str | None) -> Run:
    """``run`` with ``--workers`` and ``--scheduler``, read by :func:`cspsolve.limits.processes`
    (a scheduler alone: every thread of its cluster); exit 2 when both are given or the
    scheduler cannot be reached."""
    exclusive(workers, scheduler)
    try:  # a search split over a cluster keeps all its workers busy
        count = processes(workers or 1, scheduler)
    except OptionError as e:
        fail(str(e))
    return dataclasses.replace(run, workers=count, scheduler=scheduler)


def check_request(kind: Kind, request: Request) -> None:
    """Exit 2 with one line when the method, heuristic or an option does not fit the kind."""
    try:
        tasks.check_names(kind, request)
    except OptionError as e:
        fail(str(e))
    for name in request.options:
        if name not in kind.option_names:
            fail(f"{kind_flags()[name].flag} does not apply to {kind.name} puzzles")
