"""Differential testing of every Rush Hour method against an independent oracle.

A case is a random board: mostly 6x6, some 5x5 and 7x7; the red car in any row and column;
up to 2 walls; a random number of cars and trucks dropped at random cells (those that would
overlap or leave the board are left out). Boards of more than :data:`MOST_POSITIONS` reachable
positions are drawn again (they are slow for the searches that wander, and rare in puzzles). In
half the cases the start is then moved to a position of the board's cluster farthest from the
exit (as Fogleman's database picks its puzzles). Some cases are solved at the start, some
unsolvable, most need a few moves, some a dozen or more.

The oracle, written here and sharing no code with the library's searches, is breadth-first
search over the board's state graph (:func:`explore`): a move slides one piece any distance
(the moves metric) or one cell (the steps metric, where every edge is one step, so breadth-first
search finds the fewest steps too). A board whose cluster holds no goal position is
unsolvable. Plans are replayed cell by cell by :func:`replay`, written here.

Every method runs through the kind (:func:`cspsolve.models.rushhour.kind.solve`) under both
metrics. It agrees when, on an unsolvable board, it says ``unsolvable``; on a solvable one, its
plan replays to the exit, its reported cost is the plan's cost, and a method that claims
optimality (or says ``optimal``) finds exactly the oracle's optimum. ``verify`` (search beside
the CP-SAT bounds) must agree and prove the oracle's optimum as its lower bound, or, on an
unsolvable board, prove it unsolvable. Slow methods run only on the cases :data:`REACH` allows.
"""

from __future__ import annotations

import string
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

from hypothesis import assume
from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.instances import ROOT
from cspsolve.limits import Limits
from cspsolve.models.rushhour import bfs as bfs_method
from cspsolve.models.rushhour import kind, read
from cspsolve.models.rushhour.board import Board, Move, Piece
from cspsolve.models.rushhour.search import HEURISTICS, METRICS
from cspsolve.results import Result, Status
from cspsolve.tasks import Request

from ...fuzzing import Contract, Sample

PER_METRIC = (
    "bfs",
    "bfs-plain",
    *(f"bfida/{h}" for h in ("union", "blockers", "blocking", "zero")),
    "anytime",
    "anytime/blockers",
    "anytime-2",
    *(f"astar/{h}" for h in HEURISTICS),
    *(f"idastar/{h}" for h in HEURISTICS),
    *(f"greedy/{h}" for h in HEURISTICS),
    "engine-bfs",
    "dfs",
    "cpsat",
    "verify",
)
"""Every method x heuristic of the kind, and ``verify``; each runs under both metrics.
``bfs`` runs compiled, as in every search of a process but the first; ``bfs-plain`` runs as in
the first, in plain Python (:mod:`.bfs`) while its search is small; ``anytime-2`` is
``anytime`` with ``workers=2`` (its lanes in two processes)."""

ON_WORKERS = {"anytime-2": ("anytime", 2)}
"""Names of the table that run a method with more workers: the method and the workers."""

METHODS = tuple(f"{m}@{metric}" for metric in METRICS for m in PER_METRIC)
"""The names in the verdicts: ``method[/heuristic]@metric``."""

NOT_OPTIMAL = frozenset({"greedy", "dfs", "engine-bfs@steps"})
"""Methods (or method@metric) that claim no optimality; engine-bfs counts moves, not steps."""

Fits = Callable[["Case", "Oracle"], bool]

REACH: dict[str, Fits] = {
    "idastar/zero": lambda case, known: (
        known.optimum <= 3 if known.optimum is not None else known.cluster <= 1_000
    ),
    "idastar": lambda case, known: (
        known.optimum <= 6 if known.optimum is not None else known.cluster <= 1_000
    ),
    "cpsat": lambda case, known: known.optimum is None or known.optimum <= 6,
    "dfs": lambda case, known: known.cluster <= (100 if known.optimum is None else 1_000),
    "verify": lambda case, known: known.optimum is None or known.optimum <= 8,
    "anytime-2": lambda case, known: (
        known.cluster >= 1_000 if known.optimum is None else known.optimum >= 8
    ),
}
"""Which cases a slow method (``method/heuristic``, else ``method``) runs on, by the oracle's
answer; the others run on every case.
IDA* deepens its bound one by one, and searches the cluster once per bound before it proves a
board unsolvable; CP-SAT deepens its horizon one by one (an unsolvable board is settled by its
breadth-first search first, so every one runs); the engine's depth-first search expands a
state again whenever it meets it by a shorter path, which takes minutes on clusters of
thousands (the oracle's count of positions seen decides). ``anytime-2`` starts a process pool
(about a tenth of a second) for each case, so it runs on the long ones only."""

