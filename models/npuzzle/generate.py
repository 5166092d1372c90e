"""Sliding-tile boards made to order: the generator of the ``npuzzle`` kind.

:func:`make` makes one board of the size and goal that :class:`GenerateOptions` ask for, drawn
with the caller's :class:`random.Random` alone, and proves what it promises with the kind's own
default optimal method through :func:`cspsolve.tasks.solve` (A* on boards of at most 9 cells,
the compiled IDA* above; additive pattern databases up to :data:`PDB_CELLS` cells, the
Manhattan distance beyond and on single rows or columns). Both heuristics are admissible, so
the plan such a search returns with status ``optimal`` is a shortest one (Hart, Nilsson &
Raphael 1968; Korf, "Depth-first iterative-deepening", Artificial Intelligence 27 (1985)
97-109; Korf & Felner, "Disjoint pattern database heuristics", Artificial Intelligence 134
(2002) 9-22).

How a board is made:

- ``--moves D`` on a board of few positions (:func:`whole`: at most 9 cells, or a single row
  or column): breadth-first search from the goal lists every position reachable, layer by
  layer (cached per process), and the board is drawn uniformly among those exactly ``D`` moves
  away; the kind's method then solves it and must agree.
- ``--moves D`` on a larger board: a start is drawn and solved optimally, ``L`` moves. The
  first start is a random walk of the blank from the goal (never straight back) of ``D``
  moves, each next one :data:`GROWTH` times longer, so that the solves stay near ``D``; on
  boards whose random positions the method solves in about a second (:func:`quick`), a
  uniformly random solvable position once the walks pass :data:`MIXED` moves a cell. When
  ``L >= D``, the board is the one ``L - D`` moves along the start's optimal plan, which needs
  exactly ``D`` moves: at most the ``D`` moves left of the plan, and not fewer, or the start
  would have a plan shorter than ``L`` (the rest of a shortest path is a shortest path:
  Bellman, "Dynamic Programming", 1957). It is solved again, so that the certificate's proof
  and plan are its own. After :data:`TRIES` starts that all fall short, OptionError.
- without ``--moves``, on the boards of :func:`quick`: a uniformly random solvable position
  (the tiles shuffled by :meth:`random.Random.shuffle`, then, when the parity rule of
  :func:`.board.solvability` says they cannot reach the goal, the tiles of the first two
  cells that hold tiles swapped: a swap flips that parity and pairs the unreachable
  positions one to one with the reachable ones; Johnson & Story, American Journal of
  Mathematics 2 (1879) 397-404), solved optimally. On larger boards, a random walk of
  :data:`WALK_PER_CELL` moves per cell times the board's rows plus columns, not solved: the
  certificate gives the optimum only as bounds, the walk undone (a plan) above and the
  Manhattan distance (each move shifts one tile by one cell) below.

``--moves`` beyond the most moves any position of the board needs (:func:`most_moves`, the
diameters of :mod:`.grading`) is refused before any work.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cspsolve import registry, tasks
from cspsolve.errors import OptionError
from cspsolve.kind import Kind, Made, option
from cspsolve.limits import Budget, Limits
from cspsolve.render import plural
from cspsolve.results import Result, Stats, Status

from .board import MOVES, Plan, Puzzle, Tiles, apply, default_goal, korf_goal, neighbours
from .board import solvability as parity
from .grading import DIAMETERS, grade

__all__ = [
    "EXTENSION",
    "GOALS",
    "NOTE",
    "GenerateOptions",
    "make",
    "most_moves",
    "quick",
    "whole",
]

GOALS = {"standard": default_goal, "korf": korf_goal}
"""The goals a board may be made for, by ``--goal`` name: the everyday goal (``1 2 ...`` then
the blank, bottom-right) and Korf's (the blank top-left, then ``1 2 ...``)."""

MOST_CELLS = 1024
"""The largest board made: the largest the kind's files hold (32 x 32)."""

WHOLE = 200_000
"""Boards with at most this many positions reachable are searched whole (3x3: 181,440)."""

PDB_CELLS = 16
"""Boards of at most this many cells are solved with pattern databases (the kind's default
heuristic); larger ones with the Manhattan distance, whose tables take no time to build."""

