"""Solution densities of a line: the share of its fill patterns that fill each cell.

A line's *fill patterns* are the placements of its clue's blocks that agree with the cells
already decided. :func:`fill_density` counts them with the placement recurrence of
:mod:`.linedp`, in numbers instead of truth values: ``F[j, i]``, the patterns of cells
``0 .. i-1`` holding exactly the first ``j`` blocks, and ``B[m, i]``, those of the last ``i``
cells holding exactly the last ``m`` blocks; a cell ``x`` is empty in
``sum_j F[j, x] * B[k - j, n - 1 - x]`` patterns (``j`` blocks before it, the rest after). The
share of patterns that fill a cell is its *solution density* in that line, the quantity of
counting-based search (Pesant, Quimper & Zanarini 2012, "Counting-based search: branching
heuristics for constraint satisfaction problems", *JAIR* 43, §3, where it is computed for the
``regular`` constraint in the same forward-backward way).

Row ``j`` of ``F`` is computed only where the first ``j`` blocks fit before and the others
after, ``slack + 1`` positions for a line of ``slack`` free cells: 37 % of the table over the
lines of the ``taai2011`` and ``tcga2022`` puzzles. Lines are bit sets of up to
:data:`.linebits.MAX_CELLS` cells (a block fits where its cells may all be filled, one masked
compare); counts are float64, exact below ``2**53`` patterns.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._kernel import kernel
from .linebits import reverse_bits

__all__ = ["fill_density"]

_ONE = np.uint64(1)


@kernel(inline=True)
def _has(word: Any, i: int) -> bool:
    return bool((word >> np.uint64(i)) & _ONE)


@kernel()
def _count(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, first: int, k: int, backward: bool,
    table: Any, bounds: Any,
) -> None:  # fmt: skip
    """Row ``j`` of ``table``: the patterns of the first ``i`` cells holding exactly the first
    ``j`` blocks (counted from the line's end when ``backward``, on the reversed line), for
    ``i`` from ``bounds[j, 0]`` to ``bounds[j, 1]``, the positions where the other blocks
    still fit after them."""
    total = 0
    for j in range(k):
        total += blocks[first + j]
    done = 0  # cells of the first j blocks
    for j in range(k + 1):
        length = blocks[first + (k - j if backward else j - 1)] if j else 0
        done += length
        low = done + j - 1 if j else 0
        high = n - (total - done) - (k - j - 1 if j < k else 0)
        bounds[j, 0], bounds[j, 1] = low, high
        if j == 0:
            table[0, 0] = 1.0
            for i in range(1, high + 1):
                table[0, i] = table[0, i - 1] if _has(can_empty, i - 1) else 0.0
            continue
        mask = (_ONE << np.uint64(length)) - _ONE
        before = 0.0
        for i in range(low, high + 1):
            count = before if _has(can_empty, i - 1) else 0.0
            start = i - length
            if (can_fill >> np.uint64(start)) & mask == mask:
                if start == 0:
                    count += 1.0 if j == 1 else 0.0
                elif _has(can_empty, start - 1):
                    count += table[j - 1, start - 1]
            table[j, i] = count
            before = count


@kernel()
def fill_density(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, first: int, k: int, tables: Any,
    bounds: Any, out: Any,
) -> None:  # fmt: skip
    """The share of the line's fill patterns that fill each of its cells.

    Parameters
    ----------
    can_empty, can_fill : numpy.uint64
        Bit ``i`` set when cell ``i`` may be empty (may be filled); no bits at ``n`` and above.
    n : int
        Cells in the line, 1 to :data:`.linebits.MAX_CELLS`.
    blocks : numpy.ndarray of int64
        Run lengths: the clue is ``blocks[first : first + k]``.
    first, k : int
        Where the clue starts in ``blocks`` and how many blocks it has.
    tables : numpy.ndarray of float64, shape (2, k + 1, n + 1) or larger
        Scratch.
    bounds : numpy.ndarray of int64, shape (2, k + 1, 2) or larger
        Scratch.
    out : numpy.ndarray of float64, shape (n,) or longer
        Receives the densities, in ``[0, 1]``: 1 for a cell every pattern fills, 0 for one that
        none fills; 0.5 everywhere when the line has no fill pattern.
    """
    forward, backward = tables[0], tables[1]
    _count(can_empty, can_fill, n, blocks, first, k, False, forward, bounds[0])
    if bounds[0, k, 0] > n or forward[k, n] == 0.0:
        out[:n] = 0.5
        return
    patterns = forward[k, n]
    reversed_empty, reversed_fill = reverse_bits(can_empty, n), reverse_bits(can_fill, n)
    _count(reversed_empty, reversed_fill, n, blocks, first, k, True, backward, bounds[1])
    out[:n] = 0.0  # patterns with the cell empty, to begin with
    for j in range(k + 1):
        after = k - j  # blocks right of the cell
        low = max(bounds[0, j, 0], n - 1 - bounds[1, after, 1])
        high = min(bounds[0, j, 1], n - 1 - bounds[1, after, 0], n - 1)
        for x in range(low, high + 1):
            if _has(can_empty, x):
                out[x] += forward[j, x] * backward[after, n - 1 - x]
    for x in range(n):
        out[x] = 1.0 - out[x] / patterns
