"""Arithmetic over GF(2) on Python ints: polynomials and dense linear systems.

A polynomial over GF(2) is an ``int`` whose bit ``k`` is the coefficient of ``x**k``
(carry-less arithmetic); a vector is an ``int`` whose bit ``i`` is component ``i``. Python's
big ints make every XOR of two n-bit values one call costing O(n / 64) word operations.

Sources: the polynomial algorithms are the schoolbook ones over a field (Knuth, *The Art of
Computer Programming* vol. 2, §4.6.1: division, Euclid's algorithm and its extended form);
the linear-system solver is Gauss-Jordan elimination (Golub & Van Loan, *Matrix
Computations*, §3.2), here over GF(2) where a row operation is one XOR, on rows packed into
numpy 64-bit words (the "method of four Russians" papers pack the same way: Albrecht, Bard &
Hart, "Algorithm 898: Efficient multiplication of dense matrices over GF(2)", ACM TOMS 37
(2010)).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["LinearSolution", "pdivmod", "pgcdex", "pmod", "pmul", "reduced_basis", "solve_system"]


def pmul(a: int, b: int) -> int:
    """Product of two GF(2) polynomials (carry-less multiplication).

    Examples
    --------
    >>> bin(pmul(0b11, 0b11))  # (x + 1)**2 = x**2 + 1
    '0b101'
    """
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        low = a & -a
        out ^= b << (low.bit_length() - 1)
        a ^= low
    return out


def pdivmod(a: int, b: int) -> tuple[int, int]:
    """Quotient and remainder of GF(2) polynomials ``a`` by ``b``.

    Raises
    ------
    ZeroDivisionError
        If ``b`` is 0.

    Examples
    --------
    >>> pdivmod(0b101, 0b11)  # x**2 + 1 = (x + 1)(x + 1)
    (3, 0)
    """
    if b == 0:
        raise ZeroDivisionError("polynomial division by zero")
    q = 0
    db = b.bit_length()
    while a.bit_length() >= db:
        shift = a.bit_length() - db
        q |= 1 << shift
        a ^= b << shift
    return q, a


def pmod(a: int, b: int) -> int:
    """Remainder of ``a`` by ``b`` (see :func:`pdivmod`)."""
    return pdivmod(a, b)[1]


def pgcdex(a: int, b: int) -> tuple[int, int]:
    """Greatest common divisor ``d`` of ``a`` and ``b`` and ``s`` with ``s * a ≡ d (mod b)``.

    Examples
    --------
    >>> d, s = pgcdex(0b110, 0b101)  # gcd(x**2 + x, x**2 + 1) = x + 1
    >>> d, pmod(pmul(s, 0b110) ^ d, 0b101)
    (3, 0)
    """
    r0, r1, s0, s1 = a, b, 1, 0
    while r1:
        q, r = pdivmod(r0, r1)
        r0, r1 = r1, r
        s0, s1 = s1, s0 ^ pmul(q, s1)
    return r0, s0


@dataclass(frozen=True)
class LinearSolution:
    """The solution set of a linear system ``A x = b`` over GF(2).

    Attributes
    ----------
    particular : int or None
        One solution (free variables 0), ``None`` when there is none.
    kernel : tuple of int
        A basis of the null space of ``A`` (its length is the nullity).
    """

    particular: int | None
    kernel: tuple[int, ...]


PACK_ROWS = 1024
"""Rows packed between two calls of the tick."""


def _pack(values: Sequence[int], words: int, tick: Callable[[], None]) -> NDArray[np.uint64]:
    """Ints as the rows of a ``(len(values), words)`` matrix of little-endian 64-bit words,
    :data:`PACK_ROWS` at a time, ``tick`` called before each batch."""
    out = np.empty((len(values), words), np.uint64)
    for first in range(0, len(values), PACK_ROWS):
        tick()
        batch = values[first : first + PACK_ROWS]
        data = b"".join(v.to_bytes(8 * words, "little") for v in batch)
        out[first : first + len(batch)] = np.frombuffer(data, "<u8").reshape(len(batch), words)
    return out


def _column(matrix: NDArray[np.uint64], col: int) -> NDArray[np.uint64]:
    """Bit ``col`` of every row of a packed matrix (0 or 1 per row)."""
    word, bit = divmod(col, 64)
    return (matrix[:, word] >> np.uint64(bit)) & np.uint64(1)


def solve_system(
    rows: Sequence[int], b: int, *, size: int, tick: Callable[[], None] | None = None
) -> LinearSolution:
    """Solve ``A x = b`` over GF(2) by Gauss-Jordan elimination on bit-packed rows.

    The augmented matrix ``[A | b]`` is held as numpy ``uint64`` words; a row operation is one
    vectorised XOR of a pivot row into the rows below with a 1 in the pivot column (forward
    elimination), then, from the last pivot up, into the rows above (back substitution). A
    pivot row is 0 left of its pivot, so only the words from the pivot's on are XORed.

    Parameters
    ----------
    rows : sequence of int
        Row ``i`` of the square matrix ``A`` as a bit mask over the ``size`` unknowns.
    b : int
        The right-hand side, bit ``i`` for row ``i``.
    size : int
        Number of unknowns (and of rows).
    tick : callable, optional
        Called before each batch of rows packed, each column eliminated, each row back
        substituted and each null-space vector read; it may raise to stop the elimination
        (a time limit).

    Returns
    -------
    LinearSolution
        One solution (or None) and a basis of the null space. Costs O(size) column steps of
        O(size²/64) word operations at most.
    """
    tick = tick or _never
    words = (size + 64) // 64  # room for b at bit `size`
    work = _pack([row | ((b >> i & 1) << size) for i, row in enumerate(rows)], words, tick)
    pivots: list[int] = []
    for col in range(size):
        tick()
        top = len(pivots)
        below = top + np.flatnonzero(_column(work[top:], col))
        if not below.size:
            continue
        if below[0] != top:
            work[[top, below[0]]] = work[[below[0], top]]
        # rows from `top` down are 0 left of `col`: XOR only from its word on
        work[below[1:], col // 64 :] ^= work[top, col // 64 :]
        pivots.append(col)
    for i in reversed(range(len(pivots))):
        tick()
        col = pivots[i]
        above = np.flatnonzero(_column(work[:i], col))
        work[above, col // 64 :] ^= work[i, col // 64 :]
    rank = len(pivots)
    consistent = not _column(work[rank:], size).any()
    particular = None
    if consistent:
        rhs = _column(work[:rank], size)
        particular = sum(1 << col for col, bit in zip(pivots, rhs.tolist(), strict=True) if bit)
    pivot_set = set(pivots)
    kernel = []
    for free in range(size):
        if free in pivot_set:
            continue
        tick()
        ones = np.flatnonzero(_column(work[:rank], free)).tolist()
        kernel.append(sum((1 << pivots[i] for i in ones), 1 << free))
    return LinearSolution(particular, tuple(kernel))


def _never() -> None:
    """A tick that never stops the work."""


def reduced_basis(vectors: Sequence[int], tick: Callable[[], None] | None = None) -> list[int]:
    """The reduced row echelon basis of the span of ``vectors``.

    ``tick``, when given, is called before each vector is reduced; it may raise to stop.
    Each vector of the result has a *pivot* (its lowest set bit) that no other vector of the
    result has. The reduced basis of a direct sum of subspaces on disjoint bit positions is
    the union of their reduced bases, which :mod:`.algebra` uses to split a search.
    """
    basis: list[int] = []
    for v in vectors:
        if tick is not None:
            tick()
        for u in basis:
            if v & (u & -u):
                v ^= u
        if v:
            low = v & -v
            basis = [u ^ v if u & low else u for u in basis]
            basis.append(v)
    return basis
