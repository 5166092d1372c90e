"""Adapter from an explicit :class:`~cspsolve.csp.model.CSP` to OR-Tools CP-SAT.

CP-SAT (Perron, Didier & Gay, "The CP-SAT-LP solver", CP 2023, LIPIcs 280; OR-Tools,
https://developers.google.com/optimization) is a lazy-clause-generation solver: it is used here
to cross-check the engine's own searches and to decide uniqueness independently of them.

Every variable becomes one integer variable ranging over the *indices* of its domain values (so
values may be any hashables), and every constraint becomes a table constraint
(``add_allowed_assignments``) listing the index tuples whose values satisfy
:meth:`~cspsolve.csp.model.Constraint.is_satisfied` - the extensional encoding of a constraint
(Bessière, "Constraint propagation", *Handbook of Constraint Programming*, 2006, §3.4.2).

Several solutions (``max_solutions=2`` decides uniqueness) are found the classic way: after each
solution a constraint excluding it (at least one variable takes another value) is added and the
model solved again.

The helpers :func:`solve_model` and :func:`enumerate_solutions` (with
:meth:`cspsolve.results.Result.from_solutions`) are shared with the puzzle models' own CP-SAT
models (a kind's ``cpsat`` module), so that every CP-SAT run maps statuses,
limits and counters the same way.

OR-Tools is imported inside the functions that use it: importing it takes a noticeable part of a
second, which the command line should not pay when CP-SAT is not used.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from cspsolve.csp.model import CSP, Assignment, explicit_values
from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

__all__ = [
    "APART_SIZE",
    "Answer",
    "check_counts",
    "enumerate_solutions",
    "solve_cpsat",
    "solve_model",
]

S = TypeVar("S")


def check_counts(*, max_solutions: int, workers: int) -> None:
    """Refuse a CP-SAT run asked for fewer than one solution or one worker.

    Raises
    ------
    OptionError
        If ``max_solutions < 1`` or ``workers < 1``.
    """
    if max_solutions < 1:
        raise OptionError(f"max_solutions must be >= 1, got {max_solutions}")
    if workers < 1:
        raise OptionError(f"workers must be >= 1, got {workers}")


_CANCEL_POLL = 0.02
"""Seconds between two looks at the cancellation event while CP-SAT runs in this process."""
_APART = "fork" in multiprocessing.get_all_start_methods()
"""Whether a limited CP-SAT run can go to a forked process (see :func:`solve_model`)."""
APART_SIZE = 1024
"""Fewest variables and constraints, together, of a model whose limited solve is forked (see
:func:`solve_model`): on a smaller one, such as a 30 x 30 nonogram, CP-SAT's presolve steps
take milliseconds, and a fork (30 ms on a loaded machine) would cost more than it saves."""


class Answer:
    """A solution of a CP-SAT model read as from a solver: the values of its variables.

    Parameters
    ----------
    values : list of int
        The value of every variable of the model, by index.
    """

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def value(self, variable: Any) -> int:
        """The value of an integer variable."""
        return int(self.values[variable.index])

    def boolean_value(self, literal: Any) -> bool:
        """The value of a Boolean literal (a variable or its negation ``~x``, of index
        ``-x.index - 1``)."""
        index = literal.index
        return bool(self.values[index]) if index >= 0 else not self.values[-index - 1]


def solve_model(model: Any, budget: Budget, *, workers: int = 1) -> tuple[Any, Status | None]:
    """Solve a CP-SAT model once within what is left of ``budget``.

    Under a time limit or a cancellation event, a model of at least :data:`APART_SIZE`
    variables and constraints is solved in a forked process (where the platform forks) that is
    killed when the budget runs out: CP-SAT checks its ``max_time_in_seconds`` only between
    the steps of its presolve, one of which, the expansion of large automata, overran a 20 s
    limit by 30 s on a 200 x 200 nonogram.

    Parameters
    ----------
    model : ortools.sat.python.cp_model.CpModel
        The model (it may be extended and solved again afterwards).
    budget : Budget
        The run's account: its remaining time becomes CP-SAT's ``max_time_in_seconds``, the
        solve is abandoned when the time is up or the cancellation event is set, and the
        solver's ``num_conflicts`` and ``num_branches`` are added to
        ``budget.stats.extra["conflicts"]`` and ``["branches"]`` (not for an abandoned solve).
        The node limit does not apply: CP-SAT has no search nodes in the engine's sense.
    workers : int
        CP-SAT's ``num_workers``; 1 makes runs deterministic.

    Returns
    -------
    solver : ortools.sat.python.cp_model.CpSolver or Answer or None
        The solver, or an :class:`Answer` from a forked solve, to read the solution from
        (``value``, ``boolean_value``); ``None`` when the budget was spent before the answer.
    outcome : Status or None
        ``SOLVED`` when a solution was found, ``None`` when the model is proven infeasible,
        ``LIMIT`` or ``CANCELLED`` when the search stopped without an answer.

    Raises
    ------
    RuntimeError
        If CP-SAT rejects the model as invalid, or its forked process dies without an answer.
    """
    from ortools.sat.python import cp_model

    stats = budget.stats
    stats.extra.setdefault("conflicts", 0)
    stats.extra.setdefault("branches", 0)
    stopped = budget.interrupted()
    if stopped:
        return None, stopped
    limits = budget.limits
    limited = limits.time_limit is not None or limits.cancel is not None
    if (
        limited
        and _APART
        and len(model.proto.variables) + len(model.proto.constraints) >= APART_SIZE
    ):
        solved = _solve_apart(model, budget, workers)
        if isinstance(solved, Status):
            return None, solved
    else:
        solved = _solve_here(model, budget, workers)
    solver, status, conflicts, branches = solved
    stats.extra["conflicts"] += conflicts
    stats.extra["branches"] += branches
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return solver, Status.SOLVED
    if status == cp_model.INFEASIBLE:
        return solver, None
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    return solver, budget.interrupted() or Status.LIMIT


Solved = tuple[Any, int, int, int]
"""A finished solve: the solver (or :class:`Answer`), CP-SAT's status, conflicts, branches."""


