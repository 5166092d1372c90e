"""Differential testing of every sliding-tile method against an independent oracle.

A case is a random board of 2 to 9 cells (1x2 to 1x4 lines and their columns, 2x2, 2x3, 3x2,
2x4, 4x2, 3x3) with a random start **and** a random goal, so half the cases are unsolvable and
the goal's blank stands anywhere.

The oracle, written here and sharing no code with the library's searches, is breadth-first
search over the whole state graph of the board (every move is reversible, so the distance from
the goal is the distance to it). Two symmetries keep it to a few tables: tiles are renamed so
that the goal reads ``1 2 3 ...`` around its blank, and the board is turned or mirrored so that
the goal's blank lies on the first cell of its orbit; neither changes any distance. A start the
search never reaches is unsolvable.

Every method runs through the kind (:func:`cspsolve.models.npuzzle.kind.solve`), with its
pattern databases in a fresh cache folder per case (3x3 goals would otherwise leave one file per
goal). It agrees when, on an unsolvable case, it says ``unsolvable``; on a solvable one, its
plan replays (by :func:`replay`, written here) from the start to the goal and its reported cost
is the plan's length; and a method that claims optimality finds exactly the oracle's length,
weighted A* at most :data:`~cspsolve.models.npuzzle.kind.WEIGHT` times it. A method named
``NAME/H@W`` runs with ``--weight W`` (:data:`WEIGHTED`): its plan costs at most ``W`` times
the optimum, it says ``solved`` (``optimal`` when ``W`` is 1) with ``W`` as its
``suboptimality_bound``, and its ``lower_bound`` is at most the optimum. A method named
``...*N`` (:data:`SPLIT`) runs its search split over ``N`` worker processes
(``Limits.workers``) and is held to what the method without ``*N`` must do. Methods that would
take long (tree searches with weak heuristics, uninformed searches of the 3x3 graph) run only
on the cases :data:`REACH` allows, and the split searches (a process pool each) only where the
plan lies below the split.
"""

from __future__ import annotations

import functools
import random
import tempfile
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.limits import Limits
from cspsolve.models.npuzzle import kind
from cspsolve.models.npuzzle.board import Puzzle
from cspsolve.models.npuzzle.pdb import cache_at
from cspsolve.results import Result, Status
from cspsolve.tasks import Request

from ...fuzzing import Contract, Sample

SIZES = ((1, 2), (1, 3), (1, 4), (3, 1), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3))
"""Board sizes drawn (rows, columns)."""

OPTIMAL = (
    *(f"astar/{h}" for h in kind.HEURISTICS),
    *(f"idastar/{h}" for h in kind.HEURISTICS),
    "tile-idastar/manhattan",
    "tile-idastar/pdb",
    "cpsat/manhattan",
    "cpsat/pdb",
    "bfs",
    "iddfs",
)
"""Methods that claim optimal plans."""

WEIGHTED = (
    "tile-idastar/manhattan@3/2",
    "tile-idastar/pdb@5/4",
    "tile-idastar/pdb@2",
    "tile-idastar/pdb@1",
    "weighted-astar/manhattan@3",
)
"""Methods run with a weight (after the ``@``)."""

SPLIT = ("tile-idastar/pdb*2", "tile-idastar/manhattan@3/2*2")
"""Methods run on worker processes (their number after the ``*``)."""

METHODS = (
    *OPTIMAL,
    *(f"weighted-astar/{h}" for h in kind.HEURISTICS),
    *(f"greedy/{h}" for h in kind.HEURISTICS),
    "dfs",
    *WEIGHTED,
    *SPLIT,
)
"""Every method x heuristic of the kind: the optimal ones, then those checked for valid plans."""

REACH: dict[str, Callable[[Puzzle, int], bool]] = {
    "iddfs": lambda puzzle, optimum: optimum <= 10,
    "idastar/misplaced": lambda puzzle, optimum: optimum <= 22,
    "idastar/gaschnig": lambda puzzle, optimum: optimum <= 22,
    "bfs": lambda puzzle, optimum: puzzle.cells <= 8 or optimum <= 20,
    "dfs": lambda puzzle, optimum: puzzle.cells <= 6,
    "astar/misplaced": lambda puzzle, optimum: puzzle.cells <= 8 or optimum <= 24,
    "cpsat/manhattan": lambda puzzle, optimum: puzzle.cells <= 6 or optimum <= 16,
    "cpsat/pdb": lambda puzzle, optimum: puzzle.cells <= 6 or optimum <= 16,
    **dict.fromkeys(SPLIT, lambda puzzle, optimum: puzzle.cells >= 8 and optimum >= 16),
}
"""Which solvable cases (board, optimal length) a slow method is run on; every other method runs
on every case, and every method on every unsolvable case. The engine's depth-first search
expands a state again whenever it meets it by a shorter path: 12.8 s on one 2x4 board (20,160
positions), so it runs on boards of at most 6 cells. CP-SAT takes about a second on a 3x3 or
2x4 board of 26 moves or more; ``test_cpsat.py`` checks it on those (and on 3x4 boards)."""

