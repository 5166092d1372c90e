"""Who may use the page's server: the Host check, the same-origin rule and the token.

The rules are those of Jupyter's server (``jupyter_server.base.handlers``: ``check_host``,
``check_origin``, ``check_xsrf_cookie`` and token authentication; OWASP's "Cross-Site Request
Forgery Prevention Cheat Sheet" for the Fetch Metadata headers):

- **Host.** A server bound to a loopback address answers only requests whose ``Host`` names
  the address served, ``localhost`` or a loopback address: a page elsewhere whose name is
  re-bound to 127.0.0.1 (DNS rebinding) gets HTTP 403. A server bound beyond the loopback is
  reached by names it cannot know, and relies on the token instead.
- **Same origin.** A request that may change state (any method but ``GET``, ``HEAD`` and
  ``OPTIONS``) is refused with 403 when the browser says it comes from another site
  (``Sec-Fetch-Site`` other than ``same-origin`` or ``none``) or another origin (an
  ``Origin`` whose host is not the request's ``Host``), and with 415 when its body is neither
  JSON nor a multipart upload: a cross-site form or ``text/plain`` POST, which a browser
  sends without asking first, starts nothing.
- **Token.** A server bound beyond the loopback makes a random token and prints it in the
  page's link (``?token=...``); every request must carry it, in that query parameter, in an
  ``Authorization: token ...`` header or in the cookie the page's first answer sets
  (``HttpOnly``, ``SameSite=Strict``). Without it: 403.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["COOKIE", "LOOPBACK_NAMES", "Access", "Policy", "is_loopback", "new_token"]

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
"""Host names that always mean this computer."""

COOKIE = "cspsolve_token"
"""The cookie that carries the token after the page's first answer."""

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing, and so may come from anywhere the other rules allow."""

BODIES = ("application/json", "multipart/form-data")
"""The bodies a request that changes state may have (a browser preflights JSON from another
origin; an upload is multipart)."""

SAME_SITE = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values of a request from the page itself or typed by its user."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this computer.

    Examples
    --------
    >>> [is_loopback(h) for h in ("127.0.0.1", "[::1]", "localhost", "0.0.0.0", "example.com")]
    [True, True, True, False, False]
    """
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    """A random token of 32 URL-safe characters (192 bits, :func:`secrets.token_urlsafe`)."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Policy:
    """What :class:`Access` lets through.

    Attributes
    ----------
    host : str
        The address the server is bound to.
    token : str or None
        The token every request must carry; ``None`` for none (a loopback server).
    """

    host: str = "127.0.0.1"
    token: str | None = None

    def host_refusal(self, asked: str) -> str | None:
        """Why a request with ``Host: asked`` is refused, or ``None``."""
        if not is_loopback(self.host):
            return None
        name = urlsplit(f"//{asked}").hostname or ""
        if is_loopback(name) or name == self.host.strip("[]").lower():
            return None
        return f"this server answers only to {self.host} and localhost, not {asked or 'no host'}"

    def origin_refusal(self, method: str, headers: Mapping[str, str]) -> tuple[int, str] | None:
        """Why a request from another site, or with a body a browser sends unasked, is
        refused (HTTP status, reason), or ``None``."""
        if method in SAFE:
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in SAME_SITE:
            return 403, f"a request from another site ({site}) may not change anything here"
        origin = headers.get("origin")
        if (
            origin is not None
            and urlsplit(origin).netloc.lower() != headers.get("host", "").lower()
        ):
            return 403, f"a request from {origin} may not change anything here"
        body = headers.get("content-length", "0") not in ("", "0")
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if body and kind not in BODIES:
            return 415, "send JSON (application/json) or an upload (multipart/form-data)"
        return None

    def carries_token(self, scope: Scope, headers: Mapping[str, str]) -> bool:
        """Whether the request carries the token (always, when there is none to carry)."""
        if self.token is None:
            return True
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        cookies = SimpleCookie(headers.get("cookie", ""))
        offered = [
            *query.get("token", []),
            headers.get("authorization", "").removeprefix("token ").strip(),
            cookies[COOKIE].value if COOKIE in cookies else "",
        ]
        return any(secrets.compare_digest(self.token, given) for given in offered if given)


class Access:
    """ASGI middleware that applies a :class:`Policy` to every HTTP request: refused ones get
    ``{"error": LINE}`` with 403 or 415; when the policy has a token, every answer sets the
    token's cookie, so that the page's own requests carry it."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app, self.policy = app, policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, reason = refusal
            await JSONResponse({"error": reason}, status_code=status)(scope, receive, send)
            return
        await self.app(scope, receive, self._with_cookie(send))

    def _refusal(self, scope: Scope, headers: Mapping[str, str]) -> tuple[int, str] | None:
        policy = self.policy
        wrong_host = policy.host_refusal(headers.get("host", ""))
        if wrong_host is not None:
            return 403, wrong_host
        if not policy.carries_token(scope, headers):
            return 403, "this server needs its token: open the link `cspsolve serve` printed"
        return policy.origin_refusal(scope["method"], headers)

    def _with_cookie(self, send: Send) -> Send:
        token = self.policy.token
        if token is None:
            return send
        cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict".encode()

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append((b"set-cookie", cookie))
            await send(message)

        return sending
