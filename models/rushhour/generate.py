"""Random Rush Hour boards of any size, made hard two ways.

:func:`random_board` drops the red car ``X`` at the exit (so that its cluster holds a goal
position; or at a column asked for) and then cars (length 2) and trucks (length 3) of random
axis at random free cells until the board holds the pieces asked for.

:func:`scramble` walks at random from a solved board and keeps the position of the walk with
the most ``blockers`` (:mod:`.search`); moves are reversible, so the exit can be reached from
it: a board solvable by construction, for sizes where no search can prove it.

:func:`jam` makes boards like the hand-made boards of a course: it moves one random piece (not
the red car) to a random free place, and keeps the change when breadth-first search from the
start (with a cap on the positions it may keep) still finds a plan and its optimum has not
dropped; once the optimum is in the range asked for, it keeps a change when the optimum stays
in range and the search keeps no fewer positions. It is local search (hill climbing with
sideways moves) over placements, scored by exact search, so every optimum it reports is
proven. :func:`hardest_start`
searches the board's whole cluster breadth first (:func:`.packed.search`), then searches it
again from all its goal positions at once; the last layer of that second search holds the
positions farthest from the exit, the way Michael Fogleman's database picks its puzzles
(https://www.michaelfogleman.com/rush/). Its depth is the optimum of those positions, proven by
the exhaustive search.

:func:`make` is the kind's generator (``cspsolve generate rushhour``, options
:class:`GenerateOptions`): it draws random boards (with ``walls`` fixed wall cells) and, while
the farthest position of a board's cluster is nearer the exit than ``min_moves``, changes the
board one piece (or wall) at a time, keeping a change when that farthest position is no
nearer (hill climbing with sideways moves); a climb that stalls starts again from the best
board found, a few random changes away (iterated local search: Lourenço, Martin & Stützle,
"Iterated local search", *Handbook of Metaheuristics*, 2003). A change is aimed: it takes by
preference a piece that an optimal plan of the farthest position never moves, and drops it
across the cells that plan sweeps. Every board's cluster is searched whole, as by
:func:`hardest_start` (:func:`survey`), so the optimum of the position made, and whether any
position of its cluster is farther, are proven by exhaustive breadth-first search.

Run as a script it writes boards in the course CSV format, the hardest positions of random
clusters, (``--jam``) jammed boards, or (``--scramble STEPS``) scrambled boards::

    python -m cspsolve.models.rushhour.generate --size 9 --pieces 25 --min-moves 18 \\
        --count 2 --out tests/data/rushhour/
    python -m cspsolve.models.rushhour.generate --jam --size 9 --pieces 24 --min-moves 18 \\
        --max-moves 22 --states 2000000 --seed 1 --out tests/data/rushhour/
    python -m cspsolve.models.rushhour.generate --scramble 200000 --size 12 --pieces 44 \\
        --trucks 0.3 --seed 2 --out tests/data/rushhour/
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from cspsolve.errors import OptionError
from cspsolve.kind import Made, option
from cspsolve.limits import Budget, Limits
from cspsolve.results import Stats

from .board import Board, Piece
from .formats import MAX_SIZE, RED, write
from .search import RushHourProblem, heuristic

if TYPE_CHECKING:
    from .packed import Layers, Packing

__all__ = [
    "MAX_PIECES",
    "MAX_STATES",
    "GenerateOptions",
    "Hardest",
    "Jammed",
    "Order",
    "StoppedError",
    "Survey",
    "certificate",
    "default_pieces",
    "hardest_start",
    "jam",
    "lettered",
    "make",
    "order",
    "random_board",
    "scramble",
    "survey",
]

Cell = tuple[int, int]

MAX_PIECES = 26
"""The most pieces :func:`make` puts on a board: one letter each in the grid format."""
MAX_STATES = 1 << 21
"""The most positions :func:`make` searches in one cluster: a cluster too large for them is
not proven, and the board is drawn again."""
CLIMB_STATES = 1 << 15
"""The least cap on the positions of a cluster met while climbing; the cap follows the
current cluster (four times its size, at most :data:`MAX_STATES`), so that a climb does not
wander into clusters too large to search often."""
STEPS = 20_000
"""Boards :func:`make` draws or changes before it gives up (each a cluster search, or a
change that found no room)."""
OVERSIZED = 20
"""Random boards whose clusters exceed :data:`MAX_STATES`, before any cluster was searched
whole, after which :func:`make` says the size is out of reach."""
STALE = 150
"""Changes in a row that bring the farthest position no farther, after which a climb
starts again."""
KICK = 3
"""Random changes from the best board found that start a new climb."""
RESTART_BEST = 0.7
"""The share of new climbs that start from the best board found (the rest from a new random
board)."""
TRUCKS = 0.3
"""Share of trucks among the pieces :func:`make` drops."""
UNUSED = 0.7
"""How often a change takes a piece that the farthest position's optimal plan never moves."""
SWEPT = 0.8
"""How often a change drops the piece across a cell that plan sweeps."""
PROVEN_BY = "breadth-first search of the whole cluster, then from all its goal positions"
"""How a certificate of :func:`make` was proven."""