METHOD_SECONDS = 120.0
"""Time limit of a method under test; reaching it counts as a disagreement."""

DATA = Path(__file__).resolve().parents[2] / "data" / "npuzzle"
"""Korf's and Korf and Felner's instances with their optimal lengths."""

STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
"""A move names the direction the blank goes."""

Board = bytes
"""Tiles in row-major order, 0 for the blank."""


def scrambled(rows: int, cols: int, moves: int, seed: int) -> list[int]:
    """The goal ``1 2 ... 0`` after ``moves`` random moves of the blank (never straight back):
    solvable by construction, and far from the goal."""
    rng = random.Random(seed)
    board = [*range(1, rows * cols), 0]
    blank, previous = rows * cols - 1, -1
    for _ in range(moves):
        r, c = divmod(blank, cols)
        options = [
            (r + dr) * cols + c + dc
            for dr, dc in STEPS.values()
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr) * cols + c + dc != previous
        ]
        target = rng.choice(options)
        board[blank], board[target] = board[target], 0
        previous, blank = blank, target
    return board


@st.composite
def cases(draw: st.DrawFn) -> Puzzle:
    """A random board size, start and goal."""
    rows, cols = draw(st.sampled_from(SIZES))
    tiles = range(rows * cols)
    start = tuple(draw(st.permutations(tiles)))
    goal = tuple(draw(st.permutations(tiles)))
    return Puzzle(rows, cols, start, goal)


def replay(puzzle: Puzzle, plan: list[str]) -> str | None:
    """What is wrong with ``plan`` (an illegal move, or not ending on the goal), else None."""
    board = list(puzzle.start)
    for k, move in enumerate(plan, 1):
        if move not in STEPS:
            return f"move {k} is {move!r}"
        blank = board.index(0)
        r, c = divmod(blank, puzzle.cols)
        r, c = r + STEPS[move][0], c + STEPS[move][1]
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            return f"move {k} ({move}) leaves the board"
        board[blank], board[r * puzzle.cols + c] = board[r * puzzle.cols + c], 0
    return None if tuple(board) == puzzle.goal else f"the {len(plan)}-move plan misses the goal"


def _symmetries(rows: int, cols: int) -> list[list[int]]:
    """The cell maps (``image[cell]``) of the turns and mirrors taking the board onto itself."""

    def turned(flip_r: bool, flip_c: bool, transpose: bool) -> list[int]:
        image = []
        for cell in range(rows * cols):
            r, c = divmod(cell, cols)
            r, c = (rows - 1 - r if flip_r else r), (cols - 1 - c if flip_c else c)
            image.append(c * rows + r if transpose else r * cols + c)
        return image

    transposes = (False, True) if rows == cols else (False,)
    return [turned(a, b, t) for a in (False, True) for b in (False, True) for t in transposes]


def _canonical(puzzle: Puzzle) -> tuple[int, Board]:
    """The goal's blank cell and the start, after a symmetry and renaming that fix the goal as
    ``1 2 3 ...`` (row-major, skipping that cell)."""
    symmetries = _symmetries(puzzle.rows, puzzle.cols)
    image = min(symmetries, key=lambda s: s[puzzle.goal.index(0)])
    goal, start = [0] * puzzle.cells, [0] * puzzle.cells
    for cell in range(puzzle.cells):
        goal[image[cell]], start[image[cell]] = puzzle.goal[cell], puzzle.start[cell]
    name = {tile: k for k, tile in enumerate((t for t in goal if t), 1)}
    name[0] = 0
    return goal.index(0), bytes(name[t] for t in start)


def neighbours(rows: int, cols: int) -> list[list[int]]:
    """The cells next to each cell."""
    out = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        out.append(
            [
                (r + dr) * cols + c + dc
                for dr, dc in STEPS.values()
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            ]
        )
    return out


def successors(board: Board, adjacent: list[list[int]]) -> Iterator[Board]:
    """The boards one move of the blank away (``adjacent``: :func:`neighbours`)."""
    empty = board.index(0)
    for cell in adjacent[empty]:
        nxt = bytearray(board)
        nxt[empty], nxt[cell] = board[cell], 0
        yield bytes(nxt)


@functools.cache
def distances(rows: int, cols: int, blank: int) -> dict[Board, int]:
    """Breadth-first search from the goal ``1 2 3 ...`` with its blank on ``blank``: the
    distance of every board that can reach it."""
    goal = list(range(1, rows * cols))
    goal.insert(blank, 0)
    start = bytes(goal)
    adjacent = neighbours(rows, cols)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        d = distance[board] + 1
        for key in successors(board, adjacent):
            if key not in distance:
                distance[key] = d
                queue.append(key)
    return distance


