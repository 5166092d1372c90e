"""What the black-and-white and the colour replays share: the kernels' verdicts, the slicing of
a probe's chain, the board they both offer the replay, and the words for cells and lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from .._kernels import kernel
from ..board import Grid

__all__ = [
    "CONFLICT",
    "FIXPOINT",
    "HALTED",
    "NONE",
    "STOPPED",
    "Board",
    "place",
    "slice_chain",
]

STOPPED, CONFLICT, FIXPOINT = -1, 0, 1
"""What a line-logic kernel returns: the stop flag was raised, a line has no placement, or the
worklist is empty."""
NONE, HALTED = -1, -2
"""What a sweep of probes returns besides a failed assumption: none failed, or the stop flag
was raised."""


def place(row: int, col: int) -> str:
    """A cell for people, 1-based: ``(3, 7)``."""
    return f"({row + 1}, {col + 1})"


@kernel()
def slice_chain(log: Any, m: int, height: int, needed: Any, keep: Any) -> None:
    """Mark in ``keep`` the entries of a failed trial's log (``m`` rows ``(line, position,
    value)``, the last its conflict) that the conflict rests on.

    Going backwards, a line visit (a run of entries of one line) is kept when a cell it changed
    lies in a line that a kept visit later read: the cell's crossing line, or its own line
    visited again. Each kept visit then reads only what the assumption and the kept visits
    before it decided. ``needed`` (uint8, (H + W,)) is scratch.
    """
    needed[:] = 0
    needed[log[m - 1, 0]] = 1
    keep[m - 1] = 1
    i = m - 2
    while i >= 0:
        line = log[i, 0]
        first = i
        while first > 0 and log[first - 1, 0] == line:
            first -= 1
        used = needed[line] == 1
        for j in range(first, i + 1):
            position = log[j, 1]
            used = used or needed[height + position if line < height else position] == 1
        for j in range(first, i + 1):
            keep[j] = used
        if used:
            needed[line] = 1
            for j in range(first, i + 1):
                position = log[j, 1]
                needed[height + position if line < height else position] = 1
        i = first - 1


class Board(Protocol):
    """A grid the replay deduces on, with its kernels (black-and-white or colour).

    Values are ints: 0 empty and 1 filled in black and white, a colour's index in colour.
    """

    codes: Any
    """The grid: a cell's possible values as a bit mask, shape (H, W)."""
    size: tuple[int, int]
    """``(height, width)``."""
    key: str
    """The data key of the cells a step decides: ``"fixed"`` or ``"narrowed"``."""
    names: list[dict[str, Any]]
    """Each line's naming data: ``axis``, ``index``, ``clue``."""
    titles: list[str]
    """Each line for people: ``row 3 (clue 3 1)``."""

    def propagate(self, lines: Iterable[int]) -> tuple[int, Any]:
        """Line logic on ``codes`` from ``lines``: the verdict and the log of what it changed,
        rows ``(line, position, value)``, ``(line, -1, 0)`` for a conflict."""
        ...

    def sweep(self, start: int) -> tuple[int, int]:
        """Probe from cell ``start``: ``(cell, value)`` of a failed assumption, else
        ``(NONE, 0)`` (every cell scored, see :meth:`branching`) or ``(HALTED, 0)``."""
        ...

    def branching(self) -> tuple[int, int]:
        """After a sweep that found nothing: the cell whose trial with its value in the solution
        aimed at decides the most, and the value whose trial decides the most there, the one a
        search tries first."""
        ...

    def candidates(self, count: int) -> list[int]:
        """After a sweep that found nothing: up to ``count`` cells of the best scores, best
        first."""
        ...

    def values(self, cell: int) -> tuple[int, ...]:
        """The values ``cell`` may still take."""
        ...

    def deep(self, cell: int, value: int) -> int:
        """After a sweep that found nothing: whether assuming ``value`` at ``cell`` fails under
        line logic and probes of depth 1 to their fixpoint (1, else 0), or ``HALTED``."""
        ...

    def trial(self, cell: int, value: int) -> tuple[int, Any]:
        """Line logic on a copy with ``cell`` given ``value``: verdict and log."""
        ...

    def visits(self, entries: Any) -> list[tuple[int, list[list[Any]]]]:
        """Logged entries grouped by line visit: the line and its cells' data."""
        ...

    def apply(self, cells: list[list[Any]]) -> None:
        """Set on ``codes`` what a visit decided."""
        ...

    def fixes(self, data: dict[str, Any]) -> str:
        """What a line visit decided, for people."""
        ...

    def exclude(self, cell: int, value: int) -> tuple[list[list[Any]], str]:
        """Rule ``value`` out of ``cell``: the step's cells data and the words for it."""
        ...

    def assign(self, cell: int, value: int) -> None:
        """Give ``cell`` the single value ``value``."""
        ...

    def value(self, solution: Grid, cell: int) -> int:
        """The value of ``cell`` in ``solution``."""
        ...

    def word(self, value: int) -> str:
        """A value for people."""
        ...

    def aim(self, solution: Grid | None) -> None:
        """Guesses are made where the value in ``solution`` decides the most (none: no guess)."""
        ...

    def spent(self) -> int:
        """The trials run so far (a measure of the work done)."""
        ...

    def open(self) -> bool:
        """Whether some cell is undecided."""
        ...

    def encode(self, grid: Grid) -> Any:
        """The codes of a full grid."""
        ...

    def rows(self, codes: bytes) -> Grid:
        """A state's grid: a value's character per cell, ``?`` undecided."""
        ...

    def ring(self) -> None:
        """Raise every kernel's stop flag (the budget's alarm)."""
        ...
