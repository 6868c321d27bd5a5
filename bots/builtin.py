"""Built-in bots by name: ``random`` for every game, ``heuristic`` per game, ``planner`` where a game has one
(Blockcraft: the solo World Core planner), ``search`` (IS-MCTS over the forward model, every game;
``search@400`` = 400 iterations a decision, ``search@250ms`` = 250 ms).

A game's heuristic bot is the one the game declares (``Game.heuristic_bot()``, ``"module:Class"``: an
outside game ships its own), else ``bots/heuristic/<game>.py`` (the games of this repository).
"""
from __future__ import annotations

import importlib

from referee.engine.errors import UnknownGame
from referee.engine.registry import get_game

from .random_bot import RandomBot
from .sdk.bot import Bot

#: ``planner`` by game: ``module:Class`` (issue 17: Blockcraft's solo World Core planner)
PLANNERS = {"blockcraft": "bots.planner.stash:StashBot"}
#: ``search+heuristic``: virtual visits on the heuristic's move at the root (bots/search/ismcts.py).
PRIOR_VISITS = 10


class UnknownBot(ValueError):
    pass


def _declared(game_id: str) -> str | None:
    try:
        return get_game(game_id).heuristic_bot()
    except UnknownGame:
        return None


def heuristic_available(game_id: str) -> bool:
    if _declared(game_id) is not None:
        return True
    try:
        importlib.import_module(f"bots.heuristic.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name == f"bots.heuristic.{game_id}":
            return False
        raise
    return True


def builtin_names(game_id: str) -> list[str]:
    return ["random"] + (["heuristic"] if heuristic_available(game_id) else []) \
        + (["planner"] if game_id in PLANNERS else []) + ["search"]


def _heuristic_class(game_id: str) -> type[Bot]:
    declared = _declared(game_id)
    if declared is None:
        return importlib.import_module(f"bots.heuristic.{game_id}").HeuristicBot
    module, _, attr = declared.partition(":")
    cls = getattr(importlib.import_module(module), attr or "HeuristicBot")
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise UnknownBot(f"{game_id} declares heuristic bot {declared!r}, which is not a bots.sdk Bot")
    return cls


def make_bot(name: str, game_id: str, seed: int = 0) -> Bot:
    """A fresh bot instance for one match."""
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        if not heuristic_available(game_id):
            raise UnknownBot(f"no heuristic bot for {game_id!r} yet")
        return _heuristic_class(game_id)(seed)
    if name == "planner" and game_id in PLANNERS:
        module, _, attr = PLANNERS[game_id].partition(":")
        planner: type[Bot] = getattr(importlib.import_module(module), attr)
        return planner(seed)
    kind, _, budget = name.partition("@")
    if kind == "search+rollouts":
        from .search.improve import make_rollout_bot

        try:
            return make_rollout_bot(seed, budget)
        except ValueError as exc:
            raise UnknownBot(str(exc)) from None
    if kind in ("search", "search+heuristic"):
        import dataclasses

        from .search import Budget, SearchBot, parse_budget

        try:
            b = parse_budget(budget) if budget else Budget()
        except ValueError as exc:
            raise UnknownBot(str(exc)) from None
        if kind == "search+heuristic":
            b = dataclasses.replace(b, prior_visits=PRIOR_VISITS)
        return SearchBot(seed, b)
    raise UnknownBot(f"unknown built-in bot {name!r}; "
                     f"built-ins for {game_id}: {', '.join(builtin_names(game_id))}")
