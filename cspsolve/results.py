"""Outcome types shared by every solver: :class:`Status`, :class:`Stats`, :class:`Result`."""

from __future__ import annotations

import enum
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from cspsolve.render import Scene

S = TypeVar("S")
T = TypeVar("T")

__all__ = ["Result", "Stats", "Status"]


class Status(enum.StrEnum):
    """How a solver run ended.

    The string values are the ones written in JSON output.
    """

    SOLVED = "solved"
    """A solution was found; optimality is not claimed."""
    OPTIMAL = "optimal"
    """A solution was found and proven optimal."""
    UNSOLVABLE = "unsolvable"
    """Proven: there is no solution."""
    LIMIT = "limit"
    """A time or node limit was reached before an answer."""
    CANCELLED = "cancelled"
    """The run was cancelled from outside before an answer."""

    @property
    def has_solution(self) -> bool:
        """True for :attr:`SOLVED` and :attr:`OPTIMAL`."""
        return self in (Status.SOLVED, Status.OPTIMAL)


@dataclass
class Stats:
    """Counters every solver fills in.

    Attributes
    ----------
    expanded : int
        Search nodes whose children were generated.
    generated : int
        Search nodes created (children, including ones later pruned).
    max_frontier : int
        Largest number of nodes waiting in the frontier (open list or stack) at once.
    depth : int
        Depth of the solution node (0 for the root), or of the deepest node reached.
    cost : int or float
        Path cost of the solution, 0 when not applicable: an int when it counts (moves, steps,
        presses), a float only for a sum of fractional step costs.
    seconds : float
        Wall-clock time of the run, in seconds.
    propagations : int
        Calls of a constraint's ``revise`` (GAC) or line solver.
    backtracks : int
        Dead ends met by depth-first search (a wipe-out after propagation).
    probes : int
        Trial assignments made by probing.
    extra : dict of str to float
        Solver-specific counters.
    """

    expanded: int = 0
    generated: int = 0
    max_frontier: int = 0
    depth: int = 0
    cost: float = 0
    seconds: float = 0.0
    propagations: int = 0
    backtracks: int = 0
    probes: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the counters as a JSON-ready dict (``extra`` merged in, zero extras kept)."""
        out: dict[str, Any] = {
            "expanded": self.expanded,
            "generated": self.generated,
            "max_frontier": self.max_frontier,
            "depth": self.depth,
            "cost": self.cost,
            "seconds": round(self.seconds, 6),
            "propagations": self.propagations,
            "backtracks": self.backtracks,
            "probes": self.probes,
        }
        out.update(self.extra)
        return out

    def _repr_html_(self) -> str:
        """The counters as a two-column HTML table (shown by Jupyter); zero counters left out."""
        cells = "".join(
            f"<tr><th style='text-align:left'>{html.escape(name)}</th><td>{value:,}</td></tr>"
            for name, value in self.to_json().items()
            if value
        )
        return f"<table>{cells}</table>"


@dataclass
class Result(Generic[S]):
    """What a solver returns.

    Attributes
    ----------
    status : Status
        How the run ended.
    solution : S or None
        The solution found, ``None`` unless ``status.has_solution``.
    stats : Stats
        Counters of the run.
    method : str
        Name of the method that produced the result (``"mac"``, ``"cpsat"``...).
    heuristic : str or None
        Name of the heuristic used, if any.
    proof : dict
        Facts proven about the answer, e.g. ``{"unique": True}`` or ``{"lower_bound": 51}``.
    message : str
        Human explanation, e.g. why a puzzle is unsolvable.
    solutions : list
        Every solution found when more than one was asked for (a nonogram's
        ``solutions=N``), the first being ``solution``; empty otherwise.
    picture : callable or None
        ``picture() -> [Scene, ...]``: the solution drawn on its puzzle (set by
        :mod:`cspsolve.tasks`); Jupyter shows it through :meth:`_repr_svg_`.
    """

    status: Status
    solution: S | None = None
    stats: Stats = field(default_factory=Stats)
    method: str = ""
    heuristic: str | None = None
    proof: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    solutions: list[S] = field(default_factory=list)
    picture: Callable[[], Sequence[Scene]] | None = field(default=None, repr=False, compare=False)

    def summary(self, unique_asked: bool = False) -> str:
        """One line for people: the status, the method, the seconds and the counters used;
        the uniqueness verdict when it was decided (or asked for: ``unique_asked``).

        Examples
        --------
        >>> print(Result(Status.OPTIMAL, ["D"], Stats(expanded=2, cost=1), "astar"))
        optimal by astar in 0.000 s, expanded 2
        """
        s = self.stats
        counters: dict[str, float] = {"expanded": s.expanded, "backtracks": s.backtracks}
        counters |= {"propagations": s.propagations, **s.extra}
        counters.pop("solutions", None)
        parts = [f"{self.status.value} by {self.method} in {s.seconds:.3f} s"]
        parts += [f"{name.replace('_', ' ')} {int(n):,}" for name, n in counters.items() if n]
        unique = self.proof.get("unique")
        if self.status.has_solution and (unique is not None or unique_asked):
            verdict = {True: "unique", False: "not unique", None: "uniqueness not settled"}
            parts.append(verdict[unique])
        return ", ".join(parts)

    def __str__(self) -> str:
        return self.summary()

    def _repr_svg_(self) -> str | None:
        """The picture of the solution as SVG (shown by Jupyter), ``None`` when there is none."""
        if self.picture is None or not self.status.has_solution:
            return None
        from cspsolve.render import drawn

        return drawn(self.picture)

    @classmethod
    def from_solutions(
        cls,
        stats: Stats,
        method: str,
        solutions: list[S],
        *,
        max_solutions: int,
        stopped: Status | None,
    ) -> Result[S]:
        """The result of a search that enumerates up to ``max_solutions`` solutions.

        Parameters
        ----------
        stats : Stats
            The run's final counters; ``extra["solutions"]`` is set to ``len(solutions)``.
        method : str
            The method's name.
        solutions : list
            The solutions found, first first.
        max_solutions : int
            How many the search was asked for (2 decides uniqueness).
        stopped : Status or None
            ``LIMIT`` or ``CANCELLED`` when a limit stopped the search, else ``None``.

        Returns
        -------
        Result
            Status ``SOLVED`` with the first solution when there is one, else ``stopped`` or
            ``UNSOLVABLE``. With ``max_solutions >= 2``, ``solutions`` lists every one found
            and, given a solution, ``proof["unique"]`` is ``False`` when a second one was
            found, ``True`` when the search proved there is none, and ``None`` when a limit
            stopped it first; ``proof["exhaustive"]`` says whether
            ``solutions`` are provably all of them (the search ended on its own before it found
            ``max_solutions``).
        """
        stats.extra["solutions"] = len(solutions)
        proof: dict[str, Any] = {}
        if max_solutions >= 2:
            proof["exhaustive"] = stopped is None and len(solutions) < max_solutions
            if len(solutions) >= 2:
                proof["unique"] = False
            elif solutions:
                proof["unique"] = None if stopped else True
        if solutions:
            listed = list(solutions) if max_solutions >= 2 else []
            return cls(Status.SOLVED, solutions[0], stats, method, proof=proof, solutions=listed)
        return cls(stopped or Status.UNSOLVABLE, None, stats, method, proof=proof)

    def map(self, convert: Callable[[S], T]) -> Result[T]:
        """The same result with its solution (if any) passed through ``convert``.

        Examples
        --------
        >>> Result(Status.SOLVED, 3, method="mac").map(str).solution
        '3'
        """
        solution = None if self.solution is None else convert(self.solution)
        return Result(
            self.status,
            solution,
            self.stats,
            self.method,
            self.heuristic,
            dict(self.proof),
            self.message,
            [convert(s) for s in self.solutions],
        )

    def to_json(self, encode: Callable[[S], Any] | None = None) -> dict[str, Any]:
        """Return the result as a JSON-ready dict in the layout of docs/design.md §12.

        Parameters
        ----------
        encode : callable, optional
            Turns the solution into JSON-ready data; the solution is used as is when omitted.

        Returns
        -------
        dict
            Keys ``status``, ``method``, ``heuristic``, ``solution``, ``proof``, ``stats``
            (and ``message`` when there is one, ``solutions`` when several were asked for).
        """
        solution: Any = None
        if self.solution is not None:
            solution = encode(self.solution) if encode else self.solution
        out: dict[str, Any] = {
            "status": self.status.value,
            "method": self.method,
            "heuristic": self.heuristic,
            "solution": solution,
            "proof": dict(self.proof),
            "stats": self.stats.to_json(),
        }
        if self.message:
            out["message"] = self.message
        if self.solutions:
            out["solutions"] = [encode(s) if encode else s for s in self.solutions]
        return out
