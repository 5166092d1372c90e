"""Chunk sizes for the compiled loops, so that they ask the budget often enough.

A compiled kernel (:mod:`._kernels`) runs a number of expansions without looking at the clock;
the Python loop around it asks the :class:`~cspsolve.limits.Budget` between two calls. A fixed
chunk is too long on a large board (16,384 expansions of a 12x12 board of 44 pieces take about
0.7 s) and needlessly short on a small one, so :class:`Pace` sizes each chunk from the speed
measured on the last one, aiming at :data:`TARGET` seconds, and never past the node limit.

Between chunks a search may also double its arrays and rebuild its hash table, work that
cannot be split and that grows with the states kept (about a second at millions of states).
:class:`Growth` times each doubling and tells when the next one, predicted to take twice as
long (or :data:`SECONDS_A_STATE` a state), would not end within the time left: the search
then stops at once, as the limit would stop it in the middle of that work.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from cspsolve.limits import Budget

__all__ = ["SECONDS_A_STATE", "TARGET", "Growth", "Pace"]

TARGET = 0.02
"""Seconds a chunk is aimed to take."""
_FIRST = 256
"""Expansions of the first chunk (its time includes loading the compiled kernels)."""
_MOST = 1 << 20
"""Most expansions of one chunk."""
SECONDS_A_STATE = 3e-7
"""Least time :class:`Growth` expects a doubling to take per state of room: allocating and
filling fresh memory slows down more than twofold from one doubling to the next once the
arrays take hundreds of megabytes (0.03 s, then 0.44 s to room for two million states of a 9x9
board of 24 pieces on a loaded machine)."""


class Pace:
    """The size of each chunk of a compiled loop that counts into ``budget.stats.expanded``.

    Call :meth:`chunk` just before the kernel and :meth:`measured` just after it.

    Parameters
    ----------
    budget : Budget
        The run's account: its node limit caps every chunk.
    counted : bool
        Whether the loop's items are expansions that count against the node limit (``False``
        for other work done in chunks, such as scoring states).
    """

    __slots__ = ("_began", "_size", "budget", "counted")

    def __init__(self, budget: Budget, *, counted: bool = True) -> None:
        self.budget = budget
        self.counted = counted
        self._size = _FIRST
        self._began = time.perf_counter()

    def chunk(self) -> int:
        """Items the next call may do: about :data:`TARGET` seconds of work at the last
        measured speed, for expansions at most what the node limit leaves (and at least one)."""
        self._began = time.perf_counter()
        cap = self.budget.limits.max_nodes
        if cap is None or not self.counted:
            return self._size
        return max(1, min(self._size, cap - self.budget.stats.expanded))

    def measured(self, expansions: int) -> None:
        """Record that the call since :meth:`chunk` did ``expansions`` expansions; the next
        chunk is sized from its speed (growing at most twofold)."""
        seconds = time.perf_counter() - self._began
        if expansions > 0:
            wanted = expansions * TARGET / max(seconds, 1e-6)
            self._size = int(min(max(wanted, 1), 2 * self._size, _MOST))


class Growth:
    """The time a search's doublings take, to tell whether the next one fits in the time left.

    Parameters
    ----------
    budget : Budget
        The run's account (its time limit).
    """

    __slots__ = ("_last", "budget")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._last = 0.0

    def affordable(self, states: int) -> bool:
        """Whether a doubling to room for ``states`` fits in the time left: twice the last
        doubling's time, and at least :data:`SECONDS_A_STATE` a state (always, with no time
        limit)."""
        remaining = self.budget.remaining()
        return remaining is None or remaining > max(2 * self._last, states * SECONDS_A_STATE)

    @contextmanager
    def timed(self) -> Iterator[None]:
        """Time the doubling done inside the ``with`` block."""
        began = time.perf_counter()
        yield
        self._last = time.perf_counter() - began
