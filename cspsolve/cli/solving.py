"""``cspsolve solve``, ``verify`` and ``analyze``: work on every puzzle of the files and
print each outcome."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from cspsolve import tasks
from cspsolve.cli.exits import (
    EXIT_BAD_INPUT,
    EXIT_DISAGREE,
    EXIT_LIMIT,
    EXIT_OK,
    STATUS_EXIT,
    worst,
)
from cspsolve.cli.images import IMAGE_SUFFIXES, with_images
from cspsolve.cli.options import KindCommand, Run, run_options
from cspsolve.cli.output import STATUS_STYLE, announce, console, say
from cspsolve.cli.puzzles import Puzzle, read_puzzles, worked
from cspsolve.cli.tables import cell, name, table
from cspsolve.results import Result, Status
from cspsolve.tasks import Verification


@click.command(cls=KindCommand)
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@run_options()
@click.option(
    "--image",
    type=click.Path(dir_okay=False),
    metavar="OUT.png|OUT.svg|OUT.gif",
    help="Also draw each solution: PNG/SVG the solved board, GIF every step of the solution. "
    "With several puzzles, OUT-1.png, OUT-2.png, ...",
)
def solve(
    files: tuple[str, ...],
    run: Run,
    image: str | None,
) -> None:
    """Solve every puzzle in FILE... and print the solutions.

    'cspsolve methods' lists the methods and heuristics of every kind.

    \b
    Examples:
      cspsolve solve instances/nonogram/duck.non
      cspsolve solve instances/rushhour/card-32.txt --method astar --heuristic blocking
      cspsolve solve instances/lightsout/classic-5x5.lo --format json

    \b
    Exit codes: 0 solved, 1 unsolvable (proven), 2 bad input or usage, 3 limit reached
    without an answer; over many puzzles the first of 2, 3, 1 that occurs, else 0.
    """
    codes: list[int] = []
    puzzles, images = with_images(read_puzzles(files, run, codes), image, IMAGE_SUFFIXES)
    asked = ((puzzle, [run.request]) for puzzle in puzzles)
    answered = worked(asked, run, codes, tasks.solve, "solving")
    for number, (puzzle, outcomes) in enumerate(answered):
        [result] = outcomes
        if result is None:
            continue
        codes.append(STATUS_EXIT[result.status])
        _print_result(puzzle, result, run)
        if images:
            codes += _draw_solution(puzzle, result, images[number], run.output)
    sys.exit(worst(codes))


def _draw_solution(puzzle: Puzzle, result: Result[Any], name: str, output: str) -> list[int]:
    """Write the solution's picture; the exit codes of what went wrong (none when all went
    well)."""
    from cspsolve.render import write_image

    if result.solution is None:
        click.echo(f"cspsolve: {puzzle.title}: no solution to draw", err=True)
        return []
    try:
        write_image(puzzle.kind.scenes(puzzle.puzzle, result.solution), name, announce=announce)
    except (ValueError, OSError) as e:
        click.echo(f"cspsolve: {puzzle.title}: cannot draw {name}: {e}", err=True)
        return [EXIT_BAD_INPUT]
    if output == "text":
        say(f"image: {name}")
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


def _print_result(puzzle: Puzzle, result: Result[Any], run: Run) -> None:
    model = puzzle.kind
    if run.output == "json":
        record = puzzle.record()
        record.update(result.to_json(model.encode))
        click.echo(json.dumps(record))
        return
    say(f"{puzzle.title}: {model.describe(puzzle.puzzle)}", "bold")
    if result.solution is not None:
        say(model.draw(puzzle.puzzle, result.solution))
    complete = result.proof.get("exhaustive") is True
    for number, other in enumerate(result.solutions[1:], 2):
        say(f"solution {number}{f' of {len(result.solutions)}' * complete}:", "bold")
        say(model.draw(puzzle.puzzle, other))
    listed = _listed(result, run.request.options.get("solutions"))
    if listed:
        say(listed)
    if result.message:
        say(result.message)
    asked = bool(run.request.options.get("unique"))
    say(result.summary(asked), STATUS_STYLE[result.status])


@click.command(cls=KindCommand)
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@run_options()
def verify(
    files: tuple[str, ...],
    run: Run,
) -> None:
    """Solve by a method and by the kind's reference method, check both answers, and report
    whether they agree.

    The reference is CP-SAT where the kind has a CP-SAT model ('cspsolve methods' names each
    kind's). Both answers are replayed by the kind's independent checker; optimal costs must
    match, no answer may cost less than a proven bound, and verdicts on uniqueness must agree.

    \b
    Examples:
      cspsolve verify instances/lightsout/classic-5x5.lo
      cspsolve verify instances/rushhour/card-32.txt --method bfs --time-limit 60

    \b
    Exit codes: 0 the answers agree, 1 both prove a puzzle unsolvable, 2 bad input or usage,
    3 a limit left agreement unsettled, 4 the answers disagree.
    """
    codes: list[int] = []
    asked = ((puzzle, [run.request]) for puzzle in read_puzzles(files, run, codes))
    for puzzle, outcomes in worked(asked, run, codes, tasks.verify):
        [report] = outcomes
        if report is not None:
            codes.append(_verify_code(report))
            _print_verify(puzzle, report, run.output)
    sys.exit(EXIT_DISAGREE if EXIT_DISAGREE in codes else worst(codes))


def _verify_code(report: Verification) -> int:
    if report.agree is False:
        return EXIT_DISAGREE
    if report.agree is None:
        return EXIT_LIMIT
    return STATUS_EXIT[report.search.status]


def _print_verify(puzzle: Puzzle, report: Verification, output: str) -> None:
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
    say(f"{puzzle.title}: {model.describe(puzzle.puzzle)}: {verdict}", style)
    asked = bool(model.verify_options.get("unique"))
    say(f"  search ({search.method}): {search.summary(asked)}")
    say(f"  reference ({reference.method}): {reference.summary(asked)}")
    for sentence in report.words():
        say(f"  {sentence}", "red" if report.agree is False else None)


@click.command(cls=KindCommand)
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@run_options()
def analyze(
    files: tuple[str, ...],
    run: Run,
) -> None:
    """Report the difficulty and structure of every puzzle in FILE...

    'cspsolve methods' lists what each kind reports. With --format json: {"kind", "file",
    "analysis": {...}} per puzzle (JSON Lines).

    \b
    Examples:
      cspsolve analyze instances/rushhour/walls.rh
      cspsolve analyze instances/lightsout/sigma-11x11.lo --format json

    \b
    Exit codes: 0 analysed, 2 bad input or usage, 3 a limit stopped the analysis (what was
    found before is shown; its "status" is "limit").
    """
    codes: list[int] = []
    asked = ((puzzle, [run.request]) for puzzle in read_puzzles(files, run, codes))
    for puzzle, outcomes in worked(asked, run, codes, tasks.analyze, "analysing"):
        [analysis] = outcomes
        if analysis is None:
            continue
        stopped = analysis.get("status") in (Status.LIMIT.value, Status.CANCELLED.value)
        codes.append(EXIT_LIMIT if stopped else EXIT_OK)
        if run.output == "json":
            click.echo(json.dumps({**puzzle.record(), "analysis": analysis}))
        else:
            _print_analysis(puzzle, analysis)
    sys.exit(worst(codes))


def _print_analysis(puzzle: Puzzle, analysis: dict[str, Any]) -> None:
    rows = [(name(key), cell(value)) for key, value in analysis.items()]
    title = f"{puzzle.title}: {puzzle.kind.describe(puzzle.puzzle)}"
    console().print(table(title, ["property", "value"], rows))
