"""The exact line solver as a numba-compiled placement dynamic programme over cell codes.

A line is one byte per cell holding the values the cell may still take: bit 0 set when it may
be empty, bit 1 when it may be filled, so :data:`EMPTY` = 1, :data:`FILLED` = 2,
:data:`UNKNOWN` = 3 (0 would be a contradiction). The step-by-step explanations
(:mod:`..explain.black`) use it for lines of over 62 cells, shorter lines going to the
word-parallel :mod:`.bits`; the fast solver (:mod:`..search.propagation`) settles such lines on
words (:mod:`.words`), and the tests check both against it.

:func:`settle_line` narrows one line to the tightest partial line that keeps every fill pattern
of its clue that agrees with the input, exactly as :func:`.bigint.solve_line` does with big
integers. Here the dynamic programme runs cell by cell in compiled code:

* ``F[j, i]`` — cells ``0 .. i-1`` can hold exactly the first ``j`` blocks, any cells after the
  last block being empty;
* ``B[j, i]`` — cells ``i .. n-1`` can hold exactly blocks ``j .. k-1``, any cells before the
  first of them being empty;
* cell ``i`` may be empty iff some ``F[j, i] & B[j, i+1]`` holds and the cell may be empty;
* block ``j`` may start at ``s`` iff its cells may all be filled, the cells just before and
  after it may be empty (or are the line's ends), ``F[j, s-1]`` and ``B[j+1, s+len+1]``; a cell
  may be filled iff some possible placement covers it (a difference array marks them).

This is the "fix" dynamic programme of Wu, Sun, Chen, Chen, Lee & Yen 2013, "An efficient
approach to solving nonograms", *IEEE Trans. Comput. Intell. AI Games* 5(3), §III-A, and the
left/right placement recurrences of Batenburg & Kosters 2009, *Pattern Recognition* 42(8), §3.
Cost ``O(n k)`` for a line of ``n`` cells and ``k`` blocks. Scratch arrays are passed in so that
nothing is allocated per call.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from cspsolve.compiling import announce_compiling

announce_compiling()

__all__ = ["EMPTY", "FILLED", "UNKNOWN", "Scratch", "scratch", "settle_line"]

EMPTY = 1
"""Cell code: the cell can only be empty."""
FILLED = 2
"""Cell code: the cell can only be filled."""
UNKNOWN = 3
"""Cell code: the cell may be either."""

Scratch = tuple[Any, Any, Any, Any]
"""Work arrays of :func:`settle_line`: ``F``, ``B`` (uint8, ``(k+1, n+2)``), ``blocked`` and
``cover`` (int32, ``n + 2``)."""


def scratch(max_length: int, max_blocks: int) -> Scratch:
    """Work arrays for lines of up to ``max_length`` cells and ``max_blocks`` blocks."""
    table = (max_blocks + 1, max_length + 2)
    return (
        np.zeros(table, np.uint8),
        np.zeros(table, np.uint8),
        np.zeros(max_length + 2, np.int32),
        np.zeros(max_length + 2, np.int32),
    )


@numba.njit(cache=True, nogil=True)
def settle_line(
    cells: Any,
    clue: Any,
    fwd: Any,
    bwd: Any,
    blocked: Any,
    cover: Any,
) -> bool:
    """Narrow ``cells`` in place to what every compatible fill pattern of ``clue`` allows.

    Parameters
    ----------
    cells : numpy.ndarray of uint8, shape (n,)
        Cell codes (:data:`EMPTY`, :data:`FILLED`, :data:`UNKNOWN`); overwritten with the
        narrowed codes when the line is consistent, left unchanged otherwise.
    clue : numpy.ndarray of int64, shape (k,)
        Run lengths.
    fwd, bwd, blocked, cover : numpy.ndarray
        Scratch (see :func:`scratch`), large enough for ``n`` and ``k``.

    Returns
    -------
    bool
        False when no fill pattern of ``clue`` agrees with ``cells`` (a contradiction).
    """
    n = cells.shape[0]
    k = clue.shape[0]
    # blocked[i] = number of cells among 0..i-1 that cannot be filled.
    blocked[0] = 0
    for i in range(n):
        blocked[i + 1] = blocked[i] + (0 if cells[i] & FILLED else 1)
    # Forward table.
    fwd[0, 0] = 1
    for i in range(1, n + 1):
        fwd[0, i] = fwd[0, i - 1] & (cells[i - 1] & EMPTY)
    for j in range(1, k + 1):
        size = clue[j - 1]
        fwd[j, 0] = 0
        for i in range(1, n + 1):
            v = fwd[j, i - 1] & (cells[i - 1] & EMPTY)
            if not v and i >= size:
                s = i - size
                if blocked[i] == blocked[s]:
                    if s == 0:
                        v = 1 if j == 1 else 0
                    else:
                        v = fwd[j - 1, s - 1] & (cells[s - 1] & EMPTY)
            fwd[j, i] = v
    if not fwd[k, n]:
        return False
    # Backward table.
    bwd[k, n] = 1
    for i in range(n - 1, -1, -1):
        bwd[k, i] = bwd[k, i + 1] & (cells[i] & EMPTY)
    for j in range(k - 1, -1, -1):
        size = clue[j]
        bwd[j, n] = 0
        for i in range(n - 1, -1, -1):
            v = bwd[j, i + 1] & (cells[i] & EMPTY)
            e = i + size
            if not v and e <= n and blocked[e] == blocked[i]:
                last = 1 if j == k - 1 else 0
                v = last if e == n else bwd[j + 1, e + 1] & (cells[e] & EMPTY)
            bwd[j, i] = v
    # Which placements survive, and which cells may be empty.
    for i in range(n + 1):
        cover[i] = 0
    for j in range(k):
        size = clue[j]
        for s in range(n - size + 1):
            e = s + size
            if blocked[e] != blocked[s]:
                continue
            if s == 0:
                if j != 0:
                    continue
            elif not (cells[s - 1] & EMPTY and fwd[j, s - 1]):
                continue
            if e == n:
                if j != k - 1:
                    continue
            elif not (cells[e] & EMPTY and bwd[j + 1, e + 1]):
                continue
            cover[s] += 1
            cover[e] -= 1
    running = 0
    for i in range(n):
        running += cover[i]
        code = FILLED if running > 0 else 0
        if cells[i] & EMPTY:
            for j in range(k + 1):
                if fwd[j, i] and bwd[j, i + 1]:
                    code |= EMPTY
                    break
        cells[i] = code
    return True
