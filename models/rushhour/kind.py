"""The ``rushhour`` kind of :mod:`cspsolve.registry`: what the command line calls.

Methods: ``bfs`` (default) is the compiled breadth-first search over compact states of
:mod:`.cluster` — optimal under both metrics, since its edges are moves (or one-cell steps).
``astar``, ``idastar``, ``greedy``, ``engine-bfs`` and ``dfs`` run the generic engine
(:mod:`cspsolve.search`) on :class:`.search.RushHourProblem`, whose actions are slides; under
the steps metric a slide costs its length, so ``engine-bfs`` is then not optimal (use
``astar`` — uniform-cost search with ``--heuristic zero``). ``cpsat`` deepens the horizon of
the time-expanded model of :mod:`.cpsat` until it finds a plan, proving every shorter horizon
infeasible. A board whose red car is walled in for good (:func:`_walled_in`) is reported
unsolvable by every method at once, without a search.
"""

from __future__ import annotations

from typing import Any

from cspsolve.limits import Limits
from cspsolve.registry import Options
from cspsolve.render import Scene, plural
from cspsolve.results import Result, Stats, Status

from .board import Board, Move, check, merged, replay
from .formats import read, select, sniff, write
from .search import HEURISTICS, METRICS

__all__ = [
    "EXTENSIONS",
    "HEURISTICS",
    "METHODS",
    "NAME",
    "OPTIONS",
    "analyze",
    "describe",
    "draw",
    "encode",
    "read",
    "runs",
    "scenes",
    "select",
    "sniff",
    "solve",
    "verify",
    "write",
]

NAME = "rushhour"
METHODS = ("bfs", "astar", "idastar", "greedy", "engine-bfs", "dfs", "cpsat")
DEFAULT_HEURISTIC = "blockers"
OPTIONS = frozenset({"metric"})
EXTENSIONS = frozenset({".rh"})
_UNSOLVABLE_HORIZON = 60
"""Largest cluster whose unsolvability verify asks CP-SAT to confirm (horizon = states - 1)."""

_PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94",
)  # fmt: skip
_RED = "#d62728"


def _metric(options: Options) -> str:
    metric = options.metric or "moves"
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
    return metric


def _cluster_bfs(board: Board, metric: str, limits: Limits | None) -> Result[list[Move]] | None:
    """The compiled BFS; ``None`` when the board's state key does not fit in 62 bits."""
    from .cluster import explore

    cluster, stats, stopped = explore(board, steps=metric == "steps", limits=limits)
    if cluster is None:
        return None
    if cluster.goal >= 0:
        plan = cluster.plan(cluster.goal)
        stats.cost = stats.depth = len(plan)  # BFS edges: moves, or one-cell steps
        return Result(Status.OPTIMAL, merged(plan), stats, "bfs")
    if stopped is not None:
        return Result(stopped, None, stats, "bfs")
    message = (
        "no plan: no piece can move, and the red car is not at the exit"
        if cluster.size == 1
        else f"no plan: none of the {cluster.size:,} reachable positions has the red car at "
        "the exit"
    )
    return Result(Status.UNSOLVABLE, None, stats, "bfs", message=message)


def _walled_in(board: Board) -> str | None:
    """Why the red car can never reach the exit, whatever the other pieces do; else None.

    A wall, or a horizontal piece, in the red car's row between it and the exit stays there for
    good: walls never move, and a horizontal piece slides only along that row and cannot pass
    the red car (the "blocking" heuristic of :mod:`.search` is infinite on every position).
    """
    red = board.pieces[board.red_index]
    ahead = range(red.col + red.length, board.size)
    for piece in board.pieces:
        if piece.horizontal and piece.row == red.row and piece.col in ahead:
            return f"no plan: {piece.name} lies between the red car and the exit and never leaves"
    walls = sorted(c for r, c in board.walls if r == red.row and c in ahead)
    if walls:
        return f"no plan: a wall (column {walls[0] + 1}) stands between the red car and the exit"
    return None


