"""A time-expanded CP-SAT model of Rush Hour, used to prove optimal plans optimal.

Planning as satisfiability with a fixed horizon (Kautz & Selman, "Planning as
Satisfiability", ECAI 1992): the model has the offset of every piece at times 0..T, and at most
one piece slides per time step. Every cell a sliding piece sweeps (from its old to its new
position, both ends included) must be free of other pieces and walls, which also keeps pieces
apart while they stand still. The red car must be at the exit at time T. Idle steps are allowed
(so "a plan in T" means "in at most T") but only at the end, and under the moves metric one
piece never slides in two consecutive steps (the two slides would merge into one). An
infeasible horizon T - 1 is a proof that every plan needs at least T moves (or steps).

Solver: OR-Tools CP-SAT, https://developers.google.com/optimization/cp/cp_solver.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

from .board import Board, Move, merged
from .cluster import offset_ranges

__all__ = ["Horizon", "amount", "cost", "plan_within", "solve"]


@dataclass(frozen=True)
class Horizon:
    """The answer for one horizon.

    Attributes
    ----------
    status : str
        ``"feasible"`` (a plan of at most ``horizon`` moves was found), ``"infeasible"``
        (proven none) or ``"unknown"`` (the time limit came first).
    plan : list of Move or None
        The plan found (idle steps dropped).
    seconds : float
        CP-SAT's wall time.
    """

    status: str
    plan: list[Move] | None
    seconds: float


def _model(board: Board, horizon: int, metric: str) -> tuple[Any, list[list[Any]]]:
    """The CP-SAT model and its offset variables ``pos[piece][time]``."""
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
    board: Board, horizon: int, *, metric: str = "moves", time_limit: float | None = None
) -> Horizon:
    """Decide whether a plan of at most ``horizon`` moves (or steps) exists.

    Returns
    -------
    Horizon
        ``feasible`` with a plan, ``infeasible`` (a proof), or ``unknown``.
    """
    from ortools.sat.python import cp_model

    if horizon < 0:
        return Horizon("infeasible", None, 0.0)
    model, pos = _model(board, horizon, metric)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
    status = solver.solve(model)
    seconds = solver.wall_time
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


def solve(
    board: Board,
    *,
    metric: str = "moves",
    limits: Limits | None = None,
    start: int = 0,
    stop: int = 200,
) -> Result[list[Move]]:
    """An optimal plan by deepening the horizon from ``start`` until CP-SAT finds one.

    Every horizon below the first feasible one is proven infeasible, so the plan found is
    optimal when ``start`` is itself a proven lower bound (0, or the search's optimum minus
    one). ``proof["lower_bound"]`` is the largest horizon proven infeasible plus one.

    Returns
    -------
    Result of list of Move
        ``optimal``, ``unsolvable`` (no plan within ``stop``: only a bound, status ``limit``),
        or ``limit`` when the time ran out.
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    bound = start
    for horizon in range(start, stop + 1):
        answer = plan_within(board, horizon, metric=metric, time_limit=budget.remaining())
        stats.probes += 1
        stats.extra["cpsat_seconds"] = stats.extra.get("cpsat_seconds", 0.0) + answer.seconds
        if answer.status == "unknown" or (budget.exhausted() is not None and answer.plan is None):
            break
        if answer.status == "infeasible":
            bound = horizon + 1
            continue
        assert answer.plan is not None
        stats.cost = cost(answer.plan, metric)
        stats.depth = len(answer.plan)
        budget.finish()
        status = Status.OPTIMAL if bound == horizon else Status.SOLVED
        return Result(status, answer.plan, stats, "cpsat", proof={"lower_bound": bound})
    budget.finish()
    return Result(
        Status.LIMIT,
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
