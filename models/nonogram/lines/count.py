"""Solution densities of a line: the share of its fill patterns that fill each cell.

A line's *fill patterns* are the placements of its clue's blocks that agree with the cells
already decided. :func:`fill_density` counts them with the placement recurrence of
:mod:`.cells`, in numbers instead of truth values: ``F[j, i]``, the patterns of cells
``0 .. i-1`` holding exactly the first ``j`` blocks, and ``B[m, i]``, those of the last ``i``
cells holding exactly the last ``m`` blocks; a cell ``x`` is empty in
``sum_j F[j, x] * B[k - j, n - 1 - x]`` patterns (``j`` blocks before it, the rest after). The
share of patterns that fill a cell is its *solution density* in that line, the quantity of
counting-based search (Pesant, Quimper & Zanarini 2012, "Counting-based search: branching
heuristics for constraint satisfaction problems", *JAIR* 43, §3, where it is computed for the
``regular`` constraint in the same forward-backward way).

The count can also be *weighted*: each cell has odds ``r_x`` of being filled, and a pattern
weighs the product of the odds of the cells it fills. The share of weight that fills a cell,
with the cell's own odds left out, is then the line's message to that cell in belief
propagation (sum-product) between the lines, as the constraints of CP-BP exchange them
(Pesant 2019, "From support propagation to belief propagation in constraint programming",
*JAIR* 66, §3-4): the odds come from the crossing lines' messages. All odds 1 give the
densities.

Row ``j`` of ``F`` is computed only where the first ``j`` blocks fit before and the others
after, ``slack + 1`` positions for a line of ``slack`` free cells. Lines are bit sets of up to
:data:`.bits.MAX_CELLS` cells (a block fits where its cells may all be filled, one masked
compare); a block's weight is a quotient of prefix products of the odds; counts are float64,
exact below ``2**53`` patterns when unweighted.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import kernel
from .bits import reverse_bits

__all__ = ["fill_density"]

_ONE = np.uint64(1)


@kernel(inline=True)
def _has(word: Any, i: int) -> bool:
    return bool((word >> np.uint64(i)) & _ONE)


@kernel()
def _count(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, first: int, k: int, backward: bool,
    table: Any, bounds: Any, prefix: Any,
) -> None:  # fmt: skip
    """Row ``j`` of ``table``: the weight of the patterns of the first ``i`` cells holding
    exactly the first ``j`` blocks (counted from the line's end when ``backward``, on the
    reversed line), for ``i`` from ``bounds[j, 0]`` to ``bounds[j, 1]``, the positions where
    the other blocks still fit after them; ``prefix[i]`` is the product of the odds of the
    first ``i`` cells."""
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
                weight = prefix[i] / prefix[start]  # the block's cells filled
                if start == 0:
                    count += weight if j == 1 else 0.0
                elif _has(can_empty, start - 1):
                    count += table[j - 1, start - 1] * weight
            table[j, i] = count
            before = count


@kernel()
def fill_density(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, first: int, k: int, odds: Any,
    tables: Any, bounds: Any, prefix: Any, out: Any,
) -> None:  # fmt: skip
    """The weighted share of the line's fill patterns that fill each of its cells.

    Parameters
    ----------
    can_empty, can_fill : numpy.uint64
        Bit ``i`` set when cell ``i`` may be empty (may be filled); no bits at ``n`` and above.
    n : int
        Cells in the line, 1 to :data:`.bits.MAX_CELLS`.
    blocks : numpy.ndarray of int64
        Run lengths: the clue is ``blocks[first : first + k]``.
    first, k : int
        Where the clue starts in ``blocks`` and how many blocks it has.
    odds : numpy.ndarray of float64, shape (n,) or longer
        Each cell's odds of being filled, positive and finite (about ``1e-3`` to ``1e3``: a
        pattern weighs their product over the cells it fills); all 1 to count patterns.
    tables : numpy.ndarray of float64, shape (2, k + 1, n + 1) or larger
        Scratch.
    bounds : numpy.ndarray of int64, shape (2, k + 1, 2) or larger
        Scratch.
    prefix : numpy.ndarray of float64, shape (n + 1,) or longer
        Scratch.
    out : numpy.ndarray of float64, shape (n,) or longer
        Receives, for each cell, the share of the weight of the patterns filling it with the
        cell's own odds left out, in ``[0, 1]`` (with all odds 1: the share of patterns, its
        solution density): 1 for a cell every pattern fills, 0 for one that none fills; 0.5
        everywhere when the line has no fill pattern.
    """
    forward, backward = tables[0], tables[1]
    prefix[0] = 1.0
    for i in range(n):
        prefix[i + 1] = prefix[i] * odds[i]
    _count(can_empty, can_fill, n, blocks, first, k, False, forward, bounds[0], prefix)
    if bounds[0, k, 0] > n or forward[k, n] == 0.0:
        out[:n] = 0.5
        return
    total = forward[k, n]
    for i in range(n):
        prefix[i + 1] = prefix[i] * odds[n - 1 - i]
    reversed_empty, reversed_fill = reverse_bits(can_empty, n), reverse_bits(can_fill, n)
    _count(reversed_empty, reversed_fill, n, blocks, first, k, True, backward, bounds[1], prefix)
    out[:n] = 0.0  # the weight of the patterns with the cell empty, to begin with
    for j in range(k + 1):
        after = k - j  # blocks right of the cell
        low = max(bounds[0, j, 0], n - 1 - bounds[1, after, 1])
        high = min(bounds[0, j, 1], n - 1 - bounds[1, after, 0], n - 1)
        for x in range(low, high + 1):
            if _has(can_empty, x):
                out[x] += forward[j, x] * backward[after, n - 1 - x]
    for x in range(n):
        empty = out[x]
        filled = max(total - empty, 0.0) / odds[x]
        out[x] = filled / (filled + empty)
