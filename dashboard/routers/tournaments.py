"""Tournaments: list, progress, standings and crosstable."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ..deps import DashboardDep, PagingDep, TemplatesDep
from ..schemas import DealsOut, Page, TournamentDetail, TournamentSummary

api = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
pages = APIRouter(include_in_schema=False)
StatusQ = Annotated[str | None, Query(pattern="^(created|running|done|cancelled)$")]


@api.get("", response_model=Page[TournamentSummary])
def list_tournaments(dash: DashboardDep, paging: PagingDep,
                     status: StatusQ = None) -> Page[TournamentSummary]:
    return dash.source.tournaments(status=status, page=paging.page, per_page=paging.per_page)


@api.get("/{tid}", response_model=TournamentDetail)
def get_tournament(tid: str, dash: DashboardDep) -> TournamentDetail:
    t = dash.tournament(tid)
    if t is None:
        raise HTTPException(404, f"no tournament {tid!r}")
    return t


@api.get("/{tid}/deals", response_model=DealsOut,
         summary="The deal key and every match's deal and seed, checked (refused until the tournament is "
                 "over)")
def get_deals(tid: str, dash: DashboardDep) -> DealsOut:
    if dash.source.tournament(tid) is None:
        raise HTTPException(404, f"no tournament {tid!r}")
    out = dash.source.deals(tid)
    if out is None:
        raise HTTPException(409,
                            f"tournament {tid} is not over: its deal key is published when every match is "
                                 "finished")
    return out


@pages.get("/tournaments", response_class=HTMLResponse)
def tournaments_page(request: Request, dash: DashboardDep, templates: TemplatesDep, paging: PagingDep,
                     status: StatusQ = None) -> HTMLResponse:
    items = dash.source.tournaments(status=status, page=paging.page, per_page=paging.per_page)
    return templates.TemplateResponse(request, "tournaments.html", {"tournaments": items, "status": status})


@pages.get("/tournaments/{tid}", response_class=HTMLResponse)
def tournament_page(tid: str, request: Request, dash: DashboardDep, templates: TemplatesDep,
                    paging: PagingDep) -> HTMLResponse:
    t = dash.tournament(tid)
    if t is None:
        raise HTTPException(404, "There is no tournament with that id.")
    matches = dash.source.matches(tournament_id=tid, page=paging.page, per_page=paging.per_page)
    return templates.TemplateResponse(request, "tournament.html", {"t": t, "matches": matches,
                                                                   "game": dash.game(t.game)})
