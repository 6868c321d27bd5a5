"""Built-in bots by name: ``random`` for every game, ``heuristic`` per game (bots/heuristic/<game>.py)."""
from __future__ import annotations

import importlib

from .random_bot import RandomBot
from .sdk.bot import Bot


class UnknownBot(ValueError):
    pass


def heuristic_available(game_id: str) -> bool:
    try:
        importlib.import_module(f"bots.heuristic.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name == f"bots.heuristic.{game_id}":
            return False
        raise
    return True


def builtin_names(game_id: str) -> list[str]:
    return ["random"] + (["heuristic"] if heuristic_available(game_id) else [])


def make_bot(name: str, game_id: str, seed: int = 0) -> Bot:
    """A fresh bot instance for one match."""
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        if not heuristic_available(game_id):
            raise UnknownBot(f"no heuristic bot for {game_id!r} yet")
        module = importlib.import_module(f"bots.heuristic.{game_id}")
        return module.HeuristicBot(seed)
    raise UnknownBot(f"unknown built-in bot {name!r}; built-ins for {game_id}: {', '.join(builtin_names(game_id))}")
