"""The exact line solver on 64-bit words, for lines of up to :data:`MAX_CELLS` cells.

A line is two bit sets over its cells, ``can_empty`` and ``can_fill``; :func:`settle_bits`
returns the cells that every compatible fill pattern of the clue leaves empty and those it
leaves filled. It is the placement dynamic programme of :mod:`.cells` with every position of
the line handled at once, one word operation per step of the recurrence:

* ``ready[j]`` — the positions ``i`` (``0 .. n``) where block ``j`` may start: cells
  ``0 .. i-1`` can hold exactly the first ``j`` blocks, the cell before ``i`` being empty when
  ``j > 0``;
* ``held[j]`` — the positions ``i`` where cells ``0 .. i-1`` can hold exactly the first ``j``
  blocks (any cells after the last one empty);
* a block of length ``L`` fits at ``s`` when the cells ``s .. s+L-1`` can all be filled, a
  bitwise AND of ``can_fill`` shifted by ``0 .. L-1`` (by doubling, ``log2 L`` steps);
* "then any number of empty cells" is a flood of the positions reached through cells that can
  be empty, one addition whose carries run through each stretch of such cells (Warren, *Hacker's
  Delight*, 2nd ed., §2-1, "turning off the rightmost contiguous string of 1-bits").

The same recurrence on the reversed line gives the suffixes; a block may start at ``s`` when
both directions allow it, a cell may be filled when some such placement covers it, and may be
empty when a prefix ending before it and a suffix starting after it hold all the blocks between
them. This is the left/right placement method of Batenburg & Kosters 2009, *Pattern
Recognition* 42(8), §3, in the bit-parallel form of the fastest tournament solvers (Wu, Sun,
Chen, Chen, Lee & Yen 2013, *IEEE TCIAIG* 5(3), §III-A). Cost ``O(k log n)`` word operations
for ``k`` blocks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import kernel

__all__ = ["MAX_CELLS", "reverse_bits", "settle_bits"]

MAX_CELLS = 62
"""The longest line :func:`settle_bits` takes: positions ``0 .. n`` and one carry in a word."""

_ONE = np.uint64(1)


@kernel(inline=True)
def _low(count: Any) -> Any:
    """A word with the ``count`` lowest bits set (``count`` < 64)."""
    return (_ONE << np.uint64(count)) - _ONE


@kernel(inline=True)
def _flood(seeds: Any, through: Any) -> Any:
    """``seeds`` and every position reached from one of them by steps ``i-1 -> i`` with ``i`` in
    ``through``: the carries of ``(seeds | through) + seeds`` run through each stretch."""
    both = seeds | through
    return seeds | (both & ~(both + seeds))


@kernel(inline=True)
def _fits(can_fill: Any, length: int) -> Any:
    """Positions ``s`` where cells ``s .. s+length-1`` can all be filled."""
    fits = can_fill
    done = 1
    while done < length:
        step = min(done, length - done)
        fits &= fits >> np.uint64(step)
        done += step
    return fits


@kernel(inline=True)
def _cover(starts: Any, length: int) -> Any:
    """The cells covered by a block of ``length`` at any of ``starts``."""
    cover = starts
    done = 1
    while done < length:
        step = min(done, length - done)
        cover |= cover << np.uint64(step)
        done += step
    return cover


@kernel(inline=True)
def reverse_bits(word: Any, count: int) -> Any:
    """Bits ``0 .. count-1`` of ``word`` in reverse order (bit ``p`` to ``count-1-p``)."""
    x = word
    x = ((x >> np.uint64(1)) & np.uint64(0x5555555555555555)) | (
        (x & np.uint64(0x5555555555555555)) << np.uint64(1)
    )
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | (
        (x & np.uint64(0x3333333333333333)) << np.uint64(2)
    )
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | (
        (x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4)
    )
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | (
        (x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)
    )
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | (
        (x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)
    )
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    return x >> np.uint64(64 - count)


@kernel(inline=True)
def _placements(
    can_empty: Any, can_fill: Any, blocks: Any, first: int, k: int, backward: bool, work: Any
) -> None:
    """The prefix recurrence (see the module docstring) in one direction.

    Fills ``held[j]`` for ``j = 0 .. k`` and ``starts[j]``, the positions where block ``j``
    (counted in this direction) may start after a valid prefix: rows 0 and 1 of ``work``
    forward, rows 2 and 3 backward.
    """
    row = 2 if backward else 0
    through = can_empty << _ONE
    ready = _flood(_ONE, through)
    work[row, 0] = ready
    for j in range(k):
        length = blocks[first + (k - 1 - j if backward else j)]
        starts = ready & _fits(can_fill, length)
        work[row + 1, j] = starts
        ends = starts << np.uint64(length)
        work[row, j + 1] = _flood(ends, through)
        ready = _flood((ends & can_empty) << _ONE, through)


@kernel()
def settle_bits(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, first: int, k: int, work: Any
) -> tuple[bool, Any, Any]:
    """The cells of a line that every fill pattern of ``clue`` agreeing with it decides.

    Parameters
    ----------
    can_empty, can_fill : numpy.uint64
        Bit ``i`` set when cell ``i`` may be empty (may be filled); no bits at ``n`` and above.
    n : int
        Cells in the line, 1 to :data:`MAX_CELLS`.
    blocks : numpy.ndarray of int64
        Run lengths: the clue is ``blocks[first : first + k]``.
    first, k : int
        Where the clue starts in ``blocks`` and how many blocks it has.
    work : numpy.ndarray of uint64, shape (4, k + 1) or larger
        Scratch.

    Returns
    -------
    consistent : bool
        False when no fill pattern of ``clue`` agrees with the line.
    empty, filled : numpy.uint64
        The cells every such pattern leaves empty, and those it fills (zero when inconsistent).
    """
    zero = np.uint64(0)
    _placements(can_empty, can_fill, blocks, first, k, False, work)
    if not (work[0, k] >> np.uint64(n)) & _ONE:
        return False, zero, zero
    _placements(reverse_bits(can_empty, n), reverse_bits(can_fill, n), blocks, first, k, True, work)
    may_fill = zero
    may_empty = zero
    for j in range(k):
        length = blocks[first + j]
        # The backward start s' of this block is the forward start n - length - s'.
        from_right = reverse_bits(work[3, k - 1 - j], n) >> np.uint64(length - 1)
        may_fill |= _cover(work[1, j] & from_right, length)
    for j in range(k + 1):
        # A suffix from i+1 holding blocks j.. is a backward prefix of n-1-i cells.
        may_empty |= work[0, j] & (reverse_bits(work[2, k - j], n + 1) >> _ONE)
    may_empty &= can_empty
    full = _low(n)
    return True, full & ~may_fill, full & ~may_empty
