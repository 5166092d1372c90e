"""Stopping long Lights Out work at a limit: the solvers call a *tick* between steps.

A tick is a plain callable, so that :mod:`.gf2` and :mod:`.cpsat` need not know
:class:`~cspsolve.limits.Budget`; :func:`ticker` makes one from a budget.
"""

from __future__ import annotations

from collections.abc import Callable

from cspsolve.limits import Budget
from cspsolve.results import Status

__all__ = ["LimitError", "Tick", "never", "ticker"]

Tick = Callable[[], None]
"""Called between steps of long work; raises :class:`LimitError` when a limit is reached."""


class LimitError(Exception):
    """A limit or a cancellation stopped the work (``status`` says which)."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.value)
        self.status = status


def ticker(budget: Budget, nodes: bool = True) -> Tick:
    """A :data:`Tick` that raises :class:`LimitError` when ``budget`` is exhausted.

    With ``nodes=False`` only the time limit and cancellation stop the work (for work that
    expands no node).
    """

    def tick() -> None:
        status = budget.exhausted()
        if status is None or (not nodes and status is Status.LIMIT and budget.remaining() != 0):
            return
        raise LimitError(status)

    return tick


def never() -> None:
    """A :data:`Tick` that never stops the work."""
