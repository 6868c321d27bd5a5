"""The search actually searches: on a small hidden-information game it beats random play clearly.

Sealed Bids (tests/fixtures): a random bidder wastes high cards on low prizes; IS-MCTS over samples of
what the seat cannot see (the others' hands, the prize deck) should not.
"""
from __future__ import annotations

from bots.random_bot import RandomBot
from bots.search import Budget, SearchBot
from referee.engine import run_match
from tests.fixtures.sealed_bids import GAME


def test_search_beats_random_in_sealed_bids() -> None:
    wins = games = 0
    for seed in range(15):
        for seat in (0, 1):  # paired seeds, both seat orders
            bots = [RandomBot(seed * 2 + s) for s in range(2)]
            bots[seat] = SearchBot(seed, Budget(iterations=150))
            outcome = run_match(GAME, bots, seed=seed).outcome
            games += 1
            wins += outcome.ranks[seat] == 1 and outcome.ranks.count(1) == 1
    assert wins / games >= 0.7, f"search won {wins}/{games} against random"


def test_same_seed_same_choices() -> None:
    def replay(seed: int) -> list[tuple[int, dict[str, object]]]:
        bots = [SearchBot(seed, Budget(iterations=30)), RandomBot(1)]
        return [(a["seat"], a["action"]) for a in run_match(GAME, bots, seed=3).replay.actions]

    assert replay(5) == replay(5)
