"""The Python bot SDK: subclass ``Bot`` and implement ``act(request) -> index | action``.

A bot sees only what the referee sends a seat: ``request.view`` (its observation),
``request.legal`` (the legal actions, JSON) and ``request.events`` (what it saw happen since
its last decision). The same bot runs in-process (``arena play``) and over gRPC::

    from bots.sdk import Bot, run

    class First(Bot):
        def act(self, request):
            return 0

    run(First, "127.0.0.1:50051", token, games=["clank"], capacity=4)
"""
from __future__ import annotations

from typing import Any

from referee.engine.agent import DecisionRequest, MatchStart, TimeControl

from .bot import Bot
from .view import View, actions_of

__all__ = ["Bot", "BotRefused", "DecisionRequest", "MatchStart", "SessionStats", "TimeControl", "View",
           "actions_of", "run", "run_async"]


def __getattr__(name: str) -> Any:
    # The gRPC client is imported lazily: in-process bots (arena play) never load grpc.
    if name in ("run", "run_async", "BotRefused", "SessionStats"):
        from . import client

        return getattr(client, name)
    raise AttributeError(name)
