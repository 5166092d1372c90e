"""Jobs in the worker processes: every kind solved, checked, analyzed and compared as the
library does it; a request's time limit honoured; cancellation, asked or for want of a client
asking; pictures free of markup."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

import cspsolve
from cspsolve import registry, tasks
from cspsolve.instances import ROOT
from cspsolve.web.pool import GRACE
from cspsolve.web.work import PLOT_SECONDS

from .conftest import HOSTILE, finished, started

pytestmark = pytest.mark.slow

ONE_PER_KIND = {
    "nonogram": "nonogram/duck.non",
    "lightsout": "lightsout/classic-5x5.lo",
    "rushhour": "rushhour/card-32.txt",
    "npuzzle": "npuzzle/easy8.txt",
}
HARD = {"puzzle": {"instance": "npuzzle/korf15-easy.korf"}, "method": "astar",
        "heuristic": "misplaced"}  # fmt: skip
"""A run of many seconds: A* with the weakest heuristic on a 15-puzzle."""


def puzzle_of(name: str) -> Any:
    return cspsolve.read(ROOT / name)[0]


def test_every_kind_has_a_shipped_instance_here() -> None:
    assert sorted(ONE_PER_KIND) == sorted(registry.names())


@pytest.mark.parametrize("kind", sorted(ONE_PER_KIND))
def test_solve_answers_as_the_library(served: TestClient, kind: str) -> None:
    job = finished(served, started(served, "solve", {"puzzle": {"instance": ONE_PER_KIND[kind]}}))
    assert job["state"] == "done", job["error"]
    answer = job["answer"]
    expected = cspsolve.solve(puzzle_of(ONE_PER_KIND[kind]))
    assert (answer["status"], answer["method"]) == (expected.status.value, expected.method)
    assert answer["stats"]["cost"] == expected.stats.cost
    assert answer["solution"] == registry.get(kind).encode(expected.solution)
    assert answer["svg"].lstrip().startswith("<?xml") and "<script" not in answer["svg"]
    assert answer["text"]


def test_verify_says_what_the_cross_check_proved(served: TestClient) -> None:
    name = ONE_PER_KIND["lightsout"]
    job = finished(served, started(served, "verify", {"puzzle": {"instance": name}}))
    assert job["state"] == "done", job["error"]
    report = cspsolve.verify(puzzle_of(name))
    assert job["answer"]["agree"] is report.agree is True
    assert job["answer"]["words"] == report.words()


def test_analyze_reports_the_kinds_keys(served: TestClient) -> None:
    name = ONE_PER_KIND["npuzzle"]
    job = finished(served, started(served, "analyze", {"puzzle": {"instance": name}}))
    expected = cspsolve.analyze(puzzle_of(name))
    answer = job["answer"]["analysis"]
    assert answer.pop("seconds") >= 0 and expected.pop("seconds") >= 0
    assert answer == expected


def test_compare_runs_the_kinds_table(served: TestClient) -> None:
    name = ONE_PER_KIND["npuzzle"]
    body = {"puzzle": {"instance": name}, "methods": ["astar", "bfs"], "time_limit": 4}
    job = finished(served, started(served, "compare", body))
    assert job["state"] == "done", job["error"]
    kind = registry.get("npuzzle")
    pairs = tasks.comparisons(kind, puzzle_of(name), methods=["astar", "bfs"])
    runs = job["answer"]["runs"]
    assert [(r["method"], r["heuristic"]) for r in runs] == pairs
    assert {r["stats"]["cost"] for r in runs} == {cspsolve.solve(puzzle_of(name)).stats.cost}
    assert all(r["stats"]["seconds"] <= 4 + 0.5 for r in runs)
    assert job["answer"]["seconds_each"] == 4
    plot = job["answer"]["plot"]
    assert plot.startswith("<?xml") and "<svg" in plot
    labels = re.findall(r"<!-- (.*?) -->", plot)  # matplotlib names each text drawn
    assert all("/".join(filter(None, pair)) in labels for pair in pairs), labels


def test_compare_gives_each_run_the_time_limit_typed(served: TestClient) -> None:
    """As ``cspsolve compare --time-limit`` does: two runs that need more both get all of it."""
    worst = {"instance": "npuzzle/worst8.json"}  # 31 moves: IDA* with weak heuristics is slow
    body = {"puzzle": worst, "methods": ["idastar"], "heuristics": ["misplaced", "gaschnig"]}
    job = finished(served, started(served, "compare", {**body, "time_limit": 1.5}))
    assert job["state"] == "done", job["error"]
    runs = job["answer"]["runs"]
    assert [r["status"] for r in runs] == ["limit", "limit"], runs
    assert all(1.4 <= r["stats"]["seconds"] <= 2.0 for r in runs), runs
    assert job["seconds"] <= 2 * 1.5 + PLOT_SECONDS + GRACE


def test_a_requests_time_limit_is_honoured(served: TestClient) -> None:
    job = finished(served, started(served, "solve", {**HARD, "time_limit": 1.0}))
    assert job["state"] == "done", job["error"]
    assert job["answer"]["status"] == "limit"
    assert job["answer"]["stats"]["seconds"] <= 1.0 + 0.5
    assert job["seconds"] <= 1.0 + GRACE


def test_cancel_stops_a_running_job(served: TestClient) -> None:
    job = started(served, "solve", {**HARD, "time_limit": 15})
    while served.get(f"/api/jobs/{job['id']}").json()["state"] == "queued":
        pass
    assert served.delete(f"/api/jobs/{job['id']}").status_code == 200
    ended = finished(served, job, within=GRACE + 5)
    assert ended["state"] == "cancelled"
    assert ended["answer"] is None or ended["answer"]["status"] == "cancelled"
    assert ended["seconds"] < 15
    again = finished(
        served, started(served, "solve", {"puzzle": {"instance": "npuzzle/easy8.txt"}})
    )
    assert again["state"] == "done"


def test_a_queued_job_cancelled_never_runs(served: TestClient) -> None:
    busy = [started(served, "solve", {**HARD, "time_limit": 3}) for _ in range(2)]
    waiting = started(served, "solve", {"puzzle": {"instance": "npuzzle/easy8.txt"}})
    cancelled = served.delete(f"/api/jobs/{waiting['id']}").json()
    assert cancelled["state"] == "cancelled" and cancelled["seconds"] is None
    for job in busy:
        served.delete(f"/api/jobs/{job['id']}")
        assert finished(served, job)["state"] == "cancelled"


def test_a_job_nobody_asks_about_is_cancelled(
    served: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two running jobs and one queued behind them are left unasked (their page closed): the
    running ones are cancelled past the lease, the queued one never runs. A job its client
    keeps asking about runs to its end."""
    lease = 1.0  # five times the longest wait of the followed job's requests
    monkeypatch.setattr(served.app.state.pool, "lease", lease)  # type: ignore[attr-defined]
    left = [started(served, "solve", {**HARD, "time_limit": 15}) for _ in range(3)]
    followed = started(served, "solve", {**HARD, "time_limit": 2.0})
    while (now := served.get(f"/api/jobs/{followed['id']}", params={"wait": 0.2}).json())[
        "state"
    ] in ("queued", "running"):
        pass
    assert now["state"] == "done" and now["answer"]["status"] == "limit", now
    ended = [served.get(f"/api/jobs/{job['id']}").json() for job in left]
    assert [job["state"] for job in ended] == ["cancelled"] * 3, ended
    assert all("no client asked about it" in job["error"] for job in ended)
    assert all(job["seconds"] < lease + GRACE for job in ended[:2])
    assert ended[2]["seconds"] is None, "the queued job never ran"


def test_markup_in_a_title_stays_out_of_the_picture(served: TestClient) -> None:
    text = f'title "{HOSTILE}"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n'
    job = finished(served, started(served, "solve", {"puzzle": {"text": text, "name": "t.non"}}))
    assert job["state"] == "done", job["error"]
    assert "<script" not in job["answer"]["svg"]
