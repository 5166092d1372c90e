"""The exact colour line solver: which colours each cell of a line keeps in some placement.

A line of ``n`` cells is one bit mask per cell (uint32): bit ``c`` set when the cell may still
take colour ``c``, bit 0 the background; a mask of 0 is a contradiction. The clue is ``k``
blocks, block ``j`` of ``lengths[j]`` cells of colour ``colours[j]``; consecutive blocks of one
colour need a background cell between them, blocks of different colours may touch.

:func:`settle_colour_line` narrows every cell to the colours that some placement of the blocks
agreeing with the line gives it: GAC on the line's pattern variable. It is the placement
dynamic programme of the black-and-white solvers (:mod:`.cells`; Batenburg & Kosters
2009, *Pattern Recognition* 42(8), §3) with the gap between two blocks 1 or 0 by their colours
and a set of colours per cell, as in the colour line solvers of Jan Wolter's pbnsolve
(https://webpbn.com/pbnsolve.html, "line solver") and of Batenburg, Henstra, Kosters & Palenstijn
2009, "Constructing simple nonograms of varying difficulty", *Pure Math. Appl.* 20, §2:

* ``F[j, i]`` — cells ``0 .. i-1`` can hold exactly the first ``j`` blocks (any cells after the
  last one background);
* ``B[j, i]`` — cells ``i .. n-1`` can hold exactly blocks ``j .. k-1`` (any cells before the
  first of them background);
* block ``j`` fits at ``s`` when cells ``s .. s+L-1`` may all take its colour, the prefix
  ``F[j]`` ends at ``s`` (at ``s - 1`` with a background cell there, when block ``j - 1`` has
  the same colour) and the suffix ``B[j + 1]`` starts after it likewise;
* a cell keeps colour ``c`` when some fitting block of colour ``c`` covers it (a difference
  array per block), and keeps the background when some ``F[j, i] & B[j, i + 1]`` holds.

Cost ``O(n k)`` for a line of ``n`` cells and ``k`` blocks; every array is passed in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import kernel

__all__ = ["Scratch", "scratch", "settle_colour_line"]

Scratch = tuple[Any, Any, Any, Any, Any]
"""Work arrays of :func:`settle_colour_line`: ``F``, ``B`` (uint8, ``(k + 1, n + 1)``),
``blocked``, ``cover`` (int32, ``n + 1``) and ``keep`` (uint32, ``n``)."""

_BACKGROUND = np.uint32(1)


def scratch(max_length: int, max_blocks: int) -> Scratch:
    """Work arrays for lines of up to ``max_length`` cells and ``max_blocks`` blocks."""
    table = (max_blocks + 1, max_length + 1)
    return (
        np.zeros(table, np.uint8),
        np.zeros(table, np.uint8),
        np.zeros(max_length + 1, np.int32),
        np.zeros(max_length + 1, np.int32),
        np.zeros(max(max_length, 1), np.uint32),
    )


@kernel(inline=True)
def _blocked(cells: Any, n: int, colour: int, blocked: Any) -> None:
    """``blocked[i]``: how many of cells ``0 .. i-1`` cannot take ``colour``."""
    bit = np.uint32(1) << np.uint32(colour)
    blocked[0] = 0
    for i in range(n):
        blocked[i + 1] = blocked[i] + (0 if cells[i] & bit else 1)


@kernel(inline=True)
def _before(fwd: Any, cells: Any, j: int, s: int, gap: bool) -> bool:
    """Whether cells ``0 .. s-1`` can hold the first ``j`` blocks with a background cell last
    when ``gap``."""
    if not gap:
        return bool(fwd[j, s])
    return s >= 1 and bool(cells[s - 1] & _BACKGROUND) and bool(fwd[j, s - 1])


@kernel(inline=True)
def _after(bwd: Any, cells: Any, n: int, j: int, e: int, gap: bool) -> bool:
    """Whether cells ``e .. n-1`` can hold blocks ``j ..`` with a background cell first when
    ``gap``."""
    if not gap:
        return bool(bwd[j, e])
    return e < n and bool(cells[e] & _BACKGROUND) and bool(bwd[j, e + 1])


@kernel()
def settle_colour_line(
    cells: Any, lengths: Any, colours: Any, fwd: Any, bwd: Any, blocked: Any, cover: Any,
    keep: Any,
) -> bool:  # fmt: skip
    """Narrow ``cells`` in place to the colours some placement of the clue gives each cell.

    Parameters
    ----------
    cells : numpy.ndarray of uint32, shape (n,)
        Each cell's possible colours (bit 0 the background); overwritten with the narrowed
        masks when the line is consistent (every mask then non-zero), left as it was otherwise.
    lengths, colours : numpy.ndarray of int64, shape (k,)
        The blocks' lengths (>= 1) and colours (1 .. 31).
    fwd, bwd, blocked, cover, keep : numpy.ndarray
        Scratch (see :func:`scratch`), large enough for ``n`` and ``k``.

    Returns
    -------
    bool
        False when no placement of the clue agrees with ``cells`` (a contradiction).
    """
    n = cells.shape[0]
    k = lengths.shape[0]
    fwd[0, 0] = 1
    for i in range(1, n + 1):
        fwd[0, i] = fwd[0, i - 1] and cells[i - 1] & _BACKGROUND
    for j in range(1, k + 1):
        size, colour = lengths[j - 1], colours[j - 1]
        gap = j >= 2 and colours[j - 2] == colour
        _blocked(cells, n, colour, blocked)
        fwd[j, 0] = 0
        for i in range(1, n + 1):
            v = bool(fwd[j, i - 1] and cells[i - 1] & _BACKGROUND)
            s = i - size
            if not v and s >= 0 and blocked[i] == blocked[s]:
                v = _before(fwd, cells, j - 1, s, gap)
            fwd[j, i] = v
    if not fwd[k, n]:
        return False
    bwd[k, n] = 1
    for i in range(n - 1, -1, -1):
        bwd[k, i] = bwd[k, i + 1] and cells[i] & _BACKGROUND
    for j in range(k - 1, -1, -1):
        size, colour = lengths[j], colours[j]
        gap = j + 1 < k and colours[j + 1] == colour
        _blocked(cells, n, colour, blocked)
        bwd[j, n] = 0
        for i in range(n - 1, -1, -1):
            v = bool(bwd[j, i + 1] and cells[i] & _BACKGROUND)
            e = i + size
            if not v and e <= n and blocked[e] == blocked[i]:
                v = _after(bwd, cells, n, j + 1, e, gap)
            bwd[j, i] = v
    for i in range(n):
        keep[i] = 0
        if cells[i] & _BACKGROUND:
            for j in range(k + 1):
                if fwd[j, i] and bwd[j, i + 1]:
                    keep[i] = _BACKGROUND
                    break
    for j in range(k):
        size, colour = lengths[j], colours[j]
        gap_before = j >= 1 and colours[j - 1] == colour
        gap_after = j + 1 < k and colours[j + 1] == colour
        _blocked(cells, n, colour, blocked)
        for i in range(n + 1):
            cover[i] = 0
        for s in range(n - size + 1):
            e = s + size
            if (
                blocked[e] == blocked[s]
                and _before(fwd, cells, j, s, gap_before)
                and _after(bwd, cells, n, j + 1, e, gap_after)
            ):
                cover[s] += 1
                cover[e] -= 1
        bit = np.uint32(1) << np.uint32(colour)
        running = 0
        for i in range(n):
            running += cover[i]
            if running > 0:
                keep[i] |= bit
    for i in range(n):
        cells[i] = keep[i]
    return True
