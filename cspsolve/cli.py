"""The ``cspsolve`` command: parse arguments, call the library, print results.

Exit codes: 0 every puzzle solved, 1 some puzzle proven unsolvable, 2 bad input or usage,
3 a limit was reached without an answer (the highest-priority of these over all puzzles:
2, then 3, then 1).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

import click

from cspsolve import registry
from cspsolve.errors import InputError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["main"]

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


def _say(text: str, style: str | None = None) -> None:
    _console().print(text, style=style)


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
    time_limit: float | None, max_nodes: int | None, progress: Callable[[Stats], None] | None
) -> Limits:
    return Limits(
        time_limit=time_limit, max_nodes=max_nodes, cancel=threading.Event(), progress=progress
    )


def _summary(result: Result[Any], unique_asked: bool) -> str:
    """One line of status and counters; the uniqueness verdict when it was asked for."""
    s = result.stats
    counters: dict[str, float] = {"expanded": s.expanded, "backtracks": s.backtracks}
    counters |= {"propagations": s.propagations, **s.extra}
    counters.pop("solutions", None)
    parts = [f"{result.status.value} by {result.method} in {s.seconds:.3f} s"]
    parts += [f"{name.replace('_', ' ')} {int(n):,}" for name, n in counters.items() if n]
    if unique_asked and result.status.has_solution:
        verdict = {True: "unique", False: "not unique", None: "uniqueness not settled"}
        parts.append(verdict[result.proof.get("unique")])
    return ", ".join(parts)


def _record(kind: str, source: str, entry: registry.PuzzleEntry, many: bool) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": kind, "file": source}
    if many:
        record["id"] = entry.id
    return record


def _title(source: str, entry: registry.PuzzleEntry, many: bool) -> str:
    return f"{source}#{entry.id}" if many else source


# Options shared by commands -------------------------------------------------------------------

_kind_option = click.option(
    "--kind",
    type=click.Choice(list(registry.KINDS)),
    help="Puzzle kind (default: detected from the file's extension and content).",
)
_limit_options = [
    click.option(
        "--time-limit",
        type=click.FloatRange(min=0),
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
_format_option = click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: drawings and a stats line; json: one JSON object per puzzle (JSON Lines).",
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
      cspsolve solve instances/nonogram/jwilk-data000.nin
      cspsolve solve puzzles.txt#17 --format json
      cspsolve verify instances/nonogram/picross-flip.txt

    A FILE holding many puzzles (tournament files, picross-solver grids) is solved puzzle by
    puzzle; FILE#KEY picks one (by its $N number or GRID name). Exit codes: 0 solved,
    1 unsolvable, 2 bad input, 3 limit reached.
    """


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_kind_option
@click.option(
    "--method",
    help="Solving method (nonogram: gac-astar [default], mac, cpsat, python-constraint).",
)
@click.option("--unique", is_flag=True, help="Also decide whether the solution is unique.")
@_with(_limit_options)
@_format_option
def solve(
    files: tuple[str, ...],
    kind: str | None,
    method: str | None,
    unique: bool,
    time_limit: float | None,
    max_nodes: int | None,
    output: str,
) -> None:
    """Solve every puzzle in FILE... and print the solutions.

    \b
    Methods for nonograms:
      gac-astar          best-first search over GAC-propagated states (default)
      mac                depth-first search maintaining GAC
      cpsat              OR-Tools CP-SAT, one automaton per line
      python-constraint  explicit pattern lists in python-constraint2 (small puzzles)

    \b
    Exit codes: 0 solved, 1 unsolvable (proven), 2 bad input or usage, 3 limit reached
    without an answer; over many puzzles the first of 2, 3, 1 that occurs, else 0.
    """
    options = _SolveOptions(kind, method, unique, time_limit, max_nodes, output)
    sys.exit(_worst([_solve_file(spec, options) for spec in files]))


@dataclass(frozen=True)
class _SolveOptions:
    """The options of ``cspsolve solve``."""

    kind: str | None
    method: str | None
    unique: bool
    time_limit: float | None
    max_nodes: int | None
    output: str


def _load(spec: str, kind: str | None) -> tuple[str, str, list[registry.PuzzleEntry]] | None:
    """Kind, file name and puzzles of ``FILE[#KEY]``; ``None`` after reporting bad input."""
    try:
        kind, entries = registry.load(spec, kind)
    except InputError as e:
        click.echo(f"cspsolve: {e}", err=True)
        return None
    return kind, str(registry.split_selector(spec)[0]), entries


