"""Shared helpers of the tournament tests."""
from __future__ import annotations

import time

from arena.store import Store, ops
from bots.sdk.bot import Bot
from referee.engine.agent import DecisionRequest


def register_inprocess_bots(store: Store, *names: str) -> None:
    for name in names:
        ops.add_bot(store, name, command=f"{{python}} -m bots.serve {name}", agent="random")


def sealed_tournament(store: Store, bots: tuple[str, ...] = ("random", "r2", "r3"), games: int = 1,
                      executor: str = "inprocess", **kw) -> int:
    register_inprocess_bots(store, *[b for b in bots if b != "slow"])
    return ops.create_tournament(store, ops.TournamentRequest("sealed_bids", bots, games_per_pairing=games,
                                                              executor=executor, **kw))


class SlowBot(Bot):
    """Random, but thinks 40 ms per decision (so a test can kill a worker mid-match)."""

    def act(self, request: DecisionRequest) -> int:
        time.sleep(0.04)
        return (self.seed + request.decision_id) % len(request.legal)


class HighBidder(Bot):
    """Sealed Bids: always bids its highest card and takes the larger prize (beats random)."""

    def act(self, request: DecisionRequest) -> int:
        if request.legal[0]["type"] == "bid":
            return max(range(len(request.legal)), key=lambda i: request.legal[i]["card"])
        return max(range(len(request.legal)), key=lambda i: request.legal[i]["prize"])
