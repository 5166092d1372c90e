"""What the command line writes besides the answers: plain text when its output is not a
terminal (no rich, no ANSI code), styled text on a terminal, and a word on stderr before a long
picture is drawn."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from cspsolve import cli, render
from cspsolve.instances import ROOT

from .conftest import COMPILING, command, run

MUSHROOM = ROOT / "nonogram" / "mushroom.non"
"""A colour nonogram: its drawing colours the cells with ANSI codes."""

PROBE = """
import os, sys
from cspsolve.cli import main
sys.argv = ["cspsolve", "explain", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nRICH " + str("rich" in sys.modules))
"""
"""Explains a puzzle in-process, then says on stderr whether rich was imported."""


def explained(env: dict[str, str]) -> tuple[str, bool]:
    """The text of ``cspsolve explain MUSHROOM`` into a pipe, and whether it imported rich."""
    environment = {"PYTHONIOENCODING": "utf-8", "PATH": "", **env}
    done = subprocess.run(
        [sys.executable, "-P", "-c", PROBE, str(MUSHROOM)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.rsplit("RICH ", 1)[1] == "True"


def test_text_into_a_pipe_is_plain_and_needs_no_rich() -> None:
    text, rich = explained({})
    assert "\x1b" not in text
    assert not rich
    assert "line logic" in text and "solved by" in text


def test_forced_colours_style_the_text_through_rich() -> None:
    styled, rich = explained({"FORCE_COLOR": "1"})
    plain, _ = explained({})
    assert rich
    assert "\x1b[" in styled
    unstyled = re.sub("\x1b\\[[0-9;]*m", "", styled)
    pairs = list(zip(unstyled.splitlines()[:-1], plain.splitlines()[:-1], strict=True))
    # the last line has the time; a grid's coloured blocks are letters in plain text
    assert all(shown == bare or "█" in shown for shown, bare in pairs)
    assert sum("█" in shown for shown, _ in pairs) >= 12


def test_a_long_gif_is_announced_on_stderr_before_it_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "ANNOUNCED_FRAMES", 5)
    gif = tmp_path / "why.gif"
    ran = CliRunner().invoke(cli.cli, ["explain", str(MUSHROOM), "--image", str(gif)])
    assert ran.exit_code == 0, ran.output
    said = [line for line in ran.stderr.splitlines() if not line.startswith(COMPILING)]
    assert len(said) == 1
    assert said[0].startswith("cspsolve: drawing ") and " frames of " in said[0]
    assert said[0].endswith(" s") and "into why.gif: about " in said[0]
    assert gif.exists()
    assert f"image: {gif}" in ran.stdout


@pytest.mark.parametrize(
    ("path", "title"),
    [
        (ROOT / "nonogram" / "mushroom.non", "Mushroom"),  # the puzzle's own title
        (ROOT / "rushhour" / "card-32.txt", "card-32.txt"),  # no title: the file's name
    ],
)
def test_an_explanation_page_is_titled_by_its_puzzle(
    path: Path, title: str, tmp_path: Path
) -> None:
    page = tmp_path / "why.html"
    ran = CliRunner().invoke(cli.cli, ["explain", str(path), "--image", str(page)])
    assert ran.exit_code == 0, ran.output
    markup = page.read_text(encoding="utf-8")
    assert f"<title>{title}</title>" in markup and f"<h1>{title}</h1>" in markup
    subtitle = re.search(r'<p class="subtitle">(.*?)</p>', markup)
    assert subtitle is not None and subtitle.group(1).endswith(f", from {path}")


def on_a_terminal(*args: object) -> tuple[str, str]:
    """Run ``cspsolve ARGS...`` with stderr on a pseudo-terminal and stdout into a pipe: what
    each received."""
    leader, follower = pty.openpty()
    with subprocess.Popen(
        command(*args),
        stdout=subprocess.PIPE,
        stderr=follower,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "TERM": "xterm"},
    ) as proc:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            chunks.append(chunk)
        out = proc.stdout.read().decode() if proc.stdout else ""
    os.close(leader)
    return out, b"".join(chunks).decode(errors="replace")


def test_compare_shows_each_run_on_a_terminal_and_never_in_json(
    short: Callable[[Path], Path],
) -> None:
    board = short(ROOT / "rushhour" / "walls.rh")
    out, err = on_a_terminal("compare", board, "--methods", "bfs,dfs")
    assert "bfs" in out and "dfs" in out
    for k, method in enumerate(["bfs", "dfs"], 1):
        assert f"comparing {board}: {method} ({k} of 2)" in err
    out, err = on_a_terminal("compare", board, "--methods", "bfs,dfs", "--format", "json")
    assert len(out.splitlines()) == 2 and "comparing" not in err


def grid_of(drawing: list[str], rows: int) -> list[str]:
    """The cells of the last ``rows`` lines of a drawn nonogram, one character each (``.``
    for an empty cell), the clues left out."""
    return ["".join(cell.replace("·", ".") for cell in line.split()[-rows:]) for line in drawing]


def test_a_colour_nonogram_into_a_pipe_names_each_colour_by_its_letter() -> None:
    [record] = [json.loads(run("solve", MUSHROOM, "--format", "json").stdout)]
    grid = record["solution"]["grid"]
    drawing = run("solve", MUSHROOM).stdout.splitlines()
    assert "\x1b" not in "\n".join(drawing) and "█" not in "\n".join(drawing)
    assert grid_of(drawing[-1 - len(grid) : -1], len(grid)) == grid
    coloured = run("solve", MUSHROOM, env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" in coloured and "█" in coloured
