"""Probing on the compiled bit grid: the second step of the fast solver's ``probing``
method, between its propagation (:mod:`.propagation`) and its search (:mod:`.portfolio`).

:func:`probe`
    Probing (failed-literal detection on cells) to a fixpoint: each undecided cell is set to
    filled, then to empty, and each trial propagated on a copy of the grid. Both failing kill
    the node; one failing fixes the cell the other way; otherwise the cells both decide alike
    are kept. A cell is probed again only when a line its last trials read has changed. The
    "fully probing" of Wu, Sun, Chen, Chen, Lee & Yen 2013, "An efficient approach to solving
    nonograms", *IEEE TCIAIG* 5(3), §III-B, and the probing of Jan Wolter's pbnsolve
    (https://webpbn.com/pbnsolve.html).

    It also picks the cell to branch on: the one maximising ``(fixed_empty + 1) *
    (fixed_filled + 1) * (1 + weight(row) + weight(column))`` times the confidence of its
    likelier value. A line's weight counts the failed propagations on it (dom/wdeg:
    Boussemart, Hemery, Lecoutre & Sais 2004, *ECAI*; VSIDS: Moskewicz et al. 2001, *DAC*). The
    confidence comes from the cell's beliefs after rounds of belief propagation between the
    lines (:func:`_beliefs`, :mod:`..lines.count`; Pesant 2019, *JAIR* 66, after maxSD:
    Pesant, Quimper & Zanarini 2012, *JAIR* 43).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels import copy, kernel
from ..lines.bits import MAX_CELLS
from ..lines.count import fill_density
from .propagation import (
    _CLOCK,
    _DECIDED,
    _PROBES,
    _assign,
    _bit,
    _decide,
    _decided,
    _known,
    _propagate,
    enqueue,
    propagate,
)

__all__ = ["Probes", "probe", "stamp"]

_DEAD, _SOLVED = -1, -2
"""What :func:`probe` returns besides a cell to branch on."""

_CONFIDENCE = 1.0
"""The branching score is multiplied by the confidence of the likelier value to this power."""
_BP_ROUNDS = 2
"""Rounds of belief propagation between the lines at every node (see :func:`_beliefs`)."""
_LEAST = 1e-3
"""Messages are clipped to ``[_LEAST, 1 - _LEAST]`` before they weigh the crossing lines."""


@dataclass
class Probes:
    """What a node knows of its cells' last trials (see :func:`probe`); copied to each child.

    Attributes
    ----------
    probed_at : numpy.ndarray of int64, shape (H * W,)
        The clock when each cell was last probed (-1: never).
    read : numpy.ndarray of uint64, shape (H * W,)
        The lines the cell's two trials solved, as a mask of ``line mod 64``.
    score : numpy.ndarray of int64, shape (H * W,)
        The branching score of the cell's last trials.
    changed_at : numpy.ndarray of int64, shape (64,)
        The clock when a line of each class ``line mod 64`` last changed.
    """

    probed_at: Any
    read: Any
    score: Any
    changed_at: Any

    @classmethod
    def fresh(cls, cells: int) -> Probes:
        """No cell probed yet."""
        return cls(
            np.full(cells, -1, np.int64),
            np.zeros(cells, np.uint64),
            np.zeros(cells, np.int64),
            np.zeros(64, np.int64),
        )

    def copy(self) -> Probes:
        """An independent copy."""
        return Probes(*(a.copy() for a in (self.probed_at, self.read, self.score, self.changed_at)))


@kernel(inline=True)
def _trial(
    grid: Any, trial: Any, cell: int, plane: int, size: Any, clues: Any, work: Any,
    counters: Any, read: Any,
) -> int:  # fmt: skip
    """Copy ``grid`` into ``trial``, decide ``cell`` there and propagate: how many cells the
    trial decides (the cell included; counted as propagation decides them, each once), -1 if
    it fails."""
    height, width = size
    copy(trial, grid)
    counters[_PROBES] += 1
    _assign(trial, cell, plane, width, work)
    before = counters[_DECIDED]
    if not _propagate(trial, height, width, clues, work, counters, read):
        return -1
    return int(1 + counters[_DECIDED] - before)


@kernel(inline=True)
def both_trials(
    grid: Any, trials: Any, cell: int, size: Any, clues: Any, work: Any, counters: Any,
    read: Any,
) -> tuple[int, int]:  # fmt: skip
    """The trials of ``cell`` empty (into ``trials[0]``) and filled (into ``trials[1]``), what
    :func:`_trial` returns for each: through one call site, so that numba inlines the trial's
    propagation once, not twice (it is most of the kernels' compile time)."""
    fixed_empty = fixed_filled = 0
    for plane in range(2):
        fixed = _trial(grid, trials[plane], cell, plane, size, clues, work, counters, read)
        if plane == 0:
            fixed_empty = fixed
        else:
            fixed_filled = fixed
    return fixed_empty, fixed_filled


@kernel(inline=True)
def _changed_since(clock: int, changed_at: Any) -> Any:
    """The classes (``line mod 64``) of the lines changed after ``clock``, as a mask."""
    classes = np.uint64(0)
    for c in range(64):
        if changed_at[c] > clock:
            classes |= _bit(c)
    return classes


@kernel(inline=True)
def stamp(before: Any, after: Any, changed_at: Any, counters: Any) -> None:
    """Advance the clock and stamp the class of every line that differs between two grids."""
    counters[_CLOCK] += 1
    for line in range(before.shape[1]):
        for w in range(before.shape[2]):
            if before[0, line, w] != after[0, line, w] or before[1, line, w] != after[1, line, w]:
                changed_at[line & 63] = counters[_CLOCK]
                break


@kernel(inline=True)
def _agreed(grid: Any, empty: Any, filled: Any, height: int) -> bool:
    """Whether both trials decide some cell alike that ``grid`` leaves open."""
    for row in range(height):
        for w in range(grid.shape[2]):
            for plane in range(2):
                if empty[plane, row, w] & filled[plane, row, w] & ~grid[plane, row, w]:
                    return True
    return False


@kernel(inline=True)
def _agree(grid: Any, empty: Any, filled: Any, height: int, work: Any) -> None:
    """Decide in ``grid`` every cell both trials decide alike, queueing their lines."""
    queue, queued, ends = work.queue, work.queued, work.ends
    for row in range(height):
        for w in range(grid.shape[2]):
            for plane in range(2):
                new = empty[plane, row, w] & filled[plane, row, w] & ~grid[plane, row, w]
                if new:
                    enqueue(row, queue, queued, ends)
                    _decide(grid, row, w, plane, new, height, queue, queued, ends)


@kernel()
def _beliefs(grid: Any, height: int, width: int, clues: Any, work: Any) -> None:
    """Rounds of belief propagation between the lines (sum-product; Pesant 2019, see
    :mod:`.lines.count`): their messages to their cells (``work.messages``, line by cell) brought
    closer to the grid's.

    A line's message to a cell is its weighted share of patterns filling the cell
    (:func:`.lines.count.fill_density`), each of its other cells weighted by the odds the
    crossing line's message gives it (clipped to ``[_LEAST, 1 - _LEAST]``). Each of
    :data:`_BP_ROUNDS` rounds recomputes every row with undecided cells from the columns'
    messages, then every column from the rows' new ones. The rounds start from the messages
    the last node left (0.5 at first): in depth-first search mostly the parent's, so the
    rounds add up along a branch. A cell's belief is then the product of its row's and its
    column's messages (:func:`_likelihoods`). Lines over :data:`.lines.bits.MAX_CELLS` cells
    send 0.5.
    """
    blocks, starts, counts = clues
    messages, odds = work.messages, work.odds
    buffers = (work.tables, work.bounds, work.prefix)
    for _ in range(_BP_ROUNDS):
        for line in range(height + width):
            n = width if line < height else height
            if n > MAX_CELLS:
                continue
            full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
            empty, filled = grid[0, line, 0], grid[1, line, 0]
            if empty | filled == full:
                continue
            for x in range(n):
                cross, at = (height + x, line) if line < height else (x, line - height)
                p = min(max(messages[cross, at], _LEAST), 1.0 - _LEAST)
                odds[x] = p / (1.0 - p)
            can_empty, can_fill = full & ~filled, full & ~empty
            clue = (blocks, starts[line], counts[line])
            fill_density(can_empty, can_fill, n, *clue, odds, *buffers, messages[line])


@kernel(inline=True)
def _likelihoods(cell: int, height: int, width: int, messages: Any) -> tuple[float, float]:
    """How likely ``cell`` is empty and filled: its belief, the product of its row's and its
    column's messages (:func:`_beliefs`; both 1/2 when they contradict each other, which a
    propagated grid rules out)."""
    row, col = cell // width, cell % width
    in_row, in_col = messages[row, col], messages[height + col, row]
    empty, filled = (1.0 - in_row) * (1.0 - in_col), in_row * in_col
    if empty + filled == 0.0:
        return 0.5, 0.5
    return empty, filled


@kernel()
def probe(
    grid: Any,
    size: Any,
    clues: Any,
    work: Any,
    counters: Any,
    trials: Any,
    probed_at: Any,
    read: Any,
    score: Any,
    changed_at: Any,
    *,
    noise: float,
) -> int:
    """Probe the undecided cells of a propagated grid until a sweep changes nothing.

    Parameters
    ----------
    grid : numpy.ndarray of uint64, shape (2, H + W, words)
        A grid at the fixpoint of :func:`propagate`; narrowed in place by what probing proves.
    size : tuple of int
        ``(H, W)``.
    clues, work, trials, counters
        As in :class:`Network`; ``counters`` also counts trials.
    probed_at, read, score, changed_at : numpy.ndarray
        The node's :class:`Probes`, brought up to date.
    noise : float
        Scores are multiplied by a random factor in ``[1, 1 + noise)`` to pick the branching
        cell (numpy's generator, see :func:`_seed`); 0 for the plain best score.

    Every line on which a propagation fails gains one conflict weight (``work.conflicts``; the
    search decays them, see :data:`.portfolio._DECAY`); the branching cell maximises its
    trials' score times ``1 + weight(row) + weight(column)`` times the confidence of its
    likelier value (:func:`_likelihoods`, from the lines' messages left in ``work.messages``
    for :func:`.portfolio.children`).

    Returns
    -------
    int
        The cell to branch on (row-major index, the best score), ``-1`` when the node has no
        solution, ``-2`` when every cell is decided (the grid is a solution).
    """
    height, width = size
    empty, filled, before = trials[0], trials[1], trials[2]
    lines = work.read
    changed = True
    while changed:
        changed = False
        since, fresh = np.int64(-1), np.uint64(0)  # the classes changed after `since`
        for row in range(height):
            for col in range(width):
                if _decided(grid, row, col):
                    continue
                cell = row * width + col
                if probed_at[cell] >= 0:  # probed before: again only if a line it read changed
                    if probed_at[cell] != since:
                        since, fresh = probed_at[cell], _changed_since(probed_at[cell], changed_at)
                    if not read[cell] & fresh:
                        continue
                lines[0] = 0
                fixed_empty, fixed_filled = both_trials(
                    grid, trials, cell, size, clues, work, counters, lines
                )
                can_empty, can_fill = fixed_empty >= 0, fixed_filled >= 0
                probed_at[cell] = counters[_CLOCK]
                read[cell] = lines[0]
                if not can_empty and not can_fill:
                    return _DEAD
                if not can_empty or not can_fill:
                    survivor = filled if can_fill else empty
                    stamp(grid, survivor, changed_at, counters)
                    copy(grid, survivor)
                elif not _agreed(grid, empty, filled, height):
                    score[cell] = (fixed_empty + 1) * (fixed_filled + 1)
                    continue
                else:
                    copy(before, grid)
                    _agree(grid, empty, filled, height, work)
                    if not propagate(grid, height, width, clues, work, counters, lines):
                        return _DEAD
                    stamp(before, grid, changed_at, counters)
                changed = True
                since = np.int64(-1)  # the stamps moved on
    _beliefs(grid, height, width, clues, work)
    best, best_score = _SOLVED, -1.0
    conflicts = work.conflicts
    for cell in range(height * width):
        if not _known(grid, cell, width):
            weight = 1 + conflicts[cell // width] + conflicts[height + cell % width]
            empty, filled = _likelihoods(cell, height, width, work.messages)
            confidence = max(empty, filled) / (empty + filled)
            value = score[cell] * weight * confidence**_CONFIDENCE
            if noise:
                value *= 1.0 + noise * np.random.random()
            if value > best_score:
                best, best_score = cell, value
    return best
