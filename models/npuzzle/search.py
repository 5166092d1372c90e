"""The sliding-tile puzzle as a :class:`cspsolve.search.SearchProblem`, and its heuristics.

A state is the board as ``bytes`` (row-major, ``0`` = blank): compact and hashable. Every
heuristic here is a callable object whose ``__name__`` is its command-line name.

| name | admissible | consistent | source |
|---|---|---|---|
| ``misplaced`` | yes | yes | Nilsson, *Problem-Solving Methods in AI* (1971); AIMA 4th ed. §3.6 |
| ``manhattan`` | yes | yes | Doran & Michie, Proc. Royal Society A 294 (1966) 235-259 |
| ``linear-conflict`` | yes | yes | Hansson, Mayer & Yung, Information Sciences 63 (1992) 207-227 |
| ``gaschnig`` | yes | yes | Gaschnig, Ph.D. thesis, Carnegie-Mellon (1979), "n-max-swap" |
| ``pdb`` | yes | no | Felner, Korf & Hanan, JAIR 22 (2004) 279-318 (:mod:`.pdb`) |

The first four count moves of a relaxed problem (a tile moves onto an occupied cell; a tile
swaps with the blank from anywhere), so each is admissible and, since a real move is also a
relaxed move, consistent with unit move costs. The pattern databases are admissible; they are
not consistent, because each stores the least distance over the regions the blank may be in
(the test over all 8-puzzle states finds moves where the value drops by 2). A* re-opens states
and IDA* needs admissibility only, so both stay optimal. Linear conflict adds to the
Manhattan distance, for every row, twice the fewest tiles that must leave the row so the tiles
whose goal is in that row stand in goal order (length minus the longest increasing subsequence
of their goal columns), and the same for columns — the published rule, not the pairwise count
that overestimates when one tile conflicts with several. A move changes it by at most one.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status
from cspsolve.searches import Search

from .board import Plan, Puzzle, neighbours

if TYPE_CHECKING:
    from .partitions import Partition
    from .pdb import PatternDatabases, Stop

__all__ = [
    "HEURISTICS",
    "Gaschnig",
    "LinearConflict",
    "Manhattan",
    "Misplaced",
    "PatternDatabaseHeuristic",
    "SlidingTileProblem",
    "State",
    "estimated",
    "heuristic",
    "searched",
]

State = bytes
"""A board as bytes, row-major, ``0`` = blank."""


class SlidingTileProblem:
    """A sliding-tile puzzle as a search problem: actions are the blank's moves ``U D L R``.

    Parameters
    ----------
    puzzle : Puzzle
        Board of at most 256 cells (a tile number must fit a byte).

    Raises
    ------
    OptionError
        For a board of more than 256 cells.
    """

    unit_cost = True
    """Every move costs 1, so breadth-first search and iterative deepening are optimal."""

    def __init__(self, puzzle: Puzzle) -> None:
        if puzzle.cells > 256:
            raise OptionError(f"boards of more than 256 cells are not searched ({puzzle.cells})")
        self.puzzle = puzzle
        self.goal = bytes(puzzle.goal)
        self._start = bytes(puzzle.start)
        self._moves = neighbours(puzzle.rows, puzzle.cols)
        self._targets = {
            (cell, name): target for cell, moves in enumerate(self._moves) for name, target in moves
        }

    @property
    def initial(self) -> State:
        """The start board."""
        return self._start

    def actions(self, state: State) -> list[str]:
        """The blank's legal moves, in the order U, L, R, D."""
        return [name for name, _ in self._moves[state.index(0)]]

    def result(self, state: State, action: str) -> State:
        """The board after the blank moves ``action``."""
        blank = state.index(0)
        return _swap(state, blank, self._targets[blank, action])

    def is_goal(self, state: State) -> bool:
        """Whether ``state`` is the goal board."""
        return state == self.goal

    def cost(self, state: State, action: str, next_state: State) -> int:
        """Every move costs 1."""
        return 1

    def successors(self, state: State) -> Iterator[tuple[str, State, int]]:
        """``(move, board after it, 1)`` for every legal move of the blank."""
        blank = state.index(0)
        for name, target in self._moves[blank]:
            yield name, _swap(state, blank, target), 1


