"""The server under load: a burst of requests (many of them long solves) against a real
``cspsolve serve`` is answered, or refused with HTTP 503 and a retry hint, while light
requests still answer at once; afterwards every job has ended, the workers are the ones it
started with, and stopping it leaves no process behind.

The light requests are timed by a process of their own (``prober.py``), as a browser tab
would send them: timed in the load client's own event loop, they would also count that
client's wait while it sends and reads the burst, which is not the server's.

Memory is measured after a warm-up (each worker has loaded what the jobs need) and after each
of two rounds: the server's must not grow in the second round. The figures
are printed (``pytest -s``) as one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, serving

pytestmark = pytest.mark.slow

SLOW = {"puzzle": {"instance": "npuzzle/korf15-easy.korf"}, "method": "astar",
        "heuristic": "misplaced", "time_limit": 1.0}  # fmt: skip
"""A solve that runs to its time limit."""

LIGHT = [
    ("/api/solve", {"puzzle": {"instance": "npuzzle/easy8.txt"}}),
    ("/api/read", {"puzzle": {"instance": "nonogram/duck.non"}}),
    ("/api/analyze", {"puzzle": {"instance": "lightsout/classic-5x5.lo"}}),
]
"""Quick requests: a short solve, a read, an analysis."""

BURST, SLOW_IN_BURST, SECOND_BURST = 50, 20, 90
"""The first burst (of which long solves), then a second one that overfills the queue (64
jobs may wait) even when the first burst's light jobs have all ended: 18 long solves wait
behind the 2 running, and 60 of the 90 requests are jobs."""

PROBE = "/api/kinds"
"""The light request timed while the burst is served."""

PROBER = Path(__file__).with_name("prober.py")
"""The script that times the light requests from a process of its own."""


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def resident_mib(pid: int) -> float:
    """The resident memory of ``pid`` in MiB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


def memory(pid: int) -> tuple[float, float]:
    """The resident memory of the server ``pid`` and of its workers together, in MiB."""
    return resident_mib(pid), sum(map(resident_mib, children(pid)))


async def burst(client: httpx.AsyncClient, count: int, slow: int) -> list[httpx.Response]:
    """``count`` requests at once, the first ``slow`` of them long solves."""
    asks = [("/api/solve", SLOW)] * slow + [LIGHT[i % len(LIGHT)] for i in range(count - slow)]
    return await asyncio.gather(*(client.post(path, json=body) for path, body in asks))


@contextmanager
def probing(server: Server) -> Iterator[list[float]]:
    """Light requests sent by ``prober.py`` while the block runs; the list yielded is filled
    with each one's seconds when the block ends."""
    url = server.address.rstrip("/") + PROBE
    process = subprocess.Popen(
        [sys.executable, str(PROBER), url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdin is not None
    assert process.stdout.readline() == "ready\n"
    took: list[float] = []
    try:
        yield took
    finally:
        try:
            out, _ = process.communicate(timeout=60)  # closing its input stops it
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0, out
    took += json.loads(out)


async def ended(client: httpx.AsyncClient, job: dict[str, Any]) -> dict[str, Any]:
    while True:
        found = (await client.get(f"/api/jobs/{job['id']}", params={"wait": 5})).json()
        if found["state"] in ("done", "failed", "cancelled"):
            return found


async def warm(server: Server) -> None:
    """One of each request, in turn: each worker loads what the burst's jobs need."""
    async with httpx.AsyncClient(base_url=server.address, timeout=60) as client:
        for path, body in [*LIGHT, ("/api/solve", SLOW)] * 2:
            answer = await client.post(path, json=body)
            if answer.status_code == 202:
                await ended(client, answer.json())


async def load(server: Server) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=server.address, timeout=60, limits=limits) as client:
        start = time.perf_counter()
        answers = await burst(client, BURST, SLOW_IN_BURST)
        answers += await burst(client, SECOND_BURST, 0)
        answered = time.perf_counter() - start
        jobs = [a.json() for a in answers if a.status_code == 202]
        finished = await asyncio.gather(*(ended(client, job) for job in jobs))
    return {
        "answers": answers,
        "finished": finished,
        "answered_seconds": answered,
        "all_done_seconds": time.perf_counter() - start,
    }


def checked(seen: dict[str, Any]) -> tuple[list[int], int]:
    """The status codes of a round's requests and how many were refused, each answer checked:
    accepted or answered, or refused with a retry hint; every job done; the long solves
    stopped at their time limit."""
    codes = [a.status_code for a in seen["answers"]]
    assert set(codes) <= {200, 202, 503}, codes
    refused = [a for a in seen["answers"] if a.status_code == 503]
    for answer in refused:
        assert answer.headers["retry-after"].isdigit()
        assert answer.json()["error"].startswith("the server is busy: ")
    assert refused, "the second burst overfills the queue of 64"
    states = [job["state"] for job in seen["finished"]]
    assert set(states) == {"done"}, states
    slow = [j["answer"] for j in seen["finished"] if j["time_limit"] == SLOW["time_limit"]]
    assert len(slow) == SLOW_IN_BURST
    assert all(a["status"] == "limit" for a in slow)
    assert all(a["stats"]["seconds"] <= SLOW["time_limit"] + 0.5 for a in slow)
    return codes, len(refused)


def test_a_burst_is_served_or_refused_and_leaves_nothing() -> None:
    with serving("--workers", "2", "--max-time-limit", "30") as server:
        pid = server.process.pid
        asyncio.run(warm(server))
        workers = children(pid)
        before = memory(pid)
        with probing(server) as took:
            seen = asyncio.run(load(server))
        first = memory(pid)
        with probing(server) as took_again:
            again = asyncio.run(load(server))
        after_workers = children(pid)
        after = memory(pid)
    deadline = time.monotonic() + 10
    while (left := {p for p in after_workers | workers if Path(f"/proc/{p}").exists()}) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)

    codes, refused = checked(seen)
    assert checked(again)[1], "the second round, too, overfills the queue"
    probe = sorted(took + took_again)
    figures = {
        "requests": len(codes),
        "accepted_202": codes.count(202),
        "answered_200": codes.count(200),
        "refused_503": refused,
        "all_answered_s": round(seen["answered_seconds"], 2),
        "all_jobs_ended_s": round(seen["all_done_seconds"], 2),
        "probe_count": len(probe),
        "probe_median_ms": round(1000 * statistics.median(probe), 1),
        "probe_p95_ms": round(1000 * probe[int(0.95 * (len(probe) - 1))], 1),
        "probe_max_ms": round(1000 * probe[-1], 1),
        "workers_before": len(workers),
        "workers_after": len(after_workers),
        "server_workers_rss_before_mib": [round(m, 1) for m in before],
        "after_first_round_mib": [round(m, 1) for m in first],
        "after_second_round_mib": [round(m, 1) for m in after],
        "processes_left_after_stop": len(left),
    }
    print(json.dumps(figures))
    loaded = seen["all_done_seconds"] + again["all_done_seconds"]
    assert len(probe) >= 10 * loaded, "light requests went on throughout both rounds"
    assert figures["probe_max_ms"] < 200, figures
    assert after_workers == workers, "a worker was replaced or added"
    # the server keeps a bounded number of jobs: the second round takes next to nothing more;
    # a worker's memory goes up and down by tens of MiB with the searches it ran (its
    # allocator keeps what a large search took), so it is only bounded
    assert after[0] - first[0] < 5, figures
    assert after[1] < 2 * before[1], figures
    assert not left, left
