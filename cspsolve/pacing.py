"""Chunk sizes for compiled loops, so that the limits are asked often enough.

A compiled kernel (numba) runs a given number of steps without looking at the clock; the Python
loop around it asks the :class:`~cspsolve.limits.Budget` between two calls. A fixed number of
steps is too long on a large instance or a busy machine (where it may take ten times longer)
and needlessly short on a small one, so :class:`Pace` sizes each chunk from the speed measured
on the last one, aiming at :data:`TARGET` seconds of wall time, and never past the node limit:
the limits are then checked within a fraction of a second however large the instance and
however busy the machine.
"""

from __future__ import annotations

import time

from cspsolve.limits import Budget

__all__ = ["TARGET", "Pace"]

TARGET = 0.02
"""Wall-clock seconds a chunk is aimed to take."""


class Pace:
    """The size of each chunk of a compiled loop, adapted to the chunks' wall time.

    Call :meth:`chunk` just before the kernel and :meth:`measured` just after it.

    Parameters
    ----------
    budget : Budget, optional
        The run's account: when given (and ``counted``), its node limit caps every chunk.
    counted : bool
        Whether the loop's steps are expansions that count against the node limit (``False``
        for other work done in chunks, such as scoring states or building a database).
    first : int
        Steps of the first chunk (small: its time may include loading the compiled kernel).
    largest : int
        Most steps of one chunk.

    Examples
    --------
    >>> pace = Pace(first=1024)
    >>> steps = pace.chunk()
    >>> steps
    1024
    >>> pace.measured(steps)  # far faster than TARGET: at most twice the steps next time
    >>> pace.chunk()
    2048
    """

    __slots__ = ("_began", "_size", "budget", "counted", "largest")

    def __init__(
        self,
        budget: Budget | None = None,
        *,
        counted: bool = True,
        first: int = 256,
        largest: int = 1 << 20,
    ) -> None:
        self.budget = budget
        self.counted = counted
        self.largest = largest
        self._size = first
        self._began = time.perf_counter()

    def chunk(self) -> int:
        """Steps the next call may do (and start timing it): about :data:`TARGET` seconds of
        work at the last measured speed; for counted steps, at most what the node limit leaves
        (and at least one)."""
        self._began = time.perf_counter()
        if self.budget is None or not self.counted:
            return self._size
        cap = self.budget.limits.max_nodes
        if cap is None:
            return self._size
        return max(1, min(self._size, cap - self.budget.stats.expanded))

    def measured(self, steps: int) -> None:
        """Record that the call since :meth:`chunk` did ``steps`` steps; the next chunk is
        sized from its speed, growing at most twofold."""
        seconds = time.perf_counter() - self._began
        if steps > 0:
            wanted = steps * TARGET / max(seconds, 1e-6)
            self._size = int(min(max(wanted, 1), 2 * self._size, self.largest))
