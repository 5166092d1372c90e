"""``cspsolve warm``: it compiles what a later run needs (checked in a cache of its own), its
samples are real, and :func:`cspsolve.compiling.eager` turns off the plain-Python shortcuts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cspsolve import compiling, registry
from cspsolve.warming import runs

from .conftest import run

LIGHTSOUT_SAMPLE = "lightsout/sigma-torus-9x9.lo"

SOLVED_WARM = f"""
import sys
from cspsolve import compiling, instances, read, solve
[board] = read(instances.ROOT / {LIGHTSOUT_SAMPLE!r})
result = solve(board)
assert result.status.value == "optimal", result.status
assert "cspsolve.models.lightsout._kernels" in sys.modules, "the kernels were not used"
print(compiling.compiled())
"""


def test_warm_compiles_what_a_later_run_uses(tmp_path: Path) -> None:
    """In an empty cache, ``warm lightsout`` compiles; a later solve that calls the kernels
    then compiles none of them."""
    cache = {"NUMBA_CACHE_DIR": str(tmp_path)}
    warmed = run("warm", "lightsout", "--format", "json", env=cache)
    assert warmed.returncode == 0, warmed.stderr
    record = json.loads(warmed.stdout)
    assert record["kind"] == "lightsout" and record["runs"] == 3 and record["compiled"] > 0
    later = subprocess.run(  # -P: the install, as ``cspsolve`` runs it, not the source folder
        [sys.executable, "-P", "-c", SOLVED_WARM],
        capture_output=True,
        text=True,
        env={**os.environ, **cache},
        check=False,
        timeout=120,
    )
    assert later.returncode == 0, later.stderr
    assert later.stdout.strip() == "0"
    assert "compiling" not in later.stderr


def test_warm_says_what_it_did_in_text() -> None:
    done = run("warm", "npuzzle", "lightsout")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["npuzzle", "lightsout"]
    assert all(" runs, " in line and line.endswith(" s") for line in lines), lines


def test_an_unknown_kind_is_one_line_and_exit_2() -> None:
    done = run("warm", "sudoku")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "sudoku" in done.stderr


@pytest.mark.parametrize("name", registry.names())
def test_samples_are_single_puzzles_that_reach_every_compiled_method(name: str) -> None:
    kind = registry.get(name)
    compiled = {m.name for m in kind.methods if m.backend == "compiled"}
    assert kind.samples or not compiled, "a kind with compiled methods names samples"
    named = [label for label, _ in runs(kind)]  # reads every sample: one puzzle each
    for sample in kind.samples:
        assert f"explain {sample}" in named or kind.explain is None
        assert f"analyze {sample}" in named
    reached = {label.split("--method ")[1].split()[0] for label in named if "--method" in label}
    assert reached == compiled


def test_eager_turns_off_the_plain_python_shortcuts() -> None:
    from cspsolve.models.nonogram import solver
    from cspsolve.models.nonogram.board import Nonogram
    from cspsolve.models.rushhour import bfs

    assert not compiling.is_eager()
    with compiling.eager():
        assert compiling.is_eager()
        assert solver._quick_nodes(Nonogram(rows=[(1,)], columns=[(1,)])) == 0
        assert bfs._plain_budget() == 0
    assert not compiling.is_eager()
