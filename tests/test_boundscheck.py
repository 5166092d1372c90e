"""The differential tests again, with every compiled kernel bounds-checked.

numba's compiled code does not check array indices: a kernel that reads or writes out of bounds
gives a wrong answer or crashes the process. ``NUMBA_BOUNDSCHECK=1`` makes every kernel raise
``IndexError`` instead. The kernels are compiled afresh for this (their own cache folder), and
the differential tests of every kind run in a child process with fewer, fixed cases.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .fuzzing import FUZZ_ENV

TESTS = Path(__file__).resolve().parent
CASES = 12
"""Cases per differential test in the bounds-checked run."""


@pytest.mark.slow
def test_the_differential_tests_pass_with_bounds_checks() -> None:
    modules = sorted(str(p) for p in TESTS.glob("models/*/test_differential.py"))
    assert modules, "no differential tests found"
    env = dict(os.environ)
    env |= {
        "NUMBA_BOUNDSCHECK": "1",
        "NUMBA_CACHE_DIR": str(Path(tempfile.gettempdir()) / "cspsolve-numba-boundscheck"),
        FUZZ_ENV: str(CASES),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "--hypothesis-seed=0", *modules],
        cwd=TESTS.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
