"""Adapter from an explicit :class:`~cspsolve.csp.model.CSP` to python-constraint2.

python-constraint (Niemeyer, 2005; maintained as python-constraint2 by Willemsen, van
Werkhoven & van Nieuwpoort, https://github.com/python-constraint/python-constraint) is a pure
Python backtracking solver with forward checking; its default ``OptimizedBacktrackingSolver``
orders variables by degree, then by domain size (minimum remaining values). It serves as an
independent, slow but simple, second opinion on small CSPs.

Variables and values are handed to it as indices (``0..n-1``), so the CSP's variables and values
may be any hashables, comparable or not; each constraint becomes a ``FunctionConstraint`` that
maps the indices back to values and calls :meth:`~cspsolve.csp.model.Constraint.is_satisfied`.

python-constraint has no time limit of its own. The limits are checked between two solutions
and, every 1024 constraint checks, from inside the constraint predicates, which stop the search
by raising an exception that the adapter catches.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from cspsolve.csp.model import CSP, Assignment, Constraint, explicit_values
from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

__all__ = ["solve_python_constraint"]


class _StopSearchError(Exception):
    """Raised from a constraint predicate to stop python-constraint's search."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.value)
        self.status = status


class _Check:
    """The predicate of a ``FunctionConstraint``: value indices in, ``is_satisfied`` out.

    Every 1024 calls (counted over all predicates of a run) it asks the budget whether the run
    must stop, and raises :class:`_StopSearchError` if so.
    """

    __slots__ = ("budget", "calls", "constraint", "values")

    def __init__(
        self,
        constraint: Constraint,
        values: Sequence[tuple[Hashable, ...]],
        budget: Budget,
        calls: list[int],
    ) -> None:
        self.constraint = constraint
        self.values = values
        self.budget = budget
        self.calls = calls

    def __call__(self, *indices: int) -> bool:
        self.calls[0] += 1
        if not self.calls[0] & 1023:
            stopped = self.budget.exhausted()
            if stopped:
                raise _StopSearchError(stopped)
        return bool(
            self.constraint.is_satisfied(
                [vals[i] for vals, i in zip(self.values, indices, strict=True)]
            )
        )


def _setup(
    problem: Any,
    csp: CSP,
    values: Mapping[Hashable, tuple[Hashable, ...]],
    number: Mapping[Hashable, int],
    budget: Budget,
    calls: list[int],
) -> Iterator[None]:
    """Hand the variables (as ``number`` says) and the constraints (as :class:`_Check`
    predicates counting into ``calls``) to ``problem``, yielding after every variable and
    every 256 constraints (see :meth:`~cspsolve.limits.Budget.step_through`)."""
    from constraint import FunctionConstraint

    for v, k in number.items():
        problem.addVariable(k, list(range(len(values[v]))))
        yield
    for i, c in enumerate(csp.constraints):
        if c.scope:
            check = _Check(c, [values[v] for v in c.scope], budget, calls)
            problem.addConstraint(FunctionConstraint(check), [number[v] for v in c.scope])
        if not i % 256:
            yield


def solve_python_constraint(
    csp: CSP, *, limits: Limits | None = None, max_solutions: int = 1
) -> Result[Assignment]:
    """Solve an explicit CSP with python-constraint2's backtracking solver.

    Parameters
    ----------
    csp : CSP
        The problem; every domain must be an :class:`~cspsolve.csp.domains.ExplicitDomain`.
    limits : Limits, optional
        Time limit and cancellation, checked while the problem is handed over, between
        solutions and every 1024 constraint checks; ``progress`` is called from those checks.
        The node limit does not apply (python-constraint does not report its nodes).
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.

    Returns
    -------
    Result
        ``solution`` is the first assignment found; status ``solved``, ``unsolvable`` (the
        search was exhausted), ``limit`` or ``cancelled``. ``stats.extra["solutions"]`` and
        ``proof["unique"]`` as in :func:`cspsolve.csp.search.mac`. Method
        ``"python-constraint"``.

    Raises
    ------
    TypeError
        If a domain is not explicit.
    OptionError
        If ``max_solutions < 1``.
    """
    if max_solutions < 1:
        raise OptionError(f"max_solutions must be >= 1, got {max_solutions}")
    from constraint import Problem  # before the clock starts: the first import is slow

    stats = Stats()
    budget = (limits or Limits()).start(stats)
    values = explicit_values(csp)
    method = "python-constraint"
    stopped = budget.exhausted()
    if stopped:
        return Result.from_solutions(
            budget.finish(), method, [], max_solutions=max_solutions, stopped=stopped
        )
    if any(not vals for vals in values.values()) or any(
        not c.scope and not c.is_satisfied(()) for c in csp.constraints
    ):
        return Result.from_solutions(
            budget.finish(), method, [], max_solutions=max_solutions, stopped=None
        )
    if not csp.variables:
        return Result.from_solutions(
            budget.finish(), method, [{}], max_solutions=max_solutions, stopped=None
        )

    problem = Problem()
    number = {v: k for k, v in enumerate(csp.variables)}
    calls = [0]
    stopped = budget.step_through(_setup(problem, csp, values, number, budget, calls))
    if stopped:
        return Result.from_solutions(
            budget.finish(), method, [], max_solutions=max_solutions, stopped=stopped
        )
    solutions: list[Assignment] = []
    found: Iterator[dict[int, int]] = problem.getSolutionIter()
    try:
        for indices in found:
            solutions.append({v: values[v][indices[k]] for v, k in number.items()})
            if len(solutions) >= max_solutions:
                break
            stopped = budget.exhausted()
            if stopped:
                break
    except _StopSearchError as e:
        stopped = e.status
    stats.extra["constraint_checks"] = calls[0]
    return Result.from_solutions(
        budget.finish(), method, solutions, max_solutions=max_solutions, stopped=stopped
    )
