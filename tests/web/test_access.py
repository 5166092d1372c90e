"""Who may use the server (:mod:`cspsolve.web.access`): a loopback server answers only to
loopback names (no DNS rebinding), nothing from another site changes state, and a server
bound beyond the loopback wants its token. Each test fails without its rule."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from starlette.testclient import TestClient

from cspsolve.web.access import COOKIE
from cspsolve.web.app import create_app

from .conftest import SETTINGS, client_of

READ = {"puzzle": {"instance": "nonogram/duck.non"}}
"""A request that reads a shipped puzzle: a POST, as every request that starts a job is."""


@pytest.mark.parametrize("host", ["rebind.example.com", "127.0.0.1.example.com", "10.0.0.5"])
def test_a_loopback_server_refuses_other_host_names(plain: TestClient, host: str) -> None:
    for answer in (
        plain.get("/", headers={"host": host}),
        plain.post("/api/read", json=READ, headers={"host": f"{host}:8000"}),
    ):
        assert answer.status_code == 403
        assert host in answer.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"])
def test_a_loopback_server_answers_to_loopback_names(plain: TestClient, host: str) -> None:
    assert plain.get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "http://127.0.0.1:9999"},  # another port is another origin
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_a_request_from_another_site_changes_nothing(
    plain: TestClient, headers: dict[str, str]
) -> None:
    answer = plain.post("/api/read", json=READ, headers=headers)
    assert answer.status_code == 403, answer.text
    assert "may not change anything" in answer.json()["error"]


def test_a_body_a_browser_sends_unasked_is_refused(plain: TestClient) -> None:
    """``text/plain`` and form bodies need no preflight: a page elsewhere could send them."""
    body = '{"puzzle": {"instance": "nonogram/duck.non"}}'
    for kind in ("text/plain", "application/x-www-form-urlencoded"):
        answer = plain.post("/api/read", content=body, headers={"content-type": kind})
        assert answer.status_code == 415, answer.text


@pytest.mark.parametrize(
    "headers", [{}, {"origin": "http://127.0.0.1"}, {"sec-fetch-site": "same-origin"}]
)
def test_the_pages_own_requests_pass(plain: TestClient, headers: dict[str, str]) -> None:
    answer = plain.post("/api/read", json=READ, headers=headers)
    assert answer.status_code == 200, answer.text


def beyond_loopback(**options: Any) -> TestClient:
    """A client of a server bound to every address, with the token ``s3cret``."""
    settings = dataclasses.replace(SETTINGS, host="0.0.0.0", token="s3cret")
    return client_of(create_app(settings), **options)


def test_a_server_beyond_the_loopback_wants_its_token() -> None:
    client = beyond_loopback()
    for answer in (
        client.get("/"),
        client.get("/", params={"token": "wrong"}),
        client.get("/api/kinds", headers={"authorization": "token wrong"}),
        client.post("/api/read", json=READ),
    ):
        assert answer.status_code == 403
        assert "token" in answer.json()["error"]


def test_the_token_comes_in_the_link_then_in_a_cookie() -> None:
    client = beyond_loopback()
    page = client.get("/", params={"token": "s3cret"}, headers={"host": "lab.example:8000"})
    assert page.status_code == 200
    cookie = page.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=s3cret;") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert client.post("/api/read", json=READ).status_code == 200  # the cookie it was given
    fresh = beyond_loopback()
    headers = {"authorization": "token s3cret"}
    assert fresh.get("/api/kinds", headers=headers).status_code == 200
