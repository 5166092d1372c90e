"""The exact nonogram line solver: which cells of one line every fill pattern agrees on.

A *partial line* of ``n`` cells is two bit masks: ``can_fill`` (bit ``p`` set when cell ``p``
may be filled) and ``can_empty`` (bit ``p`` set when it may be empty); bit 0 is the first cell
(leftmost or top). A cell with both bits is undecided; with neither, the line is contradictory.

:func:`solve_line` returns the tightest partial line that keeps every fill pattern of the clue
compatible with the input: a cell may stay filled (empty) only if some compatible pattern fills
(empties) it. This is GAC on the line's pattern variable (the fixpoint the propagator of the
*regular* constraint, Pesant 2004, reaches on one line) and the complete "line solver" of nonogram
literature (Batenburg & Kosters 2009, "Solving nonograms by combining relaxations", *Pattern
Recognition* 42(8), §3; Wu et al. 2013, "An efficient approach to solving nonograms", *IEEE
TCIAIG* 5(3), the "fix" dynamic programme).

The dynamic programme is run bit-parallel over whole lines held in Python integers. Pad the line
with an empty cell at each end (indices ``0`` and ``n + 1``). For ``t = 0..k`` let ``F[t]`` be
the set of positions ``q`` such that cells ``0..q`` can hold exactly the first ``t`` blocks with
cell ``q`` empty. ``F[t]`` is the closure, rightwards through cells that may be empty, of the
positions just after a placement of block ``t``; the closure of seeds ``S`` inside a mask ``E``
is one addition, ``E & (~(E + S) | S)``: the carry of ``E + S`` runs from the lowest seed of
each run of ``E`` to its end. The backward sets ``G[t]`` (cells ``q..n+1`` hold blocks
``t..k-1``) come from the same pass on the reversed line. A cell may be empty where some
``F[t] & G[t]`` holds it; it may be filled where a placement of block ``t`` with ``F[t]`` before
it and ``G[t+1]`` after it covers it. Cost: ``O(k log n)`` big-integer operations per line.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..board import Clue

__all__ = ["count_completions", "solve_line"]


def _runs_fillable(can_fill: int, length: int) -> int:
    """Bits ``s`` such that the ``length`` cells ``s .. s + length - 1`` may all be filled."""
    mask, span = can_fill, 1
    while span < length:
        step = span if span << 1 <= length else length - span
        mask &= mask >> step
        span += step
    return mask


def _smear(starts: int, length: int) -> int:
    """Bits covered by blocks of ``length`` cells starting at the bits of ``starts``."""
    cover, span = starts, 1
    while span < length:
        step = span if span << 1 <= length else length - span
        cover |= cover << step
        span += step
    return cover


def _forward(clue: Sequence[int], runs: dict[int, int], can_empty: int) -> list[int]:
    """The sets ``F[0..k]`` on a padded line (see the module docstring).

    ``runs[b]`` is ``_runs_fillable(can_fill, b)`` for every block length ``b`` of the clue.
    """
    empty = can_empty
    reach = [empty & (~(empty + 1) | 1)]
    for b in clue:
        seeds = empty & (reach[-1] << (b + 1)) & (runs[b] << b)
        reach.append(empty & (~(empty + seeds) | seeds))
    return reach


_BYTE_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _reverse(x: int, width: int) -> int:
    """The ``width`` low bits of ``x`` in reverse order (byte-wise table look-up)."""
    size = (width + 7) >> 3
    flipped = x.to_bytes(size, "little").translate(_BYTE_REVERSED)
    return int.from_bytes(flipped, "big") >> ((size << 3) - width)


@functools.lru_cache(maxsize=1 << 18)
def solve_line(clue: Clue, n: int, can_fill: int, can_empty: int) -> tuple[int, int] | None:
    """Fix every cell of a line that all compatible fill patterns agree on.

    Parameters
    ----------
    clue : tuple of int
        Run lengths, each >= 1 (``()`` for an empty line).
    n : int
        Number of cells.
    can_fill, can_empty : int
        Bit masks of the cells that may be filled / may be empty (bit 0 = first cell).

    Returns
    -------
    tuple of (int, int) or None
        The narrowed ``(can_fill, can_empty)``, or ``None`` when no fill pattern of ``clue``
        is compatible with the partial line. Results are cached.
    """
    width = n + 2
    fill = can_fill << 1
    empty = (can_empty << 1) | 1 | (1 << (n + 1))
    lengths = set(clue)
    runs = {b: _runs_fillable(fill, b) for b in lengths}
    fwd = _forward(clue, runs, empty)
    if not fwd[-1] >> (n + 1) & 1:
        return None
    fill_rev = _reverse(fill, width)
    bwd = _forward(
        clue[::-1], {b: _runs_fillable(fill_rev, b) for b in lengths}, _reverse(empty, width)
    )
    # G[t] = positions q with blocks t..k-1 placeable in q..n+1, cell q empty.
    k = len(clue)
    back = [_reverse(bwd[k - t], width) for t in range(k + 1)]
    new_empty = 0
    for t in range(k + 1):
        new_empty |= fwd[t] & back[t]
    new_fill = 0
    for t, b in enumerate(clue):
        starts = (fwd[t] << 1) & runs[b] & (back[t + 1] >> b)
        new_fill |= _smear(starts, b)
    inner = (1 << n) - 1
    return new_fill >> 1 & inner, new_empty >> 1 & inner


@functools.lru_cache(maxsize=1 << 16)
def count_completions(clue: Clue, n: int, can_fill: int, can_empty: int) -> int:
    """Number of fill patterns of ``clue`` compatible with a partial line.

    Counts the paths of the same dynamic programme as :func:`solve_line`, one cell at a time
    (``O(n k)`` steps). Parameters as in :func:`solve_line`; results are cached.
    """
    # ways[t] = number of ways cells 0..q (padded) hold the first t blocks, cell q empty.
    fill = can_fill << 1
    empty = (can_empty << 1) | 1 | (1 << (n + 1))
    k = len(clue)
    runs = {b: _runs_fillable(fill, b) for b in set(clue)}
    history = [[0] * (k + 1)]
    history[0][0] = 1
    for q in range(1, n + 2):
        row = [0] * (k + 1)
        if empty >> q & 1:
            prev = history[q - 1]
            for t in range(k + 1):
                ways = prev[t]
                if t:
                    b = clue[t - 1]
                    start = q - b
                    if start >= 1 and runs[b] >> start & 1:
                        ways += history[start - 1][t - 1]
                row[t] = ways
        history.append(row)
    return history[n + 1][k]
