"""The engine's searches as rows of a kind's table of methods, each algorithm described once.

A kind offers a search of :mod:`cspsolve.search` by naming the algorithm and giving its
:class:`Setting`: how one of its puzzles becomes a search problem and a heuristic, and how a
plan becomes its answer. :func:`method` makes the row: the runner, and the algorithm's summary,
``optimal`` and ``complete`` from :data:`ALGORITHMS`, so that every kind offering A* says the
same of it. Breadth-first search and iterative deepening prove an optimum only where every step
costs the same; a kind whose steps may cost more says so (``unit_cost=False``), and the row
then claims no optimum and its summary says why.

Sources: Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., ch. 3 (§3.4
uninformed search, §3.5 informed search), and those each summary names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cspsolve import search as engine
from cspsolve.kind import Method
from cspsolve.limits import Limits
from cspsolve.results import Result

__all__ = ["ALGORITHMS", "WEIGHT", "Algorithm", "Search", "Setting", "method"]

WEIGHT = 2.0
"""Weight of ``weighted-astar`` when the options give none (plans cost at most twice the
optimum)."""


_UNIT_COST = "(optimal only where every step costs the same)"
"""The caveat of a search optimal only on unit costs, offered on problems whose steps are not."""


class Search(Protocol):
    """One of the engine's searches, ready to run: on a problem, with a heuristic (``None``
    for an uninformed search), within limits, and with the weight the options give (``None``:
    the algorithm's own; ignored by an unweighted search)."""

    def __call__(
        self,
        problem: Any,
        heuristic: engine.Heuristic | None,
        limits: Limits | None,
        *,
        weight: float | None = None,
    ) -> Result[Any]:
        """The engine's result: the plan, its cost and the search's counters."""
        ...


class Setting(Protocol):
    """How a kind sets the engine's searches on its puzzles."""

    def __call__(
        self,
        puzzle: Any,
        heuristic: str | None,
        /,
        *,
        method: str,
        options: Any,
        limits: Limits | None,
        search: Search,
    ) -> Result[Any]:
        """The answer of ``search`` run on ``puzzle``'s search problem with the heuristic
        called ``heuristic`` (``None`` for an uninformed search), as the kind answers: its
        solution from the plan, its messages. ``method`` is the row's name."""
        ...


@dataclass(frozen=True, kw_only=True)
class Algorithm:
    """One of the engine's searches and what it guarantees.

    Attributes
    ----------
    search : callable
        The function of :mod:`cspsolve.search`.
    summary : str
        What it is and its source, for ``cspsolve methods``.
    optimal : bool or None
        Whether its plans are proven least-cost; ``None``: where every step costs the same.
    informed : bool
        It takes a heuristic.
    weight : float or None
        The default weight of a weighted search (``f = g + w h``); ``None`` for the others.
    """

    search: Callable[..., Result[Any]]
    summary: str
    optimal: bool | None
    informed: bool
    weight: float | None = None

    def run(
        self,
        problem: Any,
        heuristic: engine.Heuristic | None,
        limits: Limits | None,
        *,
        weight: float | None = None,
    ) -> Result[Any]:
        """Its search on ``problem`` (see :class:`Search`)."""
        if self.weight is not None:
            return self.search(problem, heuristic, limits=limits, weight=weight or self.weight)
        if self.informed:
            return self.search(problem, heuristic, limits=limits)
        return self.search(problem, limits=limits)


ALGORITHMS: Mapping[str, Algorithm] = {
    "astar": Algorithm(
        search=engine.astar,
        summary="A* graph search (Hart, Nilsson & Raphael 1968)",
        optimal=True,
        informed=True,
    ),
    "weighted-astar": Algorithm(
        search=engine.astar,
        summary=f"A* with f = g + w h (w = {WEIGHT:g} unless the options give one): plans at "
        "most w times the optimum (Pohl 1970)",
        optimal=False,
        informed=True,
        weight=WEIGHT,
    ),
    "idastar": Algorithm(
        search=engine.idastar,
        summary="IDA*, iterative-deepening A* (Korf 1985)",
        optimal=True,
        informed=True,
    ),
    "greedy": Algorithm(
        search=engine.greedy,
        summary="greedy best-first graph search",
        optimal=False,
        informed=True,
    ),
    "bfs": Algorithm(
        search=engine.bfs,
        summary="breadth-first graph search",
        optimal=None,
        informed=False,
    ),
    "iddfs": Algorithm(
        search=engine.iddfs,
        summary="iterative-deepening depth-first tree search (Korf 1985)",
        optimal=None,
        informed=False,
    ),
    "dfs": Algorithm(
        search=engine.dfs,
        summary="depth-first graph search",
        optimal=False,
        informed=False,
    ),
}
"""The engine's searches by the name a kind's table gives them by default."""


def method(
    algorithm: str,
    setting: Setting,
    *,
    name: str | None = None,
    on: str = "",
    note: str = "",
    unit_cost: bool = True,
    heuristics: tuple[str, ...] = (),
    default: bool | Callable[[Any], bool] = False,
    compared: Callable[[Any], Sequence[str | None]] | None = None,
) -> Method:
    """The row of a kind's table that runs the engine's search ``algorithm``.

    Parameters
    ----------
    algorithm : str
        A key of :data:`ALGORITHMS`.
    setting : Setting
        How the kind sets the search on its puzzles.
    name : str, optional
        The row's name (default: ``algorithm``).
    on : str
        What the search runs on, added to the summary (e.g. ``"on slides"``).
    note : str
        What the kind adds to the search, ending the summary (e.g. a transposition table).
    unit_cost : bool
        Every step of the kind's problems costs the same (else breadth-first search and
        iterative deepening claim no optimum).
    heuristics, default, compared
        As :class:`~cspsolve.kind.Method` (heuristics only for an informed search).

    Raises
    ------
    TypeError
        For heuristics given to an uninformed search, or none to an informed one.
    """
    found = ALGORITHMS[algorithm]
    row = name or algorithm
    if found.informed != bool(heuristics):
        raise TypeError(f"{row}: an informed search takes heuristics, an uninformed one none")
    optimal = found.optimal if found.optimal is not None else unit_cost
    caveat = (
        ""
        if optimal or found.optimal is not None
        else "(optimal only where every step costs the same)"
    )

    def run(
        puzzle: Any, /, *, heuristic: str | None, options: Any, limits: Limits | None
    ) -> Result[Any]:
        return setting(
            puzzle,
            heuristic,
            method=row,
            options=options,
            limits=limits,
            search=found.run,
        )

    return Method(
        name=row,
        run=run,
        summary=" ".join(part for part in (found.summary, on, note, caveat) if part),
        backend="search",
        optimal=optimal,
        complete=True,
        heuristics=heuristics,
        default=default,
        compared=compared,
    )
