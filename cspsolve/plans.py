"""What the explanations of plans share: the g, h, f table of a plan and its proof in words.

A plan's explanation (Rush Hour, sliding tiles) lists every move with ``g`` (the cost so far),
``h`` (the heuristic's estimate of the cost still to go), ``f = g + h`` and ``remaining`` (the
cost the plan still spends). An admissible heuristic never exceeds the cost of the cheapest
way on, so ``h <= remaining`` must hold at every step of any plan: :func:`plan_table` computes
the table, and :func:`overestimates` names the steps where it does not hold (none, unless the
heuristic is wrong).

The proof that no plan is cheaper is put in words from what the search counted
(:data:`cspsolve.search.Tally`): expansions per f-limit for iterative deepening A*, per depth
for breadth-first search, per f-value for A* (:func:`optimality_words`).

Grades (:func:`grade`) name a board's difficulty in one vocabulary, :data:`GRADES`, shared by
``explain`` and ``analyze`` of every kind whose answers are plans: the optimum measured against
a scale, the hardest optimum known for boards of its size (each kind gives its scale).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cspsolve.results import Result, Status

__all__ = [
    "GRADES",
    "SHARES",
    "PlanRow",
    "Proof",
    "Searched",
    "amount",
    "grade",
    "limit_words",
    "number",
    "optimality_words",
    "overestimates",
    "plan_table",
    "spelled",
    "summary",
]

S = TypeVar("S")

GRADES = ("easy", "medium", "hard", "expert")
"""Difficulty grades, easiest first (``unsolvable`` beside them when there is no plan)."""

SHARES = (0.25, 0.5, 0.75)
"""Where each grade but the last ends, as a share of the scale: ``easy`` below a quarter of
the hardest optimum known for the board's size, ``medium`` below half, ``hard`` below three
quarters, ``expert`` from there (the hardest boards known are ``expert``)."""

Proof = str
"""What a search's tally counts: ``"f-limit"`` (IDA*, BFIDA*), ``"depth"`` (breadth-first
search, iterative deepening) or ``"f-value"`` (A*)."""


@dataclass(frozen=True)
class PlanRow:
    """One position along a plan.

    Attributes
    ----------
    g : float
        Cost spent to reach it.
    h : float
        The heuristic's estimate of the cost from it.
    remaining : float
        What the plan spends after it.
    """

    g: float
    h: float
    remaining: float

    @property
    def f(self) -> float:
        """``g + h``."""
        return self.g + self.h

    def data(self) -> dict[str, Any]:
        """``g``, ``h``, ``f`` and ``remaining`` as JSON-ready numbers."""
        return {
            "g": number(self.g),
            "h": number(self.h),
            "f": number(self.f),
            "remaining": number(self.remaining),
        }


def number(value: float) -> int | float | None:
    """``value`` as an int when whole, ``None`` when infinite (JSON has no infinity).

    Examples
    --------
    >>> number(3.0), number(1.5), number(float("inf"))
    (3, 1.5, None)
    """
    if value in (float("inf"), float("-inf")):
        return None
    return int(value) if float(value).is_integer() else value


def amount(value: float, unit: str) -> str:
    """``value`` with its ``unit`` (plural, e.g. ``"moves"``), singular for 1: ``1 move``."""
    return f"{spelled(value)} {unit[:-1] if value == 1 else unit}"


def spelled(value: float) -> str:
    """``value`` for people: ``3``, ``1.5``, ``infinite``."""
    shown = number(value)
    return "infinite" if shown is None else str(shown)


def plan_table(
    states: Sequence[S], costs: Sequence[float], heuristic: Callable[[S], float]
) -> list[PlanRow]:
    """The rows of a plan: the start (``states[0]``) and the position after each move.

    Parameters
    ----------
    states : sequence
        The start, then the position after each move (one more than ``costs``).
    costs : sequence of float
        Each move's cost.
    heuristic : callable
        State -> estimate of the cost to a goal.

    Examples
    --------
    >>> [(r.g, r.h, r.f, r.remaining) for r in plan_table([3, 2, 0], [1, 2], float)]
    [(0.0, 3.0, 3.0, 3.0), (1.0, 2.0, 3.0, 2.0), (3.0, 0.0, 3.0, 0.0)]
    """
    if len(states) != len(costs) + 1:
        raise ValueError(f"{len(states)} states for {len(costs)} moves")
    total = sum(costs)
    rows: list[PlanRow] = []
    g = 0.0
    for k, state in enumerate(states):
        if k:
            g += costs[k - 1]
        rows.append(PlanRow(g, heuristic(state), total - g))
    return rows


def overestimates(rows: Sequence[PlanRow]) -> list[int]:
    """Indices of the rows whose ``h`` exceeds the plan's ``remaining`` cost (row 0 is the start).

    Empty for an admissible heuristic; a row listed proves the heuristic overestimates there.
    """
    return [k for k, row in enumerate(rows) if row.h > row.remaining]


def _listed(values: Sequence[str], most: int = 12) -> str:
    """Comma-separated, the middle elided when longer than ``most``."""
    if len(values) > most:
        head, tail = values[: most // 2], values[-(most // 2) :]
        return ", ".join([*head, "...", *tail])
    return ", ".join(values)


def optimality_words(
    proof: Proof, tally: Mapping[float, int], cost: float, *, algorithm: str, unit: str
) -> list[str]:
    """Why no plan costs less than ``cost``, from what an optimal search counted.

    Parameters
    ----------
    proof : {"f-limit", "depth", "f-value"}
        What ``tally`` counts (:data:`Proof`).
    tally : mapping of float to int
        Expansions per f-limit, depth or f-value, in the order the search met them.
    cost : float
        The plan's cost.
    algorithm : str
        The search's name for people, e.g. ``"IDA*"``.
    unit : str
        The cost's unit, plural: ``"moves"``, ``"steps"``.

    Examples
    --------
    >>> optimality_words("f-limit", {4: 3, 6: 10}, 6, algorithm="IDA*", unit="moves")[0]
    'IDA* raised its f-limit 4, 6 (nodes expanded per limit: 3, 10).'
    """
    keys = [spelled(k) for k in tally]
    counts = [f"{v:,}" for v in tally.values()]
    least = spelled(cost)
    algorithm = algorithm[:1].upper() + algorithm[1:]
    if proof == "f-limit":
        return [
            f"{algorithm} raised its f-limit {_listed(keys)} "
            f"(nodes expanded per limit: {_listed(counts)}).",
            f"No plan is shorter than {amount(cost, unit)}: each f-limit below {least} was "
            f"searched in full without reaching a goal, and h is admissible (it never exceeds "
            f"the cost still to go), so every plan of cost below {least} would have been found.",
        ]
    if proof == "depth":
        return [
            f"{algorithm} went depth by depth (nodes expanded per depth "
            f"{_listed(keys)}: {_listed(counts)}).",
            f"No plan is shorter than {amount(cost, unit)}: every position within "
            f"{amount(max(cost - 1, 0), unit)} of the start was reached and none is a goal.",
        ]
    if proof == "f-value":
        return [
            f"{algorithm} expanded positions in order of f = g + h "
            f"(nodes expanded per f {_listed(keys)}: {_listed(counts)}).",
            f"No plan is shorter than {amount(cost, unit)}: the goal left the frontier at "
            f"f = {least}, the least f there, and h is admissible, so every cheaper plan would "
            f"have a position on the frontier with f below {least}.",
        ]
    raise ValueError(f"unknown proof {proof!r}")


def limit_words(algorithm: str, expanded: int, proven: float | None, unit: str) -> str:
    """What a limit left open: the nodes spent (none named for a method that expands none,
    such as CP-SAT) and the lower bound proven, if any."""
    bound = (
        f"; every plan has at least {amount(proven, unit)}"
        if proven is not None and proven > 0
        else ""
    )
    spent = f" after {expanded:,} nodes expanded" if expanded else ""
    return f"A limit stopped {algorithm}{spent}{bound}."


def grade(optimum: float | None, scale: float) -> str:
    """The grade of a board whose optimal plan costs ``optimum``, on a ``scale`` that is the
    hardest optimum known for boards of its size: the first of :data:`GRADES` whose share
    (:data:`SHARES`) of the scale the optimum stays below, else ``expert``; ``unsolvable``
    when there is no plan (``optimum`` is ``None``).

    Examples
    --------
    On the 8-puzzle's scale of 31 moves:

    >>> grade(7, 31), grade(8, 31), grade(31, 31), grade(None, 31)
    ('easy', 'medium', 'expert', 'unsolvable')
    """
    if optimum is None:
        return "unsolvable"
    for name, share in zip(GRADES, SHARES, strict=False):
        if optimum < share * scale:
            return name
    return GRADES[-1]


@dataclass
class Searched:
    """A search run for an explanation, with what it counted.

    Attributes
    ----------
    result : Result
        Its answer.
    algorithm : str
        Its name for people, e.g. ``"IDA*"``.
    proof : Proof or None
        What ``tally`` counts; ``None`` when the run counted nothing a proof rests on.
    tally : dict of float to int
        Expansions per f-limit, depth or f-value.
    claim : str
        A sentence for what the result rests on when the tally does not show it: why no plan
        exists, or how an optimum was proven another way (empty: nothing to add).
    heuristic : callable or None
        The heuristic the run searched with, for the plan's h column (``None``: build one).
    """

    result: Result[Any]
    algorithm: str
    proof: Proof | None = None
    tally: dict[float, int] = field(default_factory=dict)
    claim: str = ""
    heuristic: Callable[[Any], float] | None = None

    @property
    def lower_bound(self) -> float | None:
        """The least cost any plan can have, as proven: the optimum, the result's
        ``proof["lower_bound"]``, or the last f-limit an IDA*-like search started (all lower
        ones were searched in full); ``None`` when nothing is proven or no plan exists."""
        result = self.result
        if result.status is Status.OPTIMAL:
            return result.stats.cost
        if result.status is Status.UNSOLVABLE:
            return None
        if "lower_bound" in result.proof:
            return float(result.proof["lower_bound"])
        if self.proof == "f-limit" and self.tally:
            return max(self.tally)
        return None

    def words(self, unit: str) -> list[str]:
        """The proof in sentences: why the plan is optimal, why none exists, or what the
        method or a limit leaves open (``unit``: the cost's unit, plural)."""
        status, cost = self.result.status, self.result.stats.cost
        claim = [self.claim] if self.claim else []
        if status is Status.OPTIMAL and self.proof is not None:
            return [
                *claim,
                *optimality_words(
                    self.proof, self.tally, cost, algorithm=self.algorithm, unit=unit
                ),
            ]
        if status is Status.OPTIMAL or status is Status.UNSOLVABLE:
            return claim or [self.result.message or f"{self.algorithm} proved it."]
        if status is Status.SOLVED:
            bound = self.lower_bound
            known = f"; every plan has at least {amount(bound, unit)}" if bound else ""
            return [
                *claim,
                f"The plan is not proven optimal: {self.algorithm} does not prove that no "
                f"cheaper plan exists{known}.",
            ]
        return [
            *claim,
            limit_words(self.algorithm, self.result.stats.expanded, self.lower_bound, unit),
        ]


def summary(
    searched: Searched, rows: Sequence[PlanRow], grade_name: str, **facts: Any
) -> dict[str, Any]:
    """The JSON-ready summary of a plan's explanation: ``lower_bound``, ``cost``, ``grade``,
    ``expanded``, ``generated``, the tally (``per``: what it counts, ``counts``: pairs of key
    and expansions), ``overestimates`` (rows where h exceeds the cost still to go; empty),
    then ``facts``."""
    result = searched.result
    bound = searched.lower_bound
    has_plan = result.status.has_solution and result.solution is not None
    return {
        "lower_bound": None if bound is None else number(bound),
        "cost": number(result.stats.cost) if has_plan else None,
        "grade": grade_name,
        "expanded": result.stats.expanded,
        "generated": result.stats.generated,
        "per": searched.proof,
        "counts": [[number(k), v] for k, v in searched.tally.items()],
        "overestimates": overestimates(rows),
        **facts,
    }
