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
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Status
from cspsolve.searches import Search, Setting

from .board import EXHAUSTED, Board, Move

__all__ = [
    "HEURISTICS",
    "METRICS",
    "RushHourProblem",
    "Transpositions",
    "heuristic",
    "setting",
]

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
    cell_indices: list[list[tuple[int, ...]]] = field(init=False, repr=False)
    """Each piece's cells (``row * size + col``) at each offset, for the heuristics."""
    wall_owners: dict[int, int] = field(init=False, repr=False)
    """Each wall cell's index, mapped to -1 (the heuristics' owner of a wall)."""

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise OptionError(f"unknown metric {self.metric!r}; choose from {', '.join(METRICS)}")
        n = self.board.size
        self._masks = []
        for piece in self.board.pieces:
            self._masks.append([sum(1 << (r * n + c) for r, c in piece.cells(o)) for o in range(n)])
        self._walls = sum(1 << (r * n + c) for r, c in self.board.walls)
        self.cell_indices = [
            [tuple(r * n + c for r, c in piece.cells(o)) for o in range(n)]
            for piece in self.board.pieces
        ]
        self.wall_owners = {r * n + c: -1 for r, c in self.board.walls}

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

    def successors(self, state: State) -> Iterator[tuple[Move, State, int]]:
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

    def _cost(self, distance: int) -> int:
        return distance if self.metric == "steps" else 1

    def actions(self, state: State) -> list[Move]:
        """The legal moves in ``state``."""
        return [move for move, _, _ in self.successors(state)]

    def result(self, state: State, action: Move) -> State:
        """The offsets after ``action`` (assumed legal)."""
        i = next(k for k, p in enumerate(self.board.pieces) if p.name == action.piece)
        return (*state[:i], state[i] + action.delta, *state[i + 1 :])

    def cost(self, state: State, action: Move, next_state: State) -> int:
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
    once per iteration, which empties the table. A position reached again at no smaller cost
    has a subtree the earlier visit searched already within the same bound, so a plan found is
    still optimal.

    The table also proves a board unsolvable. Every successor of an expanded position was
    offered (or reached before at no greater cost). When an iteration ends (no plan within its
    bound) having expanded every position it offered, except those whose ``estimate`` is
    infinite (no plan leads on from them), the positions it expanded are every position that
    can lead to the exit, and none is a goal: the next iteration is then offered no slide from
    the start, and IDA* ends with ``unsolvable``. That happens once the bound reaches every
    position's distance plus estimate, where IDA* without the table would enumerate every
    cycle-free path of the cluster first.

    Parameters
    ----------
    problem : RushHourProblem
        The state space.
    estimate : callable
        The admissible heuristic IDA* uses (infinite only where no plan exists).
    """

    def __init__(self, problem: RushHourProblem, estimate: Callable[[State], float]) -> None:
        self.problem = problem
        self.estimate = estimate
        self._best: dict[State, float] = {}
        self._expanded: set[State] = set()

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
        """The slides from ``state`` to positions not yet reached at so low a cost (none from
        the start once an iteration searched every position that can lead to the exit)."""
        if state == self.problem.initial:
            if self._searched_all():
                return
            self._best, self._expanded = {state: 0.0}, set()
        self._expanded.add(state)
        best = self._best
        cost = best[state]
        for move, after, step in self.problem.successors(state):
            reached = cost + step
            if best.get(after, math.inf) <= reached:
                continue
            best[after] = reached
            yield move, after, step

    def _searched_all(self) -> bool:
        """Whether the last iteration expanded every position it offered whose estimate is
        finite (False before the first iteration)."""
        expanded, estimate = self._expanded, self.estimate
        return bool(expanded) and all(s in expanded or estimate(s) == math.inf for s in self._best)


Owners = dict[int, int]
"""Cell index (``row * size + col``) → index of the piece covering it, -1 for a wall."""


def _clear_options(
    problem: RushHourProblem, state: State, owner: Owners, i: int
) -> list[tuple[int, set[int]]]:
    """Ways vertical blocker ``i`` can leave the exit row: (cells to slide, pieces in the way).

    A direction is left out when the board's edge or a wall stops the piece first.
    """
    board = problem.board
    n, row = board.size, board.exit_row
    piece = board.pieces[i]
    top, length = state[i], piece.length
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


def _owners(problem: RushHourProblem, state: State) -> Owners:
    """Which piece (or wall) covers each covered cell of ``state``."""
    owner = dict(problem.wall_owners)
    for i, (cells, o) in enumerate(zip(problem.cell_indices, state, strict=True)):
        for cell in cells[o]:
            owner[cell] = i
    return owner


def _blockers(problem: RushHourProblem, state: State, owner: Owners) -> list[int] | None:
    """Pieces between the red car and the exit; ``None`` when one of them can never clear."""
    board = problem.board
    n, row, red = board.size, board.exit_row, board.red_index
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
        owner = _owners(problem, state)
        found = _blockers(problem, state, owner)
        if found is None:
            return math.inf
        return _red_distance(problem, state) + _first_level(problem, state, owner, found, steps)

    def blockers(state: State) -> float:
        owner = _owners(problem, state)
        found = _blockers(problem, state, owner)
        if found is None:
            return math.inf
        second = 0
        for i in found:
            options = _clear_options(problem, state, owner, i)
            if not options:
                return math.inf
            second = max(second, min(len(pieces) for _, pieces in options))
        first = _first_level(problem, state, owner, found, steps)
        return _red_distance(problem, state) + first + second

    def union(state: State) -> float:
        owner = _owners(problem, state)
        found = _blockers(problem, state, owner)
        if found is None:
            return math.inf
        sides = [[p for _, p in _clear_options(problem, state, owner, i)] for i in found]
        if not all(sides):
            return math.inf
        fewest = min((len(set().union(*choice)) for choice in itertools.product(*sides)), default=0)
        first = _first_level(problem, state, owner, found, steps)
        return _red_distance(problem, state) + first + fewest

    table = {f.__name__: f for f in (zero, distance, blocking, blockers, union)}
    if name not in table:
        raise OptionError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")
    return table[name]


def _first_level(
    problem: RushHourProblem, state: State, owner: Owners, found: list[int], steps: bool
) -> float:
    """Least cost of moving every blocker: one move each, or its shortest clearing slide."""
    if not steps:
        return float(len(found))
    total = 0
    for i in found:
        options = _clear_options(problem, state, owner, i)
        if not options:
            return math.inf
        total += min(cells for cells, _ in options)
    return float(total)


def setting(*, transpositions: bool = False) -> Setting:
    """How the engine's searches run on a board (:mod:`cspsolve.searches`): on
    :class:`RushHourProblem` under the options' metric (their ``cost``), seen through
    :class:`Transpositions` with ``transpositions``; a search that exhausts the cluster says
    so (:data:`.board.EXHAUSTED`)."""

    def searched(
        board: Board,
        name: str | None,
        /,
        *,
        method: str,
        options: Any,
        limits: Limits | None,
        search: Search,
    ) -> Result[list[Move]]:
        problem = RushHourProblem(board, options.cost)
        if name is None:
            result: Result[list[Move]] = search(problem, None, limits)
        else:
            estimate = heuristic(name, problem)
            seen = Transpositions(problem, estimate) if transpositions else problem
            result = search(seen, estimate, limits)
        if result.status == Status.UNSOLVABLE:
            result.message = EXHAUSTED
        return result

    return searched
