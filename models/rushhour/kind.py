"""The ``rushhour`` kind: its table of methods, options, files and pictures.

Methods: ``bfs`` (the default on boards of at most 6 x 6) is breadth-first search — optimal
under both metrics, since its edges are moves (or one-cell steps) — in plain Python while the
first search of a process is small (:mod:`.quick`, which spares loading the compiled code),
else compiled over the compact states of :mod:`.cluster`. ``bfida`` (the default beyond) is the
compiled breadth-first iterative-deepening A* of :mod:`.deepening` over bit-packed keys of any
width, which prunes by the ``blockers`` estimate and reports the lower bound it proved when a
limit stops it. ``anytime`` (:mod:`.anytime`) finds a plan at once by beam search, then shorter
ones by wider beams, while BFIDA*'s iterations raise the proven lower bound, until the two meet
(``optimal``) or a limit (the best plan beside the bound); with ``limits.workers >= 2`` the two
run at once in two processes. ``astar``, ``idastar``,
``greedy``, ``engine-bfs`` and ``dfs`` run the generic engine (:mod:`cspsolve.search`) on
:class:`.search.RushHourProblem`, whose actions are slides; under the steps metric a slide
costs its length, so ``engine-bfs`` is then not optimal (use ``astar`` — uniform-cost search
with ``--heuristic zero``). ``idastar`` sees the problem through the transposition table of
:class:`.search.Transpositions`, which makes it end on unsolvable boards. ``cpsat`` first
settles whether any plan exists by a breadth-first search of the cluster
(:func:`.quick.breadth_first`), then deepens the horizon of the time-expanded model of
:mod:`.cpsat` until it finds a plan, proving every shorter horizon infeasible. As the reference
of ``verify`` it proves the other method's optimum ``c`` a bound instead (no plan within
``c - 1``, one within ``c``), and checks an unsolvable verdict by a breadth-first search of the
whole cluster, confirmed by CP-SAT on clusters of at most 60 positions. A board whose red car
is walled in for good (:func:`_walled_in`) is reported unsolvable by every method at once,
without a search.
"""

from __future__ import annotations

import importlib
import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.kind import Kind, Method, Runner, no_moves, option
from cspsolve.limits import Limits
from cspsolve.render import plural
from cspsolve.results import Result, Stats, Status

from .board import EXHAUSTED, Board, Move, check, merged, walled_in
from .formats import read, select, sniff, write
from .pictures import draw, scenes
from .quick import QUICK_EXPANSIONS, Outcome, breadth_first, fits
from .search import HEURISTICS, METRICS

__all__ = ["KIND", "RushHourOptions", "analyze"]

DEFAULT_HEURISTIC = "blockers"
_HEURISTICS = (DEFAULT_HEURISTIC, *(h for h in HEURISTICS if h != DEFAULT_HEURISTIC))
_COMPILED_HEURISTICS = (DEFAULT_HEURISTIC, "union", "blocking", "zero")
_UNSOLVABLE_HORIZON = 60
"""Largest cluster whose unsolvability verify asks CP-SAT to confirm (horizon = states - 1);
beyond, the breadth-first search of the whole cluster is the proof."""


@dataclass(frozen=True)
class RushHourOptions:
    """The Rush Hour kind's options."""

    metric: str | None = option(
        "cost of a plan: a piece slid any distance (moves, the default) or one cell (steps).",
        choices=METRICS,
    )

    @property
    def cost(self) -> str:
        """The metric, ``"moves"`` when none was given."""
        return self.metric or "moves"


def _open(run: Runner) -> Runner:
    """``run``, after :func:`_walled_in`: a walled-in red car is answered at once."""

    def checked(
        board: Board, /, *, heuristic: str | None, options: Any, limits: Limits | None
    ) -> Result[list[Move]]:
        blocked = walled_in(board)
        if blocked is not None:
            return Result(Status.UNSOLVABLE, None, Stats(), message=blocked)
        return run(board, heuristic=heuristic, options=options, limits=limits)

    return checked