def _solver(budget: Budget, workers: int) -> Any:
    """A CP-SAT solver with ``workers`` workers and the time left of ``budget``."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    remaining = budget.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = remaining
    return solver


def _solve_here(model: Any, budget: Budget, workers: int) -> Solved:
    """Solve in this process; a cancellation event stops the search from a watcher thread."""
    solver = _solver(budget, workers)
    cancel = budget.limits.cancel
    done = threading.Event()
    watcher: threading.Thread | None = None
    if cancel is not None:
        watcher = threading.Thread(
            target=_watch, args=(cancel, done, solver), name="cpsat-cancel", daemon=True
        )
        watcher.start()
    try:
        status = solver.solve(model)
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
    return solver, status, solver.num_conflicts, solver.num_branches


def _watch(cancel: threading.Event, done: threading.Event, solver: Any) -> None:
    """Stop ``solver`` as soon as ``cancel`` is set, until ``done`` is set."""
    while not done.is_set():
        if cancel.wait(_CANCEL_POLL):
            solver.stop_search()
            return


def _solve_apart(model: Any, budget: Budget, workers: int) -> Solved | Status:
    """Solve in a forked process, killed as soon as the budget says stop (its status is then
    returned)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(model, _solver(budget, workers), send))
    child.start()
    send.close()
    try:
        while not receive.poll(_CANCEL_POLL):
            stopped = budget.interrupted()
            if stopped:
                return stopped
        try:
            status, values, conflicts, branches = receive.recv()
        except EOFError:
            child.join()
            code = child.exitcode
            raise RuntimeError(f"CP-SAT died without an answer (exit code {code})") from None
        return Answer(values), status, conflicts, branches
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _child(model: Any, solver: Any, send: Any) -> None:
    """Solve in the forked process and send back the status, every variable's value (when
    solved), and the conflicts and branches."""
    status = solver.solve(model)
    values = list(solver.response_proto.solution)
    send.send((int(status), values, solver.num_conflicts, solver.num_branches))
    send.close()


def enumerate_solutions(
    model: Any,
    budget: Budget,
    *,
    max_solutions: int,
    read: Callable[[Any], S],
    exclude: Callable[[S], bool],
    workers: int = 1,
) -> tuple[list[S], Status | None]:
    """Find up to ``max_solutions`` solutions, excluding each one before solving again.

    Parameters
    ----------
    model : ortools.sat.python.cp_model.CpModel
        The model; the exclusion constraints are added to it.
    budget : Budget
        The run's account (see :func:`solve_model`).
    max_solutions : int
        How many solutions to look for.
    read : callable
        Reads a solution from the solver after a successful solve.
    exclude : callable
        Adds to the model a constraint that forbids the given solution; returns ``False`` when
        nothing can be excluded because no other solution can exist (e.g. every variable has a
        single value).
    workers : int
        CP-SAT's ``num_workers``.

    Returns
    -------
    solutions : list
        The solutions found, in order.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when a limit stopped the enumeration early, else ``None``
        (then fewer than ``max_solutions`` solutions means there are no more).
    """
    solutions: list[S] = []
    while len(solutions) < max_solutions:
        solver, outcome = solve_model(model, budget, workers=workers)
        if outcome is None:
            break
        if outcome is not Status.SOLVED:
            return solutions, outcome
        solution = read(solver)
        solutions.append(solution)
        if len(solutions) < max_solutions and not exclude(solution):
            break
    return solutions, None


