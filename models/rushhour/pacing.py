"""Whether a search's next doubling of its arrays fits in the time left.

The compiled loops (:mod:`._kernels`) run in chunks sized by :class:`cspsolve.pacing.Pace`
(16,384 expansions of a 12x12 board of 44 pieces take about 0.7 s, far more than a chunk).
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

__all__ = ["SECONDS_A_STATE", "Growth"]

SECONDS_A_STATE = 3e-7
"""Least time :class:`Growth` expects a doubling to take per state of room: allocating and
filling fresh memory slows down more than twofold from one doubling to the next once the
arrays take hundreds of megabytes (0.03 s, then 0.44 s to room for two million states of a 9x9
board of 24 pieces on a loaded machine)."""


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
