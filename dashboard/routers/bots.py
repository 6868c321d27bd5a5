"""Bots: the list and a bot's page (ratings per game, recent matches)."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from ..deps import DashboardDep, PagingDep, TemplatesDep
from ..schemas import BotDetail, BotRef, Page

api = APIRouter(prefix="/api/bots", tags=["bots"])
pages = APIRouter(include_in_schema=False)


@api.get("", response_model=Page[BotRef])
def list_bots(dash: DashboardDep, paging: PagingDep) -> Page[BotRef]:
    return dash.source.bots(paging.page, paging.per_page)


@api.get("/{bot_id:path}", response_model=BotDetail)
def get_bot(bot_id: str, dash: DashboardDep) -> BotDetail:
    bot = dash.bot(bot_id)
    if bot is None:
        raise HTTPException(404, f"no bot {bot_id!r}")
    return bot


@pages.get("/bots", response_class=HTMLResponse)
def bots_page(request: Request, dash: DashboardDep, templates: TemplatesDep,
              paging: PagingDep) -> HTMLResponse:
    return templates.TemplateResponse(request, "bots.html",
                                      {"bots": dash.source.bots(paging.page, paging.per_page)})


@pages.get("/bots/{bot_id:path}", response_class=HTMLResponse)
def bot_page(bot_id: str, request: Request, dash: DashboardDep, templates: TemplatesDep,
             paging: PagingDep) -> HTMLResponse:
    bot = dash.bot(bot_id)
    if bot is None:
        raise HTTPException(404, "There is no bot with that name.")
    matches = dash.source.matches(bot_id=bot_id, page=paging.page, per_page=paging.per_page)
    return templates.TemplateResponse(request, "bot.html", {"bot": bot, "matches": matches})