def solve(board: Board, options: Options, limits: Limits | None) -> Result[list[Move]]:
    """Solve with ``options.method`` (default ``bfs``) under ``options.metric``."""
    from cspsolve import search as engine

    from . import cpsat
    from .search import RushHourProblem, heuristic

    metric = _metric(options)
    method = options.method or "bfs"
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    blocked = _walled_in(board)
    if blocked is not None:
        return Result(Status.UNSOLVABLE, None, Stats(), method, message=blocked)
    if method == "cpsat":
        return cpsat.solve(board, metric=metric, limits=limits)
    if method == "bfs":
        compiled = _cluster_bfs(board, metric, limits)
        if compiled is not None:
            return compiled
        method = "astar"  # the key does not fit: the generic engine's uniform-cost search
        options = Options(heuristic=options.heuristic or "zero")
    problem = RushHourProblem(board, metric)
    h = heuristic(options.heuristic or DEFAULT_HEURISTIC, problem)
    runs: dict[str, Any] = {
        "astar": lambda: engine.astar(problem, h, limits=limits),
        "idastar": lambda: engine.idastar(problem, h, limits=limits),
        "greedy": lambda: engine.greedy(problem, h, limits=limits),
        "engine-bfs": lambda: engine.bfs(problem, limits=limits),
        "dfs": lambda: engine.dfs(problem, limits=limits),
    }
    result: Result[list[Move]] = runs[method]()
    result.method = method
    if result.status == Status.UNSOLVABLE:
        result.message = "no plan: every reachable position was searched"
    return result


def verify(board: Board, options: Options, limits: Limits | None) -> dict[str, Any]:
    """The search's optimum beside CP-SAT's proof: no plan in one less, a plan in as many.

    Returns
    -------
    dict
        ``search`` and ``reference`` results (the reference is CP-SAT's, with
        ``proof.lower_bound``), ``agree`` (True when CP-SAT proves exactly the search's optimum,
        or proves an unsolvable board of at most 60 positions unsolvable; ``None`` when
        unsettled) and ``problems`` (plans that fail the independent :func:`.board.check`, or
        disagreement). The size of an unsolvable board's cluster, which bounds CP-SAT's
        horizon, comes from the compiled breadth-first search, whatever the method.
    """
    from .cluster import explore
    from .cpsat import amount, plan_within

    if options.method == "cpsat":
        raise ValueError("verify checks a search method against CP-SAT; pick another --method")
    metric = _metric(options)
    budget = (limits or Limits()).start(Stats())
    search = solve(board, options, limits)
    problems = []
    invalid = check(board, search.solution) if search.solution is not None else []
    if invalid:
        problems.append(f"search plan: {invalid[0]}")
    cluster = None
    if search.status == Status.UNSOLVABLE:
        found, _, stopped = explore(board, stop_at_goal=False, limits=budget.rest())
        cluster = found if stopped is None else None
    if cluster is not None and cluster.size <= _UNSOLVABLE_HORIZON:
        # Every plan inside a cluster of N states has at most N - 1 moves (or steps).
        horizon = cluster.size - 1
        answer = plan_within(board, horizon, metric=metric, time_limit=budget.remaining())
        cpsat = _cpsat_result(answer.status, answer.plan, metric, horizon + 1, answer.seconds)
        settled = {"infeasible": True, "feasible": False}.get(answer.status)
        if cpsat.status == Status.LIMIT and answer.status == "infeasible":
            cpsat.status = Status.UNSOLVABLE
        return {"search": search, "reference": cpsat, "agree": settled, "problems": problems}
    if search.status != Status.OPTIMAL:
        problems.append("the search proved no optimum, so there is no bound to check")
        return {
            "search": search,
            "reference": Result(Status.LIMIT, method="cpsat"),
            "agree": None,
            "problems": problems,
        }
    optimum = int(search.stats.cost)
    below = plan_within(board, optimum - 1, metric=metric, time_limit=budget.remaining())
    at = plan_within(board, optimum, metric=metric, time_limit=budget.remaining())
    cpsat = _cpsat_result(below.status, at.plan, metric, optimum, below.seconds + at.seconds)
    if at.plan is not None and check(board, at.plan):
        problems.append(f"cpsat plan: {check(board, at.plan)[0]}")
    agree: bool | None = None
    if below.status == "feasible":
        agree = False
        problems.append(f"CP-SAT found a plan of at most {amount(optimum - 1, metric)}")
    elif at.status == "infeasible":
        agree = False
        problems.append(f"CP-SAT proves no plan of {amount(optimum, metric)} exists")
    elif below.status == "infeasible" and at.status == "feasible":
        agree = not problems
    return {"search": search, "reference": cpsat, "agree": agree, "problems": problems}