def solve_cpsat(
    csp: CSP,
    *,
    limits: Limits | None = None,
    max_solutions: int = 1,
    workers: int = 1,
    max_table: int = 1_000_000,
) -> Result[Assignment]:
    """Solve an explicit CSP with CP-SAT, through one table constraint per constraint.

    Parameters
    ----------
    csp : CSP
        The problem; every domain must be an :class:`~cspsolve.csp.domains.ExplicitDomain`.
    limits : Limits, optional
        ``time_limit`` bounds the whole run (each solve gets the time still left) and ``cancel``
        stops it; ``max_nodes`` and ``progress`` do not apply to CP-SAT.
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.
    workers : int
        CP-SAT's ``num_workers``. The default, 1, makes runs (and tests) deterministic; more
        workers run CP-SAT's portfolio in parallel.
    max_table : int
        Largest product of domain sizes over one constraint's scope: each constraint is
        tabulated by checking every combination of values.

    Returns
    -------
    Result
        ``solution`` is the first assignment found; status ``solved``, ``unsolvable`` (proven),
        ``limit`` or ``cancelled``. ``stats.extra`` holds CP-SAT's ``conflicts`` and
        ``branches`` (summed over the solves) and ``solutions``; ``proof["unique"]`` is set
        when ``max_solutions >= 2``, as by :func:`cspsolve.csp.search.mac`. Method ``"cpsat"``.

    Raises
    ------
    TypeError
        If a domain is not explicit.
    OptionError
        If ``max_solutions < 1``, ``workers < 1``, or a constraint's table would exceed
        ``max_table`` combinations.
    """
    check_counts(max_solutions=max_solutions, workers=workers)
    values = explicit_values(csp)
    for c in csp.constraints:
        size = math.prod(len(values[v]) for v in c.scope)
        if size > max_table:
            raise OptionError(
                f"constraint on {list(c.scope)!r} has {size} value combinations, "
                f"more than max_table={max_table}"
            )
    from ortools.sat.python import cp_model  # before the clock starts: the import is slow

    stats = Stats()
    budget = (limits or Limits()).start(stats)
    if any(not vals for vals in values.values()) or any(
        not c.scope and not c.is_satisfied(()) for c in csp.constraints
    ):
        return Result.from_solutions(
            budget.finish(), "cpsat", [], max_solutions=max_solutions, stopped=None
        )

    model = cp_model.CpModel()
    x = {
        v: model.new_int_var(0, len(vals) - 1, f"x{k}")
        for k, (v, vals) in enumerate(values.items())
    }
    for c in csp.constraints:
        if not c.scope:
            continue
        domains = [tuple(enumerate(values[v])) for v in c.scope]
        table = [
            tuple(i for i, _ in combo)
            for combo in itertools.product(*domains)
            if c.is_satisfied([a for _, a in combo])
        ]
        model.add_allowed_assignments([x[v] for v in c.scope], table)

    def read(solver: Any) -> Assignment:
        return {v: values[v][solver.value(x[v])] for v in csp.variables}

    index = {v: {a: i for i, a in enumerate(vals)} for v, vals in values.items()}

    def exclude(solution: Assignment) -> bool:
        differs: list[Any] = []
        for v, vals in values.items():
            if len(vals) < 2:
                continue
            d = model.new_bool_var(f"differs{len(differs)}")
            model.add(x[v] != index[v][solution[v]]).only_enforce_if(d)
            differs.append(d)
        if not differs:
            return False
        model.add_bool_or(differs)
        return True

    solutions, stopped = enumerate_solutions(
        model, budget, max_solutions=max_solutions, read=read, exclude=exclude, workers=workers
    )
    return Result.from_solutions(
        budget.finish(), "cpsat", solutions, max_solutions=max_solutions, stopped=stopped
    )