def _swap(state: State, blank: int, target: int) -> State:
    board = bytearray(state)
    board[blank] = state[target]
    board[target] = 0
    return bytes(board)


class _Heuristic:
    """Base of the heuristics: the goal's geometry, precomputed once."""

    __name__ = ""

    def __init__(self, puzzle: Puzzle) -> None:
        self.cols = puzzle.cols
        self.goal = bytes(puzzle.goal)
        self.home = [0] * puzzle.cells
        for cell, tile in enumerate(puzzle.goal):
            self.home[tile] = cell
        # distance[cell][tile]: Manhattan distance of `tile` standing on `cell` (0 for the blank)
        self.distance = [
            [0 if t == 0 else self._taxicab(cell, self.home[t]) for t in range(puzzle.cells)]
            for cell in range(puzzle.cells)
        ]

    def _taxicab(self, a: int, b: int) -> int:
        (ra, ca), (rb, cb) = divmod(a, self.cols), divmod(b, self.cols)
        return abs(ra - rb) + abs(ca - cb)

    def __call__(self, state: State) -> float:  # pragma: no cover - overridden
        raise NotImplementedError


class Misplaced(_Heuristic):
    """Number of tiles (not the blank) off their goal cell."""

    __name__ = "misplaced"

    def __call__(self, state: State) -> float:
        goal = self.goal
        return float(sum(1 for cell, tile in enumerate(state) if tile and tile != goal[cell]))


class Manhattan(_Heuristic):
    """Sum over the tiles of their taxicab distance to their goal cell."""

    __name__ = "manhattan"

    def __call__(self, state: State) -> float:
        return float(sum([row[t] for row, t in zip(self.distance, state, strict=True)]))


def _removals(goal_order: Sequence[int]) -> int:
    """Fewest items to delete from ``goal_order`` so the rest increases: len - LIS (patience)."""
    piles: list[int] = []
    for x in goal_order:
        k = bisect_left(piles, x)
        if k == len(piles):
            piles.append(x)
        else:
            piles[k] = x
    return len(goal_order) - len(piles)


