"""Bot developers and their submitted versions (issue 20): a developer's page and the submissions feed."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ..deps import DashboardDep, TemplatesDep
from ..schemas import DeveloperOut, VersionOut

api = APIRouter(prefix="/api", tags=["developers"])
pages = APIRouter(include_in_schema=False)


@api.get("/developers/{dev_name}", response_model=DeveloperOut,
         summary="A developer and every version it submitted")
def get_developer(dev_name: str, dash: DashboardDep) -> DeveloperOut:
    d = dash.source.developer(dev_name)
    if d is None:
        raise HTTPException(404, f"no developer {dev_name!r}")
    return d


@api.get("/submissions", response_model=list[VersionOut], summary="The most recently submitted versions")
def list_submissions(dash: DashboardDep, limit: Annotated[int, Query(ge=1, le=100)] = 20) -> list[VersionOut]:
    return dash.source.submissions(limit)


@pages.get("/developers/{dev_name}", response_class=HTMLResponse)
def developer_page(dev_name: str, request: Request, dash: DashboardDep,
                   templates: TemplatesDep) -> HTMLResponse:
    d = dash.source.developer(dev_name)
    if d is None:
        raise HTTPException(404, "There is no developer with that name.")
    return templates.TemplateResponse(request, "developer.html", {"dev": d})
