"""A plan, not proven optimal, for boards too large for an exact search: beam search.

Breadth-first search over bit-packed states (:func:`.packed.search`) that keeps, of each new
layer, only the ``width`` states of least :data:`.packed.BEAM_SCORE` (beam search: Lowerre, "The
HARPY speech recognition system", PhD thesis, Carnegie Mellon University, 1976; Zhou & Hansen,
"Beam-stack search", *ICAPS* 2005, §2). States left out stay in the hash table, so a beam can
run dry; the search is then run again four times wider, until a plan is found, a limit stops
it, or the width passes :data:`MOST_WIDTH`. Every plan found is a real plan (the checker
replays it); its length is an upper bound on the optimum.
"""

from __future__ import annotations

from dataclasses import dataclass

from cspsolve.limits import Budget

from .board import Board, Move
from .packed import LEVELS, Packing, search

__all__ = ["FIRST_WIDTH", "MOST_WIDTH", "Beam", "plan"]

FIRST_WIDTH = 1 << 14
"""States kept a layer by the first beam."""
MOST_WIDTH = 1 << 22
"""The widest beam tried."""


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
            return Beam(layers.plan(layers.goal), width)
        if layers.stopped is not None or 4 * width > MOST_WIDTH:
            return Beam(None, width)
        width *= 4
