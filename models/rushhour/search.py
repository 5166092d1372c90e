"""Rush Hour as a :class:`~cspsolve.search.SearchProblem`, and its heuristics.

A state is the tuple of every piece's offset along its axis (in the board's piece order);
occupancy is a Python ``int`` bitboard (bit ``row * size + col``). An action is a
:class:`~.board.Move`. Under the **moves** metric every slide costs 1 whatever its distance;
under the **steps** metric a slide costs its distance in cells (so breadth-first search is
optimal only for moves; use A* — uniform-cost search with the ``zero`` heuristic — for steps).

Heuristics (each a callable whose ``__name__`` is its command-line name; ``r`` is the red car,
``B`` the pieces between it and the exit):

``zero``
    0. A* with it is uniform-cost search (Dijkstra 1959). Admissible and consistent.
``distance``
    The red car's own distance: 1 move if it is not at the exit (moves), or its distance in
    cells (steps). The "Manhattan distance" of our founding examples. Admissible, consistent.
``blocking``
    ``distance`` plus one move per piece in ``B`` (moves), or plus the fewest cells each piece
    of ``B`` must slide to clear the row (steps). Every blocker must move at least once; one
    move changes ``B`` by at most one piece, so it is consistent for moves. Infinite when a
    wall or a horizontal piece blocks the row (no plan exists). The "blocking cars" heuristic
    of e.g. https://www.michaelfogleman.com/rush/ and most course solutions.
``blockers``
    ``blocking`` plus, over the blockers b, the largest "fewest pieces that must move out of
    b's way": for each direction b can clear the row in, the distinct pieces occupying the
    cells b must sweep into (a wall or the board's edge rules the direction out); b's value is
    the minimum over its directions. Those second-level pieces lie in b's column outside the
    red car's row, so they are neither the red car nor in ``B``, and each of them must move at
    least once: admissible. Only the maximum over b is added (summing would count a piece
    blocking two blockers twice). Not consistent in general. This is the admissible form of the
    recursive "blockers of blockers" heuristic (e.g. ``saschazar21/rushhour``'s "advanced"
    heuristic, which sums and can overestimate).
``union``
    ``blocking`` plus the fewest distinct second-level pieces over every choice of the side each
    blocker leaves the row by. In any plan each blocker is, when the red car passes, wholly on
    one side, so every piece now in its sweep to that side moves at least once; counting each
    piece of the union once is admissible (a horizontal piece across two blockers' columns is
    one piece), and never below ``blockers``, whose maximum is one blocker's part of the union.
    Not consistent in general.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from cspsolve.errors import OptionError

from .board import Board, Move

__all__ = ["HEURISTICS", "METRICS", "RushHourProblem", "Transpositions", "heuristic"]

METRICS = ("moves", "steps")
"""Cost of a plan: slides of any distance, or cells slid."""
HEURISTICS = ("blockers", "union", "blocking", "distance", "zero")
"""Heuristic names, the default first."""

State = tuple[int, ...]


@dataclass
class RushHourProblem:
    """The state space of one board under a metric.

    Parameters
    ----------
    board : Board
        The start position.
    metric : str
        ``"moves"`` (default) or ``"steps"``.

    Raises
    ------
    OptionError
        For an unknown metric.
    """

    board: Board
    metric: str = "moves"
    _masks: list[list[int]] = field(init=False, repr=False)
    _walls: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise OptionError(f"unknown metric {self.metric!r}; choose from {', '.join(METRICS)}")
        n = self.board.size
        self._masks = []
        for piece in self.board.pieces:
            self._masks.append([sum(1 << (r * n + c) for r, c in piece.cells(o)) for o in range(n)])
        self._walls = sum(1 << (r * n + c) for r, c in self.board.walls)

    @property
    def unit_cost(self) -> bool:
        """True under the moves metric (every action costs 1)."""
        return self.metric == "moves"

    @property
    def initial(self) -> State:
        """The piece offsets of the start position."""
        return tuple(p.offset for p in self.board.pieces)

    def occupied(self, state: State) -> int:
        """Bitboard of the cells covered by walls or pieces."""
        occ = self._walls
        for masks, o in zip(self._masks, state, strict=True):
            occ |= masks[o]
        return occ

    def successors(self, state: State) -> Iterator[tuple[Move, State, float]]:
        """Every legal slide from ``state``: (move, next state, cost)."""
        n = self.board.size
        occ = self.occupied(state)
        single = self.metric == "steps"
        for i, piece in enumerate(self.board.pieces):
            o = state[i]
            stride = 1 if piece.horizontal else n
            first = piece.row * n + o if piece.horizontal else o * n + piece.col
            d = 1
            while o - d >= 0 and not occ >> (first - d * stride) & 1:
                yield Move(piece.name, -d), (*state[:i], o - d, *state[i + 1 :]), self._cost(d)
                if single:
                    break
                d += 1
            end = o + piece.length - 1
            d = 1
            while end + d < n and not occ >> (first + (piece.length - 1 + d) * stride) & 1:
                yield Move(piece.name, d), (*state[:i], o + d, *state[i + 1 :]), self._cost(d)
                if single:
                    break
                d += 1

    def _cost(self, distance: int) -> float:
        return float(distance) if self.metric == "steps" else 1.0

    def actions(self, state: State) -> list[Move]:
        """The legal moves in ``state``."""
        return [move for move, _, _ in self.successors(state)]

    def result(self, state: State, action: Move) -> State:
        """The offsets after ``action`` (assumed legal)."""
        i = next(k for k, p in enumerate(self.board.pieces) if p.name == action.piece)
        return (*state[:i], state[i] + action.delta, *state[i + 1 :])

    def cost(self, state: State, action: Move, next_state: State) -> float:
        """1 per move, or the distance slid under the steps metric."""
        return self._cost(abs(action.delta))

    def is_goal(self, state: State) -> bool:
        """The red car's right end is in the last column."""
        return state[self.board.red_index] == self.board.goal_offset