METHOD_SECONDS = 120.0
"""Time limit of a method under test; reaching it counts as a disagreement."""

HARD = "scrambled12x12_44_s2.csv"
"""The contract's hard board (``tests/data/rushhour``): solvable, and no method proves
its optimum in seconds."""

MOST_POSITIONS = 5_000
"""Largest cluster of a case."""

NAMES = string.ascii_uppercase.replace("A", "")
"""Names of the pieces other than the red car ``A``."""


@dataclass(frozen=True)
class Case:
    """A random board and the metric-free facts the oracle needs."""

    board: Board

    def __repr__(self) -> str:
        rows = "/".join("".join(name or "." for name in row) for row in self.board.grid())
        return f"Case({self.board.size}x{self.board.size} {rows!r}, red {self.board.red})"


@dataclass(frozen=True)
class Oracle:
    """What breadth-first search found: the optimum (None: unsolvable) and the cluster size
    (complete only when unsolvable, since the search stops at the first goal)."""

    optimum: int | None
    cluster: int


Spot = tuple[bool, int, int, int]
"""A piece to drop: horizontal?, length, row, column."""


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A random board (see the module text)."""
    size = draw(st.sampled_from((5, 6, 6, 6, 6, 7)))
    cells = st.integers(0, size - 1)
    red = Piece("A", draw(cells), draw(st.integers(0, size - 2) | st.just(0)), 2, True)
    taken = set(red.cells())
    walls = set()
    for cell in draw(st.lists(st.tuples(cells, cells), max_size=2)):
        if cell not in taken:
            walls.add(cell)
            taken.add(cell)
    spots = st.tuples(st.booleans(), st.sampled_from((2, 2, 3)), cells, cells)
    pieces = [red]
    tries = draw(st.integers(0, 3 * size))
    for horizontal, length, row, col in draw(st.lists(spots, min_size=tries, max_size=tries)):
        piece = Piece(NAMES[len(pieces) - 1], row, col, length, horizontal)
        body = piece.cells()
        if all(0 <= r < size and 0 <= c < size and (r, c) not in taken for r, c in body):
            pieces.append(piece)
            taken.update(body)
    board = Board(size, tuple(pieces), frozenset(walls), "A")
    graph = Graph(board)
    cluster = bfs(graph, [graph.start()], size, MOST_POSITIONS)
    assume(cluster is not None)
    assert cluster is not None
    return Case(hardest(graph, cluster) if draw(st.booleans()) else board)


class Graph:
    """The board's state graph written out plainly: a state is the tuple of piece offsets."""

    def __init__(self, board: Board) -> None:
        n = self.n = board.size
        self.board = board
        self.red = [p.name for p in board.pieces].index(board.red)
        self.exit = n - board.pieces[self.red].length
        self.walls = sum(1 << (r * n + c) for r, c in board.walls)
        self.cells = [
            [sum(1 << (r * n + c) for r, c in _cells(p, o)) for o in range(n - p.length + 1)]
            for p in board.pieces
        ]

    def start(self) -> tuple[int, ...]:
        """The offsets of the start position."""
        return tuple(p.col if p.horizontal else p.row for p in self.board.pieces)

    def slides(self, state: tuple[int, ...], longest: int) -> Iterator[tuple[int, ...]]:
        """Every state one slide of at most ``longest`` cells away."""
        taken = self.walls
        for i, o in enumerate(state):
            taken |= self.cells[i][o]
        for i, o in enumerate(state):
            others = taken & ~self.cells[i][o]
            for step in (-1, 1):
                new = o + step
                while 0 <= new < len(self.cells[i]) and abs(new - o) <= longest:
                    if self.cells[i][new] & others:
                        break
                    yield (*state[:i], new, *state[i + 1 :])
                    new += step

    def is_goal(self, state: tuple[int, ...]) -> bool:
        """Whether the red car's right end is in the last column."""
        return state[self.red] == self.exit