def random_board(
    rng: random.Random,
    size: int,
    pieces: int,
    *,
    exit_row: int,
    trucks: float = 0.25,
    red_col: int | None = None,
    walls: int = 0,
) -> Board:
    """A random board of ``size`` x ``size`` with up to ``pieces`` pieces (module text).

    Pieces are named ``X`` (the red car, at the exit unless ``red_col`` gives its 0-based
    column) and ``A``, ``B``, ... then ``P26``, ``P27``, ...; a drop is a truck with probability
    ``trucks``. At most ``100 * pieces`` drops are tried; a horizontal piece right of the red car
    on its row is never dropped (it would wall the exit in). Up to ``walls`` walls are dropped
    first, at random free cells but those right of the red car on its row (:func:`_wall`);
    with no walls asked for, ``rng`` is drawn from as before walls could be.

    Raises
    ------
    OptionError
        If ``size`` is below 4 or ``exit_row`` is off the board.
    """
    if size < 4 or not 0 <= exit_row < size:
        raise OptionError(f"no {size}x{size} board with an exit on row {exit_row + 1}")
    red = Piece("X", exit_row, size - 2 if red_col is None else red_col, 2, True)
    taken = set(red.cells())
    fixed: set[Cell] = set()
    for _ in range(100 * walls):
        if len(fixed) >= walls:
            break
        cell = _wall(rng, size, red, taken)
        if cell is not None:
            fixed.add(cell)
            taken.add(cell)
    placed = [red]
    letters = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWYZ"]
    for _ in range(100 * pieces):
        if len(placed) >= pieces:
            break
        k = len(placed) - 1
        name = letters[k] if k < len(letters) else f"P{k + 1}"
        piece = _drop(rng, name, size, red, taken, trucks)
        if piece is not None:
            placed.append(piece)
            taken.update(piece.cells())
    return Board(size, tuple(placed), frozenset(fixed), "X")


def _wall(rng: random.Random, size: int, red: Piece, taken: set[Cell]) -> Cell | None:
    """A random cell, if it is free and not right of the red car on its row (a wall there
    walls the exit in); else None."""
    row, col = rng.randrange(size), rng.randrange(size)
    if (row, col) in taken or (row == red.row and col > red.col):
        return None
    return row, col


def _drop(
    rng: random.Random, name: str, size: int, red: Piece, taken: set[tuple[int, int]], trucks: float
) -> Piece | None:
    """A piece of random axis and length at a random cell, if it lands on free cells and not
    in the red car's row ahead of it; else None."""
    horizontal = rng.random() < 0.5
    length = 3 if rng.random() < trucks else 2
    row, col = rng.randrange(size), rng.randrange(size)
    if horizontal and row == red.row and col > red.col:
        return None
    piece = Piece(name, row, col, length, horizontal)
    cells = piece.cells()
    if all(0 <= r < size and 0 <= c < size and (r, c) not in taken for r, c in cells):
        return piece
    return None


