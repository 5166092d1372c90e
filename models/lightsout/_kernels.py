"""numba kernel of the minimum-press search: the least weight in a coset of the null space.

The coset ``start + span(v_0 .. v_{k-1})`` is searched as ``2**(k - low)`` Walsh-Hadamard
transforms of size ``2**low``. Write a combination as ``c = (p, q)``: ``q`` the coefficients of
the ``low`` first vectors, ``p`` those of the others. Cell ``j`` of ``start + Σ c_i v_i`` is
``a_j(p) ⊕ <u_j, q>``, where ``u_j`` is the cell's column over the first vectors and
``a_j(p)`` its value once ``p`` is applied, so with ``F_p(u) = Σ_{j : u_j = u} (-1)**a_j(p)``
the weight of every ``(p, q)`` at once is ``(N - H F_p (q)) / 2``, ``H`` the Walsh-Hadamard
transform and ``N`` the number of cells. The ``p`` run in reflected Gray-code order (Knuth,
TAOCP vol. 4A §7.2.1.1), so each step flips the signs of one vector's cells in ``F_p``. The
transform is the fast Walsh-Hadamard transform (Fino & Algazi, "Unified matrix treatment of
the fast Walsh-Hadamard transform", IEEE Trans. Computers C-25 (1976) 1142-1146): ``low ·
2**low`` additions on small integers, which the compiler vectorises. This is the
weight-distribution identity of coding theory (MacWilliams & Sloane, *The Theory of
Error-Correcting Codes*, 1977, ch. 5 §2) evaluated on a coset; it costs about ``low``
vectorised additions per combination against one XOR and one popcount per 64 cells for plain
Gray-code enumeration.

Imported only by :func:`.algebra.minimum` for null spaces too large for pure Python (numba is a
heavy import); compiled once and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cspsolve.compiling import announce_compiling

announce_compiling()


@njit(cache=True, inline="always")
def _lowest_bit(i: int) -> int:
    """Index of the lowest set bit of ``i > 0``."""
    j = 0
    while (i & 1) == 0:
        i >>= 1
        j += 1
    return j


@njit(cache=True, inline="always")
def _hadamard(values: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The unnormalised Walsh-Hadamard transform of ``values`` (length a power of two):
    ``out[q] = Σ_u values[u] (-1)**popcount(u & q)``; ``a`` and ``b`` are scratch space of the
    same size, and the result is in whichever of the three is returned.

    Constant-geometry form (M. C. Pease, "An adaptation of the fast Fourier transform for
    parallel processing", J. ACM 15 (1968) 252-264): every pass transforms the lowest index bit
    and rotates it to the top, reading pairs ``2j, 2j + 1`` and writing ``j`` and
    ``j + size / 2`` of the other array, the same loop each time, which the compiler
    vectorises (numba, 2**12 entries of int16: 0.3-0.4 ns per entry against 0.75-0.85 ns for
    radix-4 passes and 7.8 ns for in-place butterflies, whose stride changes per pass).
    """
    half = values.size // 2
    src, dst = values, a
    n = 1
    while n < values.size:
        for j in range(half):
            x = src[2 * j]
            y = src[2 * j + 1]
            dst[j] = x + y
            dst[j + half] = x - y
        src, dst = dst, (b if n == 1 else src)
        n *= 2
    return src


@njit(cache=True, parallel=True)
def lightest_chunks(
    start: np.ndarray,
    columns: np.ndarray,
    low: int,
    prefix_bits: int,
    first: int,
    count: int,
    dtype: np.ndarray,
    images: np.ndarray,
    shifts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The lightest combination in each of the chunks ``first .. first + count - 1``.

    Parameters
    ----------
    start : ndarray of uint8
        The coset's representative, one 0/1 entry per cell (the cells of the vectors' support).
    columns : ndarray of int64
        Per cell, bit ``i`` set when vector ``i`` covers the cell (``k`` vectors, ``k < 63``).
    low : int
        Vectors ``0 .. low - 1`` are enumerated by one Walsh-Hadamard transform per step.
    prefix_bits : int
        The top ``prefix_bits`` vectors' coefficients are the chunk number; the ones in between
        run in Gray-code order within each chunk. Chunks run in parallel.
    first, count : int
        The chunks to search.
    dtype : ndarray
        An empty array of the integer type of the transform (wide enough for the cell count).
    images, shifts : ndarray of int64
        Symmetries of the coset (:mod:`.symmetry`): ``g`` maps the coefficients ``p`` of the
        vectors from ``low`` on (bit ``b`` for vector ``low + b``) to ``S_g p + t_g``, where
        column ``b`` of ``S_g`` is ``images[g, b]`` and ``t_g`` is ``shifts[g]``; a transform
        is taken only for the ``p`` least in their orbit. No rows: no symmetry.

    Returns
    -------
    tuple of arrays
        Per chunk, the least weight of ``start + Σ c_i v_i`` and its combination ``c`` as a bit
        mask (bit ``i`` for vector ``i``).
    """
    cells = start.size
    k = 0
    for j in range(cells):
        while columns[j] >> k:
            k += 1
    k = max(k, low + prefix_bits)
    mid = k - low - prefix_bits
    # the cells each middle vector covers
    counts = np.zeros(mid + 1, np.int64)
    for j in range(cells):
        for b in range(mid):
            if (columns[j] >> (low + b)) & 1:
                counts[b + 1] += 1
    offsets = np.cumsum(counts)
    covered = np.empty(offsets[mid], np.int64)
    fill = offsets[:mid].copy()
    for j in range(cells):
        for b in range(mid):
            if (columns[j] >> (low + b)) & 1:
                covered[fill[b]] = j
                fill[b] += 1
    mask = (1 << low) - 1
    symmetries = shifts.size
    weights = np.empty(count, np.int64)
    combos = np.empty(count, np.int64)
    for n in prange(count):
        chunk = first + n
        top = chunk << (low + mid)
        sign = np.empty(cells, dtype.dtype)
        spread = np.zeros(1 << low, dtype.dtype)
        for j in range(cells):
            parity = start[j]
            c = columns[j] & top
            while c:
                parity ^= 1
                c &= c - 1
            sign[j] = 1 - 2 * parity
            spread[columns[j] & mask] += sign[j]
        work = np.empty(1 << low, dtype.dtype)
        scratch = np.empty(1 << low, dtype.dtype)
        image = shifts.copy()
        high = chunk << mid
        for g in range(symmetries):
            for b in range(mid + prefix_bits):
                if (high >> b) & 1:
                    image[g] ^= images[g, b]
        best, best_code, middle = -cells - 1, 0, 0
        for i in range(1 << mid):
            if i:
                b = _lowest_bit(i)
                middle ^= 1 << b
                high ^= 1 << b
                for g in range(symmetries):
                    image[g] ^= images[g, b]
                for t in range(offsets[b], offsets[b + 1]):
                    j = covered[t]
                    spread[columns[j] & mask] -= 2 * sign[j]
                    sign[j] = -sign[j]
            least = True
            for g in range(symmetries):
                if image[g] < high:
                    least = False
            if not least:
                continue
            transform = _hadamard(spread, work, scratch)
            peak = transform.max()
            if peak > best:
                best = int(peak)
                best_code = int(np.argmax(transform)) | (middle << low)
        weights[n] = (cells - best) // 2
        combos[n] = best_code | top
    return weights, combos
