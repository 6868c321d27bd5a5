"""The application factory: ``create_app(...)`` wires a data source, the routers and the templates."""
from __future__ import annotations

import os
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import renderers, templating
from .fastpath import CSP, SECURITY_HEADERS, FastPath
from .live import LiveFeed, LiveHub, RefereeFeed
from .routers import admin, bots, developers, games, matches, tournaments
from .service import Dashboard
from .source import MemorySource, Source

HERE = Path(__file__).parent


def create_app(source: Source | None = None, *, db_url: str | None = None, referee: str | None = None,
               organizer_token: str | None = None, live: LiveFeed | None = None,
               replays_dir: str | Path | None = None) -> FastAPI:
    """Build the dashboard.

    Data comes from ``source`` if given, else the store at ``db_url`` (default: ``ARENA_DB_URL`` /
    the embedded SQLite), else replay files under ``replays_dir``. Live spectating relays the
    referee at ``referee`` (``ARENA_REFEREE``) unless a ``live`` feed is given. Organizer actions
    need ``organizer_token`` (``ARENA_ORGANIZER_TOKEN``); without one they are disabled.
    """
    if source is None:
        if replays_dir is not None:
            source = MemorySource.from_replays(Path(replays_dir).glob("*.json*"))
        else:
            from .queries import StoreSource

            source = StoreSource.from_url(db_url)
    if live is None:
        address = referee or os.environ.get("ARENA_REFEREE", "").split(",")[0].strip()
        token = (organizer_token if organizer_token is not None
                 else os.environ.get("ARENA_ORGANIZER_TOKEN", ""))
        live = RefereeFeed(address, token or "") if address else None
    if organizer_token is None:
        organizer_token = os.environ.get("ARENA_ORGANIZER_TOKEN", "")

    app = FastAPI(title="Arena dashboard", version="1.0",
                  description="Ladders, tournaments, matches, replays and live spectating. Read-only for the "
                              "public; organizer actions need `Authorization: Bearer "
                              "<ARENA_ORGANIZER_TOKEN>`.",
                  docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.dashboard = Dashboard(source, organizer_token=organizer_token or "", live=live)
    app.state.live_hub = LiveHub(live) if live is not None else None  # one upstream stream per live match
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templating.install(templates.env)
    app.state.templates = templates
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for module in (games, bots, developers, tournaments, matches):
        app.include_router(module.api)
        app.include_router(module.pages)
    app.include_router(admin.api)
    app.include_router(renderers.pages)

    app.add_middleware(SecurityHeaders)
    # Outermost: cached ladder page/JSON answered before routing (see dashboard/fastpath.py).
    app.add_middleware(FastPath, cache=app.state.dashboard.cache)

    def wants_html(request: Request) -> bool:
        accept = request.headers.get("accept", "")
        return not request.url.path.startswith("/api/") and not accept.startswith("application/json")

    def error_page(request: Request, status: int, detail: str,
                   headers: dict[str, str] | None = None) -> Response:
        if wants_html(request):
            titles = {400: "Bad request", 401: "Sign-in needed", 403: "Not allowed", 404: "Not found",
                      409: "Not yet", 503: "Unavailable"}
            return templates.TemplateResponse(request, "error.html", {
                "status": status, "title": titles.get(status, "Error"), "detail": detail}, status_code=status,
                headers=headers)
        return JSONResponse({"detail": detail}, status_code=status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and detail == "Not Found":
            detail = "There is nothing at this address."
        return error_page(request, exc.status_code, detail, getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        if wants_html(request):
            bad = ", ".join(str(e.get("loc", ["?"])[-1]) for e in exc.errors())
            return error_page(request, 400, f"Some parameters are not valid: {bad}.")
        return JSONResponse({"detail": jsonable(exc.errors())}, status_code=422)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        import logging

        logging.getLogger("dashboard").exception("unhandled error on %s", request.url.path)
        return error_page(request, 500, "Something went wrong on our side; the error was logged.")

    return app


class SecurityHeaders:
    """Pure ASGI middleware (cheaper than BaseHTTPMiddleware): CSP, nosniff, referrer policy."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope.get("path", "").startswith("/api/docs")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [h for h in SECURITY_HEADERS if not (docs and h[0] == b"content-security-policy")]
                headers += [(k, v) for k, v in extra if k not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def jsonable(errors: object) -> object:
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder(errors)


__all__ = ["CSP", "HTMLResponse", "create_app"]