class Transpositions:
    """``problem`` as IDA* sees it, with a transposition table: within one iteration, a slide
    to a position already reached at no greater cost is not offered again (Reinefeld &
    Marsland, "Enhanced iterative-deepening search", *IEEE TPAMI* 16(7), 1994).

    :func:`cspsolve.search.idastar` asks for the successors of a position right after it was
    offered (so its cost is the cost it was offered at), and for those of the start position
    once per iteration, which empties the table. Every path the search then follows is the
    cheapest found so far to each of its positions, hence simple: on a cluster of ``N``
    positions it costs at most ``N - 1`` moves (steps), so the bound passes every path within
    ``N`` iterations plus the start's estimate, each expanding a position at most once per cost
    it is reached at. An unsolvable board thus ends ``unsolvable`` after polynomial work,
    where IDA* without the table enumerates every simple path of the cluster. A plan found is
    still optimal: a position reached again at no smaller cost has a subtree the earlier visit
    searched already within the same bound.

    Parameters
    ----------
    problem : RushHourProblem
        The state space.
    """

    def __init__(self, problem: RushHourProblem) -> None:
        self.problem = problem
        self._best: dict[State, float] = {}

    @property
    def initial(self) -> State:
        """The start position's offsets."""
        return self.problem.initial

    def is_goal(self, state: State) -> bool:
        """Whether the red car is at the exit."""
        return self.problem.is_goal(state)

    def actions(self, state: State) -> list[Move]:
        """The legal moves in ``state`` (all of them: the table filters :meth:`successors`)."""
        return self.problem.actions(state)

    def result(self, state: State, action: Move) -> State:
        """The offsets after ``action``."""
        return self.problem.result(state, action)

    def successors(self, state: State) -> Iterator[tuple[Move, State, float]]:
        """The slides from ``state`` to positions not yet reached at so low a cost."""
        if state == self.problem.initial:
            self._best = {state: 0.0}
        best = self._best
        cost = best[state]
        for move, after, step in self.problem.successors(state):
            reached = cost + step
            if best.get(after, math.inf) <= reached:
                continue
            best[after] = reached
            yield move, after, step


