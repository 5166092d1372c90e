"""Limits, cancellation, progress and the JSON form of results, on real searches."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

import pytest

from cspsolve.csp import CSP, ExplicitDomain, Relation, gac_astar, mac
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

SEARCHES = [mac, gac_astar]


def pigeonhole(n: int) -> CSP:
    """n + 1 pigeons in n holes, pairwise different: unsolvable, and GAC does not see it."""
    pigeons = [f"p{i}" for i in range(n + 1)]
    domains = {p: ExplicitDomain(range(n)) for p in pigeons}
    constraints = [
        Relation(a, b, lambda x, y: x != y) for a, b in itertools.combinations(pigeons, 2)
    ]
    return CSP(domains, constraints)


@pytest.mark.parametrize("search", SEARCHES)
def test_exhausted_search_proves_unsolvable(search: object) -> None:
    result = search(pigeonhole(4))  # type: ignore[operator]
    assert result.status is Status.UNSOLVABLE
    assert result.solution is None
    assert result.stats.expanded > 0 and result.stats.backtracks > 0


@pytest.mark.parametrize("search", SEARCHES)
def test_node_limit(search: object) -> None:
    result = search(pigeonhole(7), limits=Limits(max_nodes=50))  # type: ignore[operator]
    assert result.status is Status.LIMIT
    assert result.stats.expanded == 50


@pytest.mark.parametrize("search", SEARCHES)
def test_time_limit(search: object) -> None:
    result = search(pigeonhole(9), limits=Limits(time_limit=0.2))  # type: ignore[operator]
    assert result.status is Status.LIMIT
    assert 0.2 <= result.stats.seconds < 2.0


@pytest.mark.parametrize("search", SEARCHES)
def test_cancellation_from_another_thread(search: object) -> None:
    cancel = threading.Event()
    timer = threading.Timer(0.1, cancel.set)
    timer.start()
    result = search(pigeonhole(9), limits=Limits(cancel=cancel))  # type: ignore[operator]
    timer.join()
    assert result.status is Status.CANCELLED


@pytest.mark.parametrize("search", SEARCHES)
def test_progress_reports_live_stats(search: object) -> None:
    seen: list[int] = []
    limits = Limits(max_nodes=300, progress=lambda s: seen.append(s.expanded), progress_interval=0)
    search(pigeonhole(7), limits=limits)  # type: ignore[operator]
    assert seen and seen == sorted(seen) and seen[-1] > 0


def test_negative_limits_are_refused() -> None:
    with pytest.raises(OptionError, match="time limit"):
        Limits(time_limit=-1)
    with pytest.raises(OptionError, match="node limit"):
        Limits(max_nodes=-5)


def test_result_json_layout() -> None:
    result: Result[tuple[str, ...]] = Result(
        Status.SOLVED, ("#.",), Stats(expanded=3, seconds=0.5), "mac", proof={"unique": True}
    )
    out = result.to_json(lambda grid: {"grid": list(grid)})
    assert out["status"] == "solved"
    assert out["solution"] == {"grid": ["#."]}
    assert out["proof"] == {"unique": True}
    assert set(out["stats"]) >= {
        "expanded",
        "generated",
        "max_frontier",
        "depth",
        "cost",
        "seconds",
    }
    assert out["stats"]["expanded"] == 3
    assert Status.OPTIMAL.has_solution and not Status.LIMIT.has_solution


def test_interrupted_leaves_the_node_limit_to_exhausted() -> None:
    budget = Limits(max_nodes=0).start(Stats())
    assert budget.exhausted() is Status.LIMIT
    assert budget.interrupted() is None


def test_alarm_rings_after_the_time_limit() -> None:
    rung = threading.Event()
    budget = Limits(time_limit=0.1).start(Stats())
    with budget.alarm(rung.set):
        assert rung.wait(5.0)
        assert budget.interrupted() is Status.LIMIT
    assert time.perf_counter() - budget.started >= 0.1


def test_alarm_rings_on_cancellation() -> None:
    rung, cancel = threading.Event(), threading.Event()
    budget = Limits(cancel=cancel).start(Stats())
    with budget.alarm(rung.set):
        assert not rung.wait(0.05)
        cancel.set()
        assert rung.wait(5.0)
    assert budget.interrupted() is Status.CANCELLED


def test_alarm_is_silent_once_closed() -> None:
    rung: list[int] = []
    budget = Limits(time_limit=0.05).start(Stats())
    with budget.alarm(lambda: rung.append(1)):
        pass
    time.sleep(0.2)
    assert rung == []


def test_alarms_of_several_budgets_ring_in_turn() -> None:
    late, soon = threading.Event(), threading.Event()
    with Limits(time_limit=0.4).start(Stats()).alarm(late.set):
        with Limits(time_limit=0.05).start(Stats()).alarm(soon.set):
            assert soon.wait(5.0) and not late.is_set()
        assert late.wait(5.0)


def test_step_through_stops_at_the_time_limit() -> None:
    done: list[int] = []

    def steps() -> Iterator[None]:
        for i in range(1000):
            time.sleep(0.005)
            done.append(i)
            yield

    budget = Limits(time_limit=0.1).start(Stats())
    assert budget.step_through(steps()) is Status.LIMIT
    assert 0 < len(done) < 1000
    assert budget.stats.seconds < 0.1 + 0.5
    assert Limits().start(Stats()).step_through(iter(range(3))) is None


def test_parallel_means_more_than_this_process() -> None:
    assert not Limits().parallel
    assert Limits(workers=2).parallel
    assert Limits(scheduler="tcp://127.0.0.1:8786").parallel


def test_nodes_left_takes_off_the_nodes_expanded_and_promised() -> None:
    stats = Stats()
    budget = Limits(max_nodes=100).start(stats)
    stats.expanded = 30
    assert budget.nodes_left() == 70
    assert budget.nodes_left(50) == 20
    assert budget.nodes_left(90) == 0
    assert Limits().start(Stats()).nodes_left(5) is None


def test_a_part_gets_the_time_and_nodes_left_and_keeps_cancellation() -> None:
    stats, cancel = Stats(), threading.Event()
    budget = Limits(time_limit=60.0, max_nodes=100, cancel=cancel).start(stats)
    stats.expanded = 30
    part = budget.part(promised=50)
    assert part.max_nodes == 20
    assert part.time_limit is not None and 59.0 < part.time_limit <= 60.0
    assert part.cancel is cancel
    assert budget.part(seconds=0.5).time_limit == 0.5
    capped = budget.part(seconds=600.0).time_limit
    assert capped is not None and capped <= 60.0
    unlimited = Limits().start(Stats())
    assert unlimited.part().time_limit is None and unlimited.part().max_nodes is None
    assert unlimited.part(seconds=0.5).time_limit == 0.5