def _solve_file(spec: str, options: _SolveOptions) -> int:
    """Solve and print every puzzle of ``FILE[#KEY]``; return the file's exit code."""
    loaded = _load(spec, options.kind)
    if loaded is None:
        return EXIT_BAD_INPUT
    kind, source, entries = loaded
    model = registry.get(kind)
    method = options.method or model.DEFAULT_METHOD
    if method not in model.METHODS:
        _fail(f"unknown method {method!r} for {kind}; choose from {', '.join(model.METHODS)}")
    many = len(entries) > 1 or entries[0].id is not None
    codes = []
    for entry in entries:
        title = _title(source, entry, many)
        with _progress(options.output == "text", f"solving {title}") as progress:
            limits = _limits(options.time_limit, options.max_nodes, progress)
            try:
                result = model.solve(entry.puzzle, method, limits, options.unique)
            except ValueError as e:
                click.echo(f"cspsolve: {title}: {e}", err=True)
                codes.append(EXIT_BAD_INPUT)
                continue
        codes.append(_STATUS_EXIT[result.status])
        if options.output == "json":
            record = _record(kind, source, entry, many)
            record.update(result.to_json(model.encode))
            click.echo(json.dumps(record))
        else:
            _say(f"{title}: {model.describe(entry.puzzle)}", "bold")
            if result.solution is not None:
                _say(model.draw(entry.puzzle, result.solution))
            elif result.message:
                _say(result.message)
            _say(_summary(result, options.unique), _STATUS_STYLE[result.status])
    return _worst(codes)


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@_kind_option
@_with(_limit_options)
@_format_option
def verify(
    files: tuple[str, ...],
    kind: str | None,
    time_limit: float | None,
    max_nodes: int | None,
    output: str,
) -> None:
    """Solve by search and by CP-SAT, check both answers, and report whether they agree.

    Both runs also decide uniqueness.

    \b
    Exit codes: 0 the answers agree, 1 both prove a puzzle unsolvable, 2 bad input or usage,
    3 a limit left agreement unsettled, 4 the answers disagree.
    """
    codes = []
    for spec in files:
        loaded = _load(spec, kind)
        if loaded is None:
            codes.append(EXIT_BAD_INPUT)
            continue
        found_kind, source, entries = loaded
        model = registry.get(found_kind)
        many = len(entries) > 1 or entries[0].id is not None
        for entry in entries:
            report = model.verify(entry.puzzle, _limits(time_limit, max_nodes, None))
            codes.append(_verify_code(report))
            _print_verify(found_kind, source, entry, many, model, report, output)
    sys.exit(_worst(codes) if EXIT_DISAGREE not in codes else EXIT_DISAGREE)


def _verify_code(report: dict[str, Any]) -> int:
    if report["agree"] is False:
        return EXIT_DISAGREE
    if report["agree"] is None:
        return EXIT_LIMIT
    return _STATUS_EXIT[report["search"].status]


def _print_verify(
    kind: str,
    source: str,
    entry: registry.PuzzleEntry,
    many: bool,
    model: registry.PuzzleKind,
    report: dict[str, Any],
    output: str,
) -> None:
    search: Result[Any] = report["search"]
    cpsat: Result[Any] = report["cpsat"]
    if output == "json":
        record = _record(kind, source, entry, many)
        record.update(search.to_json(model.encode))
        record["agree"] = report["agree"]
        record["problems"] = report["problems"]
        record["cpsat"] = cpsat.to_json(model.encode)
        click.echo(json.dumps(record))
        return
    verdict = {True: "agree", False: "DISAGREE", None: "not settled"}[report["agree"]]
    style = {True: "bold green", False: "bold red", None: "bold yellow"}[report["agree"]]
    _say(f"{_title(source, entry, many)}: {model.describe(entry.puzzle)}: {verdict}", style)
    _say(f"  search: {_summary(search, True)}")
    _say(f"  cpsat:  {_summary(cpsat, True)}")
    for problem in report["problems"]:
        _say(f"  ! {problem}", "red")


@cli.command()
@click.argument("source", metavar="IN[#KEY]")
@click.argument("target", metavar="OUT", type=click.Path(dir_okay=False))
@_kind_option
def convert(source: str, target: str, kind: str | None) -> None:
    """Convert one puzzle between file formats; OUT's extension names the format.

    \b
    Nonograms are written as .non or .nin:
      cspsolve convert puzzles.txt#7 seven.non
    """
    loaded = _load(source, kind)
    if loaded is None:
        sys.exit(EXIT_BAD_INPUT)
    found_kind, name, entries = loaded
    if len(entries) > 1:
        _fail(f"{name}: holds {len(entries)} puzzles; pick one with {name}#KEY")
    try:
        registry.get(found_kind).write(entries[0].puzzle, target)
    except (ValueError, OSError) as e:
        _fail(f"{target}: {e}")


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