_BFS_RUNS = itertools.count()
_COMPILED = f"{__package__}._kernels"


def _plain_budget() -> int:
    """Expansions ``bfs`` may spend in plain Python: :data:`QUICK_EXPANSIONS` in the first search
    of a process, while the compiled code is not loaded; none in later ones, since a process
    that runs many searches is faster loading the compiled code once for all of them."""
    first = next(_BFS_RUNS) == 0
    return QUICK_EXPANSIONS if first and _COMPILED not in sys.modules else 0


def _too_big(board: Board) -> str | None:
    if fits(board):
        return None
    return "the board's positions do not fit the compiled search's 62-bit key; use bfida"


def _cluster_bfs(
    board: Board, /, *, heuristic: str | None, options: RushHourOptions, limits: Limits | None
) -> Result[list[Move]]:
    """Breadth-first search: in plain Python while it is small (:func:`.quick.search`), then
    compiled over the cluster of ``board`` (:func:`.quick.breadth_first`)."""
    budget = (limits or Limits()).start(Stats())
    outcome, memory = breadth_first(
        board, budget, steps=options.cost == "steps", plain=_plain_budget()
    )
    result = _bfs_result(outcome, budget.finish())
    if memory:
        from .cluster import MEMORY

        result.message = (
            f"no plan within the memory budget ({MEMORY / 2**30:g} GiB); bfida keeps within "
            "its own and proves a lower bound"
        )
    return result


def _bfs_result(outcome: Outcome, stats: Stats) -> Result[list[Move]]:
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


def _engine(name: str, informed: bool, transpositions: bool = False) -> Runner:
    """The engine's search ``name`` on :class:`.search.RushHourProblem` (seen through
    :class:`.search.Transpositions` with ``transpositions``)."""

    def run(
        board: Board, /, *, heuristic: str | None, options: RushHourOptions, limits: Limits | None
    ) -> Result[list[Move]]:
        from cspsolve import search as engine

        from .search import RushHourProblem, Transpositions
        from .search import heuristic as make_heuristic

        problem = RushHourProblem(board, options.cost)
        search: Callable[..., Result[list[Move]]] = getattr(engine, name)
        if informed:
            assert heuristic is not None
            estimate = make_heuristic(heuristic, problem)
            searched = Transpositions(problem, estimate) if transpositions else problem
            result = search(searched, estimate, limits=limits)
        else:
            result = search(problem, limits=limits)
        if result.status == Status.UNSOLVABLE:
            result.message = EXHAUSTED
        return result

    return run


def _cpsat(
    board: Board, /, *, heuristic: str | None, options: RushHourOptions, limits: Limits | None
) -> Result[list[Move]]:
    from . import cpsat

    return cpsat.solve(board, metric=options.cost, limits=limits)


def _confirm(
    board: Board,
    answer: Result[list[Move]],
    /,
    *,
    options: RushHourOptions,
    limits: Limits | None,
) -> Result[list[Move]]:
    """CP-SAT's check of another method's answer: an optimum ``c`` proven a bound (no plan
    within ``c - 1``, a plan within ``c``); an unsolvable board settled by
    :func:`_confirm_unsolvable`; otherwise status ``limit``."""
    if answer.status is Status.UNSOLVABLE:
        return _confirm_unsolvable(board, options.cost, limits)
    if answer.status is not Status.OPTIMAL:
        message = "the search proved no optimum, so there is no bound to check"
        return Result(Status.LIMIT, None, message=message)
    return _confirm_optimum(board, int(answer.stats.cost), options.cost, limits)


