"""``cspsolve convert`` and ``graph``: one puzzle of a file, written in another format or
drawn as its constraint graph."""

from __future__ import annotations

import os
from typing import Any

import click

from cspsolve import registry
from cspsolve.cli.images import check_image_name
from cspsolve.cli.options import kind_option
from cspsolve.cli.output import fail, say
from cspsolve.errors import InputError, OptionError


@click.command()
@click.argument("source", metavar="IN[#KEY]")
@click.argument("target", metavar="OUT", type=click.Path(dir_okay=False))
@kind_option
def convert(source: str, target: str, kind: str | None) -> None:
    """Convert one puzzle between file formats; OUT's extension names the format.

    Each kind writes the formats its readers know.

    \b
    Examples:
      cspsolve convert instances/nonogram/tournament-sample.txt#7 seven.non
      cspsolve convert instances/nonogram/duck.non duck.nin

    OUT may not be IN itself (by another path or a link either): exit 2.
    """
    read_from = registry.split_selector(source)[0]
    if _same_file(read_from, target):
        fail(f"{target}: is the input file {read_from}; convert into another file")
    found_kind, puzzle = _one_puzzle(source, kind)
    try:
        registry.get(found_kind).write(puzzle, target)
    except (ValueError, OSError) as e:
        fail(f"{target}: {e}")


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
        fail(str(e))
    name = str(registry.split_selector(source)[0])
    if len(entries) > 1:
        fail(f"{name}: holds {len(entries)} puzzles; pick one with {name}#KEY")
    return found_kind, entries[0].puzzle


@click.command()
@click.argument("source", metavar="FILE[#KEY]")
@click.option(
    "--image",
    required=True,
    type=click.Path(dir_okay=False),
    metavar="OUT.png|OUT.svg",
    help="Where to draw the graph.",
)
@kind_option
def graph(source: str, image: str, kind: str | None) -> None:
    """Draw the constraint graph of one puzzle: its variables, an edge where two share a
    constraint (for kinds solved as a CSP).

    \b
    Examples:
      cspsolve graph instances/nonogram/duck.non --image duck-graph.png
      cspsolve graph instances/nonogram/duck.non --image duck-graph.svg
    """
    check_image_name(image, (".png", ".svg"))
    found_kind, puzzle = _one_puzzle(source, kind)
    model = registry.get(found_kind)
    build = model.constraint_graph
    if build is None:
        fail(f"{found_kind} has no constraint graph")
    from cspsolve.render import draw_graph

    try:
        network = build(puzzle)
    except OptionError as e:
        fail(f"{source}: {e}")
    try:
        draw_graph(network, image, title=f"{source}: {model.describe(puzzle)}")
    except OSError as e:
        fail(f"{image}: {e}")
    nodes, edges = network.number_of_nodes(), network.number_of_edges()
    say(f"{image}: {nodes:,} variables, {edges:,} edges")
