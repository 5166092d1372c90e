"""Chunk sizes for the compiled loops, so that limits are checked often enough.

The numba kernels (the pattern databases' breadth-first search, the compiled IDA*) run a given
number of steps per call and return; the caller asks its limit check between calls. A fixed
number of steps takes 10 ms on a quiet core but ten times more while other threads and
processes share the cores (a database build runs a thread per pattern), so :class:`Pace`
measures each call's wall time and shrinks (in proportion) or doubles the next call's steps to
keep it near :data:`TARGET` seconds: the limit is then checked within a fraction of a second
however busy the machine is.
"""

from __future__ import annotations

import time

__all__ = ["TARGET", "Pace"]

TARGET = 0.02
"""Wall-clock seconds aimed at per call of a kernel."""


class Pace:
    """The number of steps for the next call of a kernel, adapted to the calls' wall time.

    Parameters
    ----------
    first : int
        Steps of the first call (small: its time includes loading the compiled kernel).
    largest : int
        Most steps of one call.

    Examples
    --------
    >>> pace = Pace(first=1024)
    >>> pace.steps
    1024
    >>> pace.took(0.001)  # much faster than the target: twice the steps next time
    >>> pace.steps
    2048
    """

    __slots__ = ("_started", "largest", "steps")

    def __init__(self, first: int = 1 << 12, largest: int = 1 << 22) -> None:
        self.steps = first
        self.largest = largest
        self._started = time.perf_counter()

    def start(self) -> int:
        """Start timing a call; return its number of steps."""
        self._started = time.perf_counter()
        return self.steps

    def stop(self) -> None:
        """End the call started by :meth:`start` and adapt the next call's steps."""
        self.took(time.perf_counter() - self._started)

    def took(self, seconds: float) -> None:
        """Adapt the steps to a call of the current size that took ``seconds``."""
        if seconds > TARGET:
            self.steps = max(1, int(self.steps * TARGET / seconds))
        elif seconds < TARGET / 2:
            self.steps = min(self.largest, self.steps * 2)