def _cpsat_result(
    below: str, plan: list[Move] | None, metric: str, optimum: int, seconds: float
) -> Result[list[Move]]:
    from .cpsat import cost

    result: Result[list[Move]] = Result(Status.LIMIT, plan, method="cpsat")
    result.stats.seconds = seconds
    if below == "infeasible":
        result.proof["lower_bound"] = optimum
    if plan is not None:
        result.stats.cost = cost(plan, metric)
        result.stats.depth = len(plan)
        result.status = Status.OPTIMAL if below == "infeasible" else Status.SOLVED
    return result


def analyze(board: Board, options: Options, limits: Limits | None) -> dict[str, Any]:
    """Cluster size, goal states, optimal moves and steps, difficulty (:mod:`.analysis`)."""
    if options.method is not None or options.heuristic is not None:
        raise ValueError("analyze explores the whole cluster; it takes no --method/--heuristic")
    from .analysis import analyze as analyze_cluster  # numpy: only when asked for

    return analyze_cluster(board, limits)


def runs(board: Board, options: Options) -> list[tuple[str, str | None]]:
    """The compiled BFS, the engine's searches with every heuristic, and CP-SAT."""
    pairs: list[tuple[str, str | None]] = [("bfs", None), ("engine-bfs", None)]
    pairs += [("astar", h) for h in HEURISTICS]
    pairs += [("idastar", DEFAULT_HEURISTIC), ("greedy", DEFAULT_HEURISTIC), ("dfs", None)]
    return [*pairs, ("cpsat", None)]


def encode(solution: list[Move]) -> dict[str, Any]:
    """``{"moves": ["A+2", "B-1", ...], "count": N}``."""
    return {"moves": [str(m) for m in solution], "count": len(solution)}


def describe(board: Board) -> str:
    """E.g. ``6x6, 13 pieces, 1 wall``."""
    walls = len(board.walls)
    pieces = len(board.pieces)
    text = f"{board.size}x{board.size}, {plural(pieces, 'piece')}"
    return text + (f", {plural(walls, 'wall')}" if walls else "")


def _text(board: Board) -> list[str]:
    width = max(len(p.name) for p in board.pieces)
    rows = []
    for r, row in enumerate(board.grid()):
        cells = " ".join((name or ".").ljust(width) for name in row)
        rows.append(cells + (" >" if r == board.exit_row else ""))
    return rows


def draw(board: Board, solution: list[Move]) -> str:
    """The start board (``.`` empty, ``x`` wall, ``>`` the exit) and the moves, in lines of 12."""
    lines = _text(board)
    words = [str(m) for m in solution]
    lines.append(f"{plural(len(words), 'move')}:" if words else "already solved")
    lines += ["  " + " ".join(words[k : k + 12]) for k in range(0, len(words), 12)]
    return "\n".join(lines)


def scenes(board: Board, solution: list[Move]) -> list[Scene]:
    """One picture per position from the start: pieces as coloured cells with their names."""
    colours = {
        p.name: _RED if p.name == board.red else _PALETTE[i % len(_PALETTE)]
        for i, p in enumerate(board.pieces)
    }
    exit_side = frozenset({(board.exit_row, board.size - 1, "E")})
    out = []
    for k, position in enumerate(replay(board, solution)):
        grid = position.grid()
        fills = tuple(
            tuple("black" if n == "x" else colours[n] if n else "white" for n in row)
            for row in grid
        )
        texts = tuple(tuple("" if n == "x" else n for n in row) for row in grid)
        caption = "start" if k == 0 else f"move {k} of {len(solution)}: {solution[k - 1]}"
        where = f"exit right of row {board.exit_row + 1}"
        out.append(Scene(fills, texts, walls=exit_side, caption=f"{caption} ({where})"))
    return out