class LinearConflict(Manhattan):
    """Manhattan distance plus 2 per tile that must leave its goal line to let others pass."""

    __name__ = "linear-conflict"

    def __init__(self, puzzle: Puzzle) -> None:
        super().__init__(puzzle)
        self.rows = puzzle.rows

    def __call__(self, state: State) -> float:
        cols, rows, home = self.cols, self.rows, self.home
        extra = 0
        for r in range(rows):
            line = state[r * cols : (r + 1) * cols]
            order = [home[t] % cols for t in line if t and home[t] // cols == r]
            extra += _removals(order)
        for c in range(cols):
            line = state[c::cols]
            order = [home[t] // cols for t in line if t and home[t] % cols == c]
            extra += _removals(order)
        return super().__call__(state) + 2 * extra


class Gaschnig(_Heuristic):
    """Swaps needed when the blank may swap with any tile (n-max-swap), counted greedily.

    While the blank is off its goal cell, swap it with the tile whose goal that cell is; when it
    is home but tiles are misplaced, swap it with one of them. This greedy count is the optimum
    of the relaxed problem (Gaschnig 1979).
    """

    __name__ = "gaschnig"

    def __call__(self, state: State) -> float:
        goal = self.goal
        board = bytearray(state)
        where = [0] * len(board)
        for cell, tile in enumerate(board):
            where[tile] = cell
        swaps = 0
        while True:
            blank = where[0]
            tile = goal[blank]
            if tile == 0:  # the blank is home: swap it with any misplaced tile
                tile = next((t for c, t in enumerate(board) if t and t != goal[c]), 0)
                if tile == 0:
                    return float(swaps)
            cell = where[tile]
            board[blank], board[cell] = tile, 0
            where[tile], where[0] = blank, cell
            swaps += 1


class PatternDatabaseHeuristic(_Heuristic):
    """The ``pdb`` heuristic: additive pattern databases (see :mod:`.pdb`).

    Parameters
    ----------
    puzzle : Puzzle
        The board whose goal the databases are built for.
    chosen : tuple of tuple of int, optional
        The patterns, as goal cells; by default :func:`.pdb.partition`.
    stop : callable, optional
        A limit check asked while the databases are built.

    Raises
    ------
    pdb.BuildStoppedError
        When ``stop`` stopped the build of the pattern databases.
    """

    __name__ = "pdb"

    def __init__(
        self, puzzle: Puzzle, *, chosen: Partition | None = None, stop: Stop | None = None
    ) -> None:
        from .pdb import PatternDatabases  # numpy: only when asked for

        super().__init__(puzzle)
        self.databases: PatternDatabases = PatternDatabases.for_puzzle(
            puzzle, chosen=chosen, stop=stop
        )

    def __call__(self, state: State) -> float:
        return float(self.databases.value(state))


HEURISTICS = ("misplaced", "manhattan", "linear-conflict", "gaschnig", "pdb")
"""Heuristic names, weakest first."""


def heuristic(
    name: str,
    puzzle: Puzzle,
    *,
    stop: Callable[[], Status | None] | None = None,
    partition: str | None = None,
) -> _Heuristic:
    """The heuristic called ``name`` for ``puzzle``'s goal.

    ``pdb`` builds (or loads from the cache) the puzzle's pattern databases — the partition
    named ``partition``, by default :func:`.pdb.partition`'s — asking ``stop`` (a limit check)
    while it builds; see :mod:`.pdb`. The other heuristics ignore ``partition``.

    Raises
    ------
    OptionError
        For an unknown name, or a partition that does not fit the board.
    pdb.BuildStoppedError
        When ``stop`` stopped the build of the pattern databases.
    """
    simple: dict[str, type[_Heuristic]] = {
        "misplaced": Misplaced,
        "manhattan": Manhattan,
        "linear-conflict": LinearConflict,
        "gaschnig": Gaschnig,
    }
    if name in simple:
        return simple[name](puzzle)
    if name == "pdb":
        from .pdb import partition as patterns

        chosen = None if partition is None else patterns(puzzle, partition)
        return PatternDatabaseHeuristic(puzzle, chosen=chosen, stop=stop)
    raise OptionError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")


def estimated(
    puzzle: Puzzle,
    name: str,
    partition: str | None,
    limits: Limits | None,
    run: Callable[[Callable[[bytes], float], Limits], Result[Plan]],
) -> Result[Plan]:
    """``run(h, rest)`` with the heuristic ``name`` (:func:`heuristic`) built within ``limits``
    and ``rest`` the limits left: the time spent building its pattern databases counts in the
    result's seconds, and a limit that stops the build ends the run with its status.

    Raises
    ------
    OptionError
        For an unknown heuristic, or a partition that does not fit the board.
    """
    from .pdb import BuildStoppedError

    budget = (limits or Limits()).start(Stats())
    try:
        h = heuristic(name, puzzle, stop=budget.exhausted, partition=partition)
    except BuildStoppedError as stopped:
        return Result(stopped.status, None, budget.finish(), message=str(stopped))
    built = budget.finish().seconds
    result = run(h, budget.rest())
    result.stats.seconds += built
    return result


def searched(
    puzzle: Puzzle,
    name: str | None,
    /,
    *,
    method: str,
    options: Any,
    limits: Limits | None,
    search: Search,
) -> Result[Plan]:
    """How the engine's searches run on a board (:mod:`cspsolve.searches`): ``search`` on
    :class:`SlidingTileProblem` with the heuristic ``name`` built within the limits
    (:func:`estimated`, from the options' ``partition``) and the weight the options give
    ``method``.

    Raises
    ------
    OptionError
        For a weight given to a method that takes none, an unknown heuristic, or a partition
        that does not fit the board.
    """
    w = options.weight_for(method)
    weight = None if w is None else float(w)
    problem = SlidingTileProblem(puzzle)
    if name is None:
        return search(problem, None, limits)

    def run(h: Callable[[bytes], float], rest: Limits) -> Result[Plan]:
        return search(problem, h, rest, weight=weight)

    return estimated(puzzle, name, options.partition, limits, run)
