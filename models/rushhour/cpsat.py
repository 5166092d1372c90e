"""A time-expanded CP-SAT model of Rush Hour, used to prove optimal plans optimal.

Planning as satisfiability with a fixed horizon (Kautz & Selman, "Planning as
Satisfiability", ECAI 1992): the model has the offset of every piece at times 0..T, and at most
one piece slides per time step. Every cell a sliding piece sweeps (from its old to its new
position, both ends included) must be free of other pieces and walls, which also keeps pieces
apart while they stand still. The red car must be at the exit at time T. Idle steps are allowed
(so "a plan in T" means "in at most T") but only at the end, and under the moves metric one
piece never slides in two consecutive steps (the two slides would merge into one). An
infeasible horizon T - 1 is a proof that every plan needs at least T moves (or steps).

The ``cpsat`` method (:func:`run`) first settles whether any plan exists by a breadth-first
search of the cluster (:func:`.bfs.breadth_first`), then deepens the horizon until it finds a
plan, proving every shorter horizon infeasible (:func:`solve`). As the reference of ``verify``
(:func:`confirm`) it proves the other method's optimum ``c`` a bound instead (no plan within
``c - 1``, one within ``c``), and checks an unsolvable verdict by a breadth-first search of the
whole cluster, confirmed by CP-SAT on clusters of at most :data:`UNSOLVABLE_HORIZON` positions.

Solver: OR-Tools CP-SAT, https://developers.google.com/optimization/cp/cp_solver.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status
from cspsolve.satplan import Horizon, deepen

from .bfs import QUICK_EXPANSIONS, breadth_first
from .bfs import result as searched
from .board import Board, Move, merged
from .cluster import offset_ranges

__all__ = [
    "DEEPEST",
    "UNSOLVABLE_HORIZON",
    "amount",
    "confirm",
    "cost",
    "plan_within",
    "run",
    "solve",
]

UNSOLVABLE_HORIZON = 60
"""Largest cluster whose unsolvability :func:`confirm` asks CP-SAT to confirm (horizon =
states - 1); beyond, the breadth-first search of the whole cluster is the proof."""


def _model(
    board: Board, horizon: int, metric: str, budget: Budget | None
) -> tuple[Any, list[list[Any]]] | None:
    """The CP-SAT model and its offset variables ``pos[piece][time]``; ``None`` when ``budget``
    runs out while it is built (it is asked once per time step)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    low, high = offset_ranges(board)
    pieces = board.pieces
    pos = [
        [model.new_int_var(low[i], high[i], f"p{i}_{t}") for t in range(horizon + 1)]
        for i in range(len(pieces))
    ]
    for i, piece in enumerate(pieces):
        model.add(pos[i][0] == piece.offset)
    moved = [
        [model.new_bool_var(f"m{i}_{t}") for t in range(horizon + 1)] for i in range(len(pieces))
    ]
    active = []
    for t in range(1, horizon + 1):
        if budget is not None and budget.exhausted() is not None:
            return None
        active.append(sum(moved[i][t] for i in range(len(pieces))))
        model.add(active[-1] <= 1)
        cells: dict[tuple[int, int], list[Any]] = {}
        for i, piece in enumerate(pieces):
            before, after, m = pos[i][t - 1], pos[i][t], moved[i][t]
            model.add(after == before).only_enforce_if(~m)
            model.add(after != before).only_enforce_if(m)
            if metric == "steps":
                model.add(after - before <= 1)
                model.add(before - after <= 1)
            elif t > 1:
                model.add_bool_or([~moved[i][t - 1], ~m])
            _sweep(model, piece, before, after, low[i], high[i], cells)
        for swept in cells.values():
            if len(swept) > 1:
                model.add_at_most_one(swept)
    for a, b in itertools.pairwise(active):
        model.add(a >= b)
    model.add(pos[board.red_index][horizon] == board.goal_offset)
    return model, pos


def _sweep(
    model: Any,
    piece: Any,
    before: Any,
    after: Any,
    low: int,
    high: int,
    cells: dict[tuple[int, int], list[Any]],
) -> None:
    """Add, per cell of the piece's line, a literal forced true when the slide sweeps it."""
    lo = model.new_int_var(low, high, "")
    hi = model.new_int_var(low, high, "")
    model.add_min_equality(lo, [before, after])
    model.add_max_equality(hi, [before, after])
    for k in range(low, high + piece.length):
        from_left, to_right, swept = (model.new_bool_var("") for _ in range(3))
        model.add(lo >= k + 1).only_enforce_if(~from_left)
        model.add(hi <= k - piece.length).only_enforce_if(~to_right)
        model.add_bool_or([~from_left, ~to_right, swept])
        cell = (piece.row, k) if piece.horizontal else (k, piece.col)
        cells.setdefault(cell, []).append(swept)


