"""``cspsolve generate KIND``: puzzles made to order, one file each, with what was proven
(:mod:`cspsolve.generating`).

Each kind whose declaration has a generator is a subcommand, its flags made from the
generator's options as the solving commands' are from a kind's (:class:`~cspsolve.cli.options.
Flag`). Puzzles are written as they are made, to ``DIR/KIND-SEED-INDEX.EXT``, and each one's
record (:meth:`~cspsolve.generating.Generated.to_json`, with its options and file) is appended
to ``DIR/generated.jsonl``. A re-run of the same kind, seed and options makes only the
puzzles that file does not record (or whose file is gone), so a stopped run resumes; a line
that does not read is skipped.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from cspsolve import registry
from cspsolve.cli.exits import EXIT_LIMIT, EXIT_OK
from cspsolve.cli.options import Flag, Seconds, Workers, exclusive, output_option, scheduler_option
from cspsolve.cli.output import bar, fail, say
from cspsolve.errors import OptionError
from cspsolve.generating import Generated, generator_of, made, options_of
from cspsolve.kind import Kind

RECORD = "generated.jsonl"
"""The file in the output folder that records each puzzle made, one JSON object a line."""


class GenerateGroup(click.Group):
    """``cspsolve generate``: one subcommand per kind that makes puzzles, made when asked for
    (building them imports every kind)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [k.name for k in registry.kinds().values() if k.generator is not None]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        kind = registry.kinds().get(name)
        return None if kind is None or kind.generator is None else _command(kind)


@click.group("generate", cls=GenerateGroup)
def generate() -> None:
    """Make puzzles to order, each with a proof of what it is: a nonogram with one solution,
    a board whose optimum is exactly K moves.

    Writes each puzzle as DIR/KIND-SEED-INDEX.EXT in the kind's format, as it is made, and
    prints one line (or one JSON object) per puzzle with what was proven about it. The same
    seed and options give the same puzzles, on any number of workers; a re-run resumes,
    making only the puzzles DIR/generated.jsonl does not record.

    \b
    Examples:
      cspsolve generate nonogram --size 25x25 --unique --grade probing --count 10 --out p/
      cspsolve generate lightsout --size 9 --min-presses 20 --count 5 --out boards/
      cspsolve generate rushhour --min-moves 40 --count 3 --out cars/ --format json
      cspsolve generate npuzzle --size 4 --moves 50 --count 20 --workers 2 --out tiles/
    """


def _command(kind: Kind) -> click.Command:
    """The subcommand of ``kind``: the shared flags, then the generator's own."""
    generator = generator_of(kind)
    hints = typing.get_type_hints(generator.options)
    flags = [
        Flag(f.name, (kind.title,), f, hints[f.name]) for f in dataclasses.fields(generator.options)
    ]

    def run(**values: Any) -> None:
        _run(kind, values, [flag.name for flag in flags])

    command = click.command(kind.name, help=_help(kind))(run)
    for option in [*_SHARED, *(flag.option() for flag in flags)]:  # in the order listed
        command = option(command)
    return command


def _help(kind: Kind) -> str:
    generator = generator_of(kind)
    return f"{kind.title}: puzzles made to order.\n\n{generator.note}".strip()


_SHARED = [
    click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        required=True,
        metavar="DIR",
        help="Folder to write the puzzles to (made if missing).",
    ),
    click.option(
        "--count",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        metavar="N",
        help="Puzzles to make.",
    ),
    click.option(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        show_default=True,
        help="Seed of the run: the same seed and options give the same puzzles.",
    ),
    click.option(
        "--time-limit",
        type=Seconds(),
        metavar="SECONDS",
        help="Stop the run after this many seconds, keeping the puzzles made (exit 3).",
    ),
    click.option(
        "--workers",
        type=Workers(),
        metavar="N|auto",
        help="Processes to make puzzles on (default 1; auto: the cores).",
    ),
    scheduler_option,
    output_option("text: one line per puzzle; json: one JSON object per puzzle (JSON Lines)."),
]


def _run(kind: Kind, values: dict[str, Any], own: list[str]) -> None:
    """Make the puzzles, write and print each as it comes, and exit (3 when a limit cut the
    run short)."""
    exclusive(values["workers"], values["scheduler"])
    out: Path = values["out"]
    count, seed, output = values["count"], values["seed"], values["output"]
    try:
        options = options_of(generator_of(kind), {name: values[name] for name in own})
    except OptionError as e:
        fail(str(e))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"{out}: cannot make the folder ({e.strerror or e})")
    kept = _recorded(out, kind, seed, options)
    missing = [i for i in range(count) if i not in kept]
    with bar(len(missing), output, label="generate") as advance:
        fresh = made(
            kind,
            options,
            seed=seed,
            indices=missing,
            workers=values["workers"] or 1,
            scheduler=values["scheduler"],
            time_limit=values["time_limit"],
            done=advance,
        )
        written = _each(out, kind, count, kept, fresh, options, output)
    if written < count:
        click.echo(f"cspsolve: the time limit stopped the run: {written} of {count} made", err=True)
        sys.exit(EXIT_LIMIT)
    sys.exit(EXIT_OK)


def _each(
    out: Path,
    kind: Kind,
    count: int,
    kept: dict[int, dict[str, Any]],
    fresh: Iterator[Generated],
    options: Any,
    output: str,
) -> int:
    """Write and print the puzzles in order, those kept from a run before and those made
    now; how many there are."""
    for index in range(count):
        if index in kept:
            _print(kept[index], out, output)
            continue
        try:
            generated = next(fresh, None)
        except OptionError as e:
            fail(str(e))
        if generated is None:
            return index
        _print(_write(out, kind, generated, options), out, output)
    return count


def _write(out: Path, kind: Kind, generated: Generated, options: Any) -> dict[str, Any]:
    """Write the puzzle's file, then its record; the record."""
    name = f"{kind.name}-{generated.seed}-{generated.index:04d}{generator_of(kind).extension}"
    record = {**generated.to_json(), "options": dataclasses.asdict(options), "file": name}
    try:
        kind.write(generated.puzzle, out / name)
        with (out / RECORD).open("a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
    except OSError as e:
        fail(f"{out / name}: cannot write ({e.strerror or e})")
    return record


def _recorded(out: Path, kind: Kind, seed: int, options: Any) -> dict[int, dict[str, Any]]:
    """The records of ``DIR/generated.jsonl`` made with this kind, seed and options whose
    files are still there, by index (a line that does not read is skipped)."""
    path = out / RECORD
    if not path.exists():
        return {}
    asked = dataclasses.asdict(options)
    found: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
            same = (record["kind"], record["seed"], record["options"]) == (kind.name, seed, asked)
            if same and (out / record["file"]).is_file():
                found[int(record["index"])] = record
        except (ValueError, KeyError, TypeError):
            continue
    return found


def _print(record: dict[str, Any], out: Path, output: str) -> None:
    if output == "json":
        click.echo(json.dumps(record))
        return
    skip = {"kind", "seed", "index", "options", "file"}
    words = "; ".join(f"{k} {_word(v)}" for k, v in record.items() if k not in skip)
    say(f"{out / record['file']}: {words}")


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | dict):
        return json.dumps(value)
    return str(value)
