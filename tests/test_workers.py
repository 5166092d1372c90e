"""``--workers`` and ``--scheduler`` on the solving commands, and :func:`cspsolve.api.solve_many`.

Many puzzles on two processes (or a Dask cluster of two workers) must print what one process
prints, line for line, with the same exit code: each run here is compared with the run of
``--workers 1``, the reference being the one-process path (the code as it was before the
pool). Only the seconds differ, and are masked. Most commands run in this process (click's
runner; the pool's processes fork from it, so every run finds the kernels loaded); the usage
errors and Ctrl-C run as a subprocess, as users see them.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from click.testing import CliRunner, Result

from cspsolve import api, cli, parallel, tasks
from cspsolve.instances import ROOT
from cspsolve.limits import Limits

from .conftest import command, run

DATA = Path(__file__).resolve().parent / "data"
EASY8 = ROOT / "npuzzle" / "easy8.txt"
KORF15 = ROOT / "npuzzle" / "korf15-easy.korf"
"""Three 15-puzzles with ids: a multi-puzzle file."""
UNSOLVABLE = ROOT / "npuzzle" / "unsolvable8.json"
SMALL = ROOT / "npuzzle" / "small2x4.txt"
CARD = ROOT / "rushhour" / "card-32.txt"
LIGHTS = ROOT / "lightsout" / "classic-5x5.lo"
DATA148 = DATA / "nonogram" / "data148.nin"
DUCK = ROOT / "nonogram" / "duck.non"
MUSHROOM = ROOT / "nonogram" / "mushroom.non"
"""A colour nonogram: ``--method mac`` refuses it."""
BAD = "BAD"
"""Stands for a file that does not read, written by the test."""

CASES: dict[str, tuple[list[Any], list[str]]] = {
    "solve": ([KORF15, BAD, UNSOLVABLE, CARD, LIGHTS, DATA148, DUCK, MUSHROOM], []),
    "solve-refused": ([DATA148, MUSHROOM, DUCK], ["--method", "mac"]),
    "verify": ([EASY8, BAD, UNSOLVABLE, LIGHTS, DATA148, MUSHROOM], []),
    "analyze": ([EASY8, BAD, UNSOLVABLE, CARD, LIGHTS, DUCK], []),
    "compare": ([EASY8, BAD, UNSOLVABLE, SMALL], ["--methods", "astar,bfs"]),
    "explain": ([EASY8, BAD, UNSOLVABLE, LIGHTS], []),
}
"""Per case: the files (several kinds, a bad file in the middle, an unsolvable puzzle; a
method that refuses the middle puzzle) and the options."""


def invoke(*args: object) -> Result:
    """``cspsolve ARGS...`` in this process."""
    return CliRunner().invoke(cli.cli, [str(a) for a in args], catch_exceptions=False)


def masked_text(text: str) -> str:
    """Text output with every decimal number, a 0 ending a line (a table's seconds, written
    0 when they round to nothing) and the widths of table columns (which follow the numbers'
    lengths, so a line may end in padding or not) taken out."""
    text = re.sub(r"(?m)(\s)0\s*$", r"\1X", text)  # the seconds last on a line: "0" when tiny
    text = re.sub(r"\d+\.\d+(e-?\d+)?", "X", text)
    text = re.sub(r"[ ─━═┃│]+", " ", text)
    return re.sub(r"(?m) $", "", text)  # a column padded to a longer number of seconds


def without_seconds(value: Any) -> Any:
    """A JSON value with every key that ends in ``seconds`` taken out."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if not k.endswith("seconds")}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def masked(result: Result, output: str) -> tuple[int, Any, str]:
    """What must not change with the workers: exit code, stdout (seconds masked), stderr."""
    if output == "json":
        shown: Any = [without_seconds(json.loads(line)) for line in result.stdout.splitlines()]
    else:
        shown = masked_text(result.stdout)
    said = [line for line in result.stderr.splitlines() if " compiling " not in line]
    return result.exit_code, shown, said  # a first compile is announced where it happens


def case(name: str, tmp_path: Path) -> list[Any]:
    """The command line of a case, the bad file written into ``tmp_path``."""
    bad = tmp_path / "bad.non"
    bad.write_text("width 3\nheight 2\nrows\n1\n\ncolumns\nnonsense\n", encoding="utf-8")
    files, options = CASES[name]
    return [name.partition("-")[0], *(bad if f == BAD else f for f in files), *options]


def children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_two_workers_print_what_one_prints(name: str, output: str, tmp_path: Path) -> None:
    args = [*case(name, tmp_path), "--format", output]
    before = children()
    one = invoke(*args, "--workers", "1")
    two = invoke(*args, "--workers", "2")
    assert children() <= before  # the pool's processes are gone
    assert masked(two, output) == masked(one, output)
    assert one.exit_code == 2
    assert len(one.stderr.splitlines()) == 1  # the bad file, or the puzzle a method refuses
    assert len(one.stdout.splitlines()) >= 2  # the puzzles around it


def drawing(path: Path) -> str:
    """An SVG file without its date and the random names of its clip paths and images."""
    text = re.sub(r"<dc:date>.*</dc:date>", "", path.read_text(encoding="utf-8"))
    return re.sub(r"\b(p|image)[0-9a-f]{10}\b", "ID", text)


