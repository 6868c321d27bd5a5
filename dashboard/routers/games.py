"""Home page, games and their ladders."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from ..deps import DashboardDep, TemplatesDep
from ..fastpath import Payload
from ..schemas import GameOut, LadderOut
from ..service import Dashboard

api = APIRouter(prefix="/api/games", tags=["games"])
SeatsQ = Annotated[int | None, Query(ge=1, le=64,
                                     description="one seat count's ladder (default: every seat count)")]
pages = APIRouter(include_in_schema=False)


@api.get("", response_model=list[GameOut], summary="Every registered game with match and bot counts")
def list_games(dash: DashboardDep) -> list[GameOut]:
    return dash.games()


@api.get("/{game_id}/ladder", response_model=LadderOut, summary="A game's ladder (cached per store version)")
async def ladder(game_id: str, request: Request, dash: DashboardDep, seats: SeatsQ = None) -> Response:
    # Cached ladders never get here (dashboard/fastpath.py answers them); this renders a miss.
    payload = await run_in_threadpool(dash.ladder_json, game_id, seats)
    if payload is None:
        raise HTTPException(404, f"no game {game_id!r}")
    return payload_response(payload, request)


@api.get("/{game_id}/glossary", summary="Names of the ids a game's views use (from its public content files)",
         response_model=dict[str, dict[str, Any]])
async def glossary(game_id: str, request: Request, dash: DashboardDep) -> Response:
    payload = await run_in_threadpool(dash.glossary, game_id)
    if payload is None:
        raise HTTPException(404, f"no game {game_id!r}")
    return payload_response(payload, request)


def payload_response(payload: Payload, request: Request) -> Response:
    status, headers, body = payload.answer(request.headers.get("if-none-match"),
                                           request.headers.get("accept-encoding"))
    out = Response(body, status_code=status)
    out.raw_headers = list(headers)  # content-length, type, ETag, encoding: prepared with the payload
    return out


@pages.get("/", response_class=HTMLResponse)
def home(request: Request, dash: DashboardDep, templates: TemplatesDep) -> HTMLResponse:
    src = dash.source
    return templates.TemplateResponse(request, "home.html", {
        "games": dash.games(),
        "live": src.tournaments(status="running", page=1, per_page=5).items,
        "recent_tournaments": src.tournaments(page=1, per_page=6).items,
        "running": src.matches(status="running", page=1, per_page=6).items,
        "recent": src.matches(status="done", page=1, per_page=10).items,
        "submissions": src.submissions(8),
    })


@pages.get("/games/{game_id}", response_class=HTMLResponse)
async def ladder_page(game_id: str, request: Request, dash: DashboardDep, templates: TemplatesDep,
                      seats: SeatsQ = None) -> Response:
    # Like the JSON: a cached page is answered by dashboard/fastpath.py; this renders a miss.
    payload = await run_in_threadpool(_ladder_page, game_id, request, dash, templates, seats)
    return payload_response(payload, request)


def _ladder_page(game_id: str, request: Request, dash: Dashboard, templates: Jinja2Templates,
                 seats: int | None = None) -> Payload:
    lad = dash.ladder(game_id, seats)
    if lad is None:
        raise HTTPException(404, f"There is no game called “{game_id}”.")
    game = dash.game(game_id)

    def render() -> Payload:
        return Payload.build(templates.get_template("ladder.html").render({
            "request": request, "game": game, "ladder": lad,
            "recent": dash.source.matches(game=game_id, status="done", page=1, per_page=10).items,
        }).encode(), "text/html; charset=utf-8")
    return dash.cache.get(("ladder-html", game_id) if seats is None else ("ladder-html", game_id, seats),
                          render)
