"""Sealed Bids bots of known relative strength, for the continuous ladder's ranking test.

``Mix(q)`` plays the greedy move (bid its highest card, take the larger prize) with probability q
and the worst one (lowest card, smaller prize) otherwise: q = 0 always throws, q = 1 is greedy.
Measured with 8 prize rounds, 300 deals a pair, both seat orders (2026-12-06): each step of 0.2
scores 0.59 - 0.64 against the step below (66 - 99 Elo; q20-q40 is the closest); a handicapped
greedy bot (a *random* move with probability p) spreads only 270 Elo from p = 1 to p = 0, with 36 Elo
steps in the middle, too close to order six versions in a ~90 s run on a loaded machine.
Module-level classes, so ``module:Class`` names them."""
from __future__ import annotations

import random

from bots.sdk.bot import Bot
from referee.engine.agent import DecisionRequest


class Mix(Bot):
    Q = 1.0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)

    def act(self, request: DecisionRequest) -> int:
        legal = request.legal
        key = "card" if legal[0]["type"] == "bid" else "prize"
        pick = max if self.rng.random() < self.Q else min
        return pick(range(len(legal)), key=lambda i: legal[i][key])


class Q0(Mix):
    Q = 0.0


class Q20(Mix):
    Q = 0.2


class Q40(Mix):
    Q = 0.4


class Q60(Mix):
    Q = 0.6


class Q80(Mix):
    Q = 0.8


class Q100(Mix):
    Q = 1.0


#: weakest first: (version name, in-process agent)
FIELD = [(f"q{q}", f"tests.ladder.agents:Q{q}") for q in (0, 20, 40, 60, 80, 100)]
OPTIONS = {"rounds": 8}


class Crasher(Mix):
    """Exits at its first decision, like a hosted bot whose process dies: its seat forfeits."""

    def act(self, request: DecisionRequest) -> int:
        raise SystemExit(1)
