"""Duplicate-move pruning by a finite-state machine: the move sequences of the blank that another
sequence, no longer, does exactly as well, found once and refused by an automaton as IDA*
walks (Taylor & Korf, "Pruning duplicate nodes in depth-first search", AAAI 1993).

:func:`duplicates` searches the blank's move sequences breadth-first on an unbounded board, in
the order (length, then the moves ``U L R D``), and calls a sequence a duplicate when one found
before it leaves every tile where it leaves them and keeps the blank within the rectangle the
sequence's own blank path spans. Such a replacement is no longer and applies wherever the
duplicate does (a path on a rectangular board stays on it when its rectangle does), so
refusing every duplicate, anywhere in a path, keeps a shortest path to every board: the least
of them in that order contains no duplicate (replacing one would give a lesser path). The
sequences of two moves that undo each other are the first duplicates; the next are of six.

:func:`automaton` is the Aho-Corasick automaton of those sequences (Aho & Corasick, "Efficient
string matching", *CACM* 18(6), 1975): a state per prefix, a move into a state that ends a
duplicate refused (-1), so that a search carries one state per node and refuses a move by one
table lookup.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from .board import MOVES

__all__ = ["DEPTH", "DIRECTIONS", "SHIPPED", "automaton", "directions", "duplicates", "shipped"]

DIRECTIONS = tuple(MOVES[name] for name in "ULRD")
"""The blank's steps ``(row, column)`` in the order of :func:`.board.neighbours`, numbered 0-3."""

DEPTH = 10
"""The longest duplicate :func:`automaton` refuses by default."""

Moves = tuple[int, ...]
_Box = tuple[int, int, int, int]
"""The rows and columns a blank path spans: ``(top, bottom, left, right)``."""


def _within(inner: _Box, outer: _Box) -> bool:
    """Whether the rectangle ``inner`` lies in ``outer``."""
    top, bottom, left, right = outer
    return inner[0] >= top and inner[1] <= bottom and inner[2] >= left and inner[3] <= right


def _spanned(box: _Box, cell: tuple[int, int]) -> _Box:
    """The rectangle ``box`` grown to hold ``cell``."""
    return (min(box[0], cell[0]), max(box[1], cell[0]), min(box[2], cell[1]), max(box[3], cell[1]))


def duplicates(depth: int) -> list[Moves]:
    """The duplicate move sequences of up to ``depth`` moves that contain no shorter duplicate.

    Parameters
    ----------
    depth : int
        The longest sequence tried.

    Returns
    -------
    list of tuple of int
        Each a sequence of directions (indices into :data:`DIRECTIONS`), in the order found.

    Notes
    -----
    A sequence's effect is where it leaves the blank and the tiles it moved, each tile named by
    its starting cell, relative to the blank's start. Sequences are extended only while they
    are not duplicates; the cost is about ``3 ** depth`` steps in plain Python (2 s at depth
    10, 30 s at 12).
    """
    start: tuple[tuple[int, int], frozenset[tuple[tuple[int, int], tuple[int, int]]]]
    start = ((0, 0), frozenset())
    seen: dict[object, list[_Box]] = {start: [(0, 0, 0, 0)]}
    frontier: list[tuple[Moves, tuple[int, int], dict[tuple[int, int], tuple[int, int]], _Box]]
    frontier = [((), (0, 0), {}, (0, 0, 0, 0))]
    found: list[Moves] = []
    for _ in range(depth):
        grown = []
        for moves, blank, moved, box in frontier:
            for m, (dr, dc) in enumerate(DIRECTIONS):
                to = (blank[0] + dr, blank[1] + dc)
                after = dict(moved)
                tile = after.pop(to, to)  # the tile on `to` slides onto the blank's cell
                if tile != blank:
                    after[blank] = tile
                span = _spanned(box, to)
                spans = seen.setdefault((to, frozenset(after.items())), [])
                if any(_within(earlier, span) for earlier in spans):
                    found.append((*moves, m))
                else:
                    spans.append(span)
                    grown.append(((*moves, m), to, after, span))
        frontier = grown
    every = set(found)
    return [s for s in found if not any(s[i:] in every for i in range(1, len(s)))]


_LETTERS = "ULRD"
"""The directions' letters, in order."""

SHIPPED = Path(__file__).with_name("duplicate_moves.json")
"""The duplicates of up to :data:`DEPTH` moves (as the letters ``U L R D``), shipped with the
package: :func:`duplicates` takes 2 s to find them (a test checks that it finds exactly
these)."""


@functools.cache
def shipped() -> list[Moves]:
    """The duplicates of :data:`SHIPPED`, as :func:`duplicates` gives them."""
    info = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return [tuple(_LETTERS.index(letter) for letter in word) for word in info["duplicates"]]


@functools.cache
def automaton(depth: int = DEPTH) -> np.ndarray:
    """The automaton that refuses the :func:`duplicates` of up to ``depth`` moves (those
    :func:`shipped` when ``depth <= DEPTH``: the duplicates of up to ``depth`` moves are the
    shorter ones of a deeper search).

    Returns
    -------
    numpy.ndarray of int64, shape (states, 4)
        ``table[state, direction]``: the state after the move, or -1 when the move completes a
        duplicate. A search starts in state 0. A read-only array, one per process and depth.
    """
    goto = [[-1] * 4]
    ends = [False]
    found = [d for d in shipped() if len(d) <= depth] if depth <= DEPTH else duplicates(depth)
    for sequence in found:
        state = 0
        for m in sequence:
            if goto[state][m] < 0:
                goto[state][m] = len(goto)
                goto.append([-1] * 4)
                ends.append(False)
            state = goto[state][m]
        ends[state] = True
    fail = [0] * len(goto)
    order = []
    for m in range(4):
        if goto[0][m] < 0:
            goto[0][m] = 0
        else:
            order.append(goto[0][m])
    for state in order:  # breadth-first: a state's failure link is settled before its children
        ends[state] = ends[state] or ends[fail[state]]
        for m in range(4):
            child = goto[state][m]
            if child < 0:
                goto[state][m] = goto[fail[state]][m]
            else:
                fail[child] = goto[fail[state]][m]
                order.append(child)
    table = np.array(goto, np.int64)
    table[np.array(ends)[table]] = -1
    table.flags.writeable = False
    return table


def directions(rows: int, cols: int, adjacent: np.ndarray) -> np.ndarray:
    """``direction[cell, m]``: the direction (index into :data:`DIRECTIONS`) of the move to
    ``adjacent[cell][m]`` (:func:`.pdb.adjacency`), -1 where that is -1.

    Returns
    -------
    numpy.ndarray of int64, shape (rows * cols, 4)
    """
    table = np.full((rows * cols, 4), -1, np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for m, target in enumerate(adjacent[cell]):
            if target >= 0:
                step = (target // cols - r, target % cols - c)
                table[cell, m] = DIRECTIONS.index(step)
    return table
