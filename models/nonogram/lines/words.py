"""The exact line solver on arrays of 64-bit words, for lines of any length.

:func:`settle_words` is :func:`.bits.settle_bits` for lines too long for one word: the same
placement recurrence (see :mod:`.bits`), with every bit set of the line held in ``words``
consecutive ``uint64`` words (bit ``i`` is bit ``i & 63`` of word ``i >> 6``) and every word
operation of :mod:`.bits` replaced by a loop over the words:

* AND and OR word by word;
* shifts by any amount move whole words and carry the bits that cross a word boundary into the
  next word (Warren, *Hacker's Delight*, 2nd ed., §2-17, "double-length shifts");
* the flood of positions through cells that may be empty is one multi-word addition
  ``(seeds | through) + seeds``, its carries rippling from word to word (Warren, *Hacker's
  Delight*, 2nd ed., §2-1, "turning off the rightmost contiguous string of 1-bits", and §2-16
  for the carry of a double-length addition);
* the reversal of a line's ``count`` low bits reverses each word (:func:`.bits.reverse_bits`),
  puts the words in reverse order, and shifts the whole down by ``64 * words - count``.

A bit set of the positions ``0 .. n`` of a line of ``n`` cells, with room for the carry out of
position ``n``, takes :func:`words_for` words. The prefix sets ``held[j]``, the start sets of each
block, in both directions, and a few temporaries live in one scratch array
(:func:`scratch_words`), so that the kernel allocates nothing. Cost ``O(k log n)`` multi-word
operations for ``k`` blocks, each ``O(words)``: the left/right placement method of Batenburg &
Kosters 2009, *Pattern Recognition* 42(8), §3, in the bit-parallel form of Wu, Sun, Chen, Chen,
Lee & Yen 2013, *IEEE TCIAIG* 5(3), §III-A.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import kernel
from .bits import reverse_bits

__all__ = ["low_word", "scratch_words", "settle_words", "words_for"]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

_THROUGH, _READY, _ENDS, _EMPTY, _FILL, _MAY_FILL, _MAY_EMPTY, _PART = range(8)
"""The temporaries' rows in plane 4 of the scratch (see :func:`scratch_words`)."""
_TEMPS = 8


@kernel()
def words_for(n: int) -> int:
    """Words a bit set of the positions ``0 .. n`` and one carry bit takes: ``ceil((n + 2) /
    64)``."""
    return (n + 2 + 63) // 64


def scratch_words(longest: int, blocks: int) -> Any:
    """The scratch of :func:`settle_words` for lines of up to ``longest`` cells and ``blocks``
    blocks.

    Returns
    -------
    numpy.ndarray of uint64, shape (5, max(blocks + 1, 8), words_for(longest))
        Planes 0 and 1: the forward prefix sets ``held[j]`` (rows ``0 .. k``) and start sets
        (rows ``0 .. k-1``); planes 2 and 3 the same on the reversed line; plane 4 the
        temporaries (8 rows).
    """
    return np.zeros((5, max(blocks + 1, _TEMPS), words_for(longest)), np.uint64)


@kernel()
def low_word(n: int, i: int) -> Any:
    """Word ``i`` of the bit set of the cells ``0 .. n-1``."""
    if (i + 1) * 64 <= n:
        return _ALL
    if i * 64 >= n:
        return _ZERO
    return (_ONE << np.uint64(n - i * 64)) - _ONE


@kernel()
def _up_word(x: Any, count: int, i: int) -> Any:
    """Word ``i`` of ``x << count`` (``count`` >= 0, any size)."""
    low = i - (count >> 6)
    part = count & 63
    if low < 0:
        return _ZERO
    word = x[low] << np.uint64(part)
    if part and low > 0:
        word |= x[low - 1] >> np.uint64(64 - part)
    return word


@kernel()
def _down_word(x: Any, count: int, i: int, words: int) -> Any:
    """Word ``i`` of ``x >> count`` over ``words`` words (``count`` >= 0, any size)."""
    high = i + (count >> 6)
    part = count & 63
    if high >= words:
        return _ZERO
    word = x[high] >> np.uint64(part)
    if part and high + 1 < words:
        word |= x[high + 1] << np.uint64(64 - part)
    return word


@kernel()
def _shift_up(x: Any, count: int, target: Any, words: int) -> None:
    """``target = x << count``; bits past the last word are lost; ``target`` may be ``x``
    (the words are written from the top, each after the words it reads)."""
    for i in range(words - 1, -1, -1):
        target[i] = _up_word(x, count, i)


@kernel()
def _shift_down(x: Any, count: int, target: Any, words: int) -> None:
    """``target = x >> count``; ``target`` may be ``x`` (written from the bottom)."""
    for i in range(words):
        target[i] = _down_word(x, count, i, words)


@kernel()
def _and(target: Any, x: Any, words: int) -> None:
    """``target &= x``."""
    for i in range(words):
        target[i] &= x[i]


@kernel()
def _or(target: Any, x: Any, words: int) -> None:
    """``target |= x``."""
    for i in range(words):
        target[i] |= x[i]


@kernel()
def _flood(seeds: Any, through: Any, target: Any, words: int) -> None:
    """``target`` = ``seeds`` and every position reached from one of them by steps ``i-1 -> i``
    with ``i`` in ``through`` (see :func:`.bits._flood`), the addition's carry rippling from
    word to word; ``target`` may be ``seeds``."""
    carry = _ZERO
    for i in range(words):
        seed = seeds[i]
        both = seed | through[i]
        total = both + seed
        overflow = total < both
        total += carry
        overflow |= total < carry
        target[i] = seed | (both & ~total)
        carry = _ONE if overflow else _ZERO


