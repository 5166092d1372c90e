"""A plan, not proven optimal, for boards too large for an exact search: beam search.

Breadth-first search over bit-packed states (:func:`.packed.search`) that keeps, of each new
layer, only the ``width`` states of least :data:`.packed.BEAM_SCORE` (beam search: Lowerre, "The
HARPY speech recognition system", PhD thesis, Carnegie Mellon University, 1976; Zhou & Hansen,
"Beam-stack search", *ICAPS* 2005, §2). States left out stay in the hash table, so a beam can
run dry; the search is then run again four times wider, until a plan is found, a limit stops
it, or the width passes :data:`MOST_WIDTH`. Every plan found is a real plan (the checker
replays it); its length is an upper bound on the optimum.

A beam leaves states out, so its plan may reach in several moves a position that one slide
reaches (the position one slide away was left out of its layer). :func:`shortcut` replaces
each such run of moves by the one slide, looking :data:`LOOKAHEAD` positions ahead.
"""

from __future__ import annotations

from dataclasses import dataclass

from cspsolve.limits import Budget

from .board import Board, Move
from .packed import LEVELS, Packing, search

__all__ = ["FIRST_WIDTH", "LOOKAHEAD", "MOST_WIDTH", "Beam", "plan", "shortcut"]

FIRST_WIDTH = 1 << 14
"""States kept a layer by the first beam."""
MOST_WIDTH = 1 << 22
"""The widest beam tried."""
LOOKAHEAD = 64
"""Positions ahead of each one of a plan that :func:`shortcut` tries to reach in one slide."""


@dataclass(frozen=True)
class Beam:
    """What :func:`plan` found.

    Attributes
    ----------
    moves : list of Move or None
        A plan (one-cell or any-distance slides, as the search's edges), or None.
    width : int
        The width of the last beam run.
    """

    moves: list[Move] | None
    width: int


def plan(
    board: Board,
    *,
    budget: Budget,
    steps: bool = False,
    max_states: int | None = None,
    width: int = FIRST_WIDTH,
) -> Beam:
    """A plan for ``board`` by beam search (module text), within ``budget``.

    Parameters
    ----------
    board : Board
        The start position.
    budget : Budget
        The time, node and cancellation account; its stats count every beam's work.
    steps : bool
        Edges are one-cell slides instead of slides of any distance.
    max_states : int, optional
        The states each beam run may keep (hash table included), as :func:`.packed.search`.
    width : int
        The first beam's width.

    Returns
    -------
    Beam
        The plan (None when every width up to :data:`MOST_WIDTH` ran dry, or a limit or the
        memory stopped the search) and the last width tried.
    """
    packing = Packing.of(board)
    start = packing.start()
    while True:
        layers = search(
            packing,
            start,
            budget=budget,
            level=LEVELS["blockers"],
            steps=steps,
            max_states=max_states,
            width=width,
        )
        if layers.goal >= 0:
            return Beam(shortcut(board, layers.plan(layers.goal), steps=steps), width)
        if layers.stopped is not None or 4 * width > MOST_WIDTH:
            return Beam(None, width)
        width *= 4


def shortcut(board: Board, moves: list[Move], *, steps: bool = False) -> list[Move]:
    """``moves`` (a legal plan from ``board``) with each run of moves that ends one slide away
    from where it started replaced by that slide, when it costs less (module text).

    From each position of the plan, the farthest of the next :data:`LOOKAHEAD` that differs
    from it in one piece's offset alone, with the cells between free, is reached in one slide
    (or none, for the same position). Under the steps metric (``steps``: the moves are one-cell
    steps) a run is replaced only by fewer steps, written as one-cell steps. Consecutive moves
    of one piece left at the edge of the look-ahead are joined last, so that the plan's count
    is that of :func:`.board.merged`.

    Examples
    --------
    >>> from .board import Piece
    >>> board = Board(6, (Piece("A", 2, 0, 2, True), Piece("B", 0, 5, 2, False)), frozenset(), "A")
    >>> plan = [Move("A", 1), Move("B", 1), Move("B", -1), Move("A", 3)]
    >>> [str(m) for m in shortcut(board, plan)]
    ['A+4']
    >>> [str(m) for m in shortcut(board, [Move("B", 3), Move("A", 4)])]
    ['B+3', 'A+4']
    """
    positions = [tuple(p.offset for p in board.pieces)]
    index = {p.name: i for i, p in enumerate(board.pieces)}
    for move in moves:
        offsets = list(positions[-1])
        offsets[index[move.piece]] += move.delta
        positions.append(tuple(offsets))
    out: list[Move] = []
    at = 0
    while at < len(moves):
        found = _farthest_slide(board, positions, at, steps)
        if found is None:
            out.append(moves[at])
            at += 1
        else:
            at, edges = found
            out += edges
    return _joined(out, steps)


def _joined(moves: list[Move], steps: bool) -> list[Move]:
    """``moves`` with consecutive slides of one piece joined into one (dropped when they add
    up to none); with ``steps``, only one-cell steps that undo each other are dropped. Its
    moves then number as many as those of :func:`.board.merged` (its steps as many, too)."""
    out: list[Move] = []
    for move in moves:
        if out and out[-1].piece == move.piece and (not steps or out[-1].delta == -move.delta):
            delta = out.pop().delta + move.delta
            if delta:
                out.append(Move(move.piece, delta))
        else:
            out.append(move)
    return out


def _farthest_slide(
    board: Board, positions: list[tuple[int, ...]], at: int, steps: bool
) -> tuple[int, list[Move]] | None:
    """The farthest position within :data:`LOOKAHEAD` after ``positions[at]`` that one slide
    (or none) reaches from it for less than the plan's moves between, and that slide as edges
    of the search (one-cell steps with ``steps``); None when there is none."""
    here = positions[at]
    taken = _taken(board, here)
    for to in range(min(len(positions) - 1, at + LOOKAHEAD), at + 1, -1):
        there = positions[to]
        changed = [i for i, (a, b) in enumerate(zip(here, there, strict=True)) if a != b]
        if not changed:
            return to, []
        if len(changed) > 1:
            continue
        (i,) = changed
        piece, delta = board.pieces[i], there[i] - here[i]
        if (abs(delta) if steps else 1) >= to - at:  # each move between is one edge
            continue
        swept = {cell for o in range(min(here[i], there[i]), max(here[i], there[i]) + 1)
                 for cell in piece.cells(o)}  # fmt: skip
        if not (swept - set(piece.cells(here[i]))) & taken:
            one = 1 if delta > 0 else -1
            return to, [Move(piece.name, one)] * abs(delta) if steps else [Move(piece.name, delta)]
    return None


def _taken(board: Board, offsets: tuple[int, ...]) -> set[tuple[int, int]]:
    """The cells of the walls and of every piece at ``offsets``."""
    taken = set(board.walls)
    for piece, offset in zip(board.pieces, offsets, strict=True):
        taken.update(piece.cells(offset))
    return taken
