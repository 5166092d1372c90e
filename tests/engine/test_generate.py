"""``cspsolve generate`` and :func:`cspsolve.generate` over the example ``queens`` kind (its
generator: queens given from a random solution, counted by brute force): the same seed gives
the same puzzles on one process or two, each certificate is what brute force finds, a run
resumes from its record, and bad options, an unknown kind and a limit end as the command line
promises."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cspsolve import generating, registry
from cspsolve.errors import OptionError

from ..conftest import run
from ..test_example_kind import ENV, KINDS, brute_force

pytestmark = pytest.mark.slow


def queens(*args: object) -> Any:
    return run("generate", "queens", *args, env=ENV)


@pytest.fixture(scope="module")
def queens_kind() -> Any:
    """The ``queens`` kind registered in this process."""
    saved = os.environ.get(registry.EXTRA_KINDS_ENV)
    os.environ[registry.EXTRA_KINDS_ENV] = "queens.kind"
    import sys

    sys.path.insert(0, str(KINDS))
    registry.kinds.cache_clear()
    try:
        yield registry.get("queens")
    finally:
        sys.path.remove(str(KINDS))
        if saved is None:
            del os.environ[registry.EXTRA_KINDS_ENV]
        else:
            os.environ[registry.EXTRA_KINDS_ENV] = saved
        registry.kinds.cache_clear()


def records(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "generated.jsonl").read_text().splitlines()]


def test_the_same_seed_makes_the_same_puzzles_on_any_number_of_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    first = queens("--count", 6, "--seed", 3, "--unique", "--out", one)
    second = queens("--count", 6, "--seed", 3, "--unique", "--out", two, "--workers", 2)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    names = sorted(p.name for p in one.glob("*.queens"))
    assert names == [f"queens-3-{i:04d}.queens" for i in range(6)]
    assert all((one / n).read_text() == (two / n).read_text() for n in names)
    assert len({(one / n).read_text() for n in names}) > 1  # not one puzzle six times
    assert first.stdout.replace(str(one), "") == second.stdout.replace(str(two), "")
    other = queens("--count", 6, "--seed", 4, "--unique", "--out", tmp_path / "other")
    assert other.returncode == 0
    assert [(tmp_path / "other" / n.replace("-3-", "-4-")).read_text() for n in names] != [
        (one / n).read_text() for n in names
    ]


def test_each_certificate_is_what_brute_force_finds(queens_kind: Any, tmp_path: Path) -> None:
    done = queens("--count", 8, "--size", 6, "--given", 2, "--out", tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert printed == records(tmp_path) and [r["index"] for r in printed] == list(range(8))
    for record in printed:
        [entry] = queens_kind.read(tmp_path / record["file"])
        assert record["given"] == 2 == sum(g is not None for g in entry.puzzle.given)
        assert record["solutions"] == len(brute_force(entry.puzzle)) >= 1
    unique = generating_library(queens_kind, count=5, seed=9, unique=True)
    assert all(len(brute_force(g.puzzle)) == 1 == g.certificate["solutions"] for g in unique)


def generating_library(kind: Any, **asked: Any) -> list[generating.Generated]:
    import cspsolve

    return cspsolve.generate(kind.name, **asked)


def test_a_run_resumes_from_its_record(tmp_path: Path) -> None:
    assert queens("--count", 3, "--seed", 1, "--out", tmp_path).returncode == 0
    kept = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.queens")}
    (tmp_path / "queens-1-0001.queens").unlink()
    with (tmp_path / "generated.jsonl").open("a") as log:
        log.write("{not json\n")  # a broken line spoils only itself
    again = queens("--count", 5, "--seed", 1, "--out", tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(again.stdout.splitlines()) == 5
    assert {p.name for p in tmp_path.glob("*.queens")} == {
        f"queens-1-{i:04d}.queens" for i in range(5)
    }
    for name in ("queens-1-0000.queens", "queens-1-0002.queens"):
        assert (tmp_path / name).stat().st_mtime_ns == kept[name]  # not made again
    fresh = tmp_path / "fresh"
    assert queens("--count", 5, "--seed", 1, "--out", fresh).returncode == 0
    for i in range(5):
        name = f"queens-1-{i:04d}.queens"
        assert (tmp_path / name).read_text() == (fresh / name).read_text()


def test_bad_options_and_kinds_are_one_line(tmp_path: Path) -> None:
    for args, words in (
        (("--size", 12), "--size: 12 is not in 4..8"),
        (("--given", 9), "--given: 9 is more than the 6 rows"),
        (("--count", 0), "--count"),
        (("--workers", 2, "--scheduler", "tcp://x:1"), "exclude each other"),
    ):
        done = queens(*args, "--out", tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and words in done.stderr, done.stderr
    unknown = run("generate", "chess", "--out", tmp_path, env=ENV)
    assert unknown.returncode == 2 and "No such command 'chess'" in unknown.stderr
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert queens("--out", blocked).returncode == 2


def test_a_time_limit_stops_the_run_and_says_so(tmp_path: Path) -> None:
    done = queens("--count", 4, "--time-limit", 0, "--out", tmp_path)
    assert done.returncode == 3
    assert done.stderr.strip() == "cspsolve: the time limit stopped the run: 0 of 4 made"


def test_the_library_checks_its_words(queens_kind: Any) -> None:
    with pytest.raises(OptionError, match="no option 'colour' to generate with"):
        generating_library(queens_kind, colour=3)
    with pytest.raises(OptionError, match="count must be a whole number"):
        generating_library(queens_kind, count=-1)
    assert generating_library(queens_kind, count=3, time_limit=0) == []
    made = generating_library(queens_kind, count=3, seed=5, workers=2)
    assert made == generating_library(queens_kind, count=3, seed=5)