@kernel()
def _fits(can_fill: Any, length: int, target: Any, words: int) -> None:
    """``target`` = the positions ``s`` where cells ``s .. s+length-1`` can all be filled: an
    AND of ``can_fill`` shifted down by ``0 .. length-1``, by doubling."""
    for i in range(words):
        target[i] = can_fill[i]
    done = 1
    while done < length:
        step = min(done, length - done)
        for i in range(words):  # from the bottom: word i reads words i and above, unchanged
            target[i] &= _down_word(target, step, i, words)
        done += step


@kernel()
def _cover(starts: Any, length: int, words: int) -> None:
    """``starts`` becomes the cells covered by a block of ``length`` at any of ``starts``."""
    done = 1
    while done < length:
        step = min(done, length - done)
        for i in range(words - 1, -1, -1):  # from the top: word i reads words i and below
            starts[i] |= _up_word(starts, step, i)
        done += step


@kernel()
def _reverse(x: Any, count: int, target: Any, words: int) -> None:
    """``target`` = bits ``0 .. count-1`` of ``x`` in reverse order (bit ``p`` to
    ``count-1-p``; ``count`` <= ``64 * words``); ``target`` must not be ``x``."""
    for i in range(words):
        target[words - 1 - i] = reverse_bits(x[i], 64)
    _shift_down(target, 64 * words - count, target, words)


@kernel()
def _placements(
    can_empty: Any, can_fill: Any, blocks: Any, first: int, k: int, backward: bool, held: Any,
    starts: Any, temp: Any, words: int,
) -> None:  # fmt: skip
    """The prefix recurrence (see :mod:`.bits`) in one direction: ``held[j]`` for ``j = 0 ..
    k``, and ``starts[j]``, the positions where block ``j`` (counted in this direction) may
    start after a valid prefix."""
    through, ready, ends = temp[_THROUGH], temp[_READY], temp[_ENDS]
    _shift_up(can_empty, 1, through, words)
    for i in range(words):
        ready[i] = _ZERO
    ready[0] = _ONE
    _flood(ready, through, ready, words)
    for i in range(words):
        held[0, i] = ready[i]
    for j in range(k):
        length = blocks[first + (k - 1 - j if backward else j)]
        start = starts[j]
        _fits(can_fill, length, start, words)
        _and(start, ready, words)
        _shift_up(start, length, ends, words)
        _flood(ends, through, held[j + 1], words)
        _and(ends, can_empty, words)
        _shift_up(ends, 1, ends, words)
        _flood(ends, through, ready, words)


@kernel()
def settle_words(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, first: int, k: int, work: Any, out: Any
) -> bool:
    """The cells of a line that every fill pattern of its clue agreeing with it decides.

    Parameters
    ----------
    can_empty, can_fill : numpy.ndarray of uint64, shape (>= words_for(n),)
        Bit ``i`` (word ``i >> 6``, bit ``i & 63``) set when cell ``i`` may be empty (may be
        filled); no bits at ``n`` and above.
    n : int
        Cells in the line, at least 1.
    blocks : numpy.ndarray of int64
        Run lengths: the clue is ``blocks[first : first + k]``.
    first, k : int
        Where the clue starts in ``blocks`` and how many blocks it has (0: an empty line).
    work : numpy.ndarray of uint64
        Scratch from :func:`scratch_words`, for at least ``n`` cells and ``k`` blocks.
    out : numpy.ndarray of uint64, shape (2, >= words_for(n))
        Receives, when the line is consistent, the cells every compatible pattern leaves empty
        (``out[0]``) and those it fills (``out[1]``), no bits at ``n`` and above, in the first
        ``words_for(n)`` words of each row.

    Returns
    -------
    bool
        False when no fill pattern of the clue agrees with the line (``out`` is then left
        partly written or untouched).
    """
    words = words_for(n)
    temp = work[4]
    _placements(can_empty, can_fill, blocks, first, k, False, work[0], work[1], temp, words)
    if not (work[0, k, n >> 6] >> np.uint64(n & 63)) & _ONE:
        return False
    back_empty, back_fill = temp[_EMPTY], temp[_FILL]
    _reverse(can_empty, n, back_empty, words)
    _reverse(can_fill, n, back_fill, words)
    _placements(back_empty, back_fill, blocks, first, k, True, work[2], work[3], temp, words)
    may_fill, may_empty, part = temp[_MAY_FILL], temp[_MAY_EMPTY], temp[_PART]
    for i in range(words):
        may_fill[i] = _ZERO
        may_empty[i] = _ZERO
    for j in range(k):
        length = blocks[first + j]
        # The backward start s' of this block is the forward start n - length - s'.
        _reverse(work[3, k - 1 - j], n, part, words)
        _shift_down(part, length - 1, part, words)
        _and(part, work[1, j], words)
        _cover(part, length, words)
        _or(may_fill, part, words)
    for j in range(k + 1):
        # A suffix from i+1 holding blocks j.. is a backward prefix of n-1-i cells.
        _reverse(work[2, k - j], n + 1, part, words)
        _shift_down(part, 1, part, words)
        _and(part, work[0, j], words)
        _or(may_empty, part, words)
    for i in range(words):
        full = low_word(n, i)
        out[0, i] = full & ~may_fill[i]
        out[1, i] = full & ~(may_empty[i] & can_empty[i])
    return True
