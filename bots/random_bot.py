"""The random bot: a uniformly random legal action, from its own seeded generator."""
from __future__ import annotations

from referee.engine.agent import DecisionRequest, MatchStart
from referee.engine.rng import Rng

from .sdk.bot import Bot


class RandomBot(Bot):
    """Plays every game; the anchor of every ladder (rated 0 by convention... see arena.ratings)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)

    def start(self, info: MatchStart) -> None:
        super().start(info)
        self.rng = Rng(f"random:{self.seed}:{info.match_id}:{info.seat}")

    def act(self, request: DecisionRequest) -> int:
        return self.rng.below(len(request.legal))