def optimum(puzzle: Puzzle) -> int | None:
    """The fewest moves from the start to the goal, or None when the goal cannot be reached."""
    blank, start = _canonical(puzzle)
    return distances(puzzle.rows, puzzle.cols, blank).get(start)


def methods_for(puzzle: Puzzle, best: int | None) -> list[str]:
    """The methods run on a case: all on an unsolvable one, else as :data:`REACH` allows."""
    if best is None:
        return list(METHODS)
    return [m for m in METHODS if m not in REACH or REACH[m](puzzle, best)]


def disagreement(
    method: str, puzzle: Puzzle, best: int | None, result: Result[list[str]]
) -> str | None:
    """What ``result`` gets wrong against the oracle's optimum ``best``, or None."""
    if best is None:
        unsolvable = result.status == Status.UNSOLVABLE
        return None if unsolvable else f"{result.status} on an unsolvable board"
    if not result.status.has_solution or result.solution is None:
        return f"{result.status} ({result.message}) where {best} moves solve it"
    plan = result.solution
    wrong = replay(puzzle, plan)
    if wrong is not None:
        return wrong
    if result.stats.cost != len(plan):
        return f"cost {result.stats.cost:g} for a plan of {len(plan)} moves"
    if (method in OPTIMAL or result.status == Status.OPTIMAL) and len(plan) != best:
        return f"{result.status} plan of {len(plan)} moves, optimum {best}"
    if method in OPTIMAL and result.status != Status.OPTIMAL:
        return f"{result.status}, not optimal, for an optimal method"
    if "@" in method:
        return _beyond_bound(Fraction(method.partition("@")[2]), best, result)
    if method.startswith("weighted-astar") and len(plan) > kind.WEIGHT * best:
        return f"{len(plan)} moves, more than {kind.WEIGHT:g} x the optimum {best}"
    return None


def _beyond_bound(weight: Fraction, best: int, result: Result[list[str]]) -> str | None:
    """What a run with ``weight`` gets wrong about its bound, else None."""
    cost = int(result.stats.cost)
    if cost > weight * best:
        return f"{cost} moves, more than {weight} x the optimum {best}"
    if weight == 1:
        optimal = result.status == Status.OPTIMAL and cost == best
        return None if optimal else f"{result.status} plan of {cost} moves at weight 1"
    if result.status != Status.SOLVED:
        return f"{result.status} for a weighted search"
    if result.proof.get("suboptimality_bound") != float(weight):
        return f"bound {result.proof.get('suboptimality_bound')} in proof, weight {weight}"
    if result.proof.get("lower_bound", 0) > best:
        return f"lower bound {result.proof['lower_bound']} above the optimum {best}"
    return None


@contextmanager
def _fresh_cache() -> Iterator[None]:
    """Point ``CSPSOLVE_CACHE`` at a new folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="npuzzle-pdb-") as folder, cache_at(folder):
        yield


def check(puzzle: Puzzle) -> dict[str, str | None]:
    """Each method checked on ``puzzle``, mapped to None (agrees) or what it got wrong."""
    best = optimum(puzzle)
    verdicts: dict[str, str | None] = {}
    with _fresh_cache():
        for method in methods_for(puzzle, best):
            alone, _, workers = method.partition("*")
            named, _, weight = alone.partition("@")
            name, _, h = named.partition("/")
            options = {"weight": weight} if weight else {}
            request = Request(name, h or None, options)
            limits = Limits(time_limit=METHOD_SECONDS, workers=int(workers or 1))
            result = tasks.solve(kind.KIND, puzzle, request=request, limits=limits)
            verdicts[method] = disagreement(alone, puzzle, best, result)
    return verdicts


# --- the contract suite ---------------------------------------------------------------------


def replay_json(puzzle: Puzzle, solution: Any) -> str | None:
    """``None`` when the moves of the JSON form (``{"moves": ["U", ...], "count": N}``), as
    many as its count, take the start to the goal by :func:`replay`."""
    moves = solution["moves"]
    if solution["count"] != len(moves):
        return f"a count of {solution['count']} for {len(moves)} moves"
    return replay(puzzle, moves)


def contract() -> Contract:
    """A scrambled 2x3 board, the same with tiles 1 and 2 swapped (unsolvable), each settled
    by :func:`optimum`, and the first 24-puzzle of Korf and Felner (95 moves: no method
    settles it in seconds)."""
    goal = (*range(1, 6), 0)
    start = scrambled(2, 3, 30, seed=6)
    swapped = [{1: 2, 2: 1}.get(tile, tile) for tile in start]
    small = [Puzzle(2, 3, tuple(tiles), goal) for tiles in (start, swapped)]
    first = (DATA / "korf-felner50.tsv").read_text().splitlines()[1].split("\t")[2]
    hard = Puzzle(5, 5, tuple(int(tile) for tile in first.split()), tuple(range(25)))
    return Contract(small=[Sample(p, optimum(p) is not None, optimum(p)) for p in small], hard=hard)
