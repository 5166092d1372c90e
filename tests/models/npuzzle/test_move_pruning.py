"""Duplicate-move pruning (:mod:`cspsolve.models.npuzzle.move_pruning`) against brute force:
every move sequence of up to 8 moves that the automaton refuses has one it accepts, no longer,
with the same effect and the blank kept within the refused one's rectangle (so a search that
refuses it loses no shortest path); the automaton refuses more than the moves straight back;
the shipped list and the directions table. The searches that use it are checked against
breadth-first search in ``test_differential.py``."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from cspsolve.models.npuzzle.board import MOVES, neighbours
from cspsolve.models.npuzzle.move_pruning import (
    DEPTH,
    DIRECTIONS,
    SHIPPED,
    automaton,
    directions,
    duplicates,
    shipped,
)
from cspsolve.models.npuzzle.pdb import adjacency

Cell = tuple[int, int]


def effect(moves: tuple[int, ...]) -> tuple[tuple[Cell, tuple[tuple[Cell, Cell], ...]], Cell, Cell]:
    """Where ``moves`` leave the blank and every tile off its cell (a board of labelled cells,
    simulated move by move), and the corners of the rectangle the blank's path spans."""
    board: dict[Cell, Cell] = {}  # cell -> the tile on it, named by its first cell
    blank = (0, 0)
    low, high = blank, blank
    for m in moves:
        dr, dc = DIRECTIONS[m]
        to = (blank[0] + dr, blank[1] + dc)
        board[blank] = board.get(to, to)
        board[to] = (0, 0)  # the blank's label
        blank = to
        low, high = (
            (min(low[0], to[0]), min(low[1], to[1])),
            (max(high[0], to[0]), max(high[1], to[1])),
        )
    moved = tuple(
        sorted((cell, tile) for cell, tile in board.items() if cell != tile and cell != blank)
    )
    return (blank, moved), low, high


def within(inner: tuple[Cell, Cell], outer: tuple[Cell, Cell]) -> bool:
    """Whether the rectangle of corners ``inner`` lies in that of ``outer``."""
    (lo, hi), (low, high) = inner, outer
    return lo[0] >= low[0] and lo[1] >= low[1] and hi[0] <= high[0] and hi[1] <= high[1]


def accepted(table: np.ndarray, moves: tuple[int, ...]) -> bool:
    state = 0
    for m in moves:
        state = table[state, m]
        if state < 0:
            return False
    return True


@pytest.mark.parametrize("depth", [6, 8])
def test_every_refused_sequence_has_an_accepted_one_as_short_within_its_rectangle(
    depth: int,
) -> None:
    table = automaton(depth)
    kept: dict[object, list[tuple[int, Cell, Cell]]] = {}
    refused = []
    for n in range(depth + 1):
        for moves in itertools.product(range(4), repeat=n):
            key, low, high = effect(moves)
            if accepted(table, moves):
                kept.setdefault(key, []).append((n, low, high))
            else:
                refused.append((moves, key, low, high))
    assert refused
    for moves, key, low, high in refused:
        assert any(
            n <= len(moves) and within((lo, hi), (low, high)) for n, lo, hi in kept.get(key, [])
        ), moves


def test_the_automaton_refuses_moves_straight_back_and_more() -> None:
    table = automaton(8)
    back = {0: 3, 1: 2, 2: 1, 3: 0}
    for m, n in back.items():
        assert not accepted(table, (m, n))
    accepted_8 = sum(accepted(table, moves) for moves in itertools.product(range(4), repeat=8))
    assert accepted_8 < 4 * 3**7  # parent pruning alone accepts 4 * 3**7


def test_directions_follow_the_moves_of_the_board() -> None:
    for rows, cols in [(3, 3), (2, 4), (5, 5)]:
        table = directions(rows, cols, adjacency(rows, cols))
        for cell, moves in enumerate(neighbours(rows, cols)):
            assert [DIRECTIONS[d] for d in table[cell] if d >= 0] == [MOVES[n] for n, _ in moves]


def test_the_shipped_duplicates_are_found_again() -> None:
    """Regenerate with ``json.dumps({"depth": DEPTH, "duplicates": ["".join("ULRD"[m] for m in
    s) for s in duplicates(DEPTH)]}, indent=0)`` into :data:`SHIPPED`."""
    assert shipped() == duplicates(DEPTH)
    assert json.loads(SHIPPED.read_text(encoding="utf-8"))["depth"] == DEPTH


@pytest.mark.parametrize("depth", [2, 6, 7, 9])
def test_shallower_duplicates_are_the_shorter_ones_of_a_deeper_search(depth: int) -> None:
    assert [d for d in shipped() if len(d) <= depth] == duplicates(depth)
