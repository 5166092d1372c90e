"""Adapter to CDCL SAT solvers (python-sat): clauses in, models out, within a budget.

:class:`Cnf` collects clauses in DIMACS numbering (variable ``v`` is the literal ``v``, its
negation ``-v``) and states a *regular* constraint over a sequence of Boolean literals by the
encoding of Bacchus 2007 (:meth:`Cnf.regular`). :func:`solve_cnf` hands the clauses to a
conflict-driven clause-learning solver, CaDiCaL by default (Biere, Fallér, Fazekas, Fleury,
Froleyks & Pollitt, "CaDiCaL 2.0", CAV 2024, LNCS 14681), through python-sat (Ignatiev,
Morgado & Marques-Silva, "PySAT: A Python toolkit for prototyping with SAT oracles", SAT 2018,
LNCS 10929; https://pysathq.github.io), and enumerates models the classic way: after each one,
a clause over the projected variables forbids it.

python-sat is imported inside :func:`solve_cnf`: the command line pays for it only when a SAT
method runs.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.limits import Budget
from cspsolve.results import Status

__all__ = ["SLICE_SECONDS", "SOLVER", "Cnf", "Solved", "building", "solve_cnf"]

SOLVER = "cadical195"
"""The python-sat solver :func:`solve_cnf` uses unless told otherwise (CaDiCaL 1.9.5)."""

Transition = tuple[int, int, int]
"""``(state, letter, next state)``, the letter 0 (false) or 1 (true)."""


@contextlib.contextmanager
def building() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a formula is built or loaded.

    Clauses are lists that refer to no other object, so the collector finds nothing among
    them, but a full pass over millions of them takes long and cannot be cut short: building
    the 12 million clauses of a random 200 x 200 nonogram took 19.7 s with it and 11.5 s
    without, and its pauses (0.5 s and more) overran a 0.5 s time limit. Reference counting
    still frees everything as usual.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


@dataclass
class Cnf:
    """A formula in conjunctive normal form, built clause by clause.

    Attributes
    ----------
    variables : int
        The highest variable number in use; :meth:`new` hands out the next ones.
    clauses : list of list of int
        The clauses, DIMACS literals.
    """

    variables: int = 0
    clauses: list[list[int]] = field(default_factory=list)

    def new(self, count: int = 1) -> int:
        """Reserve ``count`` fresh variables; return the first."""
        first = self.variables + 1
        self.variables += count
        return first

    def regular(
        self, literals: Sequence[int], start: int, finals: Sequence[int],
        transitions: Sequence[Transition],
    ) -> None:  # fmt: skip
        """Require the word ``literals`` spells (true as 1) to be accepted by a DFA.

        One variable ``q(i, s)`` for every state ``s`` the automaton can be in after ``i``
        letters, on some accepted word (states unreachable from the start or unable to reach
        a final state are left out), and the clauses:

        * ``q(0, start)``, and some ``q(n, f)`` with ``f`` final;
        * forward: ``q(i, s) and letter_i = a -> q(i+1, delta(s, a))``, or ``not (q(i, s) and
          letter_i = a)`` when that move leads nowhere useful;
        * backward: ``q(i+1, t) -> q(i, s1) or q(i, s2) ...`` over the moves into ``t``, and
          ``q(i+1, t) -> letter_i = a`` when every move into ``t`` reads ``a`` (otherwise one
          variable per move into ``t`` stands for "that move was made").

        These are the state variables and clauses of the regular encoding of Bacchus, "GAC via
        unit propagation", CP 2007, LNCS 4741, §3 (the constraint is Pesant's *regular*, CP
        2004), with its transition variables only where a state is entered on both letters and
        without the clauses that tie a letter's value or a state to the moves that support it:
        Bacchus shows that with those, unit propagation alone enforces generalized arc
        consistency; here a letter value without support is refuted when unit propagation
        fails on it (the solver then learns the refutation). The models, projected on the
        letters, are exactly the accepted words (tested against every word of random
        automata). Cost: ``O(n m)`` variables and clauses for ``n`` letters and ``m`` states.

        Parameters
        ----------
        literals : sequence of int
            The word's letters, DIMACS literals.
        start : int
            The initial state.
        finals : sequence of int
            The accepting states.
        transitions : sequence of (int, int, int)
            ``(state, letter, next state)``; missing moves reject.
        """
        delta = {(s, a): t for s, a, t in transitions}
        alive = _alive_states(len(literals), start, set(finals), delta)
        if start not in alive[0]:  # no word of this length is accepted
            refuted = self.new()
            self.clauses += [[refuted], [-refuted]]
            return
        state_var = [{s: self.new() for s in sorted(states)} for states in alive]
        self.clauses.append([state_var[0][start]])
        self.clauses.append(list(state_var[-1].values()))
        for i, literal in enumerate(literals):
            moves_into: dict[int, list[tuple[int, int]]] = {t: [] for t in state_var[i + 1]}
            for s, q in state_var[i].items():
                for letter, reads in ((0, -literal), (1, literal)):
                    t = delta.get((s, letter))
                    if t in moves_into:
                        self.clauses.append([-q, -reads, state_var[i + 1][t]])
                        moves_into[t].append((q, reads))
                    else:
                        self.clauses.append([-q, -reads])
            for t, moves in moves_into.items():
                self._supported(state_var[i + 1][t], moves)

    def _supported(self, target: int, moves: list[tuple[int, int]]) -> None:
        """``target -> some move``, a move ``(q, reads)`` being ``q and reads``."""
        letters = {reads for _, reads in moves}
        if len(letters) == 1:
            self.clauses.append([-target, *letters])
            self.clauses.append([-target, *(q for q, _ in moves)])
            return
        made = []
        for q, reads in moves:
            move = self.new()
            self.clauses += [[-move, q], [-move, reads]]
            made.append(move)
        self.clauses.append([-target, *made])


def _alive_states(
    n: int, start: int, finals: set[int], delta: dict[tuple[int, int], int]
) -> list[set[int]]:
    """For ``i = 0 .. n``, the states reachable from ``start`` in ``i`` letters from which a
    final state is reachable in the ``n - i`` letters left."""
    reach = [{start}]
    for _ in range(n):
        reach.append({t for s in reach[-1] for a in (0, 1) if (t := delta.get((s, a))) is not None})
    alive = [set[int]() for _ in range(n + 1)]
    alive[n] = reach[n] & finals
    for i in range(n - 1, -1, -1):
        alive[i] = {s for s in reach[i] if any(delta.get((s, a)) in alive[i + 1] for a in (0, 1))}
    return alive


@dataclass
class Solved:
    """What :func:`solve_cnf` found.

    Attributes
    ----------
    models : list of list of bool
        The models found, each the values of the projected variables in their order.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when the budget stopped the solver; ``None`` when it ended
        on its own (fewer models than asked then means there are no more).
    counters : dict of str to int
        The solver's ``conflicts``, ``decisions``, ``propagations`` and ``restarts``, summed
        over its calls.
    """

    models: list[list[bool]]
    stopped: Status | None
    counters: dict[str, int]


def solve_cnf(
    cnf: Cnf,
    project: Sequence[int],
    budget: Budget,
    *,
    max_models: int,
    solver: str = SOLVER,
) -> Solved:
    """Find up to ``max_models`` models of ``cnf`` that differ on the ``project`` variables.

    The solver runs in slices of a number of conflicts (python-sat's CaDiCaL holds the GIL
    while it searches, so no other thread can interrupt it); the budget is asked between two
    slices, and a slice takes about :data:`SLICE_SECONDS` (its conflicts are doubled or halved
    to keep it so). A slice that ends at its conflict budget leaves the solver's learnt
    clauses and phases in place: the next one goes on from there.

    Parameters
    ----------
    cnf : Cnf
        The formula; the clauses that forbid each model found are added to the solver only.
    project : sequence of int
        The variables a model is read on (and must differ on from the models before it).
    budget : Budget
        Its time limit and cancellation are asked between slices; its node limit bounds the
        solver's conflicts, counted in ``budget.stats.expanded``.
    max_models : int
        How many models to look for; 2 decides uniqueness.
    solver : str
        A python-sat solver name (:data:`SOLVER` by default).

    Returns
    -------
    Solved
        The models, the stop status, the solver's counters.

    Raises
    ------
    OptionError
        If ``max_models < 1`` or python-sat does not know ``solver``.
    """
    if max_models < 1:
        raise OptionError("max_models must be at least 1")
    from pysat.solvers import Solver, SolverNames

    if not hasattr(SolverNames, solver):
        raise OptionError(f"unknown SAT solver {solver!r}")
    models: list[list[bool]] = []
    stopped: Status | None = None
    with Solver(name=solver) as sat:
        slices = _Slices(sat, budget)
        with building():
            stopped = slices.load(cnf.clauses)
        while not stopped and len(models) < max_models:
            stopped, outcome = slices.solve()
            if stopped or not outcome:
                break
            values = sat.get_model()
            model = [values[v - 1] > 0 for v in project]
            models.append(model)
            sat.add_clause([-v if on else v for v, on in zip(project, model, strict=True)])
        counters = {k: int(v) for k, v in sat.accum_stats().items()}
    budget.stats.expanded += counters.get("conflicts", 0)
    return Solved(models, stopped, counters)


SLICE_SECONDS = 0.02
"""The wall time a slice of :func:`solve_cnf` aims at: how late it may see the budget run out
(a slice that preprocesses or simplifies the formula may take longer)."""


LOAD_CLAUSES = 50_000
"""Clauses handed to the solver between two looks at the budget (about 40 ms; the solver's own
reallocations make a few parts of a formula of millions of clauses take over a second)."""


class _Slices:
    """Solver calls of a number of conflicts each, within a budget (see :func:`solve_cnf`)."""

    def __init__(self, sat: Any, budget: Budget) -> None:
        self.sat = sat
        self.budget = budget
        self.conflicts = 100
        """The conflicts of the next slice."""

    def load(self, clauses: list[list[int]]) -> Status | None:
        """Hand ``clauses`` to the solver, :data:`LOAD_CLAUSES` at a time, asking the budget
        before each part: its stop status, if it said stop."""
        for first in range(0, len(clauses), LOAD_CLAUSES):
            stopped = self.budget.interrupted()
            if stopped:
                return stopped
            self.sat.append_formula(clauses[first : first + LOAD_CLAUSES])
        return None

    def solve(self) -> tuple[Status | None, bool]:
        """Solve to the end or until the budget stops it: the stop status (``None`` when the
        solver ended on its own) and whether it found a model."""
        sat, budget = self.sat, self.budget
        while True:
            stopped = budget.interrupted()
            if stopped:
                return stopped, False
            step = self.conflicts
            nodes = budget.nodes_left()
            if nodes is not None:
                left = nodes - int(sat.accum_stats().get("conflicts", 0))
                if left <= 0:
                    return Status.LIMIT, False
                step = min(step, left)
            sat.conf_budget(step)
            started = time.perf_counter()
            outcome = sat.solve_limited()
            if outcome is not None:
                return None, bool(outcome)
            self._adapt(time.perf_counter() - started)

    def _adapt(self, seconds: float) -> None:
        """Double the slice's conflicts after a quick slice, halve them after a slow one."""
        if seconds < SLICE_SECONDS / 2:
            self.conflicts *= 2
        elif seconds > SLICE_SECONDS * 2 and self.conflicts > 1:
            self.conflicts //= 2
