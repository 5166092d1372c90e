"""The notice of :mod:`cspsolve.compiling`: one line on stderr when numba compiles, none when
its cache is warm, nothing on stdout.

Kernels are written as modules of their own in a temporary folder and run in fresh
interpreters with their own numba cache (``NUMBA_CACHE_DIR``), so the first run finds the cache
cold and the second warm, whatever ran before.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from cspsolve import compiling

KERNELS = """
from numba import njit

from cspsolve.compiling import announce_compiling

announce_compiling()
announce_compiling()  # idempotent: still one listener


@njit(cache={cache})
def double(x):
    return 2 * x


@njit(cache={cache})
def triple(x):
    return double(x) + x
"""

MAIN = "import sys; sys.path.insert(0, sys.argv[1]); import demo_kernels as k; print(k.triple(5))"


def run_kernels(folder: Path) -> subprocess.CompletedProcess[str]:
    """Call the folder's kernels in a fresh interpreter whose numba cache is in the folder."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache")}
    return subprocess.run(
        [sys.executable, "-c", MAIN, str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def write_kernels(folder: Path, cache: bool) -> None:
    (folder / "demo_kernels.py").write_text(textwrap.dedent(KERNELS.format(cache=cache)))


@pytest.mark.slow
def test_a_cold_cache_is_announced_once_and_a_warm_one_not_at_all(tmp_path: Path) -> None:
    write_kernels(tmp_path, cache=True)
    cold = run_kernels(tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout == "15\n"
    (line,) = cold.stderr.splitlines()  # two kernels compiled, one notice
    cache = line.rpartition("(")[2].removesuffix(")")
    assert line == compiling.notice("demo_kernels", cache)
    assert Path(cache).is_relative_to(tmp_path / "cache")
    assert any(Path(cache).glob("demo_kernels.*.nbi"))  # numba's index files are there
    warm = run_kernels(tmp_path)
    assert (warm.returncode, warm.stdout, warm.stderr) == (0, "15\n", "")


@pytest.mark.slow
def test_kernels_without_a_cache_are_announced_in_every_process(tmp_path: Path) -> None:
    write_kernels(tmp_path, cache=False)
    expected = compiling.notice("demo_kernels", None) + "\n"
    for _ in range(2):
        proc = run_kernels(tmp_path)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "15\n", expected)


def test_each_owner_is_announced_once_per_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiling, "_announced", set())
    compiling.announce_compiling()

    @numba.njit
    def first(x: int) -> int:
        return x + 1

    @numba.njit
    def second(x: int) -> int:
        return x + 2

    assert first(1) == 2
    assert capsys.readouterr() == ("", compiling.notice(__name__, None) + "\n")
    assert first(2) == 3 and second(1) == 3 and first(2.5) == 3.5  # another compile each
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("cspsolve.models.nonogram.lines.cells", "nonogram"),
        ("cspsolve.models.rushhour._kernels", "rushhour"),
        ("cspsolve.models", "cspsolve.models"),
        ("demo_kernels", "demo_kernels"),
    ],
)
def test_the_owner_of_a_kernel_is_its_kind(module: str, expected: str) -> None:
    assert compiling.owner(module) == expected


MOVED = """
from typing import NamedTuple

from numba import njit

{preamble}


{point}


@njit(cache=True)
def norm(p):
    return p.x * p.x + p.y * p.y
"""
POINT = "class Point(NamedTuple):\n    x: int\n    y: int"
CALL = (
    "import sys; sys.path.insert(0, sys.argv[1]); import demo_moved as m, demo_point as d; "
    "print(m.norm(getattr(m, 'Point', d.Point)(3, 4)))"
)


def run_moved(folder: Path, point: str, preamble: str) -> subprocess.CompletedProcess[str]:
    """Cache ``norm`` of a NamedTuple defined as ``point`` says, in a fresh interpreter."""
    (folder / "demo_moved.py").write_text(MOVED.format(point=point, preamble=preamble))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache")}
    return subprocess.run(
        [sys.executable, "-c", CALL, str(folder)],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("tolerant", [True, False])
def test_an_index_naming_a_moved_type_is_a_cache_miss(tmp_path: Path, tolerant: bool) -> None:
    """A kernel cached with a NamedTuple of its own module; the type then moves to another
    module (as when a module is split): numba alone fails to unpickle the old index, while
    with :func:`compiling.tolerate_stale_indexes` the kernel is compiled again and answers."""
    (tmp_path / "demo_point.py").write_text(f"from typing import NamedTuple\n\n\n{POINT}\n")
    patch = "from cspsolve.compiling import tolerate_stale_indexes\n\ntolerate_stale_indexes()"
    first = run_moved(tmp_path, POINT, patch if tolerant else "")
    assert first.returncode == 0 and first.stdout.split() == ["25"], first.stderr
    # Point only in demo_point now; the same lines, so numba reads the same index file
    filler = "\n".join(f"_{field} = 0" for field in ("moved", "x", "y"))
    moved = run_moved(tmp_path, filler, patch if tolerant else "")
    if tolerant:
        assert moved.returncode == 0 and moved.stdout.split() == ["25"], moved.stderr
    else:
        assert moved.returncode != 0 and "AttributeError" in moved.stderr
