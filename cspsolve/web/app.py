"""The Starlette application of ``cspsolve serve``: one page and its JSON API.

Routes (``docs/web.md`` describes each):

- ``GET /``: the page; ``GET /static/...``: its script and style;
- ``GET /api/kinds``: every kind, its methods, heuristics and options (the kind's declaration);
- ``GET /api/instances``: the names of the shipped example puzzles;
- ``POST /api/read``: the puzzles of a source (JSON, or a form with an uploaded ``file``);
- ``POST /api/picture``: one puzzle of a source as given, as SVG (``{"svg": ...}``);
  ``GET /api/thumbnail?instance=NAME``: the first puzzle of a shipped example as given, an
  SVG image (for the page's gallery);
- ``POST /api/solve``, ``/api/verify``, ``/api/analyze``, ``/api/compare``, ``/api/explain``:
  start a job (answer 202 with its id);
- ``GET /api/jobs/ID[?wait=SECONDS]``: the job's state, progress and answer (asking renews
  the job's lease: one nobody asks about for :data:`~cspsolve.web.pool.LEASE` seconds is
  cancelled); ``DELETE /api/jobs/ID``: cancel it;
- ``GET /jobs/ID/player``: an explanation's step player, a page of its own;
- ``POST /api/play``: a grid after presses, by its kind's :class:`~cspsolve.kind.Player`;
  ``POST /api/hint``: start a hint job;
- ``POST /api/design``: start the check of a puzzle drawn, by the
  :class:`~cspsolve.kind.Designer` a kind declares; ``GET /api/design/file``: its puzzle as
  a file in one of the designer's formats; ``POST /api/design/image``: a drawing traced from
  an uploaded image;
- ``POST /api/generate``: start a job making one puzzle of a kind's
  :class:`~cspsolve.kind.Generator` (``{"kind", "seed", "options"}``), answered with its file's
  text, its certificate and its picture.

Bad input is answered with HTTP 400 and ``{"error": LINE}``, LINE the command line's message;
a job refused because too many wait with HTTP 503 and ``Retry-After``; a request from another
site, to another host name or without the token with 403 (:mod:`cspsolve.web.access`).
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartParser
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cspsolve import registry, tasks
from cspsolve.errors import CspsolveError, OptionError
from cspsolve.generating import generator_of
from cspsolve.kind import Kind, Player
from cspsolve.notebook import as_given
from cspsolve.tracing import traced
from cspsolve.web import design as designs
from cspsolve.web import options, sources
from cspsolve.web.access import Access, Policy
from cspsolve.web.pool import LEASE, BusyError, Pool
from cspsolve.web.work import ACTIONS, Spec

__all__ = ["Settings", "create_app"]

ENVELOPE = 64 << 10
"""Bytes a request may hold beyond its puzzle (the JSON or form around it)."""

RETRY_AFTER = 5
"""Seconds a refused request (HTTP 503, too many jobs waiting) is told to wait."""

READERS = 2
"""Threads that read puzzles (and check requests) at once; more requests wait their turn, so
that a burst of them leaves the page's light requests their share of the interpreter."""

MAX_WAIT = 10.0
"""Longest ``?wait=`` of ``GET /api/jobs/ID``, in seconds."""

PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'"
)
"""The page's Content-Security-Policy: its own script and style only, no inline code."""

PLAYER_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data: blob:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
)
"""The step player's policy: its own inline code; the page shows it in a sandboxed frame."""

PLAYER_HEAD = (
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
    "<style>body{margin:0;font-family:system-ui,sans-serif}"
    ".cspsolve-player .steps{max-height:28rem!important}"
    "@media (max-width:700px){.cspsolve-player .steps{max-height:16rem!important}}"
    "@media (pointer:coarse){.cspsolve-player button{min-height:44px;min-width:44px}}</style>"
)
"""The player page's head: its list of steps is of a fixed height (not a share of the frame's,
which grows to the page's), so that the frame can take the page's whole height."""

PLAYER_FIT = (
    "<script>new ResizeObserver(function () { parent.postMessage("
    "{cspsolvePlayerHeight: document.documentElement.scrollHeight}, '*'); })"
    ".observe(document.body);</script>"
)
"""Tells the page the player's height whenever it changes: the page sizes the frame to it,
so that the frame never scrolls (its list of steps does)."""