QUICK_CELLS = 12
"""Boards of at most this many cells (and the 4x4, with its 6-6-3 databases) have random
positions the kind's method solves in about a second (:func:`quick`)."""

TRIES = 32
"""Starts solved for ``--moves`` on a large board before giving up."""

GROWTH = 1.25
"""How much longer each next walk is than the one before."""

MIXED = 8
"""Moves per cell past which a walk gives way to a uniformly random position on boards of
:func:`quick`."""

WALK_PER_CELL = 1
"""Moves per cell and per row or column of the walk that makes a board without ``--moves``
where random positions are out of reach (250 moves on the 5x5)."""

CHECK_EVERY = 4096
"""Positions searched between two looks at the limits while a board is searched whole."""

EXACT = {size: most for size, most in DIAMETERS.items() if size != (5, 5)}
"""The diameters proven (:data:`.grading.DIAMETERS` without the 5x5's, only a lower bound)."""

EXTENSION = ".json"
"""What boards are written as: JSON holds any size and goal and always reads back as the board
written. A text grid (``.txt``) does not: one whose first row holds the tiles ``0 .. k^2 - 1``
(``0 1 2 3`` on a board four wide) reads as Korf lines, and a single column not at all."""

NOTE = (
    "Boards are drawn with the seed alone and proven with the kind's default optimal method "
    "(A* or IDA* with an admissible heuristic). With --moves D: on boards of at most 9 cells "
    "and single rows, "
    "uniformly among the positions exactly D moves from the goal (breadth-first search of "
    "them all); on larger ones, the position D moves before the goal on an optimal plan of a "
    "random walk's end or a random position, solved again. Without it: a uniformly random "
    "solvable position, solved, on boards up to 12 cells and the 4x4; beyond, a random walk "
    "whose optimum the certificate gives only as bounds."
)
"""The paragraph of ``cspsolve generate npuzzle --help``."""

_SIZE = re.compile(r"\s*(\d{1,4})\s*(?:x\s*(\d{1,4})\s*)?", re.IGNORECASE)
"""``N`` or ``MxN``."""

_LAYERS: dict[tuple[int, int, Tiles], list[list[Tiles]]] = {}
"""Every board searched whole (:func:`whole`): its positions by distance from the goal."""


def shape_of(size: str | None) -> tuple[int, int]:
    """The rows and columns ``--size`` names: ``"N"`` (N x N) or ``"MxN"``; ``None`` is 3x3.

    Parameters
    ----------
    size : str or None
        The flag's text.

    Returns
    -------
    tuple of (int, int)
        Rows and columns, at least 2 cells and at most :data:`MOST_CELLS` in all.

    Raises
    ------
    OptionError
        For any other text, or a board of fewer than 2 or more than :data:`MOST_CELLS` cells.

    Examples
    --------
    >>> shape_of("4"), shape_of("2x5"), shape_of(None)
    ((4, 4), (2, 5), (3, 3))
    """
    text = "3" if size is None else str(size)
    found = _SIZE.fullmatch(text)
    if found is None:
        raise OptionError(
            f"--size must be N or MxN (rows x columns), such as 4 or 3x4, not {text!r}"
        )
    rows = int(found[1])
    cols = rows if found[2] is None else int(found[2])
    if rows < 1 or cols < 1 or not 2 <= rows * cols <= MOST_CELLS:
        raise OptionError(
            f"--size {text.strip()}: a board has 2 to {MOST_CELLS} cells, {rows}x{cols} has "
            f"{rows * cols}"
        )
    return rows, cols


def most_moves(rows: int, cols: int) -> int | None:
    """The most moves any position of a ``rows`` x ``cols`` board needs, goal blank in a
    corner, where it is proven: ``cells - 1`` on a single row or column, else
    :data:`EXACT` (sources in :mod:`.grading`); ``None`` when not known.

    Examples
    --------
    >>> most_moves(3, 3), most_moves(1, 5), most_moves(4, 3), most_moves(5, 5)
    (31, 4, 53, None)
    """
    if min(rows, cols) == 1:
        return rows * cols - 1
    return EXACT.get((min(rows, cols), max(rows, cols)))


