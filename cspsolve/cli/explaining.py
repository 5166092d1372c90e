"""``cspsolve explain``: why the answer to every puzzle holds, step by step, in text, JSON
or pictures."""

from __future__ import annotations

import json
import os
import sys

import click

from cspsolve import tasks
from cspsolve.cli.exits import EXIT_BAD_INPUT, STATUS_EXIT, worst
from cspsolve.cli.images import with_images
from cspsolve.cli.options import KindCommand, Run, run_options
from cspsolve.cli.output import STATUS_STYLE, announce, say
from cspsolve.cli.puzzles import Puzzle, read_puzzles, worked
from cspsolve.explanation import EXPLAIN_IMAGES, Explanation


@click.command(cls=KindCommand)
@click.argument("files", nargs=-1, required=True, metavar="FILE[#KEY]...")
@run_options()
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
    run: Run,
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
    Examples:
      cspsolve explain instances/nonogram/duck.non
      cspsolve explain instances/rushhour/walls.rh --image walls.html
      cspsolve explain instances/lightsout/classic-5x5.lo --format json

    \b
    Exit codes: as 'solve': 0 solved, 1 unsolvable (proven), 2 bad input or usage, 3 limit
    reached without an answer.
    """
    codes: list[int] = []
    puzzles, images = with_images(read_puzzles(files, run, codes), image, EXPLAIN_IMAGES)
    # One puzzle after another here, each with the workers for its method: an explanation
    # does not pickle (it holds functions of its kind), so it cannot come from a pool.
    asked = ((puzzle, [run.request]) for puzzle in puzzles)
    for number, (puzzle, outcomes) in enumerate(
        worked(asked, run, codes, tasks.explain, "explaining", here=True)
    ):
        [explained] = outcomes
        if explained is None:
            continue
        codes.append(STATUS_EXIT[explained.result.status])
        _print_explanation(puzzle, explained, run.output, frames, unfold)
        if images:
            codes += _write_explanation(puzzle, explained, images[number], run.output)
    sys.exit(worst(codes))


def _print_explanation(
    puzzle: Puzzle, explained: Explanation, output: str, frames: bool, unfold: bool
) -> None:
    model = puzzle.kind
    if output == "json":  # one write for all the lines of a puzzle
        named = puzzle.record()
        lines = (
            json.dumps({**named, **record}) + "\n" for record in explained.records(model.encode)
        )
        click.echo("".join(lines), nl=False)
        return
    say(f"{puzzle.title}: {model.describe(puzzle.puzzle)}", "bold")
    say(explained.text(frames=frames, unfold=unfold))
    result = explained.result
    if result.solution is not None and not frames:
        say(model.draw(puzzle.puzzle, result.solution))
    say(result.summary(), STATUS_STYLE[result.status])


def _heading(puzzle: Puzzle) -> tuple[str, str]:
    """A page's title (the puzzle's own, else its file's name) and the line under it (what
    the puzzle is, and its file)."""
    own = getattr(puzzle.puzzle, "title", "")
    title = own if isinstance(own, str) and own else os.path.basename(puzzle.title)
    described = f"{puzzle.kind.name} {puzzle.kind.describe(puzzle.puzzle)}"
    return title, f"{described}, from {puzzle.title}"


def _write_explanation(puzzle: Puzzle, explained: Explanation, name: str, output: str) -> list[int]:
    """Write the explanation's pictures; the exit codes of what went wrong."""
    title, subtitle = _heading(puzzle)
    try:
        explained.write(name, title=title, subtitle=subtitle, announce=announce)
    except (ValueError, OSError) as e:
        click.echo(f"cspsolve: {puzzle.title}: cannot draw {name}: {e}", err=True)
        return [EXIT_BAD_INPUT]
    if output == "text":
        say(f"image: {name}")
    return []
