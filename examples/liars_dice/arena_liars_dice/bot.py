"""A heuristic Liar's Dice bot: it sees only what a remote bot sees (its view and legal list).

It expects each unknown die to show a face with probability 1/6: challenge a bid that needs more than
``margin`` dice beyond that expectation; otherwise make the cheapest raise on the face it holds most of.
"""
from __future__ import annotations

from typing import Any

from bots.sdk.bot import Bot
from referee.engine.agent import DecisionRequest
from referee.engine.rng import Rng


class HeuristicBot(Bot):
    games = ("liars_dice",)

    def __init__(self, seed: int = 0, margin: float = 0.5) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)
        self.margin = margin

    def expected(self, view: dict[str, Any], face: int) -> float:
        mine = view["my_dice"]
        return mine.count(face) + (view["total"] - len(mine)) / 6

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        view, legal = request.view, request.legal
        bid = view["bid"]
        if bid is not None and bid[0] > self.expected(view, bid[1]) + self.margin:
            return {"type": "challenge"}
        bids = [a for a in legal if a["type"] == "bid"]
        if not bids:
            return {"type": "challenge"}
        # the raise most likely true, cheapest first (legal order is by quantity, then face)
        best = max(bids, key=lambda a: (self.expected(view, a["face"]) - a["quantity"], -a["quantity"]))
        return best
