"""Home page, games and their ladders."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from fastapi.templating import Jinja2Templates

from ..deps import DashboardDep, TemplatesDep
from ..service import Dashboard
from ..schemas import GameOut, LadderOut

api = APIRouter(prefix="/api/games", tags=["games"])
pages = APIRouter(include_in_schema=False)


@api.get("", response_model=list[GameOut], summary="Every registered game with match and bot counts")
def list_games(dash: DashboardDep) -> list[GameOut]:
    return dash.games()


@api.get("/{game_id}/ladder", response_model=LadderOut, summary="A game's ladder (cached per store version)")
async def ladder(game_id: str, dash: DashboardDep) -> Response:
    # The hot path: cached bytes served from the event loop; a miss computes in the threadpool.
    body = dash.cache.peek(("ladder-json", game_id))
    if body is None:
        body = await run_in_threadpool(dash.ladder_json, game_id)
    if body is None:
        raise HTTPException(404, f"no game {game_id!r}")
    return Response(body, media_type="application/json")


@pages.get("/", response_class=HTMLResponse)
def home(request: Request, dash: DashboardDep, templates: TemplatesDep) -> HTMLResponse:
    src = dash.source
    return templates.TemplateResponse(request, "home.html", {
        "games": dash.games(),
        "live": src.tournaments(status="running", page=1, per_page=5).items,
        "recent_tournaments": src.tournaments(page=1, per_page=6).items,
        "running": src.matches(status="running", page=1, per_page=6).items,
        "recent": src.matches(status="done", page=1, per_page=10).items,
    })


@pages.get("/games/{game_id}", response_class=HTMLResponse)
async def ladder_page(game_id: str, request: Request, dash: DashboardDep, templates: TemplatesDep) -> HTMLResponse:
    cached = dash.cache.peek(("ladder-html", game_id))
    if cached is not None:
        return HTMLResponse(cached)
    return await run_in_threadpool(_ladder_page, game_id, request, dash, templates)


def _ladder_page(game_id: str, request: Request, dash: Dashboard, templates: Jinja2Templates) -> HTMLResponse:
    lad = dash.ladder(game_id)
    if lad is None:
        raise HTTPException(404, f"There is no game called “{game_id}”.")
    game = dash.game(game_id)

    def render() -> bytes:
        return templates.get_template("ladder.html").render({
            "request": request, "game": game, "ladder": lad,
            "recent": dash.source.matches(game=game_id, status="done", page=1, per_page=10).items,
        }).encode()
    return HTMLResponse(dash.cache.get(("ladder-html", game_id), render))