def bfs(
    graph: Graph, sources: list[tuple[int, ...]], longest: int, most: int | None = None
) -> dict[tuple[int, ...], int] | None:
    """Breadth-first search from ``sources``: the distance of every state reached, or None
    when there are more than ``most``."""
    distance = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        state = queue.popleft()
        for nxt in graph.slides(state, longest):
            if nxt not in distance:
                distance[nxt] = distance[state] + 1
                queue.append(nxt)
        if most is not None and len(distance) > most:
            return None
    return distance


def hardest(graph: Graph, cluster: Iterable[tuple[int, ...]]) -> Board:
    """The position of the cluster farthest from the exit in moves (the graph's start when
    the cluster holds no goal)."""
    goals = sorted(s for s in cluster if graph.is_goal(s))
    if not goals:
        return graph.board
    distance = bfs(graph, goals, graph.n)
    assert distance is not None
    farthest = max(sorted(distance), key=distance.__getitem__)
    return graph.board.with_offsets(farthest)


def _cells(piece: Piece, offset: int) -> list[tuple[int, int]]:
    """The cells of ``piece`` with its left (or top) end at ``offset``."""
    if piece.horizontal:
        return [(piece.row, offset + k) for k in range(piece.length)]
    return [(offset + k, piece.col) for k in range(piece.length)]


def explore(board: Board, metric: str) -> Oracle:
    """Breadth-first search from the start until a goal position (or the whole cluster)."""
    graph = Graph(board)
    longest = 1 if metric == "steps" else board.size
    start = graph.start()
    distance = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if graph.is_goal(state):
            return Oracle(distance[state], len(distance))
        for nxt in graph.slides(state, longest):
            if nxt not in distance:
                distance[nxt] = distance[state] + 1
                queue.append(nxt)
    return Oracle(None, len(distance))


def replay(board: Board, plan: list[Move]) -> str | None:
    """What is wrong with ``plan`` (an illegal slide, or the red car not at the exit), else None."""
    n = board.size
    grid = [["" for _ in range(n)] for _ in range(n)]
    for r, c in board.walls:
        grid[r][c] = "#"
    where: dict[str, list[tuple[int, int]]] = {}
    for piece in board.pieces:
        where[piece.name] = piece.cells()
        for r, c in where[piece.name]:
            grid[r][c] = piece.name
    for k, move in enumerate(plan, 1):
        body = where.get(move.piece)
        if body is None or move.delta == 0:
            return f"move {k} ({move}) names no piece or goes nowhere"
        dr, dc = (0, 1) if body[0][0] == body[-1][0] else (1, 0)
        step = 1 if move.delta > 0 else -1
        for _ in range(abs(move.delta)):
            head = body[-1] if step > 0 else body[0]
            r, c = head[0] + step * dr, head[1] + step * dc
            if not (0 <= r < n and 0 <= c < n) or grid[r][c]:
                return f"move {k} ({move}) is blocked or leaves the board"
            tail = body[0] if step > 0 else body[-1]
            grid[tail[0]][tail[1]], grid[r][c] = "", move.piece
            body = [*body[1:], (r, c)] if step > 0 else [(r, c), *body[:-1]]
        where[move.piece] = body
    red = where[board.red]
    return None if red[-1][1] == n - 1 else f"after {len(plan)} moves the red car is not out"


def cost(plan: list[Move], metric: str) -> int:
    """Moves in ``plan``, or cells slid."""
    return len(plan) if metric == "moves" else sum(abs(m.delta) for m in plan)


def runs_on(method: str, case: Case, known: Oracle) -> bool:
    """Whether ``method`` (``name[/heuristic]@metric``) runs on this case (see :data:`REACH`)."""
    spec = method.partition("@")[0]
    fits = REACH.get(spec) or REACH.get(spec.partition("/")[0])
    return fits is None or fits(case, known)


