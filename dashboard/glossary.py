"""Names for the ids a view shows: read from a game's own public content files.

Views name cards, monsters and characters by id (``"G01"``, ``"S14#2"``, ``"h_woodcutter"``) to
stay small. Every game package keeps its content as data (``referee/games/<id>/content/*.toml``
or ``.json``: one row per card/room/monster with an ``id`` — or ``type``/``kind`` — and a
``name``), so one generic reader turns those rows into ``id -> {name, facts}`` for the
renderers. It is the printed card text of the game, the same for every viewer: which card is
where is the view's business, and the glossary says nothing about it.
"""
from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from referee.engine import get_game

ID_KEYS = ("id", "type", "kind")  # the first present names the row (Clank! rows use `type`, DT's `kind`)
MAX_TEXT = 80


def content_dir(game_id: str) -> Path | None:
    """The ``content`` folder of the package that defines the game, if it has one."""
    game = get_game(game_id)
    module = sys.modules.get(type(game).__module__)
    path = Path(getattr(module, "__file__", "") or "").resolve()
    for folder in path.parents:
        if (folder / "content").is_dir():
            return folder / "content"
        if folder.name == "games" or folder == folder.parent:
            break
    return None


def _facts(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in ID_KEYS and isinstance(v, (int, float, bool, str))
            and not (isinstance(v, str) and len(v) > MAX_TEXT)}


def _walk(node: Any, out: dict[str, dict[str, Any]]) -> None:
    if isinstance(node, dict):
        key = next((node[k] for k in ID_KEYS if isinstance(node.get(k), str)), None)
        if key is not None and isinstance(node.get("name"), str):
            out.setdefault(key, _facts(node))  # first definition wins; no game has two
        for value in node.values():
            _walk(value, out)
    elif isinstance(node, list):
        for value in node:
            _walk(value, out)


def glossary(game_id: str) -> dict[str, dict[str, Any]]:
    """``id -> {"name": ..., other scalar fields}`` from every content file of the game."""
    folder = content_dir(game_id)
    out: dict[str, dict[str, Any]] = {}
    if folder is None:
        return out
    for f in sorted(folder.iterdir()):
        if f.suffix == ".toml":
            _walk(tomllib.loads(f.read_text(encoding="utf-8")), out)
        elif f.suffix == ".json":
            _walk(json.loads(f.read_text(encoding="utf-8")), out)
    return out