@dataclass(frozen=True)
class Settings:
    """What the server allows.

    Attributes
    ----------
    workers : int
        Jobs run at once (one process each).
    max_time_limit : float
        The longest time limit a request may ask, in seconds.
    default_time_limit : float
        The time limit of a request that names none (at most ``max_time_limit``).
    max_input_bytes : int
        The largest puzzle text (pasted or uploaded), in bytes of UTF-8.
    lease : float
        Seconds a job may go without a client asking about it before it is cancelled.
    host : str
        The address the server is bound to: a loopback one answers only requests to a loopback
        name (:class:`~cspsolve.web.access.Policy`).
    token : str or None
        The token every request must carry (a server bound beyond the loopback), or ``None``.
    """

    workers: int = 1
    max_time_limit: float = 60.0
    default_time_limit: float = 30.0
    max_input_bytes: int = 1 << 20
    lease: float = LEASE
    host: str = "127.0.0.1"
    token: str | None = None

    def time_limit(self, asked: Any) -> float:
        """The time limit of a request (``None``: the default).

        Raises
        ------
        OptionError
            For anything but a number in (0, ``max_time_limit``].
        """
        if asked is None or asked == "":
            return min(self.default_time_limit, self.max_time_limit)
        ok = isinstance(asked, int | float) and not isinstance(asked, bool)
        if not ok or not math.isfinite(asked) or not 0 < asked <= self.max_time_limit:
            raise OptionError(
                f"time limit must be a number of seconds in (0, {self.max_time_limit:g}]"
            )
        return float(asked)


class TooLargeError(Exception):
    """A request body over the server's cap."""


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class _Guard:
    """ASGI middleware: the body cap (413 past it) and the security headers of every answer."""

    def __init__(self, app: ASGIApp, cap: int) -> None:
        self.app, self.cap = app, cap

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.cap:
            await _error(self._refusal(), 413)(scope, receive, send)
            return
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.cap:
                raise TooLargeError(self._refusal())
            return message

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                names = {name.lower() for name, _ in headers}
                headers += [
                    (name, value)
                    for name, value in (
                        (b"x-content-type-options", b"nosniff"),
                        (b"referrer-policy", b"no-referrer"),
                        (b"content-security-policy", PAGE_POLICY.encode()),
                        (b"cache-control", b"no-store"),
                    )
                    if name not in names
                ]
            await send(message)

        await self.app(scope, capped, headed)

    def _refusal(self) -> str:
        return f"the request is larger than this server takes ({self.cap:,} bytes)"


class _InMemory(MultiPartParser):
    """The form parser, keeping an upload in memory up to the body cap."""

    def __init__(self, request: Request, cap: int) -> None:
        super().__init__(request.headers, request.stream(), max_files=1, max_fields=16)
        self.spool_max_size = cap + 1


