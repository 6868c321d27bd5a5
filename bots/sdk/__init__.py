"""The Python bot SDK: subclass ``Bot`` and implement ``act(request) -> index | action``.

A bot sees only what the referee sends a seat: ``request.view`` (its observation),
``request.legal`` (the legal actions, JSON) and ``request.events`` (what it saw happen since
its last decision). The same bot runs in-process (``arena play``) and over gRPC.
"""
from __future__ import annotations

from referee.engine.agent import DecisionRequest, MatchStart, TimeControl

from .bot import Bot

__all__ = ["Bot", "DecisionRequest", "MatchStart", "TimeControl"]
