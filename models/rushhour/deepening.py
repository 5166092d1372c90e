"""Breadth-first iterative-deepening A* on bit-packed states, the search of ``bfida``.

Each iteration is a breadth-first heuristic search (:func:`.packed.search`) that keeps a state
only when its depth plus an admissible estimate (``blockers`` by default, see :mod:`.search`) is
within the bound ``B``. An admissible estimate never exceeds the cost left on an optimal plan,
so every state of an optimal plan is kept, at its true depth, whenever the optimum ``C* <= B``:
the first goal reached is then optimal. An iteration that ends without a goal proves
``C* > B``, and indeed ``C*`` at least the least depth plus estimate it left out; that value is
the next bound (Korf's rule for IDA*), raised by up to :data:`_MOST_STRIDE` when the work grew
slowly per unit of bound (aiming at :data:`GROWTH` times the last iteration's work), but not
past a small iteration nor past what the time left is predicted to reach (a bound above ``C*``
still finds an optimal plan first). With no state left out, the whole cluster was searched
and the board is unsolvable. This is BFIDA* (Zhou & Hansen, "Breadth-first heuristic search",
*Artificial Intelligence* 170(4-5), 2006, §4), here keeping every layer so that the plan can be
read back.

A limit (time, nodes, memory) ends the deepening with the bound proven so far as
``proof["lower_bound"]``. The ``bfida`` method (:mod:`.bfida`) runs it, then beam search when a
limit stops it; ``anytime`` (:mod:`.anytime`) runs its iterations one at a time beside beam
search, with :func:`_stride` and the results of this module.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.kind import Runner
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

from .board import EXHAUSTED, Board, Move, merged
from .packed import INFINITE, LEVELS, Layers, Packing, search

__all__ = ["MEMORY", "Deepened", "check_options", "runner", "solve"]

MEMORY = 2 << 30
"""Bytes of states a search may keep (2 GiB)."""
GROWTH = 4.0
"""Aimed ratio of the work of one iteration to the last one's (the bound is raised past the
proven one to get there: a bound above the optimum still finds an optimal plan first)."""
_MOST_STRIDE = 4
"""Most the bound is raised past the proven one."""
_TRUSTED = 10_000
"""Expansions of the last iteration below which its growth is not trusted (the bound is then
raised to the proven one only): the first iterations are too small to predict the next."""


def check_options(method: str, heuristic: str, metric: str) -> None:
    """Refuse a heuristic or metric that ``method``, a search over packed positions, lacks.

    Raises
    ------
    OptionError
        For a heuristic not in :data:`.packed.LEVELS` or a metric other than ``"moves"`` and
        ``"steps"``.
    """
    if heuristic not in LEVELS:
        raise OptionError(f"{method} takes the heuristics {', '.join(LEVELS)}, not {heuristic!r}")
    if metric not in ("moves", "steps"):
        raise OptionError(f"unknown metric {metric!r}; choose from moves, steps")


def runner(solve: Callable[..., Result[list[Move]]]) -> Runner:
    """The method that runs ``solve`` (``bfida``'s, ``anytime``'s) with the heuristic asked
    for under the options' metric (their ``cost``)."""

    def run(
        board: Board, /, *, heuristic: str | None, options: Any, limits: Limits | None
    ) -> Result[list[Move]]:
        assert heuristic is not None
        return solve(board, metric=options.cost, heuristic=heuristic, limits=limits)

    return run


@dataclass(frozen=True)
class Deepened:
    """How the deepening ended.

    Attributes
    ----------
    result : Result
        Its result: ``OPTIMAL``, ``UNSOLVABLE``, or ``LIMIT``/``CANCELLED`` with the lower
        bound proven so far.
    why : str or None
        Why a limit stopped it (the memory budget, or another limit); ``None`` when it ended.
    most : int
        The states its memory budget holds.
    """

    result: Result[list[Move]]
    why: str | None
    most: int