def _clear_options(problem: RushHourProblem, state: State, i: int) -> list[tuple[int, set[int]]]:
    """Ways vertical blocker ``i`` can leave the exit row: (cells to slide, pieces in the way).

    A direction is left out when the board's edge or a wall stops the piece first.
    """
    board = problem.board
    n, row = board.size, board.exit_row
    piece = board.pieces[i]
    top, length = state[i], piece.length
    owner = _owners(problem, state)
    options = []
    for new_top, rows in (
        (row - length, range(row - length, top)),
        (row + 1, range(top + length, row + length + 1)),
    ):
        if new_top < 0 or new_top + length > n:
            continue
        cells = [owner.get(r * n + piece.col) for r in rows]
        if -1 in cells:
            continue
        options.append((abs(new_top - top), {c for c in cells if c is not None}))
    return options


def _owners(problem: RushHourProblem, state: State) -> dict[int, int]:
    """Cell index → covering piece index (-1 for a wall)."""
    board = problem.board
    n = board.size
    owner = {r * n + c: -1 for r, c in board.walls}
    for i, piece in enumerate(board.pieces):
        for r, c in piece.cells(state[i]):
            owner[r * n + c] = i
    return owner


def _blockers(problem: RushHourProblem, state: State) -> list[int] | None:
    """Pieces between the red car and the exit; ``None`` when one of them can never clear."""
    board = problem.board
    n, row, red = board.size, board.exit_row, board.red_index
    owner = _owners(problem, state)
    found: list[int] = []
    for col in range(state[red] + board.pieces[red].length, n):
        who = owner.get(row * n + col)
        if who is None:
            continue
        if who == -1 or board.pieces[who].horizontal:
            return None
        found.append(who)
    return found


def _red_distance(problem: RushHourProblem, state: State) -> int:
    board = problem.board
    cells = board.goal_offset - state[board.red_index]
    return cells if problem.metric == "steps" else min(cells, 1)


def heuristic(name: str, problem: RushHourProblem) -> Callable[[State], float]:
    """The heuristic called ``name`` (see the module text) for ``problem``'s metric.

    Raises
    ------
    OptionError
        For an unknown name.
    """
    steps = problem.metric == "steps"

    def zero(state: State) -> float:
        return 0.0

    def distance(state: State) -> float:
        return float(_red_distance(problem, state))

    def blocking(state: State) -> float:
        found = _blockers(problem, state)
        if found is None:
            return math.inf
        return _red_distance(problem, state) + _first_level(problem, state, found, steps)

    def blockers(state: State) -> float:
        found = _blockers(problem, state)
        if found is None:
            return math.inf
        second = 0
        for i in found:
            options = _clear_options(problem, state, i)
            if not options:
                return math.inf
            second = max(second, min(len(pieces) for _, pieces in options))
        return _red_distance(problem, state) + _first_level(problem, state, found, steps) + second

    def union(state: State) -> float:
        found = _blockers(problem, state)
        if found is None:
            return math.inf
        sides = [[pieces for _, pieces in _clear_options(problem, state, i)] for i in found]
        if not all(sides):
            return math.inf
        fewest = min((len(set().union(*choice)) for choice in itertools.product(*sides)), default=0)
        return _red_distance(problem, state) + _first_level(problem, state, found, steps) + fewest

    table = {f.__name__: f for f in (zero, distance, blocking, blockers, union)}
    if name not in table:
        raise OptionError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")
    return table[name]


def _first_level(problem: RushHourProblem, state: State, found: list[int], steps: bool) -> float:
    """Least cost of moving every blocker: one move each, or its shortest clearing slide."""
    if not steps:
        return float(len(found))
    total = 0
    for i in found:
        options = _clear_options(problem, state, i)
        if not options:
            return math.inf
        total += min(cells for cells, _ in options)
    return float(total)
