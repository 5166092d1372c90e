"""The tables the command prints fit 80 columns without breaking a word, and write numbers
alike: thousands separators for counts, seconds to the millisecond, never JSON or ``null``."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from cspsolve import registry
from cspsolve.instances import ROOT

from .conftest import run

NARROW = {"COLUMNS": "80"}
RULE = re.compile(r"^─+$")


def table_lines(text: str) -> list[str]:
    """The lines of the tables in ``text``: not the titles, rules or indented notes
    (``  name: text``)."""
    return [
        line
        for line in text.splitlines()
        if line.strip()
        and not (line.startswith("  ") and ": " in line)
        and not RULE.match(line)
        and "(" not in line
    ]


def test_methods_at_80_columns_shows_every_name_whole() -> None:
    done = run("methods", env=NARROW)
    assert done.returncode == 0, done.stderr
    assert max(map(len, done.stdout.splitlines()[:3])) <= 80
    vocabulary = {"method", "heuristics", "optimal", "complete", "backend", "default"}
    vocabulary |= {"yes", "no", "-", "for", "some", "puzzles"}
    for kind in registry.kinds().values():
        vocabulary |= {m.name for m in kind.methods} | {m.backend for m in kind.methods}
        vocabulary |= {h for m in kind.methods for h in m.heuristics}
    shown = [line for line in table_lines(done.stdout) if ":" not in line]
    assert all(len(line) <= 80 for line in shown)
    words = {word.rstrip(",") for line in shown for word in line.split()}
    assert words <= vocabulary, words - vocabulary
    assert "linear-conflict" in words and "python-constraint" in words


def test_compare_at_80_columns_writes_numbers_alike(short: Callable[[Path], Path]) -> None:
    board = short(ROOT / "rushhour" / "walls.rh")
    done = run("compare", board, "--methods", "bfs,astar,dfs", env=NARROW)
    assert done.returncode == 0, done.stderr
    lines = table_lines(done.stdout)
    assert lines and all(len(line) <= 80 for line in lines)
    rows = [line.split() for line in lines if line.split()[-1][0].isdigit()]
    assert rows and all(re.fullmatch(r"0|\d+\.\d{3}", row[-1]) for row in rows)
    counts = [word for row in rows for word in row[-6:-1] if word != "-"]
    assert all(re.fullmatch(r"\d{1,3}(,\d{3})*", word) for word in counts), counts
    assert any("," in word for word in counts)  # dfs expands thousands on this board


def test_analyze_writes_lists_and_mappings_as_words(short: Callable[[Path], Path]) -> None:
    done = run("analyze", short(ROOT / "rushhour" / "walls.rh"), env=NARROW)
    assert done.returncode == 0, done.stderr
    assert not set('[]{}"') & set(done.stdout) and "null" not in done.stdout
    rows = dict(
        re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in table_lines(done.stdout)[2:]
    )
    assert rows["cluster size"] == "1,191" and rows["complete"] == "yes"
    assert rows["distance histogram"].startswith("185 87 111 ")
    assert rows["branching"] == "mean 6.92; max 16"
    assert all(len(line) <= 80 for line in table_lines(done.stdout))
