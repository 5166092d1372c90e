"""Planning as satisfiability: deepen the horizon of a time-expanded model until it has a plan.

A time-expanded model (Kautz & Selman, "Planning as Satisfiability", ECAI 1992; "Pushing the
envelope: planning, propositional logic and stochastic search", AAAI 1996) asks whether some
plan reaches the goal within a horizon of ``T`` steps. Trying ``T = start, start + step, ...``
in turn, the first feasible horizon is the optimum as long as ``start`` is itself a lower
bound and no plan's cost lies strictly between two horizons tried (``step`` 1, or 2 where
every plan's cost has one parity). Every infeasible horizon is a proof: every plan costs more.

A puzzle kind supplies ``decide(horizon)``, the answer of its model for one horizon (a
:class:`Horizon`); :func:`deepen` runs the horizons within a :class:`~cspsolve.limits.Budget`
and counts them in its stats (``probes``, ``extra["cpsat_seconds"]``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cspsolve.limits import Budget

__all__ = ["Deepened", "Horizon", "deepen"]

P = TypeVar("P")


@dataclass(frozen=True)
class Horizon(Generic[P]):
    """A model's answer for one horizon.

    Attributes
    ----------
    status : str
        ``"feasible"`` (a plan within the horizon was found), ``"infeasible"`` (proven none)
        or ``"unknown"`` (a limit came first, or the model was not built).
    plan : P or None
        The plan found.
    seconds : float
        Wall time, building the model included.
    """

    status: str
    plan: P | None
    seconds: float


@dataclass
class Deepened(Generic[P]):
    """What :func:`deepen` found.

    Attributes
    ----------
    bound : int
        Every plan costs at least this much: the first horizon, or the one after the last
        proven infeasible.
    infeasible : list of int
        The horizons proven infeasible, in order.
    found : Horizon or None
        The first feasible horizon's answer (its horizon is ``bound``); ``None`` when the
        horizons ran out or a limit stopped the deepening.
    last : Horizon or None
        The answer that stopped the deepening without a plan (``unknown``), if any.
    """

    bound: int
    infeasible: list[int] = field(default_factory=list)
    found: Horizon[P] | None = None
    last: Horizon[P] | None = None


def deepen(decide: Callable[[int], Horizon[P]], horizons: range, budget: Budget) -> Deepened[P]:
    """Decide ``horizons`` in order until one is feasible, one is unknown, or ``budget`` is
    spent (a proven infeasible horizon still counts then).

    Parameters
    ----------
    decide : callable
        ``decide(horizon) -> Horizon``: the model's answer, within ``budget``.
    horizons : range
        The horizons to try: ``range(start, stop, step)``, ``start`` a proven lower bound,
        ``step`` 1 or the step between two plan costs.
    budget : Budget
        The run's account; its stats count the horizons decided (``probes``) and their
        seconds (``extra["cpsat_seconds"]``).

    Returns
    -------
    Deepened
    """
    stats = budget.stats
    outcome: Deepened[P] = Deepened(horizons.start)
    for horizon in horizons:
        answer = decide(horizon)
        stats.probes += 1
        stats.extra["cpsat_seconds"] = stats.extra.get("cpsat_seconds", 0.0) + answer.seconds
        if answer.status == "feasible":
            outcome.found = answer
            return outcome
        if answer.status == "unknown":
            outcome.last = answer
            return outcome
        outcome.infeasible.append(horizon)
        outcome.bound = horizon + horizons.step
        if budget.exhausted() is not None:
            return outcome
    return outcome
