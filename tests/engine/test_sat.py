"""The SAT adapter (:mod:`cspsolve.csp.sat`): the regular encoding accepts exactly the words
a random automaton accepts (every model enumerated, against the words tried one by one), and
the solver keeps to the node limit, the time limit and cancellation."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.csp.sat import Cnf, solve_cnf
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Stats, Status

Transition = tuple[int, int, int]


@st.composite
def automata(draw: st.DrawFn) -> tuple[int, list[int], list[Transition]]:
    """A random deterministic automaton over {0, 1}: 1 to 5 states, some moves missing."""
    states = draw(st.integers(1, 5))
    moves = [
        (s, a, draw(st.integers(0, states - 1)))
        for s in range(states)
        for a in (0, 1)
        if draw(st.booleans()) or draw(st.booleans())
    ]
    finals = draw(st.lists(st.integers(0, states - 1), max_size=states, unique=True))
    return draw(st.integers(0, states - 1)), finals, moves


def accepts(word: tuple[int, ...], start: int, finals: list[int], moves: list[Transition]) -> bool:
    """Run the automaton on ``word``, letter by letter."""
    delta = {(s, a): t for s, a, t in moves}
    state: int | None = start
    for letter in word:
        state = delta.get((state, letter)) if state is not None else None
    return state in finals


@settings(max_examples=200, deadline=None)
@given(automaton=automata(), length=st.integers(0, 7), negate=st.booleans())
def test_regular_encodes_the_language(
    automaton: tuple[int, list[int], list[Transition]], length: int, negate: bool
) -> None:
    start, finals, moves = automaton
    cnf = Cnf()
    first = cnf.new(length)
    letters = list(range(first, first + length))
    # Some letters as negative literals: the encoding must read a literal, not a variable.
    literals = [-v if negate and i % 2 else v for i, v in enumerate(letters)]
    cnf.regular(literals, start, finals, moves)
    found = solve_cnf(cnf, letters, Limits().start(Stats()), max_models=2**length + 1)
    assert found.stopped is None
    words = {
        tuple(int(on != (negate and i % 2 == 1)) for i, on in enumerate(model))
        for model in found.models
    }
    assert len(words) == len(found.models)  # each model differs on the letters
    expected = {w for w in itertools.product((0, 1), repeat=length) if accepts(w, *automaton)}
    assert words == expected


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
