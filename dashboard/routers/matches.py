"""Matches: lists, the match page (replay viewer or live view), frames, replay download, live stream."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from ..deps import DashboardDep, PagingDep, TemplatesDep
from ..live import LiveHub, TooMany
from ..schemas import FramesOut, MatchDetail, MatchSummary, Page
from ..service import Refused, has_renderer

api = APIRouter(prefix="/api/matches", tags=["matches"])
pages = APIRouter(include_in_schema=False)
StatusQ = Annotated[str | None, Query(pattern="^(queued|running|done|failed|cancelled)$")]
Perspective = Annotated[str, Query(max_length=8, description="'public', 'all' (once over) or a seat number")]


def _match(dash: DashboardDep, match_id: str) -> MatchDetail:
    m = dash.match(match_id)
    if m is None:
        raise HTTPException(404, f"no match {match_id!r}")
    return m


@api.get("", response_model=Page[MatchSummary], summary="Matches, newest first")
def list_matches(dash: DashboardDep, paging: PagingDep, game: str | None = None, bot: str | None = None,
                 tournament: str | None = None, status: StatusQ = None) -> Page[MatchSummary]:
    return dash.source.matches(game=game, bot_id=bot, tournament_id=tournament, status=status,
                               page=paging.page, per_page=paging.per_page)


@api.get("/{match_id}", response_model=MatchDetail)
def get_match(match_id: str, dash: DashboardDep) -> MatchDetail:
    return _match(dash, match_id)


@api.get("/{match_id}/frames", response_model=FramesOut,
         summary="Replay frames for one perspective (a finished match only)")
def frames(match_id: str, dash: DashboardDep, perspective: Perspective = "public",
           start: Annotated[int, Query(ge=0)] = 0,
           limit: Annotated[int, Query(ge=1, le=500)] = 100) -> FramesOut:
    try:
        return dash.frames(match_id, perspective, start, limit)
    except LookupError:
        raise HTTPException(404, f"no replay for match {match_id!r}") from None
    except Refused as exc:
        raise HTTPException(exc.status, str(exc)) from None


@api.get("/{match_id}/replay", summary="Download the replay (refused until the match is over)")
def download_replay(match_id: str, dash: DashboardDep) -> Response:
    try:
        rep = dash.replay(match_id)
    except LookupError:
        raise HTTPException(404, f"no replay for match {match_id!r}") from None
    except Refused as exc:
        raise HTTPException(exc.status, str(exc)) from None
    return Response(rep.dumps(), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="match-{match_id}.json"'})


@api.get("/{match_id}/live", summary="Server-sent events: the public view of a running match",
         response_class=StreamingResponse)
async def live(match_id: str, request: Request, dash: DashboardDep,
               delay: Annotated[float, Query(ge=0, le=600)] = 0.0) -> StreamingResponse:
    # the store lookups run on the thread pool for a moment; the stream itself holds no thread
    m = await run_in_threadpool(dash.match, match_id)
    if m is None:
        raise HTTPException(404, f"no match {match_id!r}")
    if m.status not in ("running", "queued"):
        raise HTTPException(409, f"match {match_id} is {m.status}; open its replay instead")
    hub: LiveHub | None = getattr(request.app.state, "live_hub", None)
    if hub is None:
        raise HTTPException(503, "live spectating needs a referee (arena dashboard --referee HOST:PORT)")
    to_referee = getattr(dash.source, "referee_match_id", None)
    ref_id = await run_in_threadpool(to_referee, match_id) if to_referee else match_id
    client = request.client.host if request.client else "unknown"
    try:
        hub.check(ref_id, client)
    except TooMany as exc:
        raise HTTPException(429, str(exc)) from None
    return StreamingResponse(hub.watch(ref_id, client, delay, label=match_id), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@pages.get("/matches", response_class=HTMLResponse)
def matches_page(request: Request, dash: DashboardDep, templates: TemplatesDep, paging: PagingDep,
                 game: str | None = None, status: StatusQ = None) -> HTMLResponse:
    items = dash.source.matches(game=game, status=status, page=paging.page, per_page=paging.per_page)
    return templates.TemplateResponse(request, "matches.html",
                                      {"matches": items, "game": game, "status": status,
                                                                "games": dash.games()})


@pages.get("/matches/{match_id}", response_class=HTMLResponse)
def match_page(match_id: str, request: Request, dash: DashboardDep, templates: TemplatesDep) -> HTMLResponse:
    m = dash.match(match_id)
    if m is None:
        raise HTTPException(404, "There is no match with that id.")
    game = dash.game(m.game)
    mode = ("replay" if m.status == "done" and m.has_replay
            else "live" if m.status in ("running", "queued") else "none")
    config = {
        "matchId": m.id, "game": m.game, "mode": mode, "players": len(m.seats),
        "seats": [s.name for s in m.seats], "perspectives": dash.perspectives(m),
        "renderer": m.game if has_renderer(m.game) else None, "liveAvailable": dash.live is not None,
    }
    return templates.TemplateResponse(request, "match.html", {"m": m, "game": game, "config": config,
                                                              "mode": mode})