def whole(rows: int, cols: int) -> bool:
    """Whether a board's reachable positions are few enough (:data:`WHOLE`) to search them
    all: ``cells`` of them on a single row or column, ``cells! / 2`` on any other board."""
    cells = rows * cols
    reachable = cells if min(rows, cols) == 1 else math.factorial(cells) // 2
    return reachable <= WHOLE


def quick(rows: int, cols: int) -> bool:
    """Whether the kind's method solves random positions of the board in about a second: a
    single row or column, at most :data:`QUICK_CELLS` cells, or the 4x4 (measured: the 2x8's
    take about a minute)."""
    return min(rows, cols) == 1 or rows * cols <= QUICK_CELLS or (rows, cols) == (4, 4)


@dataclass(frozen=True)
class GenerateOptions:
    """What ``cspsolve generate npuzzle`` asks of a board.

    Raises
    ------
    OptionError
        When ``size`` is not ``N`` or ``MxN`` of 2 to :data:`MOST_CELLS` cells (``--size``),
        ``moves`` is not a whole number >= 0 or more than any position of the board needs
        (``--moves``), or ``goal`` is not one of :data:`GOALS` (``--goal``).
    """

    size: str | None = option(
        "the board: N (N x N) or MxN (M rows, N columns), 2 to 1024 cells. Default: 3 "
        "(the 8-puzzle).",
        default="3",
        metavar="N|MxN",
    )
    moves: int | None = option(
        "the proven optimum: every board needs exactly this many moves, no fewer (at most "
        "the most any position needs: 31 on the 3x3, 80 on the 4x4). Default: a uniformly "
        "random solvable board.",
    )
    goal: str | None = option(
        "the goal: standard (1 2 ... then the blank, bottom-right) or korf (the blank "
        "top-left, then 1 2 ...). Default: standard.",
        default="standard",
        choices=tuple(GOALS),
    )

    def __post_init__(self) -> None:
        rows, cols = self.shape
        self.goal_tiles  # noqa: B018 - checks the goal once, when the options are made
        if self.moves is None:
            return
        if isinstance(self.moves, bool) or not isinstance(self.moves, int) or self.moves < 0:
            raise OptionError(f"--moves must be a whole number >= 0, not {self.moves!r}")
        most = most_moves(rows, cols)
        if most is not None and self.moves > most:
            raise OptionError(
                f"--moves {self.moves}: no {rows}x{cols} position needs more than "
                f"{plural(most, 'move')} (the most any needs)"
            )

    @property
    def shape(self) -> tuple[int, int]:
        """Rows and columns (:func:`shape_of`)."""
        return shape_of(self.size)

    @property
    def goal_name(self) -> str:
        """The goal's name in :data:`GOALS` (``None`` is ``standard``)."""
        return "standard" if self.goal is None else self.goal

    @property
    def goal_tiles(self) -> Tiles:
        """The goal board, shape ``(rows * cols,)``.

        Raises
        ------
        OptionError
            When ``goal`` is not one of :data:`GOALS`.
        """
        rows, cols = self.shape
        made = GOALS.get(self.goal_name)
        if made is None:
            raise OptionError(f"--goal must be one of {', '.join(GOALS)}, not {self.goal!r}")
        return made(rows * cols)


# --- drawing starts -------------------------------------------------------------------------


def _walk(home: Puzzle, length: int, rng: random.Random) -> list[int]:
    """The cells of the blank along a random walk of ``length`` moves from the goal, never
    straight back but at a dead end (a single row or column).

    Returns
    -------
    list of int
        ``length + 1`` cells, the goal's blank first.
    """
    table = neighbours(home.rows, home.cols)
    cells = [home.goal.index(0)]
    for _ in range(length):
        came = cells[-2] if len(cells) > 1 else -1
        ahead = [cell for _, cell in table[cells[-1]] if cell != came]
        cells.append(rng.choice(ahead) if ahead else came)
    return cells


def _walked(home: Puzzle, cells: Sequence[int]) -> Tiles:
    """The board the blank leaves when it passes through ``cells`` from the goal, shape
    ``(rows * cols,)``."""
    board = list(home.goal)
    for here, there in itertools.pairwise(cells):
        board[here], board[there] = board[there], 0
    return tuple(board)


