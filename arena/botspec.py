"""Bot names on the command line: built-ins (``random``, ``heuristic``) or ``module:Class`` / ``file.py:Class``."""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from bots.builtin import UnknownBot, make_bot
from bots.sdk.bot import Bot


def parse_bot_list(text: str, players: int) -> list[str]:
    """'random' -> N copies; 'a,b' must name one bot per seat (or exactly one)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise UnknownBot(f"--bots names {len(names)} bots for {players} seats")
    return names


def load_bot(name: str, game_id: str, seed: int) -> Bot:
    """A fresh bot for one match."""
    if ":" not in name:
        return make_bot(name, game_id, seed)
    target, _, cls_name = name.rpartition(":")
    if target.endswith(".py"):
        path = Path(target)
        if not path.exists():
            raise UnknownBot(f"bot file {target} does not exist")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            raise UnknownBot(f"cannot import bot module {target!r}") from exc
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise UnknownBot(f"{target} has no class {cls_name!r}")
    return cls(seed)