def _confirm_unsolvable(board: Board, metric: str, limits: Limits | None) -> Result[list[Move]]:
    """A breadth-first search of the whole cluster (:func:`.quick.breadth_first`): a goal
    found is a plan (status ``optimal``); none among all the reachable positions proves the
    board unsolvable, and CP-SAT confirms it on clusters of at most 60 positions (no plan
    within as many moves as positions less one)."""
    from .cpsat import plan_within

    budget = (limits or Limits()).start(Stats())
    outcome, _ = breadth_first(board, budget, steps=metric == "steps", plain=0)
    if outcome.plan is not None:
        return _bfs_result(outcome, budget.finish())
    if outcome.stopped is not None or outcome.positions > _UNSOLVABLE_HORIZON:
        result = _bfs_result(outcome, budget.finish())
        if result.status is not Status.UNSOLVABLE:
            result.message = "the breadth-first search of the cluster did not end"
        return result
    # Every plan inside a cluster of N states has at most N - 1 moves (or steps).
    found = plan_within(board, outcome.positions - 1, metric=metric, budget=budget)
    status = {"infeasible": Status.UNSOLVABLE, "feasible": Status.SOLVED}.get(found.status)
    result = _cpsat_result(status or Status.LIMIT, found.plan, metric, budget.finish().seconds)
    if found.status == "infeasible":
        result.proof["lower_bound"] = outcome.positions
    return result


def _confirm_optimum(
    board: Board, optimum: int, metric: str, limits: Limits | None
) -> Result[list[Move]]:
    from .cpsat import plan_within

    budget = (limits or Limits()).start(Stats())
    below = plan_within(board, optimum - 1, metric=metric, budget=budget)
    if below.status == "feasible":
        return _cpsat_result(Status.SOLVED, below.plan, metric, below.seconds)
    at = plan_within(board, optimum, metric=metric, budget=budget)
    seconds = below.seconds + at.seconds
    if at.status == "infeasible":
        result = _cpsat_result(Status.LIMIT, None, metric, seconds)
        result.proof["lower_bound"] = optimum + 1
        return result
    proven = below.status == "infeasible" and at.plan is not None
    result = _cpsat_result(Status.OPTIMAL if proven else Status.SOLVED, at.plan, metric, seconds)
    if below.status == "infeasible":
        result.proof["lower_bound"] = optimum
    return result


def _cpsat_result(
    status: Status, plan: list[Move] | None, metric: str, seconds: float
) -> Result[list[Move]]:
    from .cpsat import cost

    if plan is None and status.has_solution:
        status = Status.LIMIT
    result: Result[list[Move]] = Result(status, plan)
    result.stats.seconds = seconds
    if plan is not None:
        result.stats.cost = cost(plan, metric)
        result.stats.depth = len(plan)
    return result


LARGEST_BFS_DEFAULT = 6
"""Largest side on which ``bfs`` is the default. On 9x9 boards of 24-26 pieces it kept
tens of millions of positions (18.5 GB in 346 s on ``tests/data/rushhour/random9x9_24_b.csv``
without an answer); ``bfida`` stays within its memory budget and proves a bound."""


def _cluster_default(board: Board) -> bool:
    return board.size <= LARGEST_BFS_DEFAULT and fits(board)


def _packed(module: str) -> Runner:
    """The ``solve`` of the search module ``module`` over packed positions (``deepening``,
    ``anytime``), imported at its first run: it loads the compiled kernels."""

    def run(
        board: Board, /, *, heuristic: str | None, options: RushHourOptions, limits: Limits | None
    ) -> Result[list[Move]]:
        solve: Callable[..., Result[list[Move]]]
        solve = importlib.import_module(f".{module}", __package__).solve
        assert heuristic is not None
        return solve(board, metric=options.cost, heuristic=heuristic, limits=limits)

    return run


