"""``Annotated`` dependencies shared by the routers."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Query, Request
from fastapi.templating import Jinja2Templates

from .service import Dashboard


def get_dashboard(request: Request) -> Dashboard:
    return request.app.state.dashboard


def get_templates(request: Request) -> Jinja2Templates:
    return request.app.state.templates


DashboardDep = Annotated[Dashboard, Depends(get_dashboard)]
TemplatesDep = Annotated[Jinja2Templates, Depends(get_templates)]


@dataclass(frozen=True)
class Paging:
    page: int
    per_page: int


def paging(page: Annotated[int, Query(ge=1, le=100_000)] = 1,
           per_page: Annotated[int, Query(ge=1, le=200)] = 25) -> Paging:
    return Paging(page, per_page)


PagingDep = Annotated[Paging, Depends(paging)]


def require_organizer(dash: DashboardDep, authorization: Annotated[str | None, Header()] = None) -> None:
    """Anything that changes state needs ``Authorization: Bearer <ARENA_ORGANIZER_TOKEN>``."""
    if not dash.organizer_token:
        raise HTTPException(403, "organizer actions are disabled (no organizer token configured)")
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not dash.check_token(token.strip()):
        raise HTTPException(401, "organizer token required (Authorization: Bearer ...)",
                            headers={"WWW-Authenticate": "Bearer"})


OrganizerDep = Annotated[None, Depends(require_organizer)]
