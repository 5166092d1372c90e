"""The console examples of the README and of the tutorial (docs/tutorial.md) are what the
program prints: each ``$ cspsolve ...`` line of a ```console block is run from a folder that
sees the shipped instances, and the lines shown under it are compared with its output, timings
left out; a line ``...`` stands for any number of lines, and JSON is compared as data (wrapped
as the README wraps it)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from .conftest import run

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TUTORIAL = ROOT / "docs" / "tutorial.md"
ELIDED = "..."
TIMING = re.compile(r"\b\d+\.\d+ s\b")


def console_blocks(text: str) -> list[list[str]]:
    """The lines of each ```console block (indented blocks too), their indent taken off."""
    found = re.findall(r"^( *)```console\n(.*?)^\1```", text, flags=re.M | re.S)
    return [[line[len(indent) :] for line in body.splitlines()] for indent, body in found]


def examples(blocks: list[list[str]]) -> list[tuple[str, list[str]]]:
    """Each command of the blocks (without its ``$``) with the lines shown under it."""
    shown: list[tuple[str, list[str]]] = []
    for lines in blocks:
        for line in lines:
            if line.startswith("$ "):
                shown.append((line[2:], []))
            elif shown:
                shown[-1][1].append(line)
    return shown


def shown_in(document: Path) -> list[tuple[str, list[str]]]:
    """The console examples of ``document``."""
    return examples(console_blocks(document.read_text(encoding="utf-8")))


EXAMPLES = shown_in(README)
TUTORIAL_EXAMPLES = shown_in(TUTORIAL)
CHECKED = [
    pytest.param(command, shown, id=f"{document.name}: {command}")
    for document, found in [(README, EXAMPLES), (TUTORIAL, TUTORIAL_EXAMPLES)]
    for command, shown in found
]


def plain(line: str) -> str:
    """A line with its timings (``0.001 s``) as ``T s`` and no trailing spaces."""
    return TIMING.sub("T s", line).rstrip()


def follows(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` line for line, where a line ``...`` of ``expected``
    stands for any number of lines.

    Examples
    --------
    >>> follows(["a", "...", "d"], ["a", "b", "c", "d"]), follows(["a", "d"], ["a", "b", "d"])
    (True, False)
    """
    if not expected:
        return not actual
    if expected[0] == ELIDED:
        return any(follows(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and follows(expected[1:], actual[1:])


def records(lines: list[str]) -> list[dict[str, Any]]:
    """The JSON objects of ``lines``, a line starting with a space continuing the one before;
    the seconds of their stats left out."""
    joined: list[str] = []
    for line in lines:
        if line.startswith(" ") and joined:
            joined[-1] += line
        elif line.strip():
            joined.append(line)
    found = [json.loads(text) for text in joined]
    for record in found:
        record.get("stats", {}).pop("seconds", None)
    return found


def test_the_readme_has_examples_to_check() -> None:
    commands = [command for command, _ in EXAMPLES]
    assert any("picross-flip.txt" in command and "json" in command for command in commands)
    assert len(EXAMPLES) >= 3


def test_the_tutorial_shows_every_kind_solved_explained_and_verified() -> None:
    commands = [command.split()[:3] for command, _ in TUTORIAL_EXAMPLES]
    solved = {Path(path).parts[1] for verb, path in (c[1:] for c in commands) if verb == "solve"}
    assert solved == {"nonogram", "lightsout", "rushhour", "npuzzle"}
    assert {"explain", "verify"} <= {c[1] for c in commands}
    assert all(shown for _, shown in TUTORIAL_EXAMPLES)


@pytest.mark.parametrize(("command", "shown"), CHECKED)
def test_a_readme_example_prints_what_it_shows(
    command: str, shown: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    monkeypatch.chdir(tmp_path)  # files an example writes go here
    words = shlex.split(command, comments=True)
    assert words[0] == "cspsolve"
    done = run(*words[1:])
    assert done.returncode in (0, 1), done.stderr
    actual = done.stdout.splitlines()
    if shown and shown[0].startswith("{"):
        assert records(actual) == records(shown)
        return
    assert follows([plain(line) for line in shown], [plain(line) for line in actual]), actual
