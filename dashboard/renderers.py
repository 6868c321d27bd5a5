"""Where a game's dashboard renderer comes from, and the route that serves it.

A game may ship its own renderer (``Game.renderer_file()``, a JS file in its package); the five games
of this repository keep theirs in ``static/renderers/<id>.js``. Either way the page loads it from
``/renderers/<id>.js``, a path the dashboard builds from the registry, never from the request.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from referee.engine import get_game
from referee.engine.errors import UnknownGame

BUILTIN_RENDERERS = Path(__file__).parent / "static" / "renderers"

pages = APIRouter(include_in_schema=False)


@lru_cache(maxsize=256)
def renderer_file(game_id: str) -> Path | None:
    """The game's declared renderer if the file exists, else the built-in one, else None (generic tree)."""
    try:
        declared = get_game(game_id).renderer_file()
    except (UnknownGame, ImportError, TypeError):
        declared = None
    if declared is not None and declared.is_file():
        return declared
    builtin = BUILTIN_RENDERERS / f"{game_id}.js"
    return builtin if game_id.isidentifier() and builtin.is_file() else None


@pages.get("/renderers/{game_id}.js")
def renderer(game_id: str) -> FileResponse:
    path = renderer_file(game_id)
    if path is None:
        raise HTTPException(404, f"no renderer for game {game_id!r}")
    return FileResponse(path, media_type="text/javascript", headers={"Cache-Control": "public, max-age=300"})