def plan_within(
    board: Board, horizon: int, *, metric: str = "moves", budget: Budget | None = None
) -> Horizon[list[Move]]:
    """Decide whether a plan of at most ``horizon`` moves (or steps) exists.

    Parameters
    ----------
    board : Board
        The start position.
    horizon : int
        The most moves (or steps) a plan may take.
    metric : str
        ``"moves"`` or ``"steps"``.
    budget : Budget, optional
        The run's account: building the model stops when it runs out, and CP-SAT gets the
        time left once the model is built.

    Returns
    -------
    Horizon
        ``feasible`` with a plan, ``infeasible`` (a proof), or ``unknown``.
    """
    from ortools.sat.python import cp_model

    if horizon < 0:
        return Horizon("infeasible", None, 0.0)
    began = time.perf_counter()
    built = _model(board, horizon, metric, budget)
    if built is None:
        return Horizon("unknown", None, time.perf_counter() - began)
    model, pos = built
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    remaining = None if budget is None else budget.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 0.001)
    status = solver.solve(model)
    seconds = time.perf_counter() - began
    if status == cp_model.INFEASIBLE:
        return Horizon("infeasible", None, seconds)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Horizon("unknown", None, seconds)
    plan = []
    for t in range(1, horizon + 1):
        for i, piece in enumerate(board.pieces):
            delta = solver.value(pos[i][t]) - solver.value(pos[i][t - 1])
            if delta:
                plan.append(Move(piece.name, delta))
    return Horizon("feasible", merged(plan), seconds)


def amount(count: int, metric: str) -> str:
    """``count`` in words of ``metric``: ``"1 move"``, ``"0 moves"``, ``"3 steps"``."""
    return f"{count} {metric if count != 1 else metric.removesuffix('s')}"


def cost(plan: list[Move], metric: str) -> int:
    """Moves in a plan, or cells slid under the steps metric."""
    return sum(abs(m.delta) for m in plan) if metric == "steps" else len(plan)


DEEPEST = 200
"""The last horizon tried when the breadth-first search could not settle the board."""