def test_a_drawing_per_puzzle_as_with_one_worker(tmp_path: Path) -> None:
    for workers in ("1", "2"):
        out = tmp_path / workers / "board.svg"
        out.parent.mkdir()
        result = invoke("solve", EASY8, UNSOLVABLE, LIGHTS, "--image", out, "--workers", workers)
        assert result.exit_code == 1
    for number in (1, 3):
        name = f"board-{number}.svg"
        assert drawing(tmp_path / "2" / name) == drawing(tmp_path / "1" / name)
    assert not (tmp_path / "2" / "board-2.svg").exists()  # unsolvable: nothing to draw


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["solve", EASY8, "--workers", "0"], r"cspsolve: .*workers must be a positive count.*"),
        (["compare", EASY8, "--workers", "x"], r"cspsolve: .*workers must be a positive .*'x'.*"),
        *(
            (
                [*command, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
                r"cspsolve: --workers and --scheduler exclude each other.*",
            )
            for command in (["analyze", EASY8], ["batch", EASY8, "--out", "never.sqlite"])
        ),
    ],
)
def test_a_bad_workers_value_is_one_line_and_exit_2(args: list[Any], pattern: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert re.fullmatch(pattern, line), line


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Limits]]:
    """The limits every :mod:`cspsolve.tasks` call of the command line receives."""
    limits: list[Limits] = []
    for name in ("solve", "verify", "analyze", "explain"):
        real = getattr(tasks, name)

        def recording(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            limits.append(kwargs["limits"])
            return real(*args, **kwargs)

        monkeypatch.setattr(tasks, name, recording)
    monkeypatch.setattr(parallel, "cluster_size", lambda scheduler: 3)  # the cluster's threads
    yield limits


def given(seen: list[Limits]) -> set[tuple[int, str | None]]:
    """The workers and scheduler of the limits seen since the last look (then forgotten)."""
    found = {(limit.workers, limit.scheduler) for limit in seen}
    seen.clear()
    return found


@pytest.mark.parametrize("command", ["solve", "verify", "analyze", "compare", "explain"])
def test_one_puzzle_runs_here_with_the_workers_in_its_limits(
    command: str, seen: list[Limits]
) -> None:
    before = children()
    extra = ["--methods", "astar"] if command == "compare" else []
    assert invoke(command, EASY8, "--workers", "2", *extra).exit_code == 0
    assert given(seen) == {(2, None)}
    assert invoke(command, EASY8, "--scheduler", "tcp://127.0.0.1:1", *extra).exit_code == 0
    assert given(seen) == {(3, "tcp://127.0.0.1:1")}
    assert invoke(command, EASY8, *extra).exit_code == 0
    assert given(seen) == {(1, None)}
    assert children() <= before  # no pool for one puzzle


def test_the_library_passes_the_workers_to_the_limits(seen: list[Limits]) -> None:
    [board] = api.read(EASY8)
    api.solve(board, workers=2)
    assert given(seen) == {(2, None)}
    api.analyze(board, scheduler="tcp://127.0.0.1:1")
    assert given(seen) == {(3, "tcp://127.0.0.1:1")}
    api.compare(board, methods=["astar"], workers=2)
    assert given(seen) == {(2, None)}


def test_solve_many_gives_the_results_of_solve_in_order() -> None:
    puzzles = [*api.read(KORF15), *api.read(UNSOLVABLE), *api.read(CARD), *api.read(DUCK)]
    before = children()
    many = api.solve_many(puzzles, workers=2)
    assert children() <= before
    alone = [api.solve(puzzle) for puzzle in puzzles]
    assert [without_seconds(r.to_json()) for r in many] == [
        without_seconds(r.to_json()) for r in alone
    ]
    assert api.solve_many(puzzles[:2], workers=1)[1].status.value == "optimal"


def test_solve_many_sizes_its_chunks_for_the_pool_it_gets(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no ``workers`` the pool has a process a core, and the chunks are sized for them."""
    from cspsolve import fanout

    sized: list[tuple[int, int]] = []
    chunk_size = fanout.chunk_size
    monkeypatch.setattr(fanout, "chunk_size", lambda n, w: sized.append((n, w)) or chunk_size(n, w))
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    puzzles = api.read(DUCK) * 3
    assert len(api.solve_many(puzzles)) == 3
    api.solve_many(puzzles, workers=3)
    assert sized == [(3, 2), (3, 3)]


def test_solve_many_names_the_puzzle_a_method_refuses() -> None:
    puzzles = [*api.read(DATA148), *api.read(MUSHROOM)]
    with pytest.raises(ValueError, match=r"^puzzle 2: mac: "):
        api.solve_many(puzzles, method="mac", workers=2)


def hard_puzzles(tmp_path: Path) -> Path:
    """Four 15-puzzles of Korf's set: hours for IDA* with Manhattan distance."""
    lines = (DATA / "npuzzle" / "korf100.tsv").read_text(encoding="utf-8").splitlines()[1:5]
    path = tmp_path / "hard.korf"
    path.write_text("".join(f"{n} {tiles}\n" for n, _, tiles in map(str.split, lines, "\t" * 4)))
    return path


def test_ctrl_c_stops_the_pool_and_exits_130(tmp_path: Path) -> None:
    args = ["solve", hard_puzzles(tmp_path), "--method", "idastar", "--heuristic", "manhattan"]
    proc = subprocess.Popen(
        command(*args, "--workers", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's command
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := psutil.Process(proc.pid).children()) < 2:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C: to every process of the command
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert (out, err.strip()) == ("", "")  # click ends the line of the terminal's ^C
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]


def test_a_dask_cluster_prints_what_one_process_prints(dask_scheduler: str, tmp_path: Path) -> None:
    args = [*case("solve", tmp_path), "--format", "json"]
    one = invoke(*args)
    dask = invoke(*args, "--scheduler", dask_scheduler)
    assert masked(dask, "json") == masked(one, "json")
    assert one.exit_code == 2


def test_a_search_split_over_a_cluster_keeps_every_worker_busy(dask_scheduler: str) -> None:
    assert parallel.cluster_size(dask_scheduler) == 2  # two workers of one thread each