def create_app(settings: Settings | None = None) -> Starlette:
    """The application; its lifespan starts and ends the worker processes."""
    settings = settings or Settings()
    pool = Pool(settings.workers, lease=settings.lease)
    env = Environment(
        loader=PackageLoader("cspsolve.web", "templates"),
        autoescape=select_autoescape(default=True),
    )
    cap = settings.max_input_bytes + ENVELOPE
    readers = anyio.CapacityLimiter(READERS)

    async def reading(work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a thread, at most :data:`READERS` at once."""
        return await anyio.to_thread.run_sync(work, *args, limiter=readers)

    async def page(request: Request) -> HTMLResponse:
        found = designs.designer()
        html = env.get_template("index.html").render(
            instances=list(sources.instances()),
            gallery=_gallery(),
            opening=_opening() or "",
            settings=settings,
            kinds=registry.kinds(),
            designer=None if found is None else found[1],
            design_max=designs.MAX_SIDE,
            makers=[kind for kind in registry.kinds().values() if kind.generator is not None],
        )
        return HTMLResponse(html)

    async def kinds(request: Request) -> JSONResponse:
        return JSONResponse([_kind_record(kind) for kind in registry.kinds().values()])

    async def instances(request: Request) -> JSONResponse:
        listed = [{"name": name, "kind": k} for name, (k, _) in sources.instances().items()]
        return JSONResponse(listed)

    async def read(request: Request) -> Response:
        _, source = await _request_source(request, cap, settings)
        found = await reading(sources.read, source)
        return JSONResponse({"kind": found.kind, "name": found.name, "puzzles": found.listing()})

    async def thumbnail(request: Request) -> Response:
        name = request.query_params.get("instance", "")
        if name not in sources.instances():
            return _error("no shipped instance of that name", 404)
        svg = await reading(_thumbnail, name)
        if svg is None:
            return _error("its kind draws no puzzle as given", 404)
        return Response(svg, media_type="image/svg+xml")

    async def picture(request: Request) -> Response:
        data, source = await _request_source(request, cap, settings)
        return JSONResponse({"svg": await reading(_picture, data, source)})

    def action(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def start(request: Request) -> Response:
            data, source = await _request_source(request, cap, settings)
            spec = await reading(_spec, name, data, source, settings)
            return submitted(spec)

        return start

    def submitted(spec: Spec) -> Response:
        """The job of ``spec`` queued (HTTP 202), or refused with 503 and a retry hint."""
        try:
            job = pool.submit(spec)
        except BusyError as e:
            answer = _error(f"the server is busy: {e}", 503)
            answer.headers["retry-after"] = str(RETRY_AFTER)
            return answer
        return JSONResponse(job.to_json(), status_code=202)

    async def design(request: Request) -> Response:
        data = await _json(request)
        drawn = designs.design(data.get("grid"), data.get("title"))
        time_limit = settings.time_limit(data.get("time_limit"))
        return submitted(Spec("design", drawn.kind.name, drawn.puzzle, tasks.Request(), time_limit))

    async def design_file(request: Request) -> Response:
        query = request.query_params
        drawn = designs.design(query.get("grid", ""), query.get("title"))
        name, text = drawn.file(query.get("format"))
        disposition = f'attachment; filename="{name}"'
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"content-disposition": disposition})  # fmt: skip

    async def design_image(request: Request) -> Response:
        form = await _InMemory(request, cap).parse()
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise OptionError("send the image as the form's file")
        width = designs.side(form.get("width"), "width")
        height = designs.side(form.get("height"), "height")
        name = sources.uploaded_name(upload.filename)
        data = await upload.read()
        grid = await reading(traced, data, name, width, height)
        return JSONResponse({"grid": list(grid)})

    async def generate(request: Request) -> Response:
        data = await _json(request)
        kind, asked, seed = _generating(data)
        time_limit = settings.time_limit(data.get("time_limit"))
        return submitted(Spec("generate", kind.name, None, asked, time_limit, seed=seed))

    async def play(request: Request) -> Response:
        data, source = await _request_source(request, cap, settings)
        _, player, puzzle, moves = await reading(_played, data, source)
        return JSONResponse(await reading(player.board, puzzle, moves))

    async def hint(request: Request) -> Response:
        data, source = await _request_source(request, cap, settings)
        kind, player, puzzle, moves = await reading(_played, data, source)
        now = player.after(puzzle, moves)
        time_limit = settings.time_limit(data.get("time_limit"))
        return submitted(Spec("hint", kind.name, now, tasks.Request(), time_limit))

    async def job(request: Request) -> Response:
        found = pool.get(request.path_params["id"])
        if found is None:
            return _error("no job of that id (it may have been forgotten)", 404)
        pool.asked(found)
        if request.method == "DELETE":
            pool.cancel(found)
        else:
            with anyio.move_on_after(_wait(request.query_params.get("wait"))):
                while not found.over:
                    await anyio.sleep(0.05)
            pool.asked(found)  # the lease runs from the answer (it is longer than any wait)
        return JSONResponse(found.to_json())

    async def player(request: Request) -> Response:
        found = pool.get(request.path_params["id"])
        shown = found.answer.get("player") if found and found.answer else None
        if shown is None:
            return _error("no step player for that job", 404)
        body = f"<body>{shown}{PLAYER_FIT}</body>"
        page = f"<!doctype html><html><head>{PLAYER_HEAD}</head>{body}</html>"
        return HTMLResponse(page, headers={"content-security-policy": PLAYER_POLICY})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        threading.Thread(target=_draw_opening, name="cspsolve-opening", daemon=True).start()
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(pool.close)

    routes = [
        Route("/", page),
        Route("/api/kinds", kinds),
        Route("/api/instances", instances),
        Route("/api/read", read, methods=["POST"]),
        Route("/api/picture", picture, methods=["POST"]),
        Route("/api/thumbnail", thumbnail),
        *(Route(f"/api/{name}", action(name), methods=["POST"]) for name in ACTIONS),
        Route("/api/design", design, methods=["POST"]),
        Route("/api/design/file", design_file),
        Route("/api/design/image", design_image, methods=["POST"]),
        Route("/api/generate", generate, methods=["POST"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/hint", hint, methods=["POST"]),
        Route("/api/jobs/{id}", job, methods=["GET", "DELETE"]),
        Route("/jobs/{id}/player", player),
        Mount("/static", StaticFiles(packages=[("cspsolve.web", "static")]), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            CspsolveError: lambda request, e: _error(str(e)),
            TooLargeError: lambda request, e: _error(str(e), 413),
            Exception: lambda request, e: _error(f"internal error: {type(e).__name__}: {e}", 500),
        },
    )
    app.state.pool = pool
    app.add_middleware(Access, policy=Policy(settings.host, settings.token))
    app.add_middleware(_Guard, cap=cap)
    return app


def _wait(asked: str | None) -> float:
    """Seconds ``GET /api/jobs/ID?wait=`` may wait for the job to end (0 to :data:`MAX_WAIT`)."""
    try:
        seconds = float(asked or 0)
    except ValueError:
        return 0.0
    return min(max(seconds, 0.0), MAX_WAIT) if math.isfinite(seconds) else 0.0


def _kind_record(kind: Any) -> dict[str, Any]:
    """What the page needs of a kind's declaration."""
    return {
        "name": kind.name,
        "title": kind.title,
        "extensions": sorted(kind.extensions),
        "methods": [
            {
                "name": m.name,
                "summary": m.summary,
                "heuristics": list(m.heuristics),
                "optimal": m.optimal,
                "complete": m.complete,
                "backend": m.backend,
            }
            for m in kind.methods
        ],
        "heuristics": list(kind.heuristic_names),
        "options": options.describe(kind.options),
        "reference": kind.reference,
        "analysis": kind.analysis,
        "explains": kind.explain is not None,
        "tools": {name: {"title": t.title, "note": t.note} for name, t in kind.tools.items()},
        "generate": None
        if kind.generator is None
        else {"options": options.describe(kind.generator.options), "note": kind.generator.note},
    }


async def _request_source(
    request: Request, cap: int, settings: Settings
) -> tuple[Mapping[str, Any], sources.Source]:
    """The request's fields and its puzzle source: a JSON body whose ``puzzle`` object names
    the source, or a form (``file`` uploaded, or ``text``/``instance``; ``kind``, ``format``).

    Raises
    ------
    CspsolveError
        When the body is not such, or the puzzle text is over the size cap.
    """
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await _InMemory(request, cap).parse()
        fields: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
        upload = form.get("file")
        if isinstance(upload, UploadFile):
            name = upload.filename or sources.PASTED
            fields |= {"text": sources.uploaded(await upload.read(), name), "name": name}
        with contextlib.suppress(KeyError, ValueError):
            fields["time_limit"] = float(fields["time_limit"])
        data: Mapping[str, Any] = {**fields, "puzzle": fields}
    else:
        data = await _json(request)
        if not isinstance(data.get("puzzle"), Mapping):
            raise OptionError("the request needs a puzzle object (text or instance)")
    source = sources.source_of(data["puzzle"])
    if source.text is not None and len(source.text.encode()) > settings.max_input_bytes:
        raise TooLargeError(
            f"the puzzle is {len(source.text.encode()):,} bytes; "
            f"this server takes at most {settings.max_input_bytes:,}"
        )
    return data, source


async def _json(request: Request) -> Mapping[str, Any]:
    """The request's JSON object.

    Raises
    ------
    OptionError
        When the body is not a JSON object.
    """
    try:
        data = await request.json()
    except ValueError:
        raise OptionError("the request is not JSON") from None
    if not isinstance(data, Mapping):
        raise OptionError("the request must be a JSON object")
    return data


def _played(data: Mapping[str, Any], source: sources.Source) -> tuple[Kind, Player, Any, Any]:
    """The kind of the puzzle a request plays, its player, the puzzle and the moves listed.

    Raises
    ------
    OptionError
        When the puzzle's kind declares no player, or the moves do not fit the puzzle.
    """
    found = sources.read(source)
    kind = registry.get(found.kind)
    player = kind.tools.get("play")
    if not isinstance(player, Player):
        titles = [k.title for k in registry.kinds().values() if "play" in k.tools]
        named = " or ".join(filter(None, [", ".join(titles[:-1]), titles[-1]])) if titles else ""
        raise OptionError(
            f"only {named} puzzles can be played here" if named else "no puzzle can be played here"
        )
    puzzle = found.pick(_entry(data))
    return kind, player, puzzle, player.moves(puzzle, data.get("presses"))


def _generating(data: Mapping[str, Any]) -> tuple[Kind, tasks.Request, int]:
    """The kind a request asks puzzles of, its generator's options (as the request's
    options) and the seed.

    Raises
    ------
    OptionError
        When the kind is unknown or makes no puzzles, an option is not the generator's or of
        the wrong type, or the seed is not a whole number.
    """
    kind = registry.get(sources.text_field(data, "kind") or "")
    generator = generator_of(kind)
    asked = options.values(generator.options, data.get("options"), kind.name)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError("the seed must be a whole number")
    return kind, tasks.Request(None, None, asked), seed


def _gallery() -> dict[str, list[str]]:
    """The shipped examples by the title of their kind, in the registry's order."""
    kinds = registry.kinds()
    gallery: dict[str, list[str]] = {kind.title: [] for kind in kinds.values()}
    for name, (owner, _) in sources.instances().items():
        gallery[kinds[owner].title].append(name)
    return gallery


def _opening() -> str | None:
    """The example the page opens with: the first of the kinds' :attr:`~cspsolve.kind.Kind.
    samples` that is a whole shipped file (``None`` when there is none)."""
    shipped = sources.instances()
    samples = (name for kind in registry.kinds().values() for name in kind.samples)
    return next((name for name in samples if name in shipped), None)


def _draw_opening() -> None:
    """Draw the opening example's thumbnail when the server starts, so that matplotlib is
    imported before the first page asks for a picture (the other thumbnails are drawn when
    first asked for, so as not to hold the interpreter at start); a failure is left to the
    request that meets it."""
    opening = _opening()
    if opening is not None:
        with contextlib.suppress(Exception):
            _thumbnail(opening)


@functools.cache
def _thumbnail(name: str) -> str | None:
    """The SVG of the first puzzle of the shipped instance ``name`` as given (drawn once)."""
    return _picture({}, sources.Source(None, name, instance=True))


def _picture(data: Mapping[str, Any], source: sources.Source) -> str | None:
    """The SVG of the request's puzzle as given (:func:`cspsolve.notebook.as_given`)."""
    found = sources.read(source)
    return as_given(registry.get(found.kind), found.pick(_entry(data)))


def _entry(data: Mapping[str, Any]) -> int:
    index = data.get("entry", 0)
    if isinstance(index, str) and index.isdigit():
        index = int(index)
    if not isinstance(index, int) or isinstance(index, bool):
        raise OptionError("entry must be the index of a puzzle of the source")
    return index


def _names(data: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OptionError(f"{key} must be a list of names")
    return tuple(value)


def _spec(action: str, data: Mapping[str, Any], source: sources.Source, settings: Settings) -> Spec:
    """The job a request asks for, checked as the command line checks it before a run.

    Raises
    ------
    CspsolveError
        For input that does not read, or a method, heuristic or option that does not fit.
    """
    found = sources.read(source)
    kind = registry.get(found.kind)
    request = tasks.Request(
        sources.text_field(data, "method"),
        sources.text_field(data, "heuristic"),
        options.values(kind.options, data.get("options"), kind.name),
    )
    tasks.check_names(kind, request)
    given = found.pick(_entry(data))
    puzzle = tasks.prepare(kind, given, request=request)
    if action in ("solve", "verify"):
        tasks.choose(kind, puzzle, request=request)
    if action == "explain" and kind.explain is None:
        raise OptionError(f"{kind.name} puzzles cannot be explained yet")
    methods, heuristics = _names(data, "methods"), _names(data, "heuristics")
    runs = 1
    if action == "compare":
        runs = len(tasks.comparisons(kind, puzzle, methods=methods, heuristics=heuristics))
        if not runs:
            raise OptionError("no method/heuristic pair matches the methods and heuristics asked")
    time_limit = settings.time_limit(data.get("time_limit"))
    return Spec(
        action, kind.name, found.pick(_entry(data)), request, time_limit, methods, heuristics, runs
    )
