"""numba kernel of the minimum-press search: Gray-code enumeration of a coset of the null space.

Imported only by :func:`.algebra.minimum` for null spaces too large for pure Python (numba is a
heavy import); compiled once and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _popcount(v: np.uint64) -> int:
    """Bits set in a 64-bit word (the SWAR sum, which LLVM turns into ``popcnt``)."""
    v = v - ((v >> np.uint64(1)) & _M1)
    v = (v & _M2) + ((v >> np.uint64(2)) & _M2)
    v = (v + (v >> np.uint64(4))) & _M4
    return int((v * _H01) >> np.uint64(56))


@njit(cache=True, parallel=True)
def lightest_chunks(
    start: np.ndarray, vectors: np.ndarray, prefix_bits: int, first: int, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """The lightest combination in each of the chunks ``first .. first + count - 1``.

    The ``k`` vectors (rows of ``vectors``, packed in 64-bit words) are split into the top
    ``prefix_bits``, whose combination is the chunk number, and the low ``k - prefix_bits``,
    enumerated in reflected Gray-code order within each chunk (one XOR and one popcount per
    word and step). Chunks run in parallel.

    Returns
    -------
    tuple of arrays
        Per chunk, the least weight of ``start + Σ c_i v_i`` and its combination ``c`` as a bit
        mask (bit ``i`` for vector ``i``).
    """
    k, words = vectors.shape
    low = k - prefix_bits
    weights = np.empty(count, np.int64)
    combos = np.empty(count, np.int64)
    for n in prange(count):
        chunk = first + n
        cur = start.copy()
        for b in range(prefix_bits):
            if (chunk >> b) & 1:
                for w in range(words):
                    cur[w] ^= vectors[low + b, w]
        best = 0
        for w in range(words):
            best += _popcount(cur[w])
        best_code = 0
        for i in range(1, 1 << low):
            j = 0
            x = i
            while (x & 1) == 0:
                x >>= 1
                j += 1
            weight = 0
            for w in range(words):
                cur[w] ^= vectors[j, w]
                weight += _popcount(cur[w])
            if weight < best:
                best = weight
                best_code = i ^ (i >> 1)
        weights[n] = best
        combos[n] = best_code | (chunk << low)
    return weights, combos