METHODS = (
    Method(
        name="bfs",
        run=_open(_cluster_bfs),
        summary="compiled breadth-first search over bit-packed positions",
        backend="compiled",
        optimal=True,
        complete=True,
        default=_cluster_default,
        refuses=_too_big,
    ),
    Method(
        name="bfida",
        run=_open(_packed("deepening")),
        summary="breadth-first iterative-deepening A* on bit-packed positions (Zhou, Hansen 2006)",
        backend="compiled",
        optimal=True,
        complete=True,
        heuristics=_COMPILED_HEURISTICS,
        default=True,
    ),
    Method(
        name="anytime",
        run=_open(_packed("anytime")),
        summary="beam search for plans beside BFIDA* for a lower bound, until they meet",
        backend="compiled",
        optimal=True,
        complete=True,
        heuristics=("union", *(h for h in _COMPILED_HEURISTICS if h != "union")),
        compared=lambda board: ("union",),
    ),
    Method(
        name="astar",
        run=_open(_engine("astar", informed=True)),
        summary="A* graph search on slides (Hart, Nilsson & Raphael 1968)",
        backend="search",
        optimal=True,
        complete=True,
        heuristics=_HEURISTICS,
    ),
    Method(
        name="idastar",
        run=_open(_engine("idastar", informed=True, transpositions=True)),
        summary="IDA* (Korf 1985) with a transposition table (Reinefeld & Marsland 1994)",
        backend="search",
        optimal=True,
        complete=True,
        heuristics=_HEURISTICS,
        compared=lambda board: (DEFAULT_HEURISTIC,),
    ),
    Method(
        name="greedy",
        run=_open(_engine("greedy", informed=True)),
        summary="greedy best-first graph search",
        backend="search",
        optimal=False,
        complete=True,
        heuristics=_HEURISTICS,
        compared=lambda board: (DEFAULT_HEURISTIC,),
    ),
    Method(
        name="engine-bfs",
        run=_open(_engine("bfs", informed=False)),
        summary="the engine's breadth-first graph search (optimal under the moves metric)",
        backend="search",
        optimal=False,
        complete=True,
    ),
    Method(
        name="dfs",
        run=_open(_engine("dfs", informed=False)),
        summary="depth-first graph search",
        backend="search",
        optimal=False,
        complete=True,
    ),
    Method(
        name="cpsat",
        run=_open(_cpsat),
        summary="OR-Tools CP-SAT on a time-expanded model, horizon deepened until a plan",
        backend="cp-sat",
        optimal=True,
        complete=True,
        confirm=_confirm,
    ),
)


def analyze(
    board: Board,
    *,
    method: str | None,
    heuristic: str | None,
    options: RushHourOptions,
    limits: Limits | None,
) -> dict[str, Any]:
    """Cluster size, goal states, optimal moves and steps, the grade (:mod:`.analysis`).

    Raises
    ------
    OptionError
        When a method or heuristic is named: the analysis explores the whole cluster.
    """
    if method is not None or heuristic is not None:
        raise OptionError("analyze explores the whole cluster; it takes no --method/--heuristic")
    from .analysis import analyze as analyze_cluster  # numpy: only when asked for

    return analyze_cluster(board, limits)


def encode(solution: list[Move]) -> dict[str, Any]:
    """``{"moves": ["A+2", "B-1", ...], "count": N}``."""
    return {"moves": [str(m) for m in solution], "count": len(solution)}


def describe(board: Board) -> str:
    """E.g. ``6x6, 13 pieces, 1 wall``."""
    walls = len(board.walls)
    pieces = len(board.pieces)
    text = f"{board.size}x{board.size}, {plural(pieces, 'piece')}"
    return text + (f", {plural(walls, 'wall')}" if walls else "")


def _explain(board: Board, **how: Any) -> Explanation:
    """The plan explained move by move (:mod:`.explain`, imported on first use) by this
    kind's methods."""
    from .explain import explain

    return explain(board, kind=KIND, **how)


KIND = Kind(
    name="rushhour",
    title="Rush Hour",
    extensions=frozenset({".rh"}),
    priority=30,
    methods=METHODS,
    reference="cpsat",
    options=RushHourOptions,
    analysis="optimal_moves, cluster_size, goal_states, distance histogram, grade",
    sniff=sniff,
    read=read,
    select=select,
    write=write,
    check=check,
    encode=encode,
    describe=describe,
    draw=draw,
    scenes=scenes,
    analyze=analyze,
    explain=_explain,
    blank=no_moves,
    classes={"RushHour": Board},
)
