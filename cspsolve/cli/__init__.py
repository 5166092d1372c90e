"""The ``cspsolve`` command: parse arguments, call the library, print results.

Exit codes (``cspsolve --help`` lists them too):

- 0: every puzzle solved (``verify``: the answers agree; ``batch``: every job has its row);
- 1: some puzzle proven unsolvable;
- 2: bad input or usage (one line on stderr, ``cspsolve: FILE[:LINE]: what is wrong``);
- 3: a limit was reached without an answer;
- 4: disagreement: ``verify``'s two answers differ;
- 70: internal error, a bug: an unexpected exception is shown as one line
  (``cspsolve: internal error: ...``; ``CSPSOLVE_DEBUG=1`` shows its traceback instead), and
  ``batch`` exits so when a worker process dies (rows stored are kept);
- 130: interrupted (Ctrl-C).

Over many puzzles the command exits with the first of 4, 2, 3, 1 that occurs, else 0.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import sys
import threading
import typing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from cspsolve import registry, tasks
from cspsolve.errors import InputError, OptionError
from cspsolve.explanation import EXPLAIN_IMAGES, Explanation
from cspsolve.kind import Kind, PuzzleEntry
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status
from cspsolve.tasks import Request, Verification

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from rich.console import Console

    from cspsolve.batch import Store

__all__ = ["main"]

T = TypeVar("T")

EXIT_OK, EXIT_UNSOLVABLE, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_DISAGREE = 0, 1, 2, 3, 4
EXIT_INTERNAL = 70

_STATUS_EXIT = {
    Status.SOLVED: EXIT_OK,
    Status.OPTIMAL: EXIT_OK,
    Status.UNSOLVABLE: EXIT_UNSOLVABLE,
    Status.LIMIT: EXIT_LIMIT,
    Status.CANCELLED: EXIT_LIMIT,
}
_EXIT_PRIORITY = (EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_UNSOLVABLE, EXIT_OK)


def _worst(codes: list[int]) -> int:
    return min(codes, key=_EXIT_PRIORITY.index, default=EXIT_OK)


_STATUS_STYLE = {
    Status.SOLVED: "bold green",
    Status.OPTIMAL: "bold green",
    Status.UNSOLVABLE: "bold red",
    Status.LIMIT: "bold yellow",
    Status.CANCELLED: "bold yellow",
}


@functools.cache
def _console() -> Console:
    """The rich console for text output on stdout (plain text when piped)."""
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


def _terminal() -> bool:
    """Whether text goes to a terminal (or ``FORCE_COLOR`` asks for colours anyway)."""
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


def _say(text: str, style: str | None = None) -> None:
    """Print a line of text: styled by rich on a terminal, else as plain text with no ANSI
    code (a drawing may colour its cells with them), which costs no wrapping or markup."""
    if not _terminal():
        click.echo(text, color=False)
        return
    from rich.text import Text

    _console().print(Text.from_ansi(text), style=style)


def _announce(sentence: str) -> None:
    """Tell the user on stderr what a long piece of work will take (e.g. a GIF's frames)."""
    click.echo(f"cspsolve: {sentence}", err=True)


def _fail(message: str) -> NoReturn:
    click.echo(f"cspsolve: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@contextmanager
def _progress(enabled: bool, label: str) -> Iterator[Callable[[Stats], None] | None]:
    """A spinner on stderr with live counters, when stderr is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    with Console(stderr=True).status(label) as status:

        def update(stats: Stats) -> None:
            status.update(
                f"{label}  expanded {stats.expanded:,}  backtracks {stats.backtracks:,}  "
                f"{stats.seconds:.1f} s"
            )

        yield update


def _limits(
    time_limit: float | None,
    max_nodes: int | None,
    progress: Callable[[Stats], None] | None,
    workers: int = 1,
    scheduler: str | None = None,
) -> Limits:
    return Limits(
        time_limit=time_limit,
        max_nodes=max_nodes,
        cancel=threading.Event(),
        progress=progress,
        workers=workers,
        scheduler=scheduler,
    )


# Options shared by commands -------------------------------------------------------------------

_kind_option = click.option(
    "--kind",
    type=click.Choice(registry.names()),
    help="Puzzle kind (default: detected from the file's extension and content).",
)


class _Seconds(click.FloatRange):
    """A finite, non-negative number of seconds (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


_limit_options = [
    click.option(
        "--time-limit",
        type=_Seconds(),
        metavar="SECONDS",
        help="Stop each run after this many seconds (exit 3 if no answer).",
    ),
    click.option(
        "--max-nodes",
        type=click.IntRange(min=0),
        metavar="N",
        help="Stop each run after expanding N search nodes.",
    ),
]


class _Workers(click.ParamType[int]):
    """A ``--workers`` value: a positive count, or ``auto`` for the cores (read by
    :func:`cspsolve.parallel.workers_value`)."""

    name = "workers"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from cspsolve import parallel

        try:
            return parallel.workers_value(value)
        except OptionError as e:
            self.fail(str(e), param, ctx)


_scheduler_option = click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help="Run on a Dask distributed cluster instead (needs cspsolve[cluster]).",
)
_parallel_options = [
    click.option(
        "--workers",
        type=_Workers(),
        metavar="N|auto",
        help="Processes to use (default 1; auto: the cores). Several puzzles go one per "
        "process, printed in input order; one puzzle uses them where its method splits its "
        "search.",
    ),
    _scheduler_option,
]


def _exclusive(workers: int | None, scheduler: str | None) -> None:
    """Exit 2 when both ``--workers`` and ``--scheduler`` are given."""
    if workers is not None and scheduler is not None:
        _fail("--workers and --scheduler exclude each other (the cluster has its own workers)")


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
class _Flag:
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
        choice when the field names choices, a count (at least 1) for an optional int, else a
        string; absent means ``None``."""
        help_text = f"{', '.join(self.titles)}: {self.field.metadata.get('help', '')}"
        choices = self.field.metadata.get("choices")
        if self.annotation is bool:
            return click.option(self.flag, self.name, is_flag=True, default=None, help=help_text)
        if self.annotation == bool | None:
            pair = f"{self.flag}/--no-{self.flag[2:]}"
            return click.option(pair, self.name, default=None, help=help_text)
        if self.annotation == int | None:
            count = click.IntRange(min=1)
            return click.option(self.flag, self.name, type=count, metavar="N", help=help_text)
        kind = click.Choice(list(choices)) if choices else click.STRING
        return click.option(self.flag, self.name, type=kind, default=None, help=help_text)


@functools.cache
def _flags() -> dict[str, _Flag]:
    """Every kind's options as flags, by field name (a field several kinds share is one flag)."""
    flags: dict[str, _Flag] = {}
    for kind in registry.kinds().values():
        hints = typing.get_type_hints(kind.options)
        for field in dataclasses.fields(kind.options):
            if field.name in flags:
                known = flags[field.name]
                flags[field.name] = dataclasses.replace(known, titles=(*known.titles, kind.title))
            else:
                flags[field.name] = _Flag(field.name, (kind.title,), field, hints[field.name])
    return flags


def _output_option(help_text: str) -> Callable[[Any], Any]:
    """``--format text|json`` (default text), handed to the command as ``output``."""
    return click.option(
        "--format",
        "output",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=help_text,
    )


_format_option = _output_option(
    "text: drawings and a stats line; json: one JSON object per puzzle (JSON Lines)."
)


def _with(options: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def apply(f: Any) -> Any:
        for option in reversed(options):
            f = option(f)
        return f

    return apply


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="cspsolve")
def cli() -> None:
    """Solve logic puzzles by search and by constraint models, and check one against the other.

    \b
    Examples:
      cspsolve solve duck.non
      cspsolve solve puzzles.txt#17 --format json
      cspsolve verify card.rh
      cspsolve analyze board.lo
      cspsolve explain duck.non --image duck.html
      cspsolve compare start.json --time-limit 5
      cspsolve methods

    The folder instances/ of the source holds an example of every kind.

    A FILE holding many puzzles (tournament files, picross-solver grids, database files) is
    solved puzzle by puzzle; FILE#KEY picks one (by its $N number, GRID name or line).

    Text counts rows and columns from 1, a cell being (row, column); JSON (--format json)
    counts them from 0. A graph Lights Out board names its nodes by their labels in both.

    \b
    Exit codes (over many puzzles, the first of 4, 2, 3, 1 that occurs, else 0):
      0    solved (every puzzle; verify: the answers agree)
      1    unsolvable: some puzzle is proven to have no solution
      2    bad input or usage (one line on stderr)
      3    limit reached without an answer
      4    disagreement: verify's two answers differ
      70   internal error, a bug (set CSPSOLVE_DEBUG=1 for its traceback); batch: a worker died
      130  interrupted (Ctrl-C)
    """


@dataclass(frozen=True)
class _Run:
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

    def limits(self, progress: Callable[[Stats], None] | None) -> Limits:
        """Fresh limits for one run in this process (its own cancellation event, the
        processes and scheduler its method may split its search over), reporting to
        ``progress``."""
        return _limits(self.time_limit, self.max_nodes, progress, self.workers, self.scheduler)

    @property
    def parallel(self) -> bool:
        """Whether several processes were asked for (``--workers`` above 1 or a scheduler)."""
        return self.workers > 1 or self.scheduler is not None


@dataclass(frozen=True)
class _Puzzle:
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


def _check_request(kind: Kind, request: Request) -> None:
    """Exit 2 with one line when the method, heuristic or an option does not fit the kind."""
    try:
        tasks.check_names(kind, request)
    except OptionError as e:
        _fail(str(e))
    for name in request.options:
        if name not in kind.option_names:
            _fail(f"{_flags()[name].flag} does not apply to {kind.name} puzzles")


def _puzzles(files: tuple[str, ...], run: _Run, codes: list[int]) -> Iterator[_Puzzle]:
    """Every puzzle of ``files``; bad input is reported and adds exit code 2 to ``codes``."""
    for spec in files:
        try:
            kind, entries = registry.load(spec, run.kind)
        except InputError as e:
            click.echo(f"cspsolve: {e}", err=True)
            codes.append(EXIT_BAD_INPUT)
            continue
        model = registry.get(kind)
        _check_request(model, run.request)
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
            yield _Puzzle(model, source, entry, many, shaped)


def _guarded(
    puzzle: _Puzzle,
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


def _options(*, choose_method: bool = True) -> Callable[[Any], Any]:
    """Add the model options to a command and hand them to it as one ``request`` argument
    (a :class:`~cspsolve.tasks.Request`): ``--method`` and ``--heuristic`` unless the command
    chooses them itself, and every kind's own options (:func:`_flags`)."""
    flags = _flags()
    added = (_choice_options if choose_method else []) + [f.option() for f in flags.values()]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(command)
        def unpacked(**params: Any) -> None:
            given = {name: params.pop(name) for name in flags}
            options = {name: value for name, value in given.items() if value is not None}
            method, heuristic = params.pop("method", None), params.pop("heuristic", None)
            command(request=Request(method, heuristic, options), **params)

        return _with(added)(unpacked)  # type: ignore[no-any-return]

    return decorate


def _run_options() -> Callable[[Any], Any]:
    """The options of the commands that work puzzle by puzzle (solve, verify, analyze, explain)
    — ``--kind``, the model options, the limits, ``--format``, ``--workers`` and
    ``--scheduler`` — handed to the command as one ``run`` argument (a :class:`_Run`)."""

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
            run = _Run(kind, request, time_limit, max_nodes, output)
            command(run=_parallel(run, workers, scheduler), **rest)

        added = [_kind_option, _options(), *_limit_options, _format_option, *_parallel_options]
        return _with(added)(packed)  # type: ignore[no-any-return]

    return decorate


def _parallel(run: _Run, workers: int | None, scheduler: str | None) -> _Run:
    """``run`` with ``--workers`` and ``--scheduler``; exit 2 when both are given."""
    _exclusive(workers, scheduler)
    if scheduler is not None:  # a search split over the cluster keeps all its workers busy
        from cspsolve import parallel

        try:
            workers = parallel.cluster_size(scheduler)
        except OptionError as e:
            _fail(str(e))
    return dataclasses.replace(run, workers=workers or 1, scheduler=scheduler)


def _worked(
    items: Iterable[tuple[_Puzzle, list[Request]]],
    run: _Run,
    codes: list[int],
    call: Callable[..., T],
    label: str | None = None,
) -> Iterator[tuple[_Puzzle, Iterator[T | None]]]:
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
        yield from _here(items, run, codes, call, label)
        return
    listed: list[tuple[_Puzzle, list[Request]]] = []
    stop: SystemExit | None = None
    try:
        listed.extend(items)
    except SystemExit as e:
        stop = e
    if len(listed) > 1:
        yield from _fanned(listed, run, codes, call)
    else:
        yield from _here(listed, run, codes, call, label)
    if stop is not None:
        raise stop


def _here(
    items: Iterable[tuple[_Puzzle, list[Request]]],
    run: _Run,
    codes: list[int],
    call: Callable[..., T],
    label: str | None,
) -> Iterator[tuple[_Puzzle, Iterator[T | None]]]:
    """:func:`_worked` in this process: each call made as its outcome is asked for."""

    def outcomes(puzzle: _Puzzle, requests: list[Request]) -> Iterator[T | None]:
        for request in requests:
            shown = label is not None and run.output == "text"
            with _progress(shown, f"{label} {puzzle.title}") as progress:
                outcome = _guarded(puzzle, codes, call, request, run.limits(progress))
            yield outcome

    for puzzle, requests in items:
        yield puzzle, outcomes(puzzle, requests)


def _fanned(
    listed: list[tuple[_Puzzle, list[Request]]],
    run: _Run,
    codes: list[int],
    call: Callable[..., T],
) -> Iterator[tuple[_Puzzle, Iterator[T | None]]]:
    """:func:`_worked` over a pool of ``run.workers`` processes or the Dask scheduler, with a
    progress bar on stderr when it is a terminal (and the output text)."""
    from cspsolve import fanout

    jobs = (
        fanout.Job(call, p.kind.name, p.puzzle, tuple(r), run.time_limit, run.max_nodes)
        for p, r in listed
    )
    workers = None if run.scheduler is not None else run.workers
    chunk = fanout.chunk_size(len(listed), run.workers)
    with (
        _executor(workers, run.scheduler) as pool,
        _bar(len(listed), run.output, "puzzles") as advance,
        closing(fanout.ordered(pool, fanout.perform, jobs, chunk=chunk, done=advance)) as done,
    ):
        for (puzzle, _), outcomes in zip(listed, done, strict=True):
            yield puzzle, (_reported(puzzle, codes, outcome) for outcome in outcomes)


def _reported(puzzle: _Puzzle, codes: list[int], outcome: Any) -> Any:
    """A worker's outcome, or ``None`` for a :class:`~cspsolve.fanout.Refused` (reported as
    :func:`_guarded` reports it)."""
    from cspsolve.fanout import Refused

    if isinstance(outcome, Refused):
        click.echo(f"cspsolve: {puzzle.title}: {outcome.message}", err=True)
        codes.append(EXIT_BAD_INPUT)
        return None
    return outcome


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_run_options()
@click.option(
    "--image",
    type=click.Path(dir_okay=False),
    metavar="OUT.png|OUT.svg|OUT.gif",
    help="Also draw each solution: PNG/SVG the solved board, GIF every step of the solution. "
    "With several puzzles, OUT-1.png, OUT-2.png, ...",
)
def solve(
    files: tuple[str, ...],
    run: _Run,
    image: str | None,
) -> None:
    """Solve every puzzle in FILE... and print the solutions.

    'cspsolve methods' lists the methods and heuristics of every kind.

    \b
    Exit codes: 0 solved, 1 unsolvable (proven), 2 bad input or usage, 3 limit reached
    without an answer; over many puzzles the first of 2, 3, 1 that occurs, else 0.
    """
    codes: list[int] = []
    puzzles, images = _with_images(_puzzles(files, run, codes), image, IMAGE_SUFFIXES)
    asked = ((puzzle, [run.request]) for puzzle in puzzles)
    worked = _worked(asked, run, codes, tasks.solve, "solving")
    for number, (puzzle, outcomes) in enumerate(worked):
        [result] = outcomes
        if result is None:
            continue
        codes.append(_STATUS_EXIT[result.status])
        _print_result(puzzle, result, run)
        if images:
            codes += _draw_solution(puzzle, result, images[number], run.output)
    sys.exit(_worst(codes))


IMAGE_SUFFIXES = (".png", ".svg", ".gif")


def _with_images(
    puzzles: Iterable[_Puzzle], image: str | None, suffixes: tuple[str, ...]
) -> tuple[Iterable[_Puzzle], list[str]]:
    """The puzzles and the image file of each (``OUT-1.png``, ... when there are several);
    no images when ``image`` is ``None``. Exits 2 for an unknown image format."""
    if image is None:
        return puzzles, []
    _check_image_name(image, suffixes)
    listed = list(puzzles)
    many = len(listed) > 1
    return listed, [_numbered(image, i) if many else image for i in range(1, len(listed) + 1)]


def _check_image_name(name: str, suffixes: tuple[str, ...]) -> None:
    """Exit 2 unless ``name`` ends in one of ``suffixes``."""
    suffix = os.path.splitext(name)[1].lower()
    if suffix not in suffixes:
        _fail(f"{name}: unknown image format {suffix or '(none)'!r}; use {', '.join(suffixes)}")


def _numbered(name: str, number: int) -> str:
    """``out.png`` → ``out-3.png``."""
    stem, suffix = os.path.splitext(name)
    return f"{stem}-{number}{suffix}"


def _draw_solution(puzzle: _Puzzle, result: Result[Any], name: str, output: str) -> list[int]:
    """Write the solution's picture; the exit codes of what went wrong (none when all went
    well)."""
    from cspsolve.render import write_image

    if result.solution is None:
        click.echo(f"cspsolve: {puzzle.title}: no solution to draw", err=True)
        return []
    try:
        write_image(puzzle.kind.scenes(puzzle.puzzle, result.solution), name, announce=_announce)
    except (ValueError, OSError) as e:
        click.echo(f"cspsolve: {puzzle.title}: cannot draw {name}: {e}", err=True)
        return [EXIT_BAD_INPUT]
    if output == "text":
        _say(f"image: {name}")
    return []


def _listed(result: Result[Any], asked: int | None) -> str:
    """What a list of solutions (``--solutions N``) is: all of them, as many as asked for, or
    cut short by a limit; empty when none was asked for."""
    if asked is None or not result.status.has_solution:
        return ""
    found = len(result.solutions)
    counted = f"{found} solution{'s' * (found != 1)}"
    if result.proof.get("exhaustive") is True:
        return f"{counted}: all there are"
    if found >= asked:
        return f"{counted} listed, as many as asked for; there may be more"
    return f"{counted} found; the search for more stopped at a limit"


def _print_result(puzzle: _Puzzle, result: Result[Any], run: _Run) -> None:
    model = puzzle.kind
    if run.output == "json":
        record = puzzle.record()
        record.update(result.to_json(model.encode))
        click.echo(json.dumps(record))
        return
    _say(f"{puzzle.title}: {model.describe(puzzle.puzzle)}", "bold")
    if result.solution is not None:
        _say(model.draw(puzzle.puzzle, result.solution))
    complete = result.proof.get("exhaustive") is True
    for number, other in enumerate(result.solutions[1:], 2):
        _say(f"solution {number}{f' of {len(result.solutions)}' * complete}:", "bold")
        _say(model.draw(puzzle.puzzle, other))
    listed = _listed(result, run.request.options.get("solutions"))
    if listed:
        _say(listed)
    if result.message:
        _say(result.message)
    asked = bool(run.request.options.get("unique"))
    _say(result.summary(asked), _STATUS_STYLE[result.status])


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_run_options()
def verify(
    files: tuple[str, ...],
    run: _Run,
) -> None:
    """Solve by a method and by the kind's reference method, check both answers, and report
    whether they agree.

    The reference is CP-SAT where the kind has a CP-SAT model ('cspsolve methods' names each
    kind's). Both answers are replayed by the kind's independent checker; optimal costs must
    match, no answer may cost less than a proven bound, and verdicts on uniqueness must agree.

    \b
    Exit codes: 0 the answers agree, 1 both prove a puzzle unsolvable, 2 bad input or usage,
    3 a limit left agreement unsettled, 4 the answers disagree.
    """
    codes: list[int] = []
    asked = ((puzzle, [run.request]) for puzzle in _puzzles(files, run, codes))
    for puzzle, outcomes in _worked(asked, run, codes, tasks.verify):
        [report] = outcomes
        if report is not None:
            codes.append(_verify_code(report))
            _print_verify(puzzle, report, run.output)
    sys.exit(EXIT_DISAGREE if EXIT_DISAGREE in codes else _worst(codes))


def _verify_code(report: Verification) -> int:
    if report.agree is False:
        return EXIT_DISAGREE
    if report.agree is None:
        return EXIT_LIMIT
    return _STATUS_EXIT[report.search.status]


def _print_verify(puzzle: _Puzzle, report: Verification, output: str) -> None:
    search, reference = report.search, report.reference
    model = puzzle.kind
    if output == "json":
        record = puzzle.record()
        record.update(search.to_json(model.encode))
        record["agree"] = report.agree
        record["problems"] = report.problems
        record["reference"] = reference.to_json(model.encode)
        record["words"] = report.words()
        click.echo(json.dumps(record))
        return
    verdict = {True: "agree", False: "DISAGREE", None: "not settled"}[report.agree]
    style = {True: "bold green", False: "bold red", None: "bold yellow"}[report.agree]
    _say(f"{puzzle.title}: {model.describe(puzzle.puzzle)}: {verdict}", style)
    asked = bool(model.verify_options.get("unique"))
    _say(f"  search ({search.method}): {search.summary(asked)}")
    _say(f"  reference ({reference.method}): {reference.summary(asked)}")
    for sentence in report.words():
        _say(f"  {sentence}", "red" if report.agree is False else None)


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_run_options()
@click.option(
    "--frames",
    is_flag=True,
    help="Draw the board after each step (text output; a nonogram's cells that the step "
    "decided are drawn ▓▓ when filled, x when empty).",
)
@click.option(
    "--unfold",
    is_flag=True,
    help="Show every step of a long refutation (text output; by default one line each).",
)
@click.option(
    "--image",
    type=click.Path(dir_okay=False),
    metavar="OUT.html|OUT.gif|OUT.svg|OUT.png",
    help="Also write the steps as pictures: HTML a page that steps through them (slider, "
    "buttons, autoplay; no network needed), GIF every step, SVG/PNG the start and the end. "
    "With several puzzles, OUT-1.html, OUT-2.html, ...",
)
def explain(
    files: tuple[str, ...],
    run: _Run,
    frames: bool,
    unfold: bool,
    image: str | None,
) -> None:
    """Show why the answer to every puzzle in FILE... holds, step by step.

    \b
    Nonograms: a complete proof, each deduction in order (line logic, probes of depth 1 and
      2 with their contradiction, refutations: a guess, the deductions under it and the
      backtrack that rules it out), the grade (the least reasoning that solves the puzzle)
      and the verdict: unique, no solution, or where two solutions branch.
    Rush Hour, n-puzzle: the plan move by move with g, h and f (h never exceeds the moves
      that remain) and why no shorter plan exists.
    Lights Out: the presses of light chasing, the quiet patterns, the coset searched and
      why the minimum is proven.

    With --format json: JSON Lines, one object a step ({"type": "step", "step", "rule",
    "text", and the rule's data}), then one {"type": "summary", ...} holding the result as
    'solve' writes it; every object starts with "kind" and "file" ("id" in multi-puzzle
    files). docs/guide.md shows how to read an explanation.

    \b
    Exit codes: as 'solve': 0 solved, 1 unsolvable (proven), 2 bad input or usage, 3 limit
    reached without an answer.
    """
    codes: list[int] = []
    puzzles, images = _with_images(_puzzles(files, run, codes), image, EXPLAIN_IMAGES)
    # One puzzle after another here, each with the workers for its method: an explanation
    # does not pickle (it holds functions of its kind), so it cannot come from a pool.
    asked = ((puzzle, [run.request]) for puzzle in puzzles)
    for number, (puzzle, outcomes) in enumerate(
        _here(asked, run, codes, tasks.explain, "explaining")
    ):
        [explained] = outcomes
        if explained is None:
            continue
        codes.append(_STATUS_EXIT[explained.result.status])
        _print_explanation(puzzle, explained, run.output, frames, unfold)
        if images:
            codes += _write_explanation(puzzle, explained, images[number], run.output)
    sys.exit(_worst(codes))


def _print_explanation(
    puzzle: _Puzzle, explained: Explanation, output: str, frames: bool, unfold: bool
) -> None:
    model = puzzle.kind
    if output == "json":  # one write for all the lines of a puzzle
        named = puzzle.record()
        lines = (
            json.dumps({**named, **record}) + "\n" for record in explained.records(model.encode)
        )
        click.echo("".join(lines), nl=False)
        return
    _say(f"{puzzle.title}: {model.describe(puzzle.puzzle)}", "bold")
    _say(explained.text(frames=frames, unfold=unfold))
    result = explained.result
    if result.solution is not None and not frames:
        _say(model.draw(puzzle.puzzle, result.solution))
    _say(result.summary(), _STATUS_STYLE[result.status])


def _heading(puzzle: _Puzzle) -> tuple[str, str]:
    """A page's title (the puzzle's own, else its file's name) and the line under it (what
    the puzzle is, and its file)."""
    own = getattr(puzzle.puzzle, "title", "")
    title = own if isinstance(own, str) and own else os.path.basename(puzzle.title)
    described = f"{puzzle.kind.name} {puzzle.kind.describe(puzzle.puzzle)}"
    return title, f"{described}, from {puzzle.title}"


def _write_explanation(
    puzzle: _Puzzle, explained: Explanation, name: str, output: str
) -> list[int]:
    """Write the explanation's pictures; the exit codes of what went wrong."""
    title, subtitle = _heading(puzzle)
    try:
        explained.write(name, title=title, subtitle=subtitle, announce=_announce)
    except (ValueError, OSError) as e:
        click.echo(f"cspsolve: {puzzle.title}: cannot draw {name}: {e}", err=True)
        return [EXIT_BAD_INPUT]
    if output == "text":
        _say(f"image: {name}")
    return []


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_run_options()
def analyze(
    files: tuple[str, ...],
    run: _Run,
) -> None:
    """Report the difficulty and structure of every puzzle in FILE...

    'cspsolve methods' lists what each kind reports. With --format json: {"kind", "file",
    "analysis": {...}} per puzzle (JSON Lines).

    \b
    Exit codes: 0 analysed, 2 bad input or usage, 3 a limit stopped the analysis (what was
    found before is shown; its "status" is "limit").
    """
    codes: list[int] = []
    asked = ((puzzle, [run.request]) for puzzle in _puzzles(files, run, codes))
    for puzzle, outcomes in _worked(asked, run, codes, tasks.analyze, "analysing"):
        [analysis] = outcomes
        if analysis is None:
            continue
        stopped = analysis.get("status") in (Status.LIMIT.value, Status.CANCELLED.value)
        codes.append(EXIT_LIMIT if stopped else EXIT_OK)
        if run.output == "json":
            click.echo(json.dumps({**puzzle.record(), "analysis": analysis}))
        else:
            _print_analysis(puzzle, analysis)
    sys.exit(_worst(codes))


def _print_analysis(puzzle: _Puzzle, analysis: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title=f"{puzzle.title}: {puzzle.kind.describe(puzzle.puzzle)}")
    table.add_column("property")
    table.add_column("value", overflow="fold")
    for key, value in analysis.items():
        shown = value if isinstance(value, str) else json.dumps(value)
        table.add_row(key.replace("_", " "), shown)
    _console().print(table)


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_kind_option
@click.option(
    "--methods",
    metavar="M1,M2,...",
    help="Only these methods (comma-separated; default: every method that suits the puzzle).",
)
@click.option(
    "--heuristics",
    metavar="H1,H2,...",
    help="Only these heuristics (comma-separated; default: every heuristic).",
)
@_options(choose_method=False)
@click.option(
    "--time-limit",
    type=_Seconds(),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Limit of each run.",
)
@click.option(
    "--max-nodes", type=click.IntRange(min=0), metavar="N", help="Node limit of each run."
)
@_format_option
@_with(_parallel_options)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    metavar="OUT.png|OUT.svg",
    help="Also plot expanded nodes and seconds per method and heuristic (log scale).",
)
def compare(
    files: tuple[str, ...],
    kind: str | None,
    methods: str | None,
    heuristics: str | None,
    request: Request,
    time_limit: float | None,
    max_nodes: int | None,
    output: str,
    workers: int | None,
    scheduler: str | None,
    plot: str | None,
) -> None:
    """Run every method and heuristic on each puzzle and tabulate the effort.

    Columns: status, cost, expanded, generated, max frontier, depth, seconds. Each run stops
    at --time-limit (status "limit"). With --format json: one object per run (JSON Lines).

    \b
    Example:
      cspsolve compare board.json --methods astar,idastar --heuristics manhattan,linear-conflict
    """
    run = _parallel(_Run(kind, request, time_limit, max_nodes, output), workers, scheduler)
    wanted_methods = _split(methods)
    wanted_heuristics = _split(heuristics)
    if plot is not None:
        _check_image_name(plot, (".png", ".svg"))
    codes: list[int] = []
    plotted: list[tuple[str, str, float, float]] = []

    def asked() -> Iterator[tuple[_Puzzle, list[Request]]]:
        """Each puzzle with a request per method and heuristic to run on it."""
        for puzzle in _puzzles(files, run, codes):
            try:
                pairs = tasks.comparisons(
                    puzzle.kind, puzzle.puzzle, methods=wanted_methods, heuristics=wanted_heuristics
                )
            except OptionError as e:
                _fail(f"--methods/--heuristics: {e}")
            if not pairs:
                _fail(f"{puzzle.title}: no method/heuristic pair matches --methods/--heuristics")
            yield (
                puzzle,
                [dataclasses.replace(run.request, method=m, heuristic=h) for m, h in pairs],
            )

    for puzzle, outcomes in _worked(asked(), run, codes, tasks.solve):
        rows = []
        for result in outcomes:
            if result is not None:
                rows.append(result)
                label = tasks.run_name(result.method, result.heuristic)
                plotted.append((puzzle.title, label, result.stats.expanded, result.stats.seconds))
                if output == "json":
                    click.echo(
                        json.dumps({**puzzle.record(), **result.to_json(puzzle.kind.encode)})
                    )
        if output == "text":
            _print_comparison(puzzle, rows)
        codes.append(EXIT_OK)
    if plot is not None and plotted:
        from cspsolve.render import plot_comparison

        try:
            plot_comparison(plotted, plot)
        except OSError as e:
            _fail(f"{plot}: {e}")
        if output == "text":
            _say(f"plot: {plot}")
    sys.exit(_worst(codes))


def _split(names: str | None) -> set[str] | None:
    return None if names is None else {n.strip() for n in names.split(",") if n.strip()}


def _print_comparison(puzzle: _Puzzle, results: list[Result[Any]]) -> None:
    from rich.table import Table

    header = [
        "method",
        "heuristic",
        "status",
        "cost",
        "expanded",
        "generated",
        "max_frontier",
        "depth",
        "seconds",
    ]
    rows = [
        (
            r.method,
            r.heuristic or "-",
            r.status.value,
            f"{r.stats.cost:g}" if r.status.has_solution else "-",
            f"{r.stats.expanded:,}",
            f"{r.stats.generated:,}",
            f"{r.stats.max_frontier:,}",
            f"{r.stats.depth:,}",
            f"{r.stats.seconds:.3f}",
        )
        for r in results
    ]
    table = Table(title=f"{puzzle.title}: {puzzle.kind.describe(puzzle.puzzle)}")
    for i, name in enumerate(header):
        width = max(len(name), *(len(row[i]) for row in rows))
        table.add_column(name, justify="right" if i >= 3 else "left", min_width=width)
    for r, row in zip(results, rows, strict=True):
        table.add_row(*row, style=_STATUS_STYLE[r.status])
    _console().print(table, width=max(_console().width, sum(map(len, header)) + 40))


@cli.command()
@click.argument("paths", nargs=-1, metavar="PATH...")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    metavar="RESULTS.sqlite",
    help="The SQLite file of results (created if missing; jobs already in it are skipped).",
)
@click.option(
    "--summary",
    "summary_of",
    type=click.Path(dir_okay=False),
    metavar="RESULTS.sqlite",
    help="Run nothing: print the totals of a results file by kind and status.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="N",
    help="Processes of the local pool (default: the number of cores).",
)
@_scheduler_option
@click.option(
    "--shard",
    metavar="K/N",
    help="Only the K-th of N shares of the puzzles (1 <= K <= N), for job arrays.",
)
@click.option(
    "--kind",
    type=click.Choice(registry.names()),
    help="Only files of this kind (others are skipped with a note).",
)
@_options()
@_with(_limit_options)
@_output_option("How to print the final summary (json: one object).")
def batch(
    paths: tuple[str, ...],
    out: str | None,
    summary_of: str | None,
    workers: int | None,
    scheduler: str | None,
    shard: str | None,
    kind: str | None,
    request: Request,
    time_limit: float | None,
    max_nodes: int | None,
    output: str,
) -> None:
    """Solve every puzzle under PATH... (folders walked) and store the results in SQLite.

    One row per puzzle (every puzzle of a multi-puzzle file; an id that repeats in its file
    becomes ID@POSITION) in the table 'results', committed as it arrives; a re-run with the
    same options skips the rows already there, so a killed batch resumes where it stopped.
    Files no kind recognises, and a file reached a second time, are skipped with a note; files
    that cannot be read become rows with status 'error' whose error names the file.
    --time-limit applies to each puzzle.

    \b
    Examples:
      cspsolve batch puzzles/ --out results.sqlite --time-limit 60
      cspsolve batch puzzles/ --out part3.sqlite --shard 3/10
      cspsolve batch puzzles/ --out results.sqlite --scheduler tcp://10.0.0.5:8786
      cspsolve batch --summary results.sqlite

    Exit codes: 0 every job has its row (see its status and error), 2 bad usage, 70 a worker
    died (the rows stored are kept: run again to resume).
    """
    if summary_of is not None:
        if paths or out:
            _fail("--summary prints a results file; give it no PATH or --out")
        _print_totals(summary_of, output)
        return
    if not paths or out is None:
        _fail("batch needs PATH... and --out RESULTS.sqlite (or --summary RESULTS.sqlite)")
    _exclusive(workers, scheduler)
    from cspsolve import batch as batches

    plan = batches.plan(
        paths,
        [request],
        kind=kind,
        time_limit=time_limit,
        max_nodes=max_nodes,
        shard=_shard(shard),
    )
    for note in plan.skipped:
        click.echo(f"cspsolve: skipped {note}", err=True)
    for found in sorted({job.kind for job in plan.jobs if job.kind is not None}):
        _check_request(registry.get(found), request)
    store = _store(out)
    todo = store.todo(plan.jobs)
    statuses: dict[str, int] = {}
    with _executor(workers, scheduler) as executor, _bar(len(todo), output) as advance:

        def arrived(outcome: batches.Outcome) -> None:
            statuses[outcome.status] = statuses.get(outcome.status, 0) + 1
            advance(1)

        try:
            batches.run(todo, executor, store, on_outcome=arrived)
        except BrokenExecutor as e:
            click.echo(f"cspsolve: a worker died ({e}); rows stored are kept: run again", err=True)
            sys.exit(EXIT_INTERNAL)
    summary = {
        "out": out,
        "jobs": len(plan.jobs),
        "ran": sum(statuses.values()),
        "already_done": len(plan.jobs) - len(todo),
        "files_skipped": len(plan.skipped),
        "statuses": dict(sorted(statuses.items())),
    }
    if output == "json":
        click.echo(json.dumps(summary))
    else:
        counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "nothing new"
        _say(
            f"{out}: ran {summary['ran']} of {summary['jobs']} jobs ({counts}); "
            f"{summary['already_done']} already done, {summary['files_skipped']} files skipped"
        )


def _shard(spec: str | None) -> tuple[int, int]:
    """``"K/N"`` (1-based, from the command line) → ``(K - 1, N)``; exit 2 when malformed."""
    if spec is None:
        return (0, 1)
    k, _, n = spec.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        _fail(f"--shard {spec}: expected K/N with 1 <= K <= N, e.g. 3/10")
    return (int(k) - 1, int(n))


def _store(path: str) -> Store:
    """Open the results file; exit 2 when it cannot be."""
    import sqlite3

    from cspsolve.batch import Store

    try:
        return Store(path)
    except sqlite3.Error as e:
        _fail(f"{path}: not a usable SQLite file ({e})")


@contextmanager
def _executor(workers: int | None, scheduler: str | None) -> Iterator[Executor]:
    """:func:`cspsolve.parallel.executor`, its errors turned into one line and exit code 2."""
    from cspsolve import parallel

    with ExitStack() as stack:
        try:
            pool = stack.enter_context(parallel.executor(workers, scheduler))
        except OptionError as e:
            _fail(str(e))
        yield pool


@contextmanager
def _bar(total: int, output: str, label: str = "batch") -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal (and the output text); yields the
    function that advances it by a number of items."""
    if output != "text" or not sys.stderr.isatty():
        yield lambda items: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task(label, total=total)
        yield lambda items: progress.advance(task, items)


def _print_totals(path: str, output: str) -> None:
    """Rows of a results file by kind and status, as a table or JSON."""
    if not os.path.isfile(path):
        _fail(f"{path}: no such file")
    store = _store(path)
    try:
        totals = store.totals()
    finally:
        store.close()
    if output == "json":
        keys = ("kind", "status", "count", "seconds")
        click.echo(json.dumps([dict(zip(keys, row, strict=True)) for row in totals]))
        return
    from rich.table import Table

    table = Table(title=path)
    for name in ("kind", "status"):
        table.add_column(name)
    for name in ("puzzles", "seconds"):
        table.add_column(name, justify="right")
    for kind, status, count, seconds in totals:
        table.add_row(kind, status, f"{count:,}", f"{seconds:,.2f}")
    table.add_section()
    table.add_row("all", "", f"{sum(t[2] for t in totals):,}", f"{sum(t[3] for t in totals):,.2f}")
    _console().print(table)


@cli.command()
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text: a table per kind; json: one object per kind (JSON Lines); markdown: one "
    "table of every method (as in docs/design.md).",
)
def methods(output: str) -> None:
    """List every puzzle kind: its methods with their heuristics (the first is the default),
    whether their answers are proven optimal and whether they are complete, what computes
    them, which is the default; the kind's own options, the reference method of 'verify' and
    what 'analyze' reports.
    """
    if output == "markdown":
        click.echo(registry.method_table(), nl=False)
        return
    for kind in registry.kinds().values():
        if output == "json":
            click.echo(json.dumps(_kind_record(kind)))
        else:
            _print_kind(kind)


def _yes(value: bool | None) -> str:
    return {True: "yes", False: "no", None: "-"}[value]


def _kind_record(kind: Kind) -> dict[str, Any]:
    """What ``cspsolve methods`` says of a kind, as JSON-ready data."""
    rows = [
        {
            "method": m.name,
            "heuristics": list(m.heuristics),
            "optimal": m.optimal,
            "complete": m.complete,
            "backend": m.backend,
            "default": m.default if isinstance(m.default, bool) else "for some puzzles",
            "summary": m.summary,
        }
        for m in kind.methods
    ]
    flags = [_flags()[name].flag for name in kind.option_names]
    return {
        "kind": kind.name,
        "title": kind.title,
        "extensions": sorted(kind.extensions),
        "options": flags,
        "reference": kind.reference,
        "analysis": kind.analysis,
        "methods": rows,
    }


def _print_kind(kind: Kind) -> None:
    """A table of the kind's methods, then what each computes and the kind's options."""
    from rich.table import Table

    record = _kind_record(kind)
    table = Table(title=f"{kind.name} ({kind.title})", title_justify="left")
    table.add_column("method", no_wrap=True)
    for name in ("heuristics", "optimal", "complete", "backend", "default"):
        table.add_column(name, overflow="fold")
    for row in record["methods"]:
        default = row["default"] if isinstance(row["default"], str) else _yes(row["default"])
        heuristics = ", ".join(row["heuristics"]) or "-"
        optimal, complete = _yes(row["optimal"]), _yes(row["complete"])
        table.add_row(row["method"], heuristics, optimal, complete, row["backend"], default)
    _console().print(table)
    for row in record["methods"]:
        _say(f"  {row['method']}: {row['summary']}")
    _say(f"  options: {', '.join(record['options']) or 'none'}")
    _say(f"  verify checks against: {record['reference']}")
    _say(f"  analyze reports: {kind.analysis}\n")


@cli.command()
@click.argument("source", metavar="IN[#KEY]")
@click.argument("target", metavar="OUT", type=click.Path(dir_okay=False))
@_kind_option
def convert(source: str, target: str, kind: str | None) -> None:
    """Convert one puzzle between file formats; OUT's extension names the format.

    \b
    Each kind writes the formats its readers know, e.g.:
      cspsolve convert puzzles.txt#7 seven.non

    OUT may not be IN itself (by another path or a link either): exit 2.
    """
    read_from = registry.split_selector(source)[0]
    if _same_file(read_from, target):
        _fail(f"{target}: is the input file {read_from}; convert into another file")
    found_kind, puzzle = _one_puzzle(source, kind)
    try:
        registry.get(found_kind).write(puzzle, target)
    except (ValueError, OSError) as e:
        _fail(f"{target}: {e}")


def _same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """Whether both paths exist and name one file (through links and other spellings)."""
    try:
        return os.path.samefile(first, second)
    except OSError:  # either is missing or out of reach
        return False


def _one_puzzle(source: str, kind: str | None) -> tuple[str, Any]:
    """The kind and the puzzle named by ``FILE[#KEY]``; exit 2 unless it names exactly one."""
    try:
        found_kind, entries = registry.load(source, kind)
    except InputError as e:
        _fail(str(e))
    name = str(registry.split_selector(source)[0])
    if len(entries) > 1:
        _fail(f"{name}: holds {len(entries)} puzzles; pick one with {name}#KEY")
    return found_kind, entries[0].puzzle


@cli.command()
@click.argument("source", metavar="FILE[#KEY]")
@click.option(
    "--image",
    required=True,
    type=click.Path(dir_okay=False),
    metavar="OUT.png|OUT.svg",
    help="Where to draw the graph.",
)
@_kind_option
def graph(source: str, image: str, kind: str | None) -> None:
    """Draw the constraint graph of one puzzle: its variables, an edge where two share a
    constraint (for kinds solved as a CSP).

    \b
      cspsolve graph duck.non --image duck-graph.png
    """
    _check_image_name(image, (".png", ".svg"))
    found_kind, puzzle = _one_puzzle(source, kind)
    model = registry.get(found_kind)
    build = model.constraint_graph
    if build is None:
        _fail(f"{found_kind} has no constraint graph")
    from cspsolve.render import draw_graph

    try:
        network = build(puzzle)
    except OptionError as e:
        _fail(f"{source}: {e}")
    try:
        draw_graph(network, image, title=f"{source}: {model.describe(puzzle)}")
    except OSError as e:
        _fail(f"{image}: {e}")
    nodes, edges = network.number_of_nodes(), network.number_of_edges()
    _say(f"{image}: {nodes:,} variables, {edges:,} edges")


def main() -> None:
    """Entry point of the ``cspsolve`` console script.

    Usage errors are one line on stderr (``cspsolve: ...``, exit 2), like bad input; an
    unexpected exception is one line too (exit 70) unless ``CSPSOLVE_DEBUG`` is set.
    """
    try:
        code = cli.main(prog_name="cspsolve", standalone_mode=False)
    except click.UsageError as e:
        no_args = getattr(click.exceptions, "NoArgsIsHelpError", ())
        if isinstance(e, no_args) and e.ctx is not None:
            click.echo(e.ctx.get_help(), err=True)
        else:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            click.echo(f"cspsolve: {e.format_message()}{hint}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.Abort:
        sys.exit(130)
    except Exception as e:
        if os.environ.get("CSPSOLVE_DEBUG"):
            raise
        click.echo(
            f"cspsolve: internal error: {type(e).__name__}: {e} "
            "(set CSPSOLVE_DEBUG=1 for a traceback)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
    sys.exit(code if isinstance(code, int) else EXIT_OK)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="N",
    help="Jobs run at once, one process each (default: the cores).",
)
@click.option(
    "--max-time-limit",
    type=_Seconds(),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="The longest time limit a request may ask.",
)
@click.option(
    "--max-input-bytes",
    type=click.IntRange(min=1),
    default=1 << 20,
    show_default=True,
    metavar="N",
    help="The largest puzzle a request may send.",
)
def serve(
    host: str, port: int, workers: int | None, max_time_limit: float, max_input_bytes: int
) -> None:
    """Start the local web page: read, solve, explain, check and compare puzzles.

    Needs the web extra (pip install 'cspsolve[web]'). Stop it with Ctrl-C.
    """
    try:
        from cspsolve.web.server import serve as run_server
    except ImportError as e:
        _fail(f"serve needs the web extra (pip install 'cspsolve[web]'): {e}")
    run_server(host, port, workers or os.cpu_count() or 1, max_time_limit, max_input_bytes)
