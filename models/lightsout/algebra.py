"""Exact Lights Out answers by linear algebra over GF(2).

Pressing cells is adding vectors over GF(2): a board ``b`` (lit cells) is solved by a press
set ``x`` exactly when ``A x = b``, where column ``j`` of the *toggle matrix* ``A`` holds the
lights cell ``j`` toggles. ``A`` is symmetric, so the board is solvable exactly when it has
even overlap with every *quiet pattern* (a press set that changes nothing, i.e. a vector of
the null space of ``A``); the null space's dimension is the *nullity* ``d``: ``2**(cells - d)``
boards are solvable, each by ``2**d`` press sets (Anderson & Feil, Mathematics Magazine 71
(1998) 300-303; Sutner, Math. Intelligencer 11 (1989) 49-53).

Two solvers:

*Light chasing* (plain m x n grids). Choose the presses of row 0; each later row's presses are
then forced (press under every light left on in the row above), and the last row's leftover
lights are an affine function of the first row, ``f_m(T) x + r``, where ``T`` is the n x n
row operator (``I + P`` in sigma-plus, ``P`` in sigma, ``P`` the path adjacency) and ``f_0 = 1``,
``f_1 = t``, ``f_{k+1} = t f_k + f_{k-1}`` (Chebyshev-like polynomials over GF(2)). Instead of
building that n x n matrix, the first row is solved in the ring ``GF(2)[x] / (f_n(x))``,
which is isomorphic to GF(2)^n through ``u ↦ u(P) e_0`` (``f_k ↦ e_k``, since ``e_0`` is a
cyclic vector of ``P``): ``f_m(T)`` becomes multiplication by a polynomial ``g``, the nullity
is ``deg gcd(g, f_n)``, and one extended Euclid solves the system. ``g = f_m(t) mod f_n`` is
a power of the 2 x 2 recurrence matrix, taken by repeated squaring. A board wider than tall is
solved transposed (the press rule is symmetric), so ``n`` is the shorter side. The cost is
O(m · n / 64) word operations for the chase plus O(log m) products and one gcd of degree-n
polynomials, against O(n³ / 64) for eliminating the n x n chase matrix. Sources: Sutner
1989 (op. cit.); M. Hunziker, A. Machiavelo, J. Park, "Chebyshev polynomials over finite
fields and reversibility of sigma-automata on square grids", Theoretical Computer Science 320
(2004) 465-483; the nullity formula deg gcd(f_m(x), f_n(x + 1)) is OEIS A159257's.

*Gauss-Jordan elimination* (tori, boards with holes, graphs of at most
:data:`~.board.GENERAL_CELLS` cells): :func:`.gf2.solve_system` on the full toggle matrix,
bit-packed.

The minimum number of presses is the least weight in the coset ``x + ker A``: the null space's
reduced basis is split into groups of disjoint support (independent sub-games, e.g. the two
colours of a sigma chessboard) and each group's ``2**d_g`` combinations are enumerated in Gray-code
order (one XOR and one popcount per step; Knuth, TAOCP vol. 4A §7.2.1.1) in pure Python up to
:data:`PYTHON_LIMIT` dimensions; beyond that a numba kernel takes :data:`TRANSFORM_BITS` of the
dimensions at a time by one Walsh-Hadamard transform per Gray-code step of the others, in
parallel chunks (:mod:`._kernels`), and only for one step per orbit of the grid's symmetries
that fix the lights (:mod:`.symmetry`; up to 8 times fewer transforms on a square). A group
too large to enumerate, or beyond the node limit, gets a local search (add any quiet pattern
that lowers the weight); then, on boards of at most :data:`CPSAT_CELLS` cells, CP-SAT
(:mod:`.cpsat`) tries to prove the minimum in the time left. ``proof["minimum"]`` is true only
when every group was settled. Every phase after the first solution checks the limits, so a
large board gets a valid answer at once and a better one as time allows (:func:`minimum`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.render import plural
from cspsolve.results import Result, Stats, Status

from .board import (
    GENERAL_CELLS,
    LightsOut,
    Presses,
    flatten,
    lowest_bits,
    transpose,
    unflatten,
)
from .budget import LimitError, Tick, never, ticker
from .gf2 import pdivmod, pgcdex, pmod, pmul, reduced_basis, solve_system
from .symmetry import CellMap, grid_maps, orbit_basis, preserving

__all__ = [
    "CPSAT_CELLS",
    "ENUMERATION_LIMIT",
    "PYTHON_LIMIT",
    "GroupSearch",
    "Solution",
    "Trace",
    "chase",
    "minimum",
    "minimum_with_witness",
    "nullity",
    "quiet_patterns",
    "solutions",
    "solve",
]

PYTHON_LIMIT = 16
"""Largest group dimension enumerated in pure Python (2**16 Gray-code steps, about 0.02 s)."""

ENUMERATION_LIMIT = 39
"""Largest group dimension, less log2 of the number of symmetries preserving its coset,
enumerated exhaustively (2**39 combinations' worth of transforms: minutes on 2 cores)."""

TRANSFORM_BITS = 13
"""The compiled enumeration takes ``2**TRANSFORM_BITS`` combinations at a time by one
Walsh-Hadamard transform (:mod:`._kernels`)."""

PREFIX_BITS = 8
"""The compiled enumeration splits a group into ``2**PREFIX_BITS`` chunks (limits are checked
between them)."""

ORBIT_SLACK = 3
"""The symmetric search's transform may take up to ``TRANSFORM_BITS + ORBIT_SLACK`` vectors
(whole orbits of basis vectors)."""

CALL_BITS = 24
"""A call of the compiled enumeration covers at least ``2**CALL_BITS`` combinations (a few
milliseconds), or the whole group."""


TICK_CELLS = 4096
"""Cells of the toggle matrix built between two calls of the tick."""

CPSAT_CELLS = 1 << 12
"""Largest board whose minimum CP-SAT is asked to prove when a group of quiet patterns is too
large to enumerate (a 64 x 64 grid); larger boards keep the local-search answer."""


@dataclass(frozen=True)
class Solution:
    """What linear algebra says about a board.

    Attributes
    ----------
    nullity : int
        Dimension of the null space of the toggle matrix.
    presses : Presses or None
        One press set that turns every light off, ``None`` when the board is unsolvable.
    witness : Presses or None
        When unsolvable: a quiet pattern with an odd number of lit cells under it (the proof).
    """

    nullity: int
    presses: Presses | None
    witness: Presses | None = None

    @property
    def solvable(self) -> bool:
        """Whether some press set turns every light off."""
        return self.presses is not None


# --- light chasing on plain grids -------------------------------------------------------------


def chase(puzzle: LightsOut, first: int) -> tuple[Presses, int]:
    """Press ``first`` in row 0, then under every light left on, row by row.

    Parameters
    ----------
    puzzle : LightsOut
        A plain grid (no torus, holes or graph).
    first : int
        The presses of row 0 (packed).

    Returns
    -------
    tuple of (Presses, int)
        The presses of every row, and the lights left on in the last row (0 when solved).
    """
    cols, lights = puzzle.cols, puzzle.lights
    full = (1 << cols) - 1
    plus = puzzle.variant == "sigma-plus"
    prev, cur = 0, first
    presses = [first]
    for r in range(puzzle.rows - 1):
        spread = ((cur << 1) & full) ^ (cur >> 1) ^ (cur if plus else 0)
        prev, cur = cur, lights[r] ^ spread ^ prev
        presses.append(cur)
    spread = ((cur << 1) & full) ^ (cur >> 1) ^ (cur if plus else 0)
    return tuple(presses), lights[-1] ^ spread ^ prev


@cache
def _basis_polynomials(cols: int) -> tuple[int, ...]:
    """``f_0 .. f_cols`` with ``f_0 = 1``, ``f_1 = x``, ``f_{k+1} = x f_k + f_{k-1}``.

    ``f_k(P) e_0 = e_k`` for the path adjacency ``P`` of ``cols`` nodes (k < cols), and
    ``f_cols`` is the characteristic polynomial of ``P`` over GF(2).
    """
    table = [1, 0b10]
    while len(table) <= cols:
        table.append((table[-1] << 1) ^ table[-2])
    return tuple(table[: cols + 1])


def _to_polynomial(vector: int, cols: int) -> int:
    """The polynomial ``u`` with ``u(P) e_0 = vector``."""
    basis = _basis_polynomials(cols)
    out = 0
    while vector:
        low = vector & -vector
        out ^= basis[low.bit_length() - 1]
        vector ^= low
    return out


def _to_vector(poly: int, cols: int) -> int:
    """The vector ``poly(P) e_0`` for a polynomial of degree < ``cols``."""
    basis = _basis_polynomials(cols)
    out = 0
    while poly:
        k = poly.bit_length() - 1
        poly ^= basis[k]
        out |= 1 << k
    return out


_Matrix = tuple[int, int, int, int]
"""A 2 x 2 matrix of GF(2) polynomials, row by row."""


@dataclass(frozen=True)
class _Chase:
    """The first-row system ``g(P) x = residual`` of a plain grid, in ``GF(2)[x] / (f_n)``."""

    modulus: int
    gcd: int
    cofactor: int
    """``s`` with ``s * g ≡ gcd (mod modulus)``."""

    @property
    def nullity(self) -> int:
        return self.gcd.bit_length() - 1


def _matmul(a: _Matrix, b: _Matrix, modulus: int) -> _Matrix:
    """Product of 2 x 2 matrices of polynomials, reduced modulo ``modulus``."""
    return (
        pmod(pmul(a[0], b[0]) ^ pmul(a[1], b[2]), modulus),
        pmod(pmul(a[0], b[1]) ^ pmul(a[1], b[3]), modulus),
        pmod(pmul(a[2], b[0]) ^ pmul(a[3], b[2]), modulus),
        pmod(pmul(a[2], b[1]) ^ pmul(a[3], b[3]), modulus),
    )


def _chebyshev(rows: int, t: int, modulus: int) -> int:
    """``F_rows mod modulus`` for ``F_0 = 1``, ``F_1 = t``, ``F_{k+1} = t F_k + F_{k-1}``.

    ``(F_{k+1}, F_k) = M^k (t, 1)`` with ``M = [[t, 1], [1, 0]]``; the power is taken by
    repeated squaring, O(log rows) products (Knuth, TAOCP vol. 2, §4.6.3).
    """
    power: _Matrix = (1, 0, 0, 1)
    step: _Matrix = (pmod(t, modulus), 1, 1, 0)
    e = rows - 1
    while e:
        if e & 1:
            power = _matmul(power, step, modulus)
        step = _matmul(step, step, modulus)
        e >>= 1
    return pmod(pmul(power[0], t) ^ power[1], modulus)


def _chase_system(rows: int, cols: int, variant: str) -> _Chase:
    modulus = _basis_polynomials(cols)[cols]
    t = 0b11 if variant == "sigma-plus" else 0b10
    d, s = pgcdex(_chebyshev(rows, t, modulus), modulus)
    return _Chase(modulus, d, s)


def _chase_kernel(puzzle: LightsOut, system: _Chase, tick: Tick) -> list[int]:
    """The first rows of a basis of the quiet patterns, in reduced echelon form (``tick`` is
    called before each row is made and reduced)."""
    base = pdivmod(system.modulus, system.gcd)[0]
    firsts = []
    for i in range(system.nullity):
        tick()
        firsts.append(_to_vector(base << i, puzzle.cols))
    return reduced_basis(firsts, tick)


def _quiet_chased(puzzle: LightsOut, firsts: Sequence[int], tick: Tick) -> Iterator[Presses]:
    """The quiet patterns of a plain grid with the given first rows (light chasing)."""
    quiet = puzzle.with_lights((0,) * puzzle.rows)
    for first in firsts:
        tick()
        yield chase(quiet, first)[0]


def _tall(puzzle: LightsOut) -> bool:
    """Whether a plain grid is solved as it is: light chasing runs along the longer side, so
    that the first-row system has the shorter side's size."""
    return puzzle.cols <= puzzle.rows


def _back(presses: Presses | None, puzzle: LightsOut) -> Presses | None:
    """Press sets of ``puzzle.transposed()`` as press sets of ``puzzle``."""
    return None if presses is None else transpose(presses, puzzle.rows)


def _solve_plain(puzzle: LightsOut, tick: Tick = never) -> Solution:
    """Light chasing along the longer side: O(rows) steps of row-wide XORs plus polynomial
    arithmetic of the shorter side's degree (milliseconds on 2048 x 2048, so a spent limit
    still gets the solution); ``tick`` is called before each quiet pattern chased for an
    unsolvable board's proof (up to ``nullity`` of them)."""
    if not _tall(puzzle):
        found = _solve_plain(puzzle.transposed(), tick)
        return Solution(found.nullity, _back(found.presses, puzzle), _back(found.witness, puzzle))
    system = _chase_system(puzzle.rows, puzzle.cols, puzzle.variant)
    residual = chase(puzzle, 0)[1]
    quotient, remainder = pdivmod(_to_polynomial(residual, puzzle.cols), system.gcd)
    if remainder:
        quiet = _quiet_chased(puzzle, _chase_kernel(puzzle, system, tick), tick)
        return Solution(system.nullity, None, _odd_quiet(puzzle, quiet))
    first = _to_vector(pmod(pmul(quotient, system.cofactor), system.modulus), puzzle.cols)
    presses, left = chase(puzzle, first)
    assert left == 0, "light chasing left lights on the last row"
    return Solution(system.nullity, presses)


# --- general boards ---------------------------------------------------------------------------


def _system(puzzle: LightsOut, tick: Tick) -> tuple[list[int], int]:
    """Rows of the toggle matrix (symmetric) and the right-hand side; a disabled cell gets the
    equation ``x_i = 0``. ``tick`` is called every :data:`TICK_CELLS` rows.

    Raises
    ------
    OptionError
        For a board of more than :data:`GENERAL_CELLS` cells.
    """
    if puzzle.cells > GENERAL_CELLS:
        raise OptionError(
            f"a {_shape(puzzle)} of {puzzle.cells:,} {puzzle.unit}s is too large for "
            f"Gauss-Jordan elimination (at most {GENERAL_CELLS:,}; plain grids go further)"
        )
    rows = []
    for i in range(puzzle.cells):
        if i % TICK_CELLS == 0:
            tick()
        rows.append(puzzle.toggles(i) if puzzle.usable(i) else 1 << i)
    return rows, puzzle.flat


def _shape(puzzle: LightsOut) -> str:
    """``graph``, ``torus``, ``grid with holes`` or ``grid``."""
    if not puzzle.is_grid:
        return "graph"
    return "torus" if puzzle.torus else "grid with holes" if puzzle.holes else "grid"


def _eliminate(puzzle: LightsOut, tick: Tick) -> tuple[Solution, list[int]]:
    """Gauss-Jordan on the full toggle matrix: the solution and the null space (flat)."""
    rows, b = _system(puzzle, tick)
    found = solve_system(rows, b, size=puzzle.cells, tick=tick)
    d = len(found.kernel)
    if found.particular is None:
        quiet = _quiet_unflattened(puzzle, found.kernel, tick)
        return Solution(d, None, _odd_quiet(puzzle, quiet)), list(found.kernel)
    presses = unflatten(found.particular, rows=puzzle.rows, cols=puzzle.cols)
    return Solution(d, presses), list(found.kernel)


def _quiet_unflattened(puzzle: LightsOut, kernel: Sequence[int], tick: Tick) -> Iterator[Presses]:
    """The quiet patterns ``kernel`` (flat) as packed rows, ``tick`` called before each."""
    for q in kernel:
        tick()
        yield unflatten(q, rows=puzzle.rows, cols=puzzle.cols)


def _solve_general(puzzle: LightsOut, tick: Tick = never) -> Solution:
    return _eliminate(puzzle, tick)[0]


def _odd_quiet(puzzle: LightsOut, quiet: Iterator[Presses]) -> Presses:
    lights = puzzle.flat
    for q in quiet:
        if (flatten(q, puzzle.cols) & lights).bit_count() % 2:
            return q
    raise AssertionError("an unsolvable board has a quiet pattern of odd overlap")


# --- public functions -------------------------------------------------------------------------


def solve(puzzle: LightsOut, tick: Tick = never) -> Solution:
    """Decide solvability and find one solution (light chasing on plain grids).

    Parameters
    ----------
    puzzle : LightsOut
        Any board (torus, holes and graphs of at most :data:`GENERAL_CELLS` cells).
    tick : callable, optional
        Called now and then (between the steps of an elimination, or before each quiet
        pattern chased to prove a plain grid unsolvable); it may raise (e.g.
        :class:`.budget.LimitError`) to abandon the work.

    Returns
    -------
    Solution
        The nullity, a press set (or None) and, when unsolvable, the quiet pattern proving it.

    Raises
    ------
    OptionError
        For a torus, holes or graph board of more than :data:`GENERAL_CELLS` cells.
    """
    return _solve_plain(puzzle, tick) if puzzle.plain else _solve_general(puzzle, tick)


def nullity(puzzle: LightsOut) -> int:
    """Dimension over GF(2) of the null space of the toggle matrix (the lights don't matter)."""
    if puzzle.plain:
        short, long = sorted((puzzle.rows, puzzle.cols))
        return _chase_system(long, short, puzzle.variant).nullity
    return len(solve_system(_system(puzzle, never)[0], 0, size=puzzle.cells).kernel)


def _plain_kernel(puzzle: LightsOut, tick: Tick) -> list[int]:
    """A reduced basis of the quiet patterns (flat ints) of a plain grid, chased along its
    longer side.

    A quiet pattern is chased from its first row, which holds its lowest set bit; so the
    patterns chased from a reduced basis of first rows are themselves a reduced basis.
    """
    assert _tall(puzzle)
    system = _chase_system(puzzle.rows, puzzle.cols, puzzle.variant)
    quiet = _quiet_chased(puzzle, _chase_kernel(puzzle, system, tick), tick)
    return [flatten(q, puzzle.cols) for q in quiet]


def quiet_patterns(puzzle: LightsOut) -> list[Presses]:
    """A basis of the quiet patterns (press sets that change no light); its length is the
    nullity."""
    if puzzle.plain and not _tall(puzzle):
        return [transpose(q, puzzle.rows) for q in quiet_patterns(puzzle.transposed())]
    kernel = _plain_kernel(puzzle, never) if puzzle.plain else _eliminate(puzzle, never)[1]
    return [unflatten(q, rows=puzzle.rows, cols=puzzle.cols) for q in kernel]


def solutions(puzzle: LightsOut) -> Iterator[Presses]:
    """Every press set that solves the board (``2**nullity`` of them; none if unsolvable)."""
    found = solve(puzzle)
    if found.presses is None:
        return
    base = flatten(found.presses, puzzle.cols)
    kernel = [flatten(q, puzzle.cols) for q in quiet_patterns(puzzle)]
    for combo in _gray(base, kernel):
        yield unflatten(combo, rows=puzzle.rows, cols=puzzle.cols)


def _gray(start: int, vectors: Sequence[int]) -> Iterator[int]:
    """``start`` plus every combination of ``vectors``, one XOR apart (reflected Gray code)."""
    cur = start
    yield cur
    for i in range(1, 1 << len(vectors)):
        cur ^= vectors[(i & -i).bit_length() - 1]
        yield cur


def _groups(vectors: Sequence[int], tick: Tick) -> list[list[int]]:
    """Split a reduced basis into groups whose supports are disjoint from each other's,
    smallest group first."""
    groups: list[tuple[int, list[int]]] = []
    for v in vectors:
        tick()
        joined = [g for g in groups if g[0] & v]
        support, members = v, [v]
        for g in joined:
            support |= g[0]
            members += g[1]
        groups = [g for g in groups if not g[0] & v] + [(support, members)]
    return sorted((members for _, members in groups), key=len)


def _lightest(start: int, vectors: Sequence[int]) -> int:
    """The combination ``start + Σ c_i v_i`` of least weight (Gray-code enumeration)."""
    best, best_weight = start, start.bit_count()
    cur = start
    for i in range(1, 1 << len(vectors)):
        cur ^= vectors[(i & -i).bit_length() - 1]
        w = cur.bit_count()
        if w < best_weight:
            best, best_weight = cur, w
    return best


def _lightest_compiled(
    start: int,
    vectors: Sequence[int],
    budget: Budget,
    *,
    low: int = TRANSFORM_BITS,
    maps: Sequence[CellMap] = (),
) -> tuple[int, bool]:
    """:func:`_lightest` by the compiled kernel (about ``low`` vectors per Walsh-Hadamard
    transform, :mod:`._kernels`), one combination per orbit of the symmetries ``maps`` that
    preserve the coset (:mod:`.symmetry`); also whether it finished within the budget."""
    import numpy as np

    from ._kernels import lightest_chunks

    support = 0
    for v in vectors:
        support |= v
    size = support.bit_length()
    try:
        orbits = orbit_basis(
            start & support, vectors, maps, low=low, most=low + ORBIT_SLACK, tick=ticker(budget)
        )
    except LimitError:
        return start, False
    vectors, low = orbits.basis, orbits.low

    def bits(v: int) -> np.ndarray:
        raw = np.frombuffer(v.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[:size]

    cells = np.flatnonzero(bits(support))
    columns = np.zeros(cells.size, np.int64)
    for i, v in enumerate(vectors):
        columns |= bits(v)[cells].astype(np.int64) << i
    first = bits(start & support)[cells]
    outside = (start & ~support).bit_count()
    prefix = min(PREFIX_BITS, len(vectors) - low)
    dtype = np.empty(0, np.int16 if cells.size < 1 << 15 else np.int32)
    images = np.array(orbits.images, np.int64).reshape(len(orbits.shifts), len(vectors) - low)
    shifts = np.array(orbits.shifts, np.int64)
    # one call per core's chunk, but at least 2**CALL_BITS combinations per call: a parallel
    # call costs about a time slice on a busy machine
    per_chunk = len(vectors) - prefix
    batch = max(os.cpu_count() or 1, 1 << max(0, CALL_BITS - per_chunk))
    best, best_weight = start, start.bit_count()
    for chunk in range(0, 1 << prefix, batch):
        if budget.exhausted():
            return best, False
        count = min(batch, (1 << prefix) - chunk)
        weights, combos = lightest_chunks(
            first, columns, low, prefix, chunk, count, dtype, images, shifts
        )
        i = int(np.argmin(weights))
        if outside + weights[i] < best_weight:
            best_weight, best = outside + int(weights[i]), start
            for j, v in enumerate(vectors):
                if int(combos[i]) >> j & 1:
                    best ^= v
    return best, True


def _descend(start: int, vectors: Sequence[int], tick: Tick, stats: Stats) -> int:
    """Local search in the coset ``start + span(vectors)``: add any vector that lowers the
    weight, until none does (a local minimum; each vector tried counts as a node)."""
    best, weight = start, start.bit_count()
    improved = True
    while improved:
        improved = False
        for v in vectors:
            stats.expanded += 1
            tick()
            w = (best ^ v).bit_count()
            if w < weight:
                best, weight, improved = best ^ v, w, True
    return best


@dataclass(frozen=True)
class GroupSearch:
    """How :func:`minimum` searched one group of quiet patterns of disjoint support."""

    size: int
    """The group's number of quiet patterns (its coset part has ``2**size`` members)."""
    search: str
    """``"enumerated"`` (every combination), ``"symmetry"`` (one combination per orbit of
    the grid's symmetries that keep the coset) or ``"local"`` (local search)."""
    complete: bool
    """Whether the group's lightest combination was found for sure."""


@dataclass
class Trace:
    """What :func:`minimum_with_witness` did, for an explanation (see :mod:`.explain`)."""

    basis: list[int] = field(default_factory=list)
    """The reduced basis of the quiet patterns, flat, of the board solved."""
    groups: list[GroupSearch] = field(default_factory=list)
    """Each group of the basis as it was searched, in order."""
    transposed: bool = False
    """Whether the board solved is the transpose of the one asked (a wide plain grid)."""


@dataclass
class _Progress:
    """The lightest press set (flat) found so far and whether every group is settled."""

    best: int
    settled: bool = True
    handed_off: bool = False
    """Whether a group was too large to enumerate (CP-SAT may then prove the minimum)."""
    groups: list[GroupSearch] = field(default_factory=list)


def _affordable(budget: Budget, nodes: int) -> bool:
    """Whether ``nodes`` more nodes fit under the node limit."""
    cap = budget.limits.max_nodes
    return cap is None or budget.stats.expanded + nodes <= cap


def _settle_group(
    group: list[int],
    progress: _Progress,
    budget: Budget,
    *,
    enumeration_limit: int,
    maps: Sequence[CellMap],
) -> None:
    """Lightest presses on one group's support: exhaustively when small enough and within the
    node limit, else by local search (then ``progress.settled`` becomes false)."""
    tick = ticker(budget)
    support = 0
    for v in group:
        support |= v
    start = progress.best & support
    size = 1 << len(group)
    kept, too_large = _symmetries(start, group, maps, budget, enumeration_limit)
    search = "enumerated"
    if too_large or not _affordable(budget, size):
        lightest, complete, search = _descend(start, group, tick, budget.stats), False, "local"
    elif len(group) <= PYTHON_LIMIT:
        tick()
        lightest, complete = _lightest(start, group), True
    else:
        lightest, complete = _lightest_compiled(start, group, budget, maps=kept)
        search = "symmetry" if kept else search
    progress.groups.append(GroupSearch(len(group), search, complete))
    if complete:
        budget.stats.expanded += size
        budget.stats.extra["combinations"] = budget.stats.extra.get("combinations", 1) + size - 1
    progress.best = (progress.best & ~support) | lightest
    progress.settled &= complete
    progress.handed_off |= too_large


def _saving(symmetries: int) -> int:
    """log2 of the work the orbit-wise search saves with ``symmetries`` maps besides the
    identity (one transform per orbit: about ``2**k / (symmetries + 1)`` of them)."""
    return (symmetries + 1).bit_length() - 1


def _symmetries(
    start: int, group: list[int], maps: Sequence[CellMap], budget: Budget, enumeration_limit: int
) -> tuple[list[CellMap], bool]:
    """The maps preserving the coset ``start + span(group)`` and whether the group is too
    large to enumerate even with them.

    The maps are looked for (:func:`.symmetry.preserving`, a few milliseconds per vector and
    map on a million cells, checking the limits) only when they can pay: for a group that
    the compiled search takes, that all the maps together would bring within
    ``enumeration_limit`` and that fits under the node limit.
    """
    if len(group) - _saving(len(maps)) > enumeration_limit:
        return [], True
    if len(group) <= PYTHON_LIMIT or not _affordable(budget, 1 << len(group)):
        return [], len(group) > enumeration_limit
    kept = preserving(start, group, maps, ticker(budget))
    return kept, len(group) - _saving(len(kept)) > enumeration_limit


def _first(puzzle: LightsOut, tick: Tick) -> tuple[Solution, list[int] | None]:
    """One solution, and the null space when the elimination gave it (``None`` on a plain
    grid, whose quiet patterns are chased afterwards)."""
    if puzzle.plain:
        return _solve_plain(puzzle, tick), None
    return _eliminate(puzzle, tick)


def minimum(
    puzzle: LightsOut, *, limits: Limits | None = None, enumeration_limit: int = ENUMERATION_LIMIT
) -> Result[Presses]:
    """A press set of the fewest presses, proven minimal when possible.

    Phases, each checking ``limits``: one solution (light chasing, which takes milliseconds,
    or elimination; only the time limit and cancellation stop it, as it expands no node); a
    reduced basis of the quiet patterns, split into groups of disjoint support; per group,
    from the smallest, the lightest presses of its coset by Gray-code enumeration (up to
    ``enumeration_limit`` patterns, within the node limit; a node is a press set looked at;
    the grid's symmetries are looked for only when they can bring a group within reach) or
    else by local search; finally, on boards of at most :data:`CPSAT_CELLS` cells where a
    group was too large to enumerate, CP-SAT in the time left.

    Parameters
    ----------
    puzzle : LightsOut
        Any board.
    limits : Limits, optional
        Time and node limits and cancellation.
    enumeration_limit : int
        Largest independent group of quiet patterns enumerated exhaustively, less log2 of
        the number of the grid's symmetries that preserve its coset.

    Returns
    -------
    Result
        ``optimal`` with ``proof["minimum"] = True`` when proven; ``solved`` with
        ``proof["minimum"] = False`` when a limit or the board's size left it unproven (the
        lightest press set seen); ``unsolvable`` with the quiet pattern in ``message``;
        ``limit``/``cancelled`` (``proof["nullity"]`` ``None``) when stopped before any
        solution. ``proof["nullity"]``; ``stats.cost`` the presses, ``stats.expanded`` the
        press sets looked at.

    Raises
    ------
    OptionError
        For a torus, holes or graph board of more than :data:`GENERAL_CELLS` cells.
    """
    return minimum_with_witness(puzzle, limits=limits, enumeration_limit=enumeration_limit)[0]


def minimum_with_witness(
    puzzle: LightsOut,
    *,
    limits: Limits | None = None,
    enumeration_limit: int = ENUMERATION_LIMIT,
    trace: Trace | None = None,
) -> tuple[Result[Presses], Presses | None]:
    """:func:`minimum`, and the quiet pattern proving the board unsolvable (``None`` unless
    the status is ``unsolvable``); ``trace``, when given, receives the quiet patterns and how
    each group of them was searched."""
    if puzzle.plain and not _tall(puzzle):
        result, witness = minimum_with_witness(
            puzzle.transposed(), limits=limits, enumeration_limit=enumeration_limit, trace=trace
        )
        if trace is not None:
            trace.transposed = True
        result = result.map(lambda presses: transpose(presses, puzzle.rows))
        witness = _back(witness, puzzle)
        if witness is not None:
            result.message = unsolvable_reason(puzzle, Solution(0, None, witness))
        return result, witness
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    try:
        found, kernel = _first(puzzle, ticker(budget, nodes=False))
    except LimitError as e:
        return Result(e.status, None, budget.finish(), "algebra", proof={"nullity": None}), None
    proof: dict[str, object] = {"nullity": found.nullity}
    if found.presses is None:
        unsolvable: Result[Presses] = Result(
            Status.UNSOLVABLE,
            None,
            budget.finish(),
            "algebra",
            proof=proof,
            message=unsolvable_reason(puzzle, found),
        )
        return unsolvable, found.witness
    progress = _Progress(flatten(found.presses, puzzle.cols))
    stats.extra["combinations"] = 1
    try:
        tick = ticker(budget)
        basis = _plain_kernel(puzzle, tick) if kernel is None else reduced_basis(kernel, tick)
        if trace is not None:
            trace.basis = basis
        maps = grid_maps(puzzle, tick) if puzzle.plain else []
        for group in _groups(basis, tick):
            _settle_group(group, progress, budget, enumeration_limit=enumeration_limit, maps=maps)
    except LimitError as e:
        progress.settled = False
        proof["stopped"] = e.status.value
    if trace is not None:
        trace.groups = progress.groups
    status = Status.OPTIMAL if progress.settled else Status.SOLVED
    presses = unflatten(progress.best, rows=puzzle.rows, cols=puzzle.cols)
    if progress.handed_off and puzzle.cells <= CPSAT_CELLS and budget.exhausted() is None:
        status, presses = _cpsat_minimum(puzzle, presses, budget)
    proof["minimum"] = status is Status.OPTIMAL
    stats = budget.finish()
    stats.cost = stats.depth = sum(p.bit_count() for p in presses)
    return Result(status, presses, stats, "algebra", proof=proof), None


def _cpsat_minimum(puzzle: LightsOut, hint: Presses, budget: Budget) -> tuple[Status, Presses]:
    """Improve ``hint`` with CP-SAT in the time left; OPTIMAL when CP-SAT proves it."""
    from .cpsat import solve as cpsat_solve

    limits = Limits(time_limit=budget.remaining(), cancel=budget.limits.cancel)
    result = cpsat_solve(puzzle, limits=limits, hint=hint)
    budget.stats.extra["cpsat_seconds"] = round(result.stats.seconds, 6)
    if result.solution is not None and result.stats.cost <= sum(p.bit_count() for p in hint):
        proven = result.status is Status.OPTIMAL
        return (Status.OPTIMAL if proven else Status.SOLVED), result.solution
    return Status.SOLVED, hint


def unsolvable_reason(puzzle: LightsOut, found: Solution) -> str:
    """One line naming the quiet pattern that proves a board unsolvable."""
    assert found.witness is not None
    q = flatten(found.witness, puzzle.cols)
    overlap = (q & puzzle.flat).bit_count()
    size = q.bit_count()
    shown = " ".join(puzzle.name(i) for i in lowest_bits(q, 12))
    shown += " ..." if size > 12 else ""
    unit = puzzle.unit
    return (
        f"unsolvable: the quiet pattern {shown} ({plural(size, unit)}; pressing them changes "
        f"nothing) covers {plural(overlap, 'lit ' + unit)}, an odd number, and every press "
        "keeps that parity"
    )