def scramble(board: Board, rng: random.Random, steps: int) -> Board:
    """The position of a random walk of ``steps`` moves from ``board`` with the most
    ``blockers`` (the first such one; ``board`` itself when no move raises it).

    Every move can be undone, so when ``board`` is solved (or any plan for it is known) the
    exit can be reached from the result.

    Examples
    --------
    >>> solved = random_board(random.Random(1), 6, 10, exit_row=2)
    >>> moved = scramble(solved, random.Random(1), 500)
    >>> [p.name for p in moved.pieces] == [p.name for p in solved.pieces]
    True
    """
    problem = RushHourProblem(board)
    blockers = heuristic("blockers", problem)
    state = best = problem.initial
    most = blockers(state)
    for _ in range(steps):
        _, state, _ = rng.choice(list(problem.successors(state)))
        value = blockers(state)
        if value > most:
            best, most = state, value
    return board.with_offsets(best)


@dataclass(frozen=True)
class Hardest:
    """A position of a cluster farthest from the exit.

    Attributes
    ----------
    board : Board
        The position.
    moves : int
        Its optimal number of moves.
    cluster_size, goal_states : int
        Positions in its cluster, and how many of them are solved.
    """

    board: Board
    moves: int
    cluster_size: int
    goal_states: int


class StoppedError(Exception):
    """A limit (time, nodes, cancellation) stopped a search of :func:`survey`."""


@dataclass(frozen=True)
class Survey:
    """A board's whole cluster, by distance from the exit (:func:`survey`).

    Attributes
    ----------
    board : Board
        The board searched from (its pieces give the order of the offsets).
    packing : Packing
        How the keys of :attr:`layers` map to positions.
    layers : Layers
        Breadth-first search from every goal position of the cluster at once: layer ``d``
        (``layers.starts[d]`` to ``layers.starts[d + 1]``) holds the positions ``d`` moves from
        the exit, so the last holds those farthest from it.
    goals : int
        Goal positions (the red car at the exit) in the cluster.
    """

    board: Board
    packing: Packing
    layers: Layers
    goals: int

    @property
    def size(self) -> int:
        """Positions in the cluster."""
        return self.layers.size

    @property
    def depth(self) -> int:
        """Moves from the exit of the positions farthest from it."""
        return len(self.layers.starts) - 2

    def distance(self, index: int) -> int:
        """Moves from the exit of position ``index`` of :attr:`layers` (its proven optimum)."""
        return self.layers.depth(index)

    def position(self, index: int) -> Board:
        """Position ``index`` of :attr:`layers`, as a board."""
        return self.board.with_offsets(self.packing.offsets(self.layers.keys[index]))

    def route(self, index: int) -> tuple[frozenset[Cell], frozenset[int]]:
        """The cells an optimal plan from position ``index`` sweeps (every cell a moving piece
        covers on its way, the red car's too), and the indices of the pieces it moves.

        The plan follows the search tree of :attr:`layers` back to the goal position it was
        reached from: each step of it is one move towards the exit.
        """
        swept: set[Cell] = set()
        moved: set[int] = set()
        here = self.packing.offsets(self.layers.keys[index])
        while self.layers.parent[index] >= 0:
            index = int(self.layers.parent[index])
            there = self.packing.offsets(self.layers.keys[index])
            for i, (a, b) in enumerate(zip(here, there, strict=True)):
                if a != b:
                    moved.add(i)
                    for offset in range(min(a, b), max(a, b) + 1):
                        swept.update(self.board.pieces[i].cells(offset))
            here = there
        return frozenset(swept), frozenset(moved)


def survey(
    board: Board, *, max_states: int, budget: Budget
) -> Survey | Literal["full", "unsolvable"]:
    """``board``'s cluster searched whole, then again from all its goal positions at once
    (module text).

    Parameters
    ----------
    board : Board
        Any position of the cluster.
    max_states : int
        The most positions either search may keep (:func:`.packed.search`).
    budget : Budget
        The run's account of time, nodes and cancellation.

    Returns
    -------
    Survey or str
        The cluster by distance from the exit; ``"full"`` when it holds more than
        ``max_states`` positions, ``"unsolvable"`` when it holds no goal position.

    Raises
    ------
    StoppedError
        When a limit of ``budget`` stopped a search.
    """
    from .packed import Packing, search  # numpy and the compiled kernels: only when searching

    packing = Packing.of(board)
    cluster = search(
        packing, packing.start(), budget=budget, stop_at_goal=False, max_states=max_states
    )
    if not cluster.exhausted:
        return _unfinished(cluster)
    goals = cluster.keys[packing.red_offsets(cluster.keys) == board.goal_offset]
    if len(goals) == 0:
        return "unsolvable"
    back = search(packing, goals, budget=budget, stop_at_goal=False, max_states=max_states)
    if not back.exhausted:
        return _unfinished(back)
    return Survey(board, packing, back, len(goals))


