"""The ``Bot`` base class."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from referee.engine.agent import DecisionRequest, MatchStart


class Bot(ABC):
    """One bot plays one seat of one match at a time; the SDK makes one instance per match."""

    #: Games this bot plays; empty means every game.
    games: tuple[str, ...] = ()

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.match: MatchStart | None = None

    def start(self, info: MatchStart) -> None:
        """Called once when the match starts."""
        self.match = info

    @abstractmethod
    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        """Choose: an index into ``request.legal`` or one of its actions."""

    def end(self, outcome: dict[str, Any]) -> None:  # noqa: B027 (an optional hook, empty by design)
        """Called once with the outcome (ranks, scores, forfeits)."""