def solve(
    board: Board,
    *,
    metric: str = "moves",
    heuristic: str = "blockers",
    limits: Limits | None = None,
    memory: int = MEMORY,
    word_bits: int | None = None,
    stats: Stats | None = None,
) -> Deepened:
    """An optimal plan by BFIDA* (module text), or the lower bound proven within the limits.

    Parameters
    ----------
    board : Board
        The start position.
    metric : str
        ``"moves"`` (a slide of any distance costs 1) or ``"steps"`` (one cell costs 1).
    heuristic : str
        ``"blockers"``, ``"union"``, ``"blocking"`` or ``"zero"`` (plain breadth-first search).
    limits : Limits, optional
        Time and node limits (nodes count expansions over all iterations), cancellation.
    memory : int
        Bytes the kept states may take (:meth:`.packed.Packing.state_bytes` each).
    word_bits : int, optional
        Bits per key word (default 62; smaller values test keys of many words).
    stats : Stats, optional
        The counters to add to (a new one when not given); ``stats.extra`` gets
        ``iterations``, ``bound`` (the last one searched) and ``states`` (the most kept at
        once).

    Returns
    -------
    Deepened
        The result and, when a limit stopped it, why.

    Raises
    ------
    OptionError
        For an unknown heuristic or metric.
    """
    check_options("bfida", heuristic, metric)
    packing = Packing.of(board) if word_bits is None else Packing.of(board, word_bits=word_bits)
    stats = Stats() if stats is None else stats
    budget = (limits or Limits()).start(stats)
    start = packing.start()
    most = max(1, memory // packing.state_bytes())
    bound, proven, iterations, kept = 0, 0, 0, 0
    history: list[tuple[int, int, float]] = []
    while True:
        before, began = stats.expanded, time.perf_counter()
        layers = search(
            packing,
            start,
            budget=budget,
            level=LEVELS[heuristic],
            bound=bound,
            steps=metric == "steps",
            max_states=most,
        )
        iterations += 1
        kept = max(kept, layers.size)
        stats.extra.update(iterations=iterations, bound=bound, states=kept)
        if layers.goal >= 0:
            return Deepened(_optimal(layers, budget.finish()), None, most)
        if not layers.exhausted:
            assert layers.stopped is not None
            why = f"the memory budget ({memory / 2**30:g} GiB) ran out" if layers.full else ""
            why = why or "a limit stopped it"
            return Deepened(_stopped(layers.stopped, proven, stats, why, metric), why, most)
        if layers.least_pruned >= INFINITE:
            unsolvable: Result[list[Move]] = Result(
                Status.UNSOLVABLE, None, budget.finish(), message=EXHAUSTED
            )
            return Deepened(unsolvable, None, most)
        proven = layers.least_pruned
        history.append((bound, stats.expanded - before, time.perf_counter() - began))
        bound = proven + _stride(history, proven, budget.remaining())


def _stride(history: list[tuple[int, int, float]], proven: int, remaining: float | None) -> int:
    """How far past the ``proven`` bound to search next: enough for about :data:`GROWTH` times
    the work of the last iteration, judged by how the work grew per unit of bound over the last
    two iterations (none past a small one: :data:`_TRUSTED`); with ``remaining`` seconds, no
    farther than the time left is predicted to reach (an iteration a limit cuts short proves
    nothing, while one that ends raises the proven bound).

    ``history`` holds (bound, expansions, seconds) of every finished iteration.
    """
    if len(history) < 2 or history[-1][1] < _TRUSTED:
        return 0
    (b0, w0, _), (b1, w1, seconds) = history[-2], history[-1]
    rate = (max(w1, 1) / max(w0, 1)) ** (1 / (b1 - b0))
    if rate <= 1.01:
        stride = _MOST_STRIDE
    else:
        stride = min(_MOST_STRIDE, max(0, math.ceil(math.log(GROWTH) / math.log(rate)) - 1))
    while (
        remaining is not None
        and stride > 0
        and seconds * rate ** (proven + stride - b1) > remaining
    ):
        stride -= 1
    return stride


def _optimal(layers: Layers, stats: Stats) -> Result[list[Move]]:
    return _optimal_plan(layers.plan(layers.goal), stats)


def _optimal_plan(moves: list[Move], stats: Stats) -> Result[list[Move]]:
    stats.cost = stats.depth = len(moves)  # edges: moves, or one-cell steps
    result = Result(Status.OPTIMAL, merged(moves), stats)
    result.proof["lower_bound"] = len(moves)
    return result


def _stopped(
    status: Status, proven: int, stats: Stats, why: str, metric: str
) -> Result[list[Move]]:
    message = f"no plan within the limits: {why}; every plan has at least {proven} {metric}"
    result: Result[list[Move]] = Result(status, None, stats, message=message)
    result.proof["lower_bound"] = proven
    return result