def disagreement(method: str, case: Case, known: Oracle, result: Result[list[Move]]) -> str | None:
    """What ``result`` of ``method`` gets wrong against the oracle, or None."""
    metric = method.partition("@")[2]
    best = known.optimum
    if best is None:
        return (
            None
            if result.status == Status.UNSOLVABLE
            else f"{result.status} on an unsolvable board"
        )
    if result.solution is None or not result.status.has_solution:
        return f"{result.status} ({result.message}) where {best} {metric} solve it"
    plan = result.solution
    wrong = replay(case.board, plan)
    if wrong is not None:
        return wrong
    found = cost(plan, metric)
    if result.stats.cost != found:
        return f"cost {result.stats.cost:g} for a plan of {found} {metric}"
    name = method.partition("/")[0].partition("@")[0]
    optimal = name not in NOT_OPTIMAL and method not in NOT_OPTIMAL
    if (optimal or result.status == Status.OPTIMAL) and found != best:
        return f"{result.status} plan of {found} {metric}, optimum {best}"
    if optimal and result.status != Status.OPTIMAL:
        return f"{result.status}, not optimal, for an optimal method"
    return None


def verify_disagreement(case: Case, known: Oracle, metric: str) -> str | None:
    """What ``verify`` gets wrong: it must agree, and CP-SAT's lower bound must be the
    optimum (or, on an unsolvable board, CP-SAT must prove it unsolvable)."""
    request = Request(options={"metric": metric})
    limits = Limits(time_limit=METHOD_SECONDS)
    report = tasks.verify(kind.KIND, case.board, request=request, limits=limits)
    if report.agree is not True:
        return f"agree is {report.agree}: {'; '.join(report.problems)}"
    reference: Result[list[Move]] = report.reference
    if known.optimum is None:
        unsolvable = reference.status == Status.UNSOLVABLE
        return None if unsolvable else f"CP-SAT says {reference.status} on an unsolvable board"
    bound = reference.proof.get("lower_bound")
    return None if bound == known.optimum else f"CP-SAT bound {bound}, optimum {known.optimum}"


def check(case: Case) -> dict[str, str | None]:
    """Each method checked on ``case``, mapped to None (agrees) or what it got wrong."""
    oracles = {metric: explore(case.board, metric) for metric in METRICS}
    verdicts: dict[str, str | None] = {}
    for method in METHODS:
        spec, _, metric = method.partition("@")
        known = oracles[metric]
        if not runs_on(method, case, known):
            continue
        if spec == "verify":
            verdicts[method] = verify_disagreement(case, known, metric)
            continue
        name, _, h = spec.partition("/")
        plain = name == "bfs-plain"
        name, workers = ON_WORKERS.get(name, (name, 1))
        request = Request("bfs" if plain else name, h or None, {"metric": metric})
        limits = Limits(time_limit=METHOD_SECONDS, workers=workers)
        budget = bfs_method.QUICK_EXPANSIONS if plain else 0
        with patch.object(bfs_method, "_plain_budget", return_value=budget):
            result = tasks.solve(kind.KIND, case.board, request=request, limits=limits)
        verdicts[method] = disagreement(method, case, known, result)
    return verdicts


# --- the contract suite ---------------------------------------------------------------------


def replay_json(board: Board, solution: Any) -> str | None:
    """``None`` when the moves of the JSON form (``{"moves": ["A+2", ...]}``) take the red car
    out by :func:`replay`."""
    return replay(board, [Move.parse(move) for move in solution["moves"]])


def contract() -> Contract:
    """A shipped 6x6 board with walls, a 6x6 board whose exit two trucks block for good, and a
    12x12 board of 44 pieces (which ``bfs`` refuses: its key does not fit)."""
    walled = read(ROOT / "rushhour" / "walls.rh")[0].puzzle
    blocked = Board(
        6,
        (Piece("A", 2, 0, 2, True), Piece("B", 0, 5, 3, False), Piece("C", 3, 5, 3, False)),
        frozenset(),
        "A",
    )
    hard = read(Path(__file__).resolve().parents[2] / "data" / "rushhour" / HARD)[0].puzzle
    return Contract(
        small=(
            Sample(walled, True, explore(walled, "moves").optimum),
            Sample(blocked, False),
        ),
        hard=hard,
    )
