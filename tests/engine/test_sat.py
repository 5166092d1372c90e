"""The SAT adapter (:mod:`cspsolve.csp.sat`): the solver keeps to the node limit, the time limit
and cancellation, and reports an unsatisfiable formula and bad arguments. (A kind's encoding is
tested with its kind: the nonogram's line clauses in ``tests/models/nonogram/test_sat.py``.)"""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from cspsolve.csp.sat import Cnf, solve_cnf
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Stats, Status


def pigeons(holes: int) -> Cnf:
    """``holes + 1`` pigeons in ``holes`` holes: unsatisfiable, and hard for resolution."""
    cnf = Cnf()
    first = cnf.new((holes + 1) * holes)

    def var(p: int, h: int) -> int:
        return first + p * holes + h

    cnf.clauses += [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            cnf.clauses.append([-var(p, h), -var(q, h)])
    return cnf


def test_node_limit_bounds_the_conflicts() -> None:
    budget = Limits(max_nodes=500).start(Stats())
    found = solve_cnf(pigeons(11), [1], budget, max_models=1)
    assert found.stopped is Status.LIMIT
    assert found.models == []
    assert found.counters["conflicts"] <= 500
    assert budget.stats.expanded == found.counters["conflicts"]


@pytest.mark.parametrize("how", ["time", "cancel"])
def test_time_limit_and_cancellation_stop_the_solver(how: str) -> None:
    cancel = threading.Event()
    if how == "time":
        limits = Limits(time_limit=0.3)
    else:
        limits = Limits(cancel=cancel)
        threading.Timer(0.3, cancel.set).start()
    started = time.perf_counter()
    found = solve_cnf(pigeons(13), [1], limits.start(Stats()), max_models=1)
    assert found.stopped is (Status.LIMIT if how == "time" else Status.CANCELLED)
    assert time.perf_counter() - started < 0.3 + 0.5


def test_unsatisfiable_and_bad_arguments() -> None:
    cnf = Cnf()
    x = cnf.new()
    cnf.clauses += [[x], [-x]]
    found = solve_cnf(cnf, [x], Limits().start(Stats()), max_models=2)
    assert found.models == [] and found.stopped is None
    with pytest.raises(OptionError, match="at least 1"):
        solve_cnf(cnf, [x], Limits().start(Stats()), max_models=0)
    with pytest.raises(OptionError, match="unknown SAT solver"):
        solve_cnf(cnf, [x], Limits().start(Stats()), max_models=1, solver="nope")