def _unfinished(layers: Layers) -> Literal["full"]:
    """``"full"`` for a search that ``max_states`` stopped; raises :class:`StoppedError` for one a
    limit stopped."""
    if layers.full:
        return "full"
    raise StoppedError(str(layers.stopped))


def hardest_start(board: Board, *, max_states: int, limits: Limits | None = None) -> Hardest | None:
    """The position of ``board``'s cluster farthest from the exit (module text).

    Returns
    -------
    Hardest or None
        None when the cluster holds no goal position, or more than ``max_states`` positions,
        or a limit stopped the search.
    """
    budget = (limits or Limits()).start(Stats())
    try:
        found = survey(board, max_states=max_states, budget=budget)
    except StoppedError:
        return None
    if isinstance(found, str):
        return None
    far = found.position(found.layers.starts[-2])
    return Hardest(far, found.depth, found.size, found.goals)


@dataclass(frozen=True)
class Jammed:
    """A board made by :func:`jam`.

    Attributes
    ----------
    board : Board
        The start position.
    moves : int
        Its optimal number of moves (proven by breadth-first search).
    states : int
        Positions that breadth-first search from it keeps until it reaches the exit.
    """

    board: Board
    moves: int
    states: int


def _optimum(board: Board, max_states: int) -> tuple[int, int]:
    """(optimal moves, positions kept) by breadth-first search from ``board``; the moves are
    -1 when there is no plan or the search would keep more than ``max_states`` positions."""
    from .packed import Packing, search

    packing = Packing.of(board)
    start = packing.start()
    layers = search(packing, start, budget=Limits().start(Stats()), max_states=max_states)
    return (layers.depth(layers.goal) if layers.goal >= 0 else -1), layers.size


def _relocated(rng: random.Random, board: Board, trucks: float) -> Board | None:
    """``board`` with one random piece other than the red car dropped somewhere else."""
    index = rng.randrange(len(board.pieces))
    if index == board.red_index:
        return None
    red = board.pieces[board.red_index]
    taken = {c for i, p in enumerate(board.pieces) if i != index for c in p.cells()}
    taken.update(board.walls)
    piece = _drop(rng, board.pieces[index].name, board.size, red, taken, trucks)
    if piece is None:
        return None
    pieces = list(board.pieces)
    pieces[index] = piece
    return Board(board.size, tuple(pieces), board.walls, board.red)


def jam(
    board: Board,
    rng: random.Random,
    *,
    moves: tuple[int, int],
    states: int,
    max_states: int,
    tries: int,
    trucks: float = 0.4,
) -> Jammed | None:
    """A board with ``board``'s pieces moved about until its optimum is in ``moves`` (module
    text), then on until breadth-first search keeps at least ``states`` positions or ``tries``
    changes were tried.

    Parameters
    ----------
    board : Board
        The board to start from (its pieces' names and count are kept; its red car stays).
    rng : random.Random
        The source of the changes (a seed gives the same board every time).
    moves : tuple of int
        The least and most optimal moves wanted.
    states : int
        Positions the search should keep at least (how wide the board is).
    max_states : int
        The cap of every scoring search (a board above it scores as if unsolvable).
    tries : int
        Changes to try in all.
    trucks : float
        Share of trucks among the pieces moved.

    Returns
    -------
    Jammed or None
        The board, or None when the optimum never reached the range.
    """
    low, high = moves
    best, kept = _optimum(board, max_states)
    for _ in range(tries):
        if low <= best <= high and kept >= states:
            break
        changed = _relocated(rng, board, trucks)
        if changed is None:
            continue
        optimum, size = _optimum(changed, max_states)
        if (best < low and best <= optimum <= high) or (low <= optimum <= high and size >= kept):
            board, best, kept = changed, optimum, size
    if not low <= best <= high:
        return None
    return Jammed(board, best, kept)


