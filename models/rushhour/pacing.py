"""Chunk sizes for the compiled loops, so that they ask the budget often enough.

A compiled kernel (:mod:`._kernels`) runs a number of expansions without looking at the clock;
the Python loop around it asks the :class:`~cspsolve.limits.Budget` between two calls. A fixed
chunk is too long on a large board (16,384 expansions of a 12x12 board of 44 pieces take about
0.7 s) and needlessly short on a small one, so :class:`Pace` sizes each chunk from the speed
measured on the last one, aiming at :data:`TARGET` seconds, and never past the node limit.
"""

from __future__ import annotations

import time

from cspsolve.limits import Budget

__all__ = ["TARGET", "Pace"]

TARGET = 0.02
"""Seconds a chunk is aimed to take."""
_FIRST = 256
"""Expansions of the first chunk (its time includes loading the compiled kernels)."""
_MOST = 1 << 20
"""Most expansions of one chunk."""


class Pace:
    """The size of each chunk of a compiled loop that counts into ``budget.stats.expanded``.

    Call :meth:`chunk` just before the kernel and :meth:`measured` just after it.

    Parameters
    ----------
    budget : Budget
        The run's account: its node limit caps every chunk.
    """

    __slots__ = ("_began", "_size", "budget")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._size = _FIRST
        self._began = time.perf_counter()

    def chunk(self) -> int:
        """Expansions the next call may do: about :data:`TARGET` seconds of work at the last
        measured speed, at most what the node limit leaves (and at least one)."""
        self._began = time.perf_counter()
        cap = self.budget.limits.max_nodes
        if cap is None:
            return self._size
        return max(1, min(self._size, cap - self.budget.stats.expanded))

    def measured(self, expansions: int) -> None:
        """Record that the call since :meth:`chunk` did ``expansions`` expansions; the next
        chunk is sized from its speed (growing at most twofold)."""
        seconds = time.perf_counter() - self._began
        if expansions > 0:
            wanted = expansions * TARGET / max(seconds, 1e-6)
            self._size = int(min(max(wanted, 1), 2 * self._size, _MOST))
