"""Symmetries of a Lights Out coset, to search one combination per orbit.

A plain grid's press rule is invariant under the grid's symmetries (the dihedral group of the
rectangle, or of the square: 4 or 8 maps of the cells). When such a map ``g`` also fixes the
lights, it maps solutions to solutions of the same weight, so the solution coset
``x + span(v_i)`` is a union of orbits and its least weight is the least over one combination
per orbit. :func:`orbit_basis` keeps the maps that provably preserve a group's span and coset
(each image is reduced against the span), puts first a ``g``-invariant subspace ``L`` (spanned
by orbits of basis vectors) and expresses every ``g`` on the quotient: writing a combination
``(q, p)`` with ``q`` over ``L`` and ``p`` over the rest, ``g`` maps the fibre ``p`` (all
``q``) onto the fibre ``S_g p + t_g``, so only the fibres with ``p`` the least of its orbit
(``p <= S_g p + t_g`` for every ``g``, as integers) need a search (the canonical
representative of an orbit, as in isomorph rejection: B. D. McKay, "Isomorph-free exhaustive
generation", J. Algorithms 26 (1998) 306-324; here the group is explicit and tiny).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .board import LightsOut
from .budget import Tick, never

__all__ = ["CellMap", "Orbits", "grid_maps", "orbit_basis", "preserving"]

CellMap = Callable[[int], int]
"""A permutation of the cells, applied to a flat bit vector."""


def grid_maps(puzzle: LightsOut, tick: Tick = never) -> list[CellMap]:
    """The symmetries of a plain grid, other than the identity, that fix its lights.

    Flips and the half turn of any rectangle; on a square also the two transpositions and
    the quarter turns. ``tick`` is called before each map is tried on the lights (a few
    milliseconds each on a million cells); it may raise to stop.
    """
    rows, cols = puzzle.rows, puzzle.cols
    moves: list[Callable[[NDArray[np.uint8]], NDArray[np.uint8]]] = [
        np.flipud,
        np.fliplr,
        lambda a: np.rot90(a, 2),
    ]
    if rows == cols:
        moves += [
            np.transpose,
            lambda a: np.rot90(a, 2).T,
            lambda a: np.rot90(a, 1),
            lambda a: np.rot90(a, 3),
        ]
    size = rows * cols

    def cell_map(move: Callable[[NDArray[np.uint8]], NDArray[np.uint8]]) -> CellMap:
        def apply(v: int) -> int:
            raw = np.frombuffer(v.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
            grid = np.unpackbits(raw, bitorder="little")[:size].reshape(rows, cols)
            out = np.packbits(np.ascontiguousarray(move(grid)).ravel(), bitorder="little")
            return int.from_bytes(out.tobytes(), "little")

        return apply

    lights = puzzle.flat
    kept = []
    for move in moves:
        tick()
        g = cell_map(move)
        if g(lights) == lights:
            kept.append(g)
    return kept


class _Span:
    """A growing set of independent vectors, with the coordinates of any vector in their span
    (forward elimination; pivots are lowest set bits)."""

    def __init__(self) -> None:
        self.vectors: list[int] = []
        self._rows: list[tuple[int, int, int]] = []  # pivot bit, reduced vector, combination

    def coordinates(self, v: int) -> int | None:
        """Bit ``i`` set when ``vectors[i]`` is in the combination giving ``v``; ``None`` when
        ``v`` is outside the span."""
        combo = 0
        for pivot, row, c in self._rows:
            if v & pivot:
                v ^= row
                combo ^= c
        return None if v else combo

    def add(self, v: int) -> bool:
        """Add ``v`` when independent of the vectors so far; whether it was."""
        original, combo = v, 1 << len(self.vectors)
        for pivot, row, c in self._rows:
            if v & pivot:
                v ^= row
                combo ^= c
        if not v:
            return False
        self.vectors.append(original)
        self._rows.append((v & -v, v, combo))
        return True


@dataclass(frozen=True)
class Orbits:
    """A basis of a coset's directions arranged for an orbit-wise search.

    Attributes
    ----------
    basis : list of int
        The directions: the first ``low`` span an invariant subspace ``L``.
    low : int
        Dimension of ``L``.
    images : list of list of int
        Per kept symmetry ``g``, column ``j`` of ``S_g``: the coordinates over
        ``basis[low:]`` of ``g(basis[low + j])`` (its ``L`` part dropped).
    shifts : list of int
        Per kept symmetry, ``t_g``: the coordinates over ``basis[low:]`` of
        ``g(start) + start``.
    """

    basis: list[int]
    low: int
    images: list[list[int]]
    shifts: list[int]


def preserving(
    start: int, vectors: Sequence[int], maps: Sequence[CellMap], tick: Tick = never
) -> list[CellMap]:
    """The maps that send every vector into ``span(vectors)`` and ``start`` into the coset
    ``start + span(vectors)`` (checked by reduction; with a group of maps, a subgroup).

    ``tick`` is called before each vector is added to the span and before each image is
    mapped and reduced (each costs a few milliseconds on a million cells); it may raise
    (e.g. :class:`.budget.LimitError`) to stop.
    """
    if not maps:
        return []
    span = _Span()
    for v in vectors:
        tick()
        span.add(v)

    def inside(v: int) -> bool:
        tick()
        return span.coordinates(v) is not None

    return [g for g in maps if inside(g(start) ^ start) and all(inside(g(v)) for v in vectors)]


def orbit_basis(
    start: int,
    vectors: Sequence[int],
    maps: Sequence[CellMap],
    *,
    low: int,
    most: int,
    tick: Tick = never,
) -> Orbits:
    """Arrange ``vectors`` (independent) for a search of ``start + span(vectors)`` by orbits.

    Parameters
    ----------
    start : int
        A point of the coset.
    vectors : sequence of int
        A basis of the coset's directions.
    maps : sequence of callable
        Candidate symmetries (a group without its identity, e.g. :func:`grid_maps`); only those
        :func:`preserving` the coset are kept.
    low : int
        Wanted dimension of the invariant subspace ``L`` (orbits of basis vectors are added
        while it is smaller).
    most : int
        Largest dimension of ``L``: an orbit that would go past it is skipped.
    tick : callable, optional
        Called between steps (each maps or reduces one vector); it may raise to stop.

    Returns
    -------
    Orbits
        Without a kept symmetry, ``vectors`` as they are and ``L`` the span of the first
        ``min(low, len(vectors))``.
    """
    kept = preserving(start, vectors, maps, tick)
    invariant = _Span()
    if kept:
        for v in vectors:
            if len(invariant.vectors) >= low:
                break
            trial = _Span()
            for u in [*invariant.vectors, v, *(g(v) for g in kept)]:
                tick()
                trial.add(u)
            if len(trial.vectors) <= most:
                invariant = trial
    if not invariant.vectors:
        return Orbits(list(vectors), min(low, len(vectors)), [], [])
    dim = len(invariant.vectors)
    for v in vectors:
        tick()
        invariant.add(v)
    basis = invariant.vectors

    def quotient(v: int) -> int:
        tick()
        combo = invariant.coordinates(v)
        assert combo is not None, "a kept symmetry left the span"
        return combo >> dim

    images = [[quotient(g(w)) for w in basis[dim:]] for g in kept]
    shifts = [quotient(g(start) ^ start) for g in kept]
    return Orbits(basis, dim, images, shifts)
