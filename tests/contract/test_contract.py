"""One contract for every method of every kind, parametrised from the registry: a method added
to a kind's table is checked here with nothing else to write.

The instances and the independent checks come from the kind's ``differential`` module
(:class:`tests.fuzzing.Differential`): small puzzles, some unsolvable, with what the tests'
own oracles know of them, and a hard solvable one for the limits. For each kind x method:

- on the small puzzles, without limits: the status is ``unsolvable`` exactly where the oracle
  says so; every solution passes ``kind.check`` and the differential module's replay of its
  JSON form, read back from JSON text; ``optimal`` is said exactly where the method declares
  it, with the oracle's least cost; ``verify`` agrees (the reference method refuses to check
  itself; of an answer not proven least-cost, a reference may prove only a bound, and leave
  the agreement unsettled);
- refusals are as declared: a puzzle the method's ``refuses`` names is an ``OptionError``
  carrying that reason, any other puzzle is run by the method asked for;
- on the hard puzzle: ``stats.seconds`` stays within the time limit plus
  :data:`.checks.MARGIN`, no more than :data:`NODES` nodes are expanded under a node limit
  (exactly that many when it stopped the run before the time limit), and the answer is
  ``limit`` or right (a run that compiled kernels is run again: compiling is no phase a limit
  can interrupt).

The cases are kept small (well under a second each, but for the limits): the kinds' own
``test_limits.py`` run the paths where sizes matter.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import pytest
from numba.core import event

from cspsolve import registry, tasks
from cspsolve.errors import OptionError
from cspsolve.kind import Kind, Method
from cspsolve.limits import Limits
from cspsolve.results import Result, Status

from ..fuzzing import Contract, Sample
from .checks import assert_right, assert_within, differential

LIMIT = 0.3
"""Seconds each run on the hard puzzle is allowed."""
NODES = 50
"""The node limit of the node-limited runs."""
COMPILING_RUNS = 5
"""Most runs of a method on the hard puzzle while they compile kernels."""

pytestmark = pytest.mark.parametrize(
    "kind, method",
    [
        pytest.param(kind, method, id=f"{kind.name}-{method.name}")
        for kind in registry.kinds().values()
        for method in kind.methods
    ],
)


@functools.cache
def _contract(kind: str) -> Contract:
    return differential(kind).contract()


def _taken(method: Method, samples: Sequence[Sample]) -> list[Sample]:
    """The samples the method does not refuse."""
    return [s for s in samples if method.refuses(s.puzzle) is None]


def _solve(kind: Kind, method: Method, puzzle: Any, limits: Limits | None = None) -> Result[Any]:
    return tasks.solve(kind, puzzle, request=tasks.Request(method.name), limits=limits)


class _Compiles(event.Listener):
    """Counts numba's compiles in this process."""

    count = 0

    def on_start(self, started: event.Event) -> None:
        _Compiles.count += 1

    def on_end(self, ended: event.Event) -> None:
        pass


event.register("numba:compile", _Compiles())


def _measured(kind: Kind, method: Method, puzzle: Any, limits: Limits) -> Result[Any]:
    """The method's run, run again while it compiled kernels (which no limit can interrupt:
    the limits are on the solvers, with their kernels in numba's cache)."""
    for _ in range(COMPILING_RUNS):
        before = _Compiles.count
        result = _solve(kind, method, puzzle, limits)
        if _Compiles.count == before:
            break
    return result


@functools.cache
def _warm(kind: str, method: str) -> None:
    """Run the method once on a small puzzle, so that the limits do not measure the loading of
    its libraries."""
    declared = registry.get(kind)
    for sample in _taken(declared.method(method), _contract(kind).small)[:1]:
        _solve(declared, declared.method(method), sample.puzzle)


def test_small_puzzles_are_answered_right(kind: Kind, method: Method) -> None:
    for sample in _taken(method, _contract(kind.name).small):
        result = _solve(kind, method, sample.puzzle)
        assert_right(kind, sample.puzzle, result)
        if not sample.solvable:
            assert result.status is Status.UNSOLVABLE, sample
            continue
        proven = Status.OPTIMAL if method.optimal else Status.SOLVED
        assert result.status is proven, (sample, result.status)
        if sample.optimum is not None:
            assert result.stats.cost >= sample.optimum
            assert result.stats.cost == sample.optimum or not method.optimal, sample


def test_refusals_are_as_declared(kind: Kind, method: Method) -> None:
    contract = _contract(kind.name)
    for puzzle in [s.puzzle for s in contract.small] + [contract.hard]:
        reason = method.refuses(puzzle)
        request = tasks.Request(method.name)
        if reason is None:
            assert tasks.choose(kind, puzzle, request=request)[0] is method
        else:
            with pytest.raises(OptionError) as refused:
                tasks.solve(kind, puzzle, request=request)
            assert reason in str(refused.value)


def test_verify_agrees_on_small_puzzles(kind: Kind, method: Method) -> None:
    for sample in _taken(method, _contract(kind.name).small):
        request = tasks.Request(method.name)
        if method.name == kind.reference:
            with pytest.raises(OptionError, match="pick another --method"):
                tasks.verify(kind, sample.puzzle, request=request)
            continue
        verification = tasks.verify(kind, sample.puzzle, request=request)
        settled = (True,) if method.optimal is not False else (True, None)
        assert verification.agree in settled, (sample, verification.problems)


def _hard(kind: Kind, method: Method) -> Any:
    """The kind's hard puzzle, the method warmed up (skips the test when it refuses it)."""
    hard = _contract(kind.name).hard
    if method.refuses(hard) is not None:
        pytest.skip(f"{method.name} refuses the hard puzzle (test_refusals_are_as_declared)")
    _warm(kind.name, method.name)
    return hard


def test_the_time_limit_holds(kind: Kind, method: Method) -> None:
    hard = _hard(kind, method)
    assert_within(kind, hard, _measured(kind, method, hard, Limits(time_limit=LIMIT)), LIMIT)


def test_the_node_limit_holds(kind: Kind, method: Method) -> None:
    hard = _hard(kind, method)
    result = _measured(kind, method, hard, Limits(time_limit=LIMIT, max_nodes=NODES))
    assert result.stats.expanded <= NODES
    if result.status is Status.LIMIT and result.stats.seconds < LIMIT:
        assert result.stats.expanded == NODES, "stopped before either limit"
    assert_within(kind, hard, result, LIMIT)


def test_a_time_limit_of_0_stops_at_once(kind: Kind, method: Method) -> None:
    """0 s means the same with every method: no answer, status limit (even on a puzzle that
    the method settles before its first look at the clock)."""
    for sample in _taken(method, _contract(kind.name).small)[:3]:
        result = _solve(kind, method, sample.puzzle, Limits(time_limit=0))
        assert (result.status, result.solution) == (Status.LIMIT, None), sample
        assert result.method == method.name