def solve(
    board: Board,
    *,
    metric: str = "moves",
    limits: Limits | None = None,
    start: int = 0,
    stop: int | None = None,
) -> Result[list[Move]]:
    """An optimal plan by deepening the horizon from ``start`` until CP-SAT finds one.

    Every horizon below the first feasible one is proven infeasible, so the plan found is
    optimal when ``start`` is itself a proven lower bound (0, or the search's optimum minus
    one). ``proof["lower_bound"]`` is the largest horizon proven infeasible plus one.

    Without ``stop``, a breadth-first search of the board's cluster
    (:func:`.bfs.breadth_first`) comes first, within the same limits: when it finds no
    goal among all the reachable positions, the board is unsolvable; when it finds one, the
    horizons deepen up to that search's optimum, where CP-SAT must find a plan. Only when the
    search's memory budget runs out do the horizons deepen up to :data:`DEEPEST`.

    Returns
    -------
    Result of list of Move
        ``optimal``; ``unsolvable`` (from the breadth-first search); ``limit`` when the time or
        node limit ran out, or no plan was found up to ``stop`` (a bound only).
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    if stop is None:
        settled = _settle(board, metric, budget)
        if isinstance(settled, Result):
            return settled
        stop = settled
    deepened = deepen(
        lambda horizon: plan_within(board, horizon, metric=metric, budget=budget),
        range(start, stop + 1),
        budget,
    )
    bound, found = deepened.bound, deepened.found
    budget.finish()
    if found is not None:
        assert found.plan is not None
        stats.cost = cost(found.plan, metric)
        stats.depth = len(found.plan)
        status = Status.OPTIMAL if stats.cost == bound else Status.SOLVED
        return Result(status, found.plan, stats, "cpsat", proof={"lower_bound": bound})
    return Result(
        budget.exhausted() or Status.LIMIT,
        None,
        stats,
        "cpsat",
        proof={"lower_bound": bound},
        message=(
            f"no plan of at most {amount(bound - 1, metric)} (proven); stopped there"
            if bound > 0
            else "stopped before any horizon was settled"
        ),
    )


def _settle(board: Board, metric: str, budget: Budget) -> int | Result[list[Move]]:
    """The last horizon to try, from a breadth-first search of the cluster; or the result
    when that search proves the board unsolvable or a limit stops it."""
    steps = metric == "steps"
    outcome, memory = breadth_first(board, budget, steps=steps, plain=QUICK_EXPANSIONS)
    if outcome.plan is not None:
        return len(outcome.plan)  # edges: moves, or one-cell steps
    if memory:
        return DEEPEST
    stats = budget.finish()
    stats.extra["cluster_positions"] = outcome.positions
    if outcome.stopped is not None:
        message = "stopped before the breadth-first search of the cluster ended"
        return Result(outcome.stopped, None, stats, "cpsat", message=message)
    message = (
        f"no plan: a breadth-first search finds none of the {outcome.positions:,} reachable "
        "positions with the red car at the exit"
    )
    return Result(Status.UNSOLVABLE, None, stats, "cpsat", message=message)


def run(
    board: Board, /, *, heuristic: str | None, options: Any, limits: Limits | None
) -> Result[list[Move]]:
    """The ``cpsat`` method: :func:`solve` under ``options.cost``."""
    return solve(board, metric=options.cost, limits=limits)


def confirm(
    board: Board, answer: Result[list[Move]], /, *, options: Any, limits: Limits | None
) -> Result[list[Move]]:
    """CP-SAT's check of another method's answer, under ``options.cost``: an optimum ``c``
    proven a bound (no plan within ``c - 1``, a plan within ``c``); an unsolvable board
    settled by :func:`_confirm_unsolvable`; otherwise status ``limit``."""
    if answer.status is Status.UNSOLVABLE:
        return _confirm_unsolvable(board, options.cost, limits)
    if answer.status is not Status.OPTIMAL:
        message = "the search proved no optimum, so there is no bound to check"
        return Result(Status.LIMIT, None, message=message)
    return _confirm_optimum(board, int(answer.stats.cost), options.cost, limits)


def _confirm_unsolvable(board: Board, metric: str, limits: Limits | None) -> Result[list[Move]]:
    """A breadth-first search of the whole cluster (:func:`.bfs.breadth_first`): a goal
    found is a plan (status ``optimal``); none among all the reachable positions proves the
    board unsolvable, and CP-SAT confirms it on clusters of at most
    :data:`UNSOLVABLE_HORIZON` positions (no plan within as many moves as positions less
    one)."""
    budget = (limits or Limits()).start(Stats())
    outcome, _ = breadth_first(board, budget, steps=metric == "steps", plain=0)
    if outcome.plan is not None:
        return searched(outcome, budget.finish())
    if outcome.stopped is not None or outcome.positions > UNSOLVABLE_HORIZON:
        result = searched(outcome, budget.finish())
        if result.status is not Status.UNSOLVABLE:
            result.message = "the breadth-first search of the cluster did not end"
        return result
    # Every plan inside a cluster of N states has at most N - 1 moves (or steps).
    found = plan_within(board, outcome.positions - 1, metric=metric, budget=budget)
    status = {"infeasible": Status.UNSOLVABLE, "feasible": Status.SOLVED}.get(found.status)
    result = _confirmed(status or Status.LIMIT, found.plan, metric, budget.finish().seconds)
    if found.status == "infeasible":
        result.proof["lower_bound"] = outcome.positions
    return result


def _confirm_optimum(
    board: Board, optimum: int, metric: str, limits: Limits | None
) -> Result[list[Move]]:
    """No plan within ``optimum - 1`` and a plan within ``optimum``: status ``optimal``."""
    budget = (limits or Limits()).start(Stats())
    below = plan_within(board, optimum - 1, metric=metric, budget=budget)
    if below.status == "feasible":
        return _confirmed(Status.SOLVED, below.plan, metric, below.seconds)
    at = plan_within(board, optimum, metric=metric, budget=budget)
    seconds = below.seconds + at.seconds
    if at.status == "infeasible":
        result = _confirmed(Status.LIMIT, None, metric, seconds)
        result.proof["lower_bound"] = optimum + 1
        return result
    proven = below.status == "infeasible" and at.plan is not None
    result = _confirmed(Status.OPTIMAL if proven else Status.SOLVED, at.plan, metric, seconds)
    if below.status == "infeasible":
        result.proof["lower_bound"] = optimum
    return result


def _confirmed(
    status: Status, plan: list[Move] | None, metric: str, seconds: float
) -> Result[list[Move]]:
    """The result of a check: ``status`` (``limit`` when it claims a plan it lacks) and
    ``plan``, costed under ``metric``."""
    if plan is None and status.has_solution:
        status = Status.LIMIT
    result: Result[list[Move]] = Result(status, plan)
    result.stats.seconds = seconds
    if plan is not None:
        result.stats.cost = cost(plan, metric)
        result.stats.depth = len(plan)
    return result
