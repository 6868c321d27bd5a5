"""The game registry: built-in games by import path, plus the ``arena.games`` entry point.

Adding a game touches one line in ``referee/games/__init__.py`` (or an entry point in an
outside package's metadata). Games load lazily, so ``arena games`` stays fast.
"""
from __future__ import annotations

import importlib
import logging
import os
from importlib.metadata import entry_points

from .errors import UnknownGame
from .game import Game

log = logging.getLogger(__name__)

_loaded: dict[str, Game] = {}
_extra: dict[str, Game] = {}


def _builtin_paths() -> dict[str, str]:
    from referee.games import BUILTIN

    return dict(BUILTIN)


def _entry_point_paths() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group="arena.games")}


def _env_paths() -> dict[str, str]:
    """``ARENA_EXTRA_GAMES=id=module:ATTR,...``: extra games for tests and subprocesses (referee, workers)."""
    out: dict[str, str] = {}
    for item in os.environ.get("ARENA_EXTRA_GAMES", "").split(","):
        gid, sep, path = item.strip().partition("=")
        if sep and gid and path:
            out[gid] = path
    return out


def _load(path: str) -> Game:
    module, _, attr = path.partition(":")
    obj = getattr(importlib.import_module(module), attr or "GAME")
    game = obj() if isinstance(obj, type) else obj
    if not isinstance(game, Game):
        raise TypeError(f"{path} is not a Game")
    return game


def load_game(spec: str) -> Game:
    """A game named by a registered id or by ``module[:ATTR]`` (``ATTR`` defaults to ``GAME``; a ``Game``
    subclass is instantiated). For tools that take a game from outside the registry (``arena check-game``,
    the conformance plugin); ``UnknownGame`` with one clear line when it cannot be loaded."""
    spec = spec.strip()
    if spec in game_ids():
        return get_game(spec)
    module, _, attr = spec.partition(":")
    if not module or not all(part.isidentifier() for part in module.split(".")) or \
            (attr and not attr.isidentifier()):
        raise UnknownGame(f"{spec!r} is neither a registered game nor MODULE[:ATTR]; "
                          f"known: {', '.join(game_ids())}")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise UnknownGame(f"cannot import {module!r} ({exc.msg})") from None
    obj = getattr(mod, attr or "GAME", None)
    if obj is None:
        raise UnknownGame(f"module {module!r} has no attribute {attr or 'GAME'!r}")
    game = obj() if isinstance(obj, type) and issubclass(obj, Game) else obj
    if not isinstance(game, Game):
        raise UnknownGame(f"{spec} is a {type(game).__name__}, not a referee.engine.Game")
    return game


def register(game: Game) -> None:
    """Register a game object directly (tests, plugins loaded by hand)."""
    _extra[game.info.id] = game


def unregister(game_id: str) -> None:
    _extra.pop(game_id, None)


def game_ids() -> list[str]:
    """Every known game id, built-ins first then plugins, each once."""
    ids = list(_builtin_paths())
    for gid in list(_entry_point_paths()) + list(_env_paths()) + list(_extra):
        if gid not in ids:
            ids.append(gid)
    return ids


def get_game(game_id: str) -> Game:
    """The game with this id; ``UnknownGame`` names the known ones otherwise."""
    if game_id in _extra:
        return _extra[game_id]
    if game_id in _loaded:
        return _loaded[game_id]
    paths = {**_env_paths(), **_entry_point_paths(), **_builtin_paths()}
    if game_id not in paths:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(game_ids())}")
    game = _load(paths[game_id])
    if game.info.id != game_id:
        raise TypeError(f"registry id {game_id!r} loads game {game.info.id!r}")
    _loaded[game_id] = game
    return game


def all_games() -> list[Game]:
    """Every registered game, loaded."""
    return [get_game(gid) for gid in game_ids()]