def _undone(cols: int, cells: Sequence[int]) -> Plan:
    """The moves that take the blank back along ``cells`` (a walk's), from its end."""
    names = {step: name for name, step in MOVES.items()}
    back = list(reversed(cells))
    return [
        names[there // cols - here // cols, there % cols - here % cols]
        for here, there in itertools.pairwise(back)
    ]


def _shuffled(home: Puzzle, rng: random.Random) -> Tiles:
    """A uniformly random position that can reach the goal, shape ``(rows * cols,)``: on a
    single row or column the goal's tiles with the blank anywhere; else shuffled tiles, the
    first two tiles swapped when the parity rule says they cannot reach the goal."""
    if min(home.rows, home.cols) == 1:
        line = [t for t in home.goal if t]
        line.insert(rng.randrange(home.cells), 0)
        return tuple(line)
    board = list(home.goal)
    rng.shuffle(board)
    if not parity(Puzzle(home.rows, home.cols, board, home.goal))[0]:
        a, b = [cell for cell, tile in enumerate(board) if tile][:2]
        board[a], board[b] = board[b], board[a]
    return tuple(board)


def _starts(home: Puzzle, moves: int, rng: random.Random) -> Iterator[tuple[Tiles, str]]:
    """:data:`TRIES` starts for ``--moves``, each with its making in words: walks from ``moves``
    moves up, :data:`GROWTH` times longer each; on a board of :func:`quick`, a uniformly random
    position once the walks would pass :data:`MIXED` moves a cell."""
    for k in range(TRIES):
        length = math.ceil(max(moves, 1) * GROWTH**k)
        if quick(home.rows, home.cols) and length > MIXED * home.cells:
            yield _shuffled(home, rng), "a uniformly random solvable position"
        else:
            tiles = _walked(home, _walk(home, length, rng))
            yield tiles, f"the end of a random walk of {plural(length, 'move')} from the goal"


# --- searching whole ------------------------------------------------------------------------


def _search_whole(home: Puzzle, budget: Budget) -> list[list[Tiles]] | None:
    """Every position that reaches the goal, by its distance from it: breadth-first search
    from the goal (moves are reversible), in the order of :func:`.board.neighbours`.

    Returns
    -------
    list of list of tuple of int, or None
        ``layers[d]``: the positions ``d`` moves away, each of shape ``(rows * cols,)``;
        ``None`` when the limits stopped the search.
    """
    table = neighbours(home.rows, home.cols)
    seen = {home.goal}
    layers = [[home.goal]]
    searched = 0
    while layers[-1]:
        layer = []
        for tiles in layers[-1]:
            searched += 1
            if searched % CHECK_EVERY == 0 and budget.interrupted():
                return None
            blank = tiles.index(0)
            for _, cell in table[blank]:
                board = list(tiles)
                board[blank], board[cell] = board[cell], 0
                after = tuple(board)
                if after not in seen:
                    seen.add(after)
                    layer.append(after)
        layers.append(layer)
    return layers[:-1]


def _layers(home: Puzzle, budget: Budget) -> list[list[Tiles]] | None:
    """:func:`_search_whole` of the board, cached per process (``None``: stopped, not cached)."""
    key = (home.rows, home.cols, home.goal)
    if key not in _LAYERS:
        layers = _search_whole(home, budget)
        if layers is None:
            return None
        _LAYERS[key] = layers
    return _LAYERS[key]


# --- proving --------------------------------------------------------------------------------


def _solved(kind: Kind, puzzle: Puzzle, budget: Budget) -> Result[Plan] | None:
    """The kind's default optimal method on ``puzzle`` (:data:`PDB_CELLS` says the heuristic),
    within what is left of the limits.

    Returns
    -------
    Result or None
        Status ``optimal`` with the plan; ``None`` when the limits stopped it.

    Raises
    ------
    RuntimeError
        When the method answers anything but an optimal plan as long as its cost (a bug: the
        board can reach its goal and the method is complete).
    """
    if budget.interrupted():
        return None
    line = min(puzzle.rows, puzzle.cols) == 1
    heuristic = None if puzzle.cells <= PDB_CELLS and not line else "manhattan"
    request = tasks.Request(heuristic=heuristic)
    result: Result[Plan] = tasks.solve(kind, puzzle, request=request, limits=budget.rest())
    if result.status in (Status.LIMIT, Status.CANCELLED):
        return None
    plan = result.solution
    if result.status != Status.OPTIMAL or plan is None or len(plan) != result.stats.cost:
        raise RuntimeError(f"{result.method} did not prove an optimal plan: {result.summary()}")
    return result


def _along(home: Puzzle, tiles: Tiles, moves: Sequence[str]) -> Tiles:
    """The board after ``moves`` of the blank from ``tiles``."""
    for move in moves:
        tiles = apply(home, tiles, move=move)
    return tiles


def _proven(
    puzzle: Puzzle, goal: str, result: Result[Plan], made_by: str, also: str = ""
) -> dict[str, Any]:
    """The certificate of a board whose optimum ``result`` proved.

    Returns
    -------
    dict
        ``size``, ``goal``, ``optimum``, ``grade`` (:func:`.grading.grade`), ``proven_by``
        (the method and heuristic that ran, and ``also``), ``plan`` (the moves of the blank,
        as the kind draws them) and ``made_by``.
    """
    plan = result.solution or []
    name = tasks.run_name(result.method, result.heuristic)
    return {
        "size": f"{puzzle.rows}x{puzzle.cols}",
        "goal": goal,
        "optimum": len(plan),
        "grade": grade(puzzle, len(plan)),
        "proven_by": f"{name} (admissible heuristic): optimal{also}",
        "plan": " ".join(plan),
        "made_by": made_by,
    }


def _manhattan(puzzle: Puzzle) -> int:
    """The Manhattan distance of the start: every tile's rows plus columns from its goal cell."""
    home = {tile: cell for cell, tile in enumerate(puzzle.goal)}
    cols = puzzle.cols
    return sum(
        abs(cell // cols - home[t] // cols) + abs(cell % cols - home[t] % cols)
        for cell, t in enumerate(puzzle.start)
        if t
    )


def _bounded(puzzle: Puzzle, goal: str, plan: Plan, made_by: str) -> dict[str, Any]:
    """The certificate of a board not solved: ``optimum`` ``None`` (unless the bounds meet),
    ``lower_bound`` (the Manhattan distance), ``upper_bound`` (``plan``'s length), with
    ``size``, ``goal``, ``proven_by``, ``plan`` and ``made_by``."""
    lower = _manhattan(puzzle)
    return {
        "size": f"{puzzle.rows}x{puzzle.cols}",
        "goal": goal,
        "optimum": len(plan) if lower == len(plan) else None,
        "lower_bound": lower,
        "upper_bound": len(plan),
        "proven_by": "bounds only: above, the plan (the walk undone); below, the Manhattan "
        "distance (each move shifts one tile by one cell)",
        "plan": " ".join(plan),
        "made_by": made_by,
    }


# --- making ---------------------------------------------------------------------------------


def _from_layers(
    kind: Kind, home: Puzzle, goal: str, moves: int, rng: random.Random, budget: Budget
) -> Made | None:
    """A board of :func:`whole` drawn uniformly among those ``moves`` away, then proven.

    Raises
    ------
    OptionError
        When no position is that far (a board not in :data:`EXACT`).
    RuntimeError
        When the kind's method and the breadth-first search disagree.
    """
    layers = _layers(home, budget)
    if layers is None:
        return None
    if moves >= len(layers):
        raise OptionError(
            f"--moves {moves}: no {home.rows}x{home.cols} position needs more than "
            f"{plural(len(layers) - 1, 'move')} (breadth-first search of them all)"
        )
    puzzle = Puzzle(home.rows, home.cols, rng.choice(layers[moves]), home.goal)
    result = _solved(kind, puzzle, budget)
    if result is None:
        return None
    if len(result.solution or []) != moves:
        raise RuntimeError(f"{result.method} and breadth-first search disagree on {puzzle}")
    reachable = sum(map(len, layers))
    also = f"; breadth-first search of all {reachable:,} positions agrees"
    shell = plural(len(layers[moves]), "position")
    made_by = f"uniformly among the {shell} {plural(moves, 'move')} from the goal"
    return Made(puzzle, _proven(puzzle, goal, result, made_by, also))


def _tried(
    kind: Kind, home: Puzzle, goal: str, moves: int, rng: random.Random, budget: Budget
) -> Made | None:
    """A board exactly ``moves`` away, on an optimal plan of a start of :func:`_starts`.

    Raises
    ------
    OptionError
        When no start of :data:`TRIES` is that far.
    RuntimeError
        When the board, solved again, needs another number of moves (a bug).
    """
    for tiles, how in _starts(home, moves, rng):
        result = _solved(kind, Puzzle(home.rows, home.cols, tiles, home.goal), budget)
        if result is None:
            return None
        plan = result.solution or []
        if len(plan) < moves:
            continue
        ahead = len(plan) - moves
        board = _along(home, tiles, plan[:ahead])
        puzzle = Puzzle(home.rows, home.cols, board, home.goal)
        proof = result if ahead == 0 else _solved(kind, puzzle, budget)
        if proof is None:
            return None
        if len(proof.solution or []) != moves:
            raise RuntimeError(f"{proof.method}: {puzzle} does not need {moves} moves")
        made_by = f"{how}, then {plural(ahead, 'move')} along its optimal plan of {len(plan)}"
        if ahead == 0:
            made_by = f"{how}, which needs exactly that many"
        return Made(puzzle, _proven(puzzle, goal, proof, made_by))
    raise OptionError(
        f"--moves {moves}: none of {TRIES} starts on the {home.rows}x{home.cols} board was "
        "that far from the goal (positions needing so many moves are rare); ask fewer"
    )


def _anywhere(
    kind: Kind, home: Puzzle, goal: str, rng: random.Random, budget: Budget
) -> Made | None:
    """A uniformly random board, solved, on a board of :func:`quick`; else the end of a
    random walk, with the bounds of :func:`_bounded`."""
    if quick(home.rows, home.cols):
        puzzle = Puzzle(home.rows, home.cols, _shuffled(home, rng), home.goal)
        result = _solved(kind, puzzle, budget)
        if result is None:
            return None
        made_by = "a uniformly random solvable position"
        return Made(puzzle, _proven(puzzle, goal, result, made_by))
    if budget.interrupted():
        return None
    length = WALK_PER_CELL * home.cells * (home.rows + home.cols)
    cells = _walk(home, length, rng)
    puzzle = Puzzle(home.rows, home.cols, _walked(home, cells), home.goal)
    made_by = f"the end of a random walk of {plural(length, 'move')} from the goal"
    return Made(puzzle, _bounded(puzzle, goal, _undone(home.cols, cells), made_by))


def make(options: GenerateOptions, rng: random.Random, limits: Limits) -> Made | None:
    """One sliding-tile board as ``options`` ask, drawn with ``rng`` alone (module text).

    Parameters
    ----------
    options : GenerateOptions
        Size, ``moves`` (the optimum promised, ``None`` for a random board) and goal.
    rng : random.Random
        The only source of randomness: the same seed makes the same board in any process.
    limits : Limits
        Covers the whole making (every solve, and the breadth-first search of a small board).

    Returns
    -------
    Made or None
        The board (as the kind's ``read`` gives it from the file its ``write`` makes) and its
        certificate (:func:`_proven`, or :func:`_bounded` for a random board out of the
        solvers' reach); ``None`` when the limits stopped it first.

    Raises
    ------
    OptionError
        For malformed options (:class:`GenerateOptions`), or a ``moves`` no position of the
        board needs, or none of :data:`TRIES` starts reached.
    """
    budget = limits.start(Stats())
    rows, cols = options.shape
    goal = options.goal_name
    home = Puzzle(rows, cols, options.goal_tiles, options.goal_tiles)
    if budget.interrupted():  # a time limit of 0 makes nothing, at once
        return None
    kind = registry.get("npuzzle")
    if options.moves is None:
        return _anywhere(kind, home, goal, rng, budget)
    if whole(rows, cols):
        return _from_layers(kind, home, goal, options.moves, rng, budget)
    return _tried(kind, home, goal, options.moves, rng, budget)
