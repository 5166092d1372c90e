"""A new kind appears on the page without page changes: the example ``queens`` kind, read
from text, explained step by step, played with its own player; and a worker that overruns its
limit is killed and replaced."""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import time

import pytest
from starlette.testclient import TestClient

from cspsolve.kind import TOOLS
from cspsolve.web.app import create_app
from cspsolve.web.pool import GRACE

from .conftest import SETTINGS, client_of, finished, started

pytestmark = pytest.mark.slow

BOARD = "......\n" * 6
STUCK = "Q...\n....\n....\n....\n"
"""A board with a queen in a corner of a 4x4: no placement works."""


def test_the_kind_is_offered_from_its_declaration(queens_served: TestClient) -> None:
    kinds = {k["name"]: k for k in queens_served.get("/api/kinds").json()}
    assert [m["name"] for m in kinds["queens"]["methods"]] == ["dfs", "cpsat", "stubborn"]
    assert kinds["queens"]["explains"] is True
    assert "Queens" in queens_served.get("/").text
    read = queens_served.post("/api/read", json={"puzzle": {"text": BOARD, "name": "b.queens"}})
    assert read.json()["kind"] == "queens" and read.json()["puzzles"][0]["describe"] == "6 queens"


def attacks(columns: list[int]) -> bool:
    """Whether two queens of the placement attack each other (independent of the kind)."""
    return any(
        abs(columns[a] - columns[b]) in (0, b - a)
        for a in range(len(columns))
        for b in range(a + 1, len(columns))
    )


def test_explain_gives_the_steps_of_a_right_answer(queens_served: TestClient) -> None:
    body = {"puzzle": {"text": BOARD, "kind": "queens"}}
    job = finished(queens_served, started(queens_served, "explain", body))
    assert job["state"] == "done", job["error"]
    records = job["answer"]["records"]
    steps, summary = records[:-1], records[-1]
    assert summary["type"] == "summary" and summary["steps"] == len(steps) == 6
    columns = [step["column"] for step in steps]
    assert [step["row"] for step in steps] == list(range(6))
    assert not attacks(columns) and summary["solution"] == {"columns": columns}
    json.dumps(records)
    player = queens_served.get(f"/jobs/{job['id']}/player")
    if importlib.util.find_spec("cspsolve.player") is None:
        assert job["answer"]["player"] is None and player.status_code == 404
    else:
        assert player.status_code == 200 and player.text.startswith("<!doctype html>")
        assert "'unsafe-inline'" in player.headers["content-security-policy"]


def test_explain_of_an_unsolvable_board(queens_served: TestClient) -> None:
    job = finished(queens_served, started(queens_served, "explain", {"puzzle": {"text": STUCK}}))
    summary = job["answer"]["records"][-1]
    assert summary["status"] == "unsolvable" and summary["solution"] is None


def test_a_worker_past_its_limit_is_replaced(queens_served: TestClient) -> None:
    pool = queens_served.app.state.pool  # type: ignore[attr-defined]
    replaced = pool.replaced
    body = {"puzzle": {"text": BOARD}, "method": "stubborn", "time_limit": 0.5}
    job = finished(queens_served, started(queens_served, "solve", body), within=GRACE + 10)
    assert job["state"] == "failed" and "past its time limit" in job["error"]
    assert 0.5 + GRACE <= job["seconds"] < 0.5 + GRACE + 2
    # The job ends before its worker is killed and counted: wait for the count.
    counted = time.monotonic() + 5
    while pool.replaced == replaced and time.monotonic() < counted:
        time.sleep(0.05)
    assert pool.replaced == replaced + 1
    again = finished(queens_served, started(queens_served, "solve", {"puzzle": {"text": BOARD}}))
    assert again["state"] == "done" and again["answer"]["status"] == "solved"


def test_a_bug_is_one_line_of_json_not_a_stack_trace(queens_kind: None) -> None:
    client = client_of(create_app(SETTINGS), raise_server_exceptions=False)
    answer = client.post("/api/read", json={"puzzle": {"text": "bug", "kind": "queens"}})
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error: TypeError: a bug in the reader"}


def test_the_kinds_player_is_offered_and_plays(queens_served: TestClient) -> None:
    kinds = {k["name"]: k for k in queens_served.get("/api/kinds").json()}
    assert list(kinds["queens"]["tools"]) == ["play"]
    assert kinds["queens"]["tools"]["play"]["title"] == "Play queens"
    assert "play" not in kinds["nonogram"]["tools"]
    body = {"puzzle": {"text": BOARD, "kind": "queens"}, "presses": [[0, 1], [2, 4], [2, 4]]}
    board = queens_served.post("/api/play", json=body).json()
    assert board["rows"] == [".Q...."] + ["......"] * 5
    job = finished(queens_served, started(queens_served, "hint", body))
    assert job["state"] == "done", job["error"]
    assert job["answer"]["status"] == "solved" and job["answer"]["press"][0] == 1
    bad = queens_served.post("/api/play", json={**body, "presses": [[6, 0]]})
    assert bad.status_code == 400 and "a press is a [row, column] pair" in bad.json()["error"]


def test_a_tool_is_of_the_type_its_name_says(queens_kind: None) -> None:
    import web_queens

    with pytest.raises(TypeError, match="tool 'design' is not one of design"):
        dataclasses.replace(web_queens.KIND, tools={"design": web_queens.PLAYER})
    with pytest.raises(TypeError, match="tool 'solve'"):
        dataclasses.replace(web_queens.KIND, tools={"solve": web_queens.PLAYER})
    assert set(TOOLS) == {"design", "play"}


def test_a_puzzle_is_made_to_order(queens_served: TestClient) -> None:
    """``POST /api/generate``: the kind's generator (``cspsolve generate queens``) makes the
    puzzle of the seed asked for, its file's text read back by the kind and its certificate
    checked by brute force; the same seed makes the same puzzle."""
    from queens.kind import KIND, Queens, check

    kinds = {k["name"]: k for k in queens_served.get("/api/kinds").json()}
    widgets = {o["name"]: o["widget"] for o in kinds["queens"]["generate"]["options"]}
    assert widgets == {"size": "count", "given": "count", "unique": "flag"}
    body = {"kind": "queens", "seed": 4, "options": {"size": 6, "unique": True}}
    answers = []
    for _ in range(2):
        job = finished(queens_served, started(queens_served, "generate", body))
        assert job["state"] == "done", job["error"]
        answers.append(job["answer"])
    first = answers[0]
    assert first == answers[1] and first["status"] == "made"
    assert first["name"] == "queens-4.queens"
    assert first["svg"] is None if KIND.blank is None else first["svg"].startswith("<")
    board = Queens(tuple(r.index("Q") if "Q" in r else None for r in first["text"].split()))
    completions = [p for p in itertools.permutations(range(6)) if not check(board, p)]
    assert len(completions) == 1 == first["certificate"]["solutions"]
    assert KIND.generator is not None
    for bad, words in (
        ({**body, "options": {"size": "6"}}, "option size takes a whole number >= 1"),
        ({**body, "options": {"colour": 1}}, "unknown option 'colour' for queens"),
        ({**body, "seed": "x"}, "the seed must be a whole number"),
        ({**body, "kind": "chess"}, "chess"),
    ):
        refused = queens_served.post("/api/generate", json=bad)
        assert refused.status_code == 400 and words in refused.json()["error"], refused.text
    failed = finished(
        queens_served, started(queens_served, "generate", {**body, "options": {"size": 12}})
    )
    assert failed["state"] == "failed" and "--size: 12 is not in 4..8" in failed["error"]
