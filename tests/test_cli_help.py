"""The help of every subcommand teaches: examples that parse, the kinds' own options under a
heading per kind, a name for every value."""

from __future__ import annotations

import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cspsolve import cli, registry
from cspsolve.cli.options import KindCommand, kind_flags

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = sorted(cli.cli.commands)
GROUPED = sorted(name for name, c in cli.cli.commands.items() if isinstance(c, KindCommand))


def help_of(name: str) -> str:
    done = CliRunner().invoke(cli.cli, [name, "--help"], terminal_width=100)
    assert done.exit_code == 0, done.output
    return done.output


def examples(text: str, name: str) -> list[list[str]]:
    """The example command lines of a help text: the lines under ``Examples:``."""
    lines = text.split("Examples:\n", 1)[1].splitlines()
    shown = [line.split() for line in lines]
    taken = []
    for words in shown:
        if words[:2] != ["cspsolve", name]:
            break
        taken.append(shlex.split(" ".join(words))[2:])
    return taken


def test_the_grouped_commands_are_those_of_the_kinds_options() -> None:
    assert GROUPED == ["analyze", "batch", "compare", "explain", "solve", "verify"]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_subcommand_shows_examples_that_parse(name: str) -> None:
    command = cli.cli.commands[name]
    taken = examples(help_of(name), name)
    assert len(taken) >= 2, taken
    for args in taken:
        with command.make_context(name, list(args), parent=click.Context(cli.cli)) as ctx:
            assert ctx.params is not None


def flagged(section: str) -> set[str]:
    """The flags a section of a help text describes (the first word of each entry)."""
    firsts = (line.split()[0] for line in section.splitlines() if line.strip())
    return {word for word in firsts if word.startswith("--")}


@pytest.mark.parametrize("name", GROUPED)
def test_each_kinds_options_are_under_its_heading(name: str) -> None:
    text = help_of(name)
    sections: dict[str, str] = {}
    for block in text.split("\n\n"):
        heading, _, body = block.partition(":\n")
        sections[heading.strip()] = body
    for kind in registry.kinds().values():
        flags = {kind_flags()[option].flag for option in kind.option_names}
        assert flagged(sections[kind.title]) == flags, kind.name
        assert not flags & flagged(sections["Options"]), kind.name


def test_every_value_has_a_name_and_serve_installs_as_the_readme_says() -> None:
    assert "--weight W " in help_of("solve")
    assert " TEXT " not in help_of("solve")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install ".[web]"' in readme
    assert 'pip install ".[web]"' in " ".join(help_of("serve").split())
