"""Breadth-first search of a board's cluster: the ``bfs`` method.

Breadth-first search over slides (or one-cell steps) stops when it generates a goal position,
whose depth is then the optimum (Russell & Norvig, *Artificial Intelligence: A Modern
Approach*, 4th ed., §3.4.1, early goal test), so ``bfs`` is optimal under both metrics.

Loading the compiled search (numba, its cached kernels and numpy) costs a process about 0.35 s
here, several times what a whole small search costs in plain Python (about 7 µs a state). The
method therefore first runs :func:`search`, in plain Python, which gives up after a number of
expanded states (:data:`QUICK_EXPANSIONS`, in the first search of a process only); only a
board that needs more loads the compiled search over the compact states of :mod:`.cluster`
(:func:`.cluster.explore`).

In plain Python a position is a tuple of piece offsets along their axes, known by its key (the
offsets as digits in base ``size``), and carries its occupancy, a bit set of the ``size *
size`` cells (walls included), updated by each slide. A slide of piece ``i`` from offset ``o``
to ``k`` is legal when the piece fits, cell by cell, on the way: its cells at every offset
between are free of the other pieces.

:func:`breadth_first` chooses between the two: plain Python first, then the compiled search when
the board's positions fit its key (:func:`fits`), else plain Python to the end. :func:`run` is
the method's runner; it is the default on boards of at most :data:`LARGEST_DEFAULT` cells a
side (:func:`default`) and refuses boards whose positions do not fit the key (:func:`refuses`).
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import Any, NamedTuple

from cspsolve import compiling
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .board import Board, Move, merged

__all__ = [
    "ALWAYS_FITS",
    "LARGEST_DEFAULT",
    "QUICK_EXPANSIONS",
    "Outcome",
    "breadth_first",
    "default",
    "fits",
    "refuses",
    "result",
    "run",
    "search",
]

Parents = dict[int, tuple[int, int, int] | None]
"""The key of each position found, mapped to the key it was reached from and the slide (piece
index, signed distance), ``None`` for the start."""


class Outcome(NamedTuple):
    """How a breadth-first search ended.

    Attributes
    ----------
    plan : list of Move or None
        An optimal plan, one move per edge (its length is the optimal cost); ``None`` when
        none was found.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when the budget stopped the search.
    positions : int
        Positions found; with neither a plan nor a stop, the whole cluster, none of them a
        goal (the board is unsolvable).
    """

    plan: list[Move] | None
    stopped: Status | None
    positions: int


QUICK_EXPANSIONS = 25_000
"""Positions worth expanding in plain Python (about 0.2 s) before loading the compiled search
instead (about 0.35 s to load)."""
_CHECK = 64
"""Expansions between two checks of the limits (64 expansions of a 12x12 board of 44 pieces
take about 0.02 s)."""


def _masks(board: Board) -> tuple[int, list[list[int]]]:
    """The walls' bit set, and each piece's cells as a bit set at every offset on its axis."""
    n = board.size
    walls = sum(1 << (r * n + c) for r, c in board.walls)
    masks = [
        [sum(1 << (r * n + c) for r, c in p.cells(o)) for o in range(n - p.length + 1)]
        for p in board.pieces
    ]
    return walls, masks


def _plan(board: Board, parents: Parents, goal: int) -> list[Move]:
    """The slides from the start to ``goal`` along the search tree."""
    names = [p.name for p in board.pieces]
    moves = []
    step = parents[goal]
    while step is not None:
        before, piece, delta = step
        moves.append(Move(names[piece], delta))
        step = parents[before]
    return moves[::-1]


def search(board: Board, budget: Budget, *, steps: bool, most: float) -> Outcome | None:
    """An optimal plan by breadth-first search, or ``None`` past ``most`` expansions.

    Parameters
    ----------
    board : Board
        The start position.
    budget : Budget
        The run's limits, checked every 64 expansions and at the node limit, and counters
        (``expanded``, ``generated``, ``max_frontier``).
    steps : bool
        Edges are one-cell slides (the ``steps`` metric) instead of slides of any distance.
    most : float
        Expansions (``math.inf`` for no bound) after which the search gives up and returns ``None``.

    Returns
    -------
    Outcome or None
        How the search ended; ``None`` when it reached ``most`` expansions first.
    """
    stats = budget.stats
    walls, masks = _masks(board)
    red, goal = board.red_index, board.goal_offset
    start = tuple(p.offset for p in board.pieces)
    if start[red] == goal:
        return Outcome([], None, 1)
    weights = [board.size**i for i in range(len(start))]  # keys: offsets in base ``size``
    occupied = walls
    for i, o in enumerate(start):
        occupied |= masks[i][o]
    root = sum(o * w for o, w in zip(start, weights, strict=True))
    parents: Parents = {root: None}
    frontier = [(root, start, occupied)]
    pieces = list(zip(range(len(start)), masks, weights, strict=True))
    cap = math.inf if budget.limits.max_nodes is None else budget.limits.max_nodes
    check: float = stats.expanded
    generated = 0  # every successor, as the compiled search counts them
    while frontier:
        layer: list[tuple[int, tuple[int, ...], int]] = []
        waiting = len(frontier)  # of this layer, the nodes not yet expanded
        for key, position, occupied in frontier:
            if stats.expanded >= check:
                if stats.expanded >= most:
                    return None
                stopped = budget.exhausted()
                if stopped is not None:
                    stats.generated = generated
                    return Outcome(None, stopped, len(parents))
                check = min(stats.expanded + _CHECK, cap)
            stats.expanded += 1
            waiting -= 1
            found = None
            for i, cells, weight in pieces:
                o = position[i]
                others = occupied ^ cells[o]
                for direction, end in ((-1, -1), (1, len(cells))):
                    k = o + direction
                    while k != end and not cells[k] & others:
                        generated += 1
                        after = key + (k - o) * weight
                        if after not in parents:
                            parents[after] = (key, i, k - o)
                            if i == red and k == goal and found is None:
                                found = after
                            moved = (*position[:i], k, *position[i + 1 :])
                            layer.append((after, moved, others | cells[k]))
                        if steps:
                            break
                        k += direction
            if waiting + len(layer) > stats.max_frontier:  # the queue, as compiled
                stats.max_frontier = waiting + len(layer)
            if found is not None:  # the node's other successors are counted, as compiled
                stats.generated = generated
                return Outcome(_plan(board, parents, found), None, len(parents))
        stats.generated = generated
        frontier = layer
    return Outcome(None, None, len(parents))


ALWAYS_FITS = 6
"""Every board of at most 6 x 6 fits the compiled search's 62-bit key: at most 18 pieces of at
most 5 offsets each, and ``5**18 < 2**62``."""


def fits(board: Board) -> bool:
    """Whether the compiled search (:mod:`.cluster`) can take ``board``: its positions fit a
    62-bit key (numpy is loaded only for boards larger than :data:`ALWAYS_FITS`)."""
    if board.size <= ALWAYS_FITS:
        return True
    from .cluster import Encoding

    return Encoding.of(board).fits


def breadth_first(board: Board, budget: Budget, *, steps: bool, plain: int) -> tuple[Outcome, bool]:
    """Breadth-first search of the cluster of ``board`` to the first goal, within ``budget``.

    In plain Python (:func:`search`) for up to ``plain`` expansions, then compiled
    (:func:`.cluster.explore`) when the key fits in 62 bits, else in plain Python to the end. Its
    counters go into ``budget.stats``.

    Returns
    -------
    tuple of (Outcome, bool)
        How the search ended (with neither a plan nor a stop, every reachable position was
        searched and none is a goal), and whether the memory budget of
        :func:`.cluster.explore`, not a limit, stopped it.
    """
    compiled = fits(board)
    outcome = search(board, budget, steps=steps, most=plain if compiled else math.inf)
    if outcome is not None:
        return outcome, False
    from .cluster import explore

    stats = budget.stats
    rest = budget.part()
    cluster, found, stopped = explore(board, steps=steps, limits=rest)
    assert cluster is not None  # the key fits
    stats.expanded += found.expanded
    stats.generated += found.generated
    stats.max_frontier = max(stats.max_frontier, found.max_frontier)
    plan = cluster.plan(cluster.goal) if cluster.goal >= 0 else None
    return Outcome(plan, stopped, cluster.size), cluster.full


LARGEST_DEFAULT = 6
"""Largest side on which ``bfs`` is the default. On 9x9 boards of 24-26 pieces it kept
tens of millions of positions (18.5 GB in 346 s on ``tests/data/rushhour/random9x9_24_b.csv``
without an answer); ``bfida`` stays within its memory budget and proves a bound."""


def default(board: Board) -> bool:
    """Whether ``bfs`` is the default method for ``board``: at most :data:`LARGEST_DEFAULT`
    cells a side, its positions fitting the compiled key."""
    return board.size <= LARGEST_DEFAULT and fits(board)


def refuses(board: Board) -> str | None:
    """Why ``bfs`` cannot take ``board`` (its positions do not fit the compiled key), else
    ``None``."""
    if fits(board):
        return None
    return "the board's positions do not fit the compiled search's 62-bit key; use bfida"


_RUNS = itertools.count()
_COMPILED = f"{__package__}._kernels"


def _plain_budget() -> int:
    """Expansions ``bfs`` may spend in plain Python: :data:`QUICK_EXPANSIONS` in the first search
    of a process, while the compiled code is not loaded; none in later ones, since a process
    that runs many searches is faster loading the compiled code once for all of them; none
    while :func:`cspsolve.compiling.eager` holds."""
    first = next(_RUNS) == 0
    quick = first and _COMPILED not in sys.modules and not compiling.is_eager()
    return QUICK_EXPANSIONS if quick else 0


def run(
    board: Board, /, *, heuristic: str | None, options: Any, limits: Limits | None
) -> Result[list[Move]]:
    """Breadth-first search under ``options.cost``: in plain Python while it is small
    (:func:`search`), then compiled over the cluster of ``board`` (:func:`breadth_first`)."""
    budget = (limits or Limits()).start(Stats())
    outcome, memory = breadth_first(
        board, budget, steps=options.cost == "steps", plain=_plain_budget()
    )
    found = result(outcome, budget.finish())
    if memory:
        from .cluster import MEMORY

        found.message = (
            f"no plan within the memory budget ({MEMORY / 2**30:g} GiB); bfida keeps within "
            "its own and proves a lower bound"
        )
    return found


def result(outcome: Outcome, stats: Stats) -> Result[list[Move]]:
    """The result of a breadth-first search that ended as ``outcome``."""
    plan, stopped, positions = outcome
    if plan is not None:
        stats.cost = stats.depth = len(plan)  # BFS edges: moves, or one-cell steps
        return Result(Status.OPTIMAL, merged(plan), stats)
    if stopped is not None:
        return Result(stopped, None, stats)
    message = (
        "no plan: no piece can move, and the red car is not at the exit"
        if positions == 1
        else f"no plan: none of the {positions:,} reachable positions has the red car at the exit"
    )
    return Result(Status.UNSOLVABLE, None, stats, message=message)