def default_pieces(size: int) -> int:
    """The pieces :func:`make` puts on a ``size`` x ``size`` board when none are asked for:
    as many per cell as 13 on 6 x 6 (the count of Fogleman's hardest boards), at most
    :data:`MAX_PIECES`.

    Examples
    --------
    >>> [default_pieces(n) for n in (4, 5, 6, 7, 9)]
    [6, 9, 13, 18, 26]
    """
    return min(MAX_PIECES, round(size * size * 13 / 36))


@dataclass(frozen=True)
class GenerateOptions:
    """What :func:`make` promises of each board (each field a flag of ``cspsolve generate
    rushhour``)."""

    size: int | None = option(
        f"cells per side of the square board, 4 to {MAX_SIZE} (default 6).", default=6, metavar="N"
    )
    pieces: int | None = option(
        f"pieces on the board, the red car among them, 1 to {MAX_PIECES} (default: 13 on 6x6, "
        "as many per cell on other sizes).",
        metavar="N",
    )
    walls: int | None = option("fixed wall cells (default 0).", default=0, metavar="N")
    min_moves: int | None = option(
        "the board's proven optimum is at least this many moves (a slide of any length is one "
        "move).",
        metavar="M",
    )
    hardest: bool = option(
        "the board is a position of its cluster farthest from the exit (as Fogleman's "
        "database picks its puzzles).",
        default=False,
    )


class Order(NamedTuple):
    """:class:`GenerateOptions` checked, with the defaults filled in."""

    size: int
    pieces: int
    walls: int
    min_moves: int | None
    hardest: bool

    @property
    def need(self) -> int:
        """The fewest moves the board made may take (1 at least: never a solved board)."""
        return max(1, self.min_moves or 0)


