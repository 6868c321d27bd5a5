"""Organizer actions: anything that changes state needs the organizer token."""
from __future__ import annotations

from fastapi import APIRouter

from ..deps import DashboardDep, OrganizerDep

api = APIRouter(prefix="/api/admin", tags=["organizer"])


@api.post("/refresh", summary="Drop cached ladders and frames (organizer token required)")
def refresh(dash: DashboardDep, _: OrganizerDep) -> dict[str, bool]:
    dash.cache.invalidate()
    dash.frame_cache = type(dash.frame_cache)(dash.frame_cache.size)
    return {"ok": True}
