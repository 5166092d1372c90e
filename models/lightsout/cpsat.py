"""An independent CP-SAT model of Lights Out: the fewest presses, one XOR per light.

One Boolean per enabled cell (pressed or not). For every enabled light, the XOR of the presses
that toggle it equals its state (``add_bool_xor``: lit lights must be toggled an odd number of
times, unlit ones an even number); the objective is the number of presses. This is the
``LitPuzzle`` model of PyCSP3-models (xcsp3team, ``academic/LitPuzzle``) and Kjellerstrand's
MiniZinc model written with CP-SAT's native parity constraint (Perron, Didier & Gay, "The
CP-SAT-LP solver", CP 2023). It shares no code with :mod:`.algebra`, so the two cross-check.

OR-Tools is imported inside the functions (start-up time); :func:`solve` loads it before its
clock starts (loading the solver, up to a second or two on a busy machine, is start-up, not the
run's work).
"""

from __future__ import annotations

from typing import Any

from cspsolve.csp.cpsat import solve_model
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

from .board import LightsOut, Presses, bits, flatten, unflatten
from .budget import LimitError, Tick, never, ticker

__all__ = ["build", "solve"]

TICK_CELLS = 1024
"""Cells modelled between two calls of the tick (about 10 ms)."""

WORKERS = 2
"""CP-SAT workers: proving a minimum needs its portfolio; the machine has two cores."""


def build(
    puzzle: LightsOut, *, hint: Presses | None = None, tick: Tick = never
) -> tuple[Any, dict[int, Any]]:
    """The CP-SAT model of ``puzzle``.

    Parameters
    ----------
    puzzle : LightsOut
        Any board.
    hint : Presses, optional
        A press set given to CP-SAT as a solution hint.
    tick : callable, optional
        Called every :data:`TICK_CELLS` cells (variables, constraints, then hints) and before
        the objective; it may raise :class:`.budget.LimitError` to stop.

    Returns
    -------
    model : ortools.sat.python.cp_model.CpModel
        Minimises the number of presses.
    presses : dict of int to BoolVar
        The press variable of each enabled cell, by flat index.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    presses = {}
    for k, i in enumerate(bits(puzzle.enabled)):
        if k % TICK_CELLS == 0:
            tick()
        presses[i] = model.new_bool_var(f"p{i}")
    lit = set(bits(puzzle.flat))
    one = model.new_bool_var("one")
    model.add(one == 1)
    for k, light in enumerate(presses):
        # the toggle matrix is symmetric: the cells toggling `light` are those it toggles
        if k % TICK_CELLS == 0:
            tick()
        own = (light,) if puzzle.variant == "sigma-plus" else ()
        togglers = [presses[j] for j in (*own, *puzzle.neighbours(light))]
        parity = one.negated() if light in lit else one
        model.add_bool_xor([*togglers, parity])
    tick()
    model.minimize(cp_model.LinearExpr.sum(list(presses.values())))
    if hint is not None:
        pressed = set(bits(flatten(hint, puzzle.cols)))
        for k, (i, var) in enumerate(presses.items()):
            if k % TICK_CELLS == 0:
                tick()
            model.add_hint(var, i in pressed)
    return model, presses


def solve(
    puzzle: LightsOut, *, limits: Limits | None = None, hint: Presses | None = None
) -> Result[Presses]:
    """The fewest presses by CP-SAT.

    Parameters
    ----------
    puzzle : LightsOut
        Any board.
    limits : Limits, optional
        ``time_limit`` and ``cancel`` apply; node limits do not.
    hint : Presses, optional
        A known solution to start from.

    Returns
    -------
    Result
        ``optimal`` (``proof["minimum"] = True``) when CP-SAT proves the minimum, ``solved``
        with ``proof["lower_bound"]`` when a limit stopped it, ``unsolvable`` when infeasible,
        else ``limit``/``cancelled``.
    """
    from ortools.sat.python import cp_model  # noqa: F401  (loaded before the clock starts)

    stats = Stats()
    budget = (limits or Limits()).start(stats)
    try:
        model, presses = build(puzzle, hint=hint, tick=ticker(budget))
    except LimitError as e:
        return Result(e.status, None, budget.finish(), "cpsat")
    solver, outcome = solve_model(model, budget, workers=WORKERS)
    stats = budget.finish()
    if outcome is None:
        return Result(
            Status.UNSOLVABLE,
            None,
            stats,
            "cpsat",
            message="CP-SAT: the parity constraints are infeasible",
        )
    if outcome is not Status.SOLVED:
        return Result(outcome, None, stats, "cpsat")
    flat = sum(1 << i for i, var in presses.items() if solver.boolean_value(var))
    count = flat.bit_count()
    bound = round(solver.best_objective_bound)
    proven = bound >= count
    stats.cost = stats.depth = count
    proof: dict[str, Any] = {"minimum": proven}
    if not proven:
        proof["lower_bound"] = bound
    status = Status.OPTIMAL if proven else Status.SOLVED
    return Result(
        status, unflatten(flat, rows=puzzle.rows, cols=puzzle.cols), stats, "cpsat", proof=proof
    )
