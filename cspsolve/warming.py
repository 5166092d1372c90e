"""Compile every kernel ahead of a first run: what ``cspsolve warm`` does.

numba compiles a kernel at its first call and keeps the machine code in its cache
(:mod:`cspsolve.compiling`), so the first run of a command after an install, or after an
upgrade that changed a kernel, pays the compile: up to about 20 s for the nonogram kernels on
a 2-core machine. :func:`warm` pays it at once, for every kind or those named, so that later
runs only load the code. It runs each kind's samples (:attr:`cspsolve.kind.Kind.samples`)
through the commands that call kernels:

- every method whose backend is ``"compiled"`` that takes the sample, with each heuristic
  ``cspsolve compare`` would run, and the sample's default method, all with the kind's
  ``verify`` options (a nonogram's uniqueness is decided, as ``solve --unique`` does);
- ``explain``, where the kind explains, and ``analyze``;

under :func:`cspsolve.compiling.eager`, so that no plain-Python shortcut for small puzzles
spares a kernel. Each run has a time limit of :data:`RUN_SECONDS`: numba's compile is not
interrupted, the limit stops the search after it. Answers are not kept; a run that stops at
its limit has still compiled what it called.

Use it once after installing (a container image, a machine about to time runs, a class before
its first lesson); it is harmless to repeat, and then only loads the cached code.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cspsolve import api, compiling, registry
from cspsolve.kind import Kind

__all__ = ["RUN_SECONDS", "Warmed", "runs", "warm"]

RUN_SECONDS = 10.0
"""The time limit of each run, compile included (the compile itself is not cut)."""


@dataclass(frozen=True)
class Warmed:
    """What warming one kind did.

    Attributes
    ----------
    kind : str
        The kind's name.
    runs : int
        Commands run on its samples.
    compiled : int
        Kernels numba compiled (0: every kernel came from the cache, or the kind has none).
    seconds : float
        Wall seconds, loading and compiling included.
    """

    kind: str
    runs: int
    compiled: int
    seconds: float


Run = tuple[str, Callable[[], Any]]
"""What a run is called (for progress lines) and the call that makes it."""


def runs(kind: Kind) -> Iterator[Run]:
    """The runs that warm ``kind``: for each sample, its compiled methods (each heuristic),
    its default method, ``explain`` and ``analyze`` (see the module's text).

    Raises
    ------
    InputError
        When a sample cannot be read (a kind's declaration names a missing file).
    """
    options = dict(kind.verify_options)
    root = Path(importlib.import_module("cspsolve.instances").ROOT)
    for sample in kind.samples:
        _, [entry] = registry.load(str(root / sample), kind.name)
        puzzle = entry.puzzle
        calls: dict[str, dict[str, Any]] = {f"solve {sample}": {}}
        for method in kind.methods:
            if method.backend == "compiled":
                for heuristic in method.comparisons(puzzle):
                    named = f"solve {sample} --method {method.name}"
                    named += f" --heuristic {heuristic}" if heuristic else ""
                    calls[named] = {"method": method.name, "heuristic": heuristic}
        for name, keywords in calls.items():
            yield name, _call(api.solve, puzzle, kind, {**options, **keywords})
        if kind.explain is not None:
            yield f"explain {sample}", _call(api.explain, puzzle, kind, {})
        yield f"analyze {sample}", _call(api.analyze, puzzle, kind, {})


def _call(
    command: Callable[..., Any], puzzle: Any, kind: Kind, keywords: dict[str, Any]
) -> Callable[[], Any]:
    """``command(puzzle, ...)`` on ``kind`` within :data:`RUN_SECONDS`."""
    return lambda: command(puzzle, kind=kind.name, time_limit=RUN_SECONDS, **keywords)


def warm(
    kinds: Sequence[str] | None = None, *, progress: Callable[[str], None] | None = None
) -> list[Warmed]:
    """Compile (or load from numba's cache) the kernels of ``kinds`` by running their samples.

    Parameters
    ----------
    kinds : sequence of str, optional
        Kind names; by default every registered kind.
    progress : callable, optional
        Called with each run's name (``"nonogram: explain nonogram/mushroom.non"``) before
        it starts.

    Returns
    -------
    list of Warmed
        One per kind, in the order given (registry order by default).

    Raises
    ------
    OptionError
        For an unknown kind name.

    Notes
    -----
    ``warm(["NAME"])`` warms the kind called NAME only; ``tests/test_warming.py`` checks in a
    cache of its own that a later run then compiles nothing.
    """
    chosen = [registry.get(name) for name in kinds] if kinds else list(registry.kinds().values())
    done = []
    with compiling.eager():
        for kind in chosen:
            started, before, count = time.perf_counter(), compiling.compiled(), 0
            for name, call in runs(kind):
                if progress is not None:
                    progress(f"{kind.name}: {name}")
                call()
                count += 1
            seconds = time.perf_counter() - started
            done.append(Warmed(kind.name, count, compiling.compiled() - before, seconds))
    return done