def _whole(value: Any, flag: str, low: int, high: int | None = None) -> int:
    """``value`` when it is a whole number from ``low`` to ``high``; else OptionError naming
    ``flag``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{flag} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        most = f" to {high}" if high is not None else " or more"
        raise OptionError(f"{flag} must be {low}{most}, not {value}")
    return value


def order(options: GenerateOptions) -> Order:
    """The promises ``options`` ask for, checked.

    Raises
    ------
    OptionError
        Naming the flag: a value that is not a whole number in its range (``--size`` 4 to
        :data:`~.formats.MAX_SIZE`, ``--pieces`` 1 to :data:`MAX_PIECES`), ``--hardest`` not
        a bool, or more pieces and walls than the board has cells for.
    """
    size = _whole(6 if options.size is None else options.size, "--size", 4, MAX_SIZE)
    pieces = options.pieces if options.pieces is not None else default_pieces(size)
    pieces = _whole(pieces, "--pieces", 1, MAX_PIECES)
    walls = _whole(options.walls or 0, "--walls", 0)
    least = None if options.min_moves is None else _whole(options.min_moves, "--min-moves", 0)
    if not isinstance(options.hardest, bool):
        raise OptionError(f"--hardest must be true or false, not {options.hardest!r}")
    if 2 * pieces + walls > size * size:
        raise OptionError(
            f"--pieces {pieces} and --walls {walls} do not fit a {size}x{size} board "
            "(a piece takes 2 cells or more)"
        )
    return Order(size, pieces, walls, least, options.hardest)


class _Climb:
    """The state of one call of :func:`make`: its budget, its counts, the best board found.

    Parameters
    ----------
    order : Order
        What the board must be.
    rng : random.Random
        The only source of randomness.
    budget : Budget
        The call's limits.
    """

    def __init__(self, order: Order, rng: random.Random, budget: Budget) -> None:
        self.order = order
        self.rng = rng
        self.budget = budget
        self.steps = 0
        self.oversized = 0
        self.searched = False
        self.best: Survey | None = None

    def step(self) -> None:
        """Count a step; raises OptionError after :data:`STEPS`, :class:`StoppedError` when a
        limit ran out."""
        if self.budget.exhausted() is not None:
            raise StoppedError("limit")
        self.steps += 1
        if self.steps > STEPS:
            o = self.order
            best = f"the farthest found: {self.best.depth}" if self.best else "none searched"
            raise OptionError(
                f"--min-moves {o.min_moves}: no {o.size}x{o.size} board of {o.pieces} pieces "
                f"and {o.walls} walls needing {o.need} moves in {STEPS} boards tried ({best}); "
                "ask for fewer"
            )

    def search(self, board: Board, cap: int) -> Survey | None:
        """``board``'s cluster (:func:`survey`), or None when it is unsolvable or larger than
        ``cap``; the best board found is kept.

        Raises
        ------
        OptionError
            When the first :data:`OVERSIZED` boards searched all had clusters too large.
        StoppedError
            When a limit ran out.
        """
        self.step()
        found = survey(board, max_states=cap, budget=self.budget)
        if found == "full" and not self.searched:
            self.oversized += 1
            if self.oversized >= OVERSIZED:
                o = self.order
                raise OptionError(
                    f"--size {o.size}: the clusters of random {o.size}x{o.size} boards of "
                    f"{o.pieces} pieces hold more than {MAX_STATES} positions, too many to "
                    "search whole; ask for a smaller --size or more --pieces"
                )
        if isinstance(found, str):
            return None
        self.searched = True
        if self.best is None or found.depth >= self.best.depth:
            self.best = found
        return found

    def fresh(self) -> Survey | None:
        """The cluster of a new random board (None: too few pieces placed, or no cluster)."""
        o = self.order
        row = (o.size + 1) // 2 - 1
        board = random_board(self.rng, o.size, o.pieces, exit_row=row, trucks=TRUCKS, walls=o.walls)
        if len(board.pieces) < o.pieces or len(board.walls) < o.walls:
            self.step()
            return None
        return self.search(board, MAX_STATES)

    def kicked(self, best: Survey) -> Survey | None:
        """The cluster of the best board's farthest position after :data:`KICK` random
        changes."""
        board = best.position(best.layers.starts[-2])
        for _ in range(KICK):
            board = _changed(self.rng, board, frozenset(), frozenset(), aim=False) or board
        return self.search(board, _cap(best))

    def start(self) -> Survey | None:
        """The cluster a climb starts from: a kicked best board, or a new random one."""
        if self.best is not None and self.rng.random() < RESTART_BEST:
            return self.kicked(self.best)
        return self.fresh()

    def ascend(self, current: Survey) -> Survey:
        """Hill climbing from ``current`` until its farthest position is at least
        :attr:`Order.need` moves from the exit or :data:`STALE` changes in a row bring it no
        farther (module text)."""
        need = self.order.need
        far = current.layers.starts[-2]
        swept, moved = current.route(far)
        stale = 0
        while current.depth < need and stale < STALE:
            board = _changed(self.rng, current.position(far), swept, moved, aim=True)
            if board is None:
                self.step()
                stale += 1
                continue
            found = self.search(board, _cap(current))
            if found is None or found.depth < current.depth:
                stale += 1
                continue
            stale = 0 if found.depth > current.depth else stale + 1
            current, far = found, found.layers.starts[-2]
            swept, moved = current.route(far)
        return current

    def run(self) -> Survey:
        """A cluster whose farthest position is at least :attr:`Order.need` moves away."""
        while True:
            current = self.start()
            if current is None:
                continue
            current = self.ascend(current)
            if current.depth >= self.order.need:
                return current


def _cap(current: Survey) -> int:
    """The most positions a cluster met while climbing from ``current`` may hold."""
    return min(MAX_STATES, max(CLIMB_STATES, 4 * current.size))


def _changed(
    rng: random.Random,
    board: Board,
    swept: frozenset[Cell],
    moved: frozenset[int],
    *,
    aim: bool,
) -> Board | None:
    """``board`` with one piece (not the red car) or wall moved to a random free place; None
    when no place was found.

    With ``aim``, the piece is by preference (:data:`UNUSED`) one the optimal plan does not
    move (not in ``moved``), dropped by preference (:data:`SWEPT`) across a cell of ``swept``.
    """
    others = [i for i in range(len(board.pieces)) if i != board.red_index]
    walls = sorted(board.walls)
    if not others and not walls:
        return None
    if rng.randrange(len(others) + len(walls)) >= len(others):
        return _wall_moved(rng, board, walls)
    idle = [i for i in others if i not in moved]
    index = rng.choice(idle) if aim and idle and rng.random() < UNUSED else rng.choice(others)
    across = aim and bool(swept) and rng.random() < SWEPT
    red = board.pieces[board.red_index]
    taken = {c for i, p in enumerate(board.pieces) if i != index for c in p.cells()}
    taken.update(walls)
    for _ in range(50):
        piece = _drop(rng, board.pieces[index].name, board.size, red, taken, TRUCKS)
        if piece is not None and not (across and swept.isdisjoint(piece.cells())):
            pieces = list(board.pieces)
            pieces[index] = piece
            return Board(board.size, tuple(pieces), board.walls, board.red)
    return None


def _wall_moved(rng: random.Random, board: Board, walls: Sequence[Cell]) -> Board | None:
    """``board`` with one of its ``walls`` moved to a random free cell (:func:`_wall`)."""
    gone = walls[rng.randrange(len(walls))]
    taken = {c for p in board.pieces for c in p.cells()}
    taken.update(walls)
    for _ in range(50):
        cell = _wall(rng, board.size, board.pieces[board.red_index], taken)
        if cell is not None:
            kept = [w for w in walls if w != gone]
            return Board(board.size, board.pieces, (*kept, cell), board.red)
    return None


def lettered(board: Board) -> Board:
    """``board`` as a grid file gives it back: the pieces in reading order of their first
    cell, the red car named ``A`` and the others ``B``, ``C``, ... in that order.

    Raises
    ------
    OptionError
        When it has more than :data:`MAX_PIECES` pieces.

    Examples
    --------
    >>> board = Board(4, (Piece("Q", 3, 0, 2, True), Piece("X", 1, 2, 2, True)), (), "X")
    >>> [(p.name, p.row) for p in lettered(board).pieces]
    [('A', 1), ('B', 3)]
    """
    if len(board.pieces) > MAX_PIECES:
        raise OptionError(f"a grid names at most {MAX_PIECES} pieces, not {len(board.pieces)}")
    names = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    pieces = []
    for p in sorted(board.pieces, key=lambda p: (p.row, p.col)):
        name = RED if p.name == board.red else next(names)
        pieces.append(Piece(name, p.row, p.col, p.length, p.horizontal))
    return Board(board.size, tuple(pieces), board.walls, RED)


def _chosen(rng: random.Random, found: Survey, order: Order) -> int:
    """The index of the position made, in ``found``'s layers: one of the farthest with
    ``hardest``, else any at least :attr:`Order.need` moves from the exit, drawn by ``rng``."""
    starts = found.layers.starts
    first = starts[-2] if order.hardest else starts[order.need]
    return first + rng.randrange(starts[-1] - first)


def certificate(found: Survey, index: int) -> dict[str, Any]:
    """What the survey proved of position ``index``, JSON-ready (see :func:`make`)."""
    optimum = found.distance(index)
    board = found.board
    return {
        "size": board.size,
        "pieces": len(board.pieces),
        "walls": len(board.walls),
        "metric": "moves",
        "optimum": optimum,
        "farthest": found.depth,
        "hardest": optimum == found.depth,
        "cluster": found.size,
        "goal_states": found.goals,
        "proven_by": PROVEN_BY,
    }


def make(options: GenerateOptions, rng: random.Random, limits: Limits | None) -> Made | None:
    """One Rush Hour board keeping every promise of ``options`` (module text), drawn with
    ``rng`` alone: the same seed gives the same board in any process.

    Parameters
    ----------
    options : GenerateOptions
        The promises: the board's size, pieces and walls, its least optimum
        (``min_moves``), and whether it is a farthest position of its cluster (``hardest``).
        Without ``min_moves`` it needs at least one move.
    rng : random.Random
        The only source of randomness.
    limits : Limits or None
        Time, nodes and cancellation for the whole call.

    Returns
    -------
    Made or None
        The board, as the kind's ``read`` gives it back from a ``.rh`` file
        (:func:`lettered`), and its certificate: ``size``, ``pieces``, ``walls``,
        ``metric`` (``"moves"``), ``optimum`` (its least number of moves), ``farthest`` (that
        of the farthest positions of its cluster), ``hardest`` (whether it is one of them),
        ``cluster`` and ``goal_states`` (positions in its cluster, and solved ones), all
        proven by ``proven_by``: exhaustive breadth-first search of the cluster, as
        :func:`hardest_start`. None when a limit stopped it first.

    Raises
    ------
    OptionError
        Before any search, for malformed options (:func:`order`); after :data:`STEPS` boards
        tried when none met ``--min-moves`` (no board may exist); after :data:`OVERSIZED`
        random boards whose clusters were all too large to search whole (:data:`MAX_STATES`).

    Examples
    --------
    >>> made = make(GenerateOptions(min_moves=5), random.Random(1), Limits())
    >>> made.certificate["optimum"] >= 5, made.puzzle.red
    (True, 'A')
    """
    wanted = order(options)
    budget = (limits or Limits()).start(Stats())
    climb = _Climb(wanted, rng, budget)
    try:
        climb.step()
        found = climb.run()
    except StoppedError:
        return None
    index = _chosen(rng, found, wanted)
    return Made(lettered(found.position(index)), certificate(found, index))


def main(argv: list[str] | None = None) -> None:
    """The command line of the module text."""
    parser = argparse.ArgumentParser(description="random Rush Hour boards, hardest positions")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--pieces", type=int, default=25)
    parser.add_argument("--exit-row", type=int, help="1-based (default: the middle row)")
    parser.add_argument("--min-moves", type=int, default=18)
    parser.add_argument("--trucks", type=float, default=0.25, help="share of trucks")
    parser.add_argument("--count", type=int, default=1, help="boards to write")
    parser.add_argument("--tries", type=int, default=1000)
    parser.add_argument("--max-states", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("."))
    parser.add_argument("--jam", action="store_true", help="jammed boards (module text)")
    parser.add_argument("--max-moves", type=int, default=22, help="with --jam")
    parser.add_argument("--states", type=int, default=0, help="with --jam: least positions kept")
    parser.add_argument("--scramble", type=int, metavar="STEPS", help="a scrambled board")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    row = (args.exit_row or (args.size + 1) // 2) - 1
    if args.jam:
        _write_jammed(args, rng, row)
        return
    if args.scramble is not None:
        solved = random_board(rng, args.size, args.pieces, exit_row=row, trucks=args.trucks)
        board = scramble(solved, rng, args.scramble)
        name = f"scrambled{args.size}x{args.size}_{len(board.pieces)}_s{args.seed}.csv"
        write(board, args.out / name)
        print(f"{name}\t{args.size}\t{len(board.pieces)}", flush=True)
        return
    written = 0
    for attempt in range(args.tries):
        board = random_board(rng, args.size, args.pieces, exit_row=row, trucks=args.trucks)
        found = hardest_start(board, max_states=args.max_states)
        if found is None or found.moves < args.min_moves:
            continue
        name = f"random{args.size}x{args.size}_p{args.pieces}_s{args.seed}_{attempt}.csv"
        write(found.board, args.out / name)
        print(
            f"{name}\t{args.size}\t{len(board.pieces)}\t{found.moves}\t{found.cluster_size}"
            f"\t{found.goal_states}",
            flush=True,
        )
        written += 1
        if written == args.count:
            break


def _write_jammed(args: argparse.Namespace, rng: random.Random, row: int) -> None:
    """``--jam``: one board from a random board with the red car in the second column."""
    start = random_board(rng, args.size, args.pieces, exit_row=row, trucks=args.trucks, red_col=1)
    found = jam(
        start,
        rng,
        moves=(args.min_moves, args.max_moves),
        states=args.states,
        max_states=args.max_states,
        tries=args.tries,
        trucks=args.trucks,
    )
    if found is None:
        print(f"no board within {args.tries} tries", file=sys.stderr)
        raise SystemExit(1)
    name = f"jammed{args.size}x{args.size}_{len(start.pieces)}_s{args.seed}.csv"
    write(found.board, args.out / name)
    print(f"{name}\t{args.size}\t{len(start.pieces)}\t{found.moves}\t{found.states}", flush=True)


if __name__ == "__main__":
    main()
