"""Full-length random games (the conformance suite uses short round limits): termination, outcome, replay."""
from __future__ import annotations

import pytest

from bots.random_bot import RandomBot
from referee.engine import Replay, run_match, verify
from referee.games.blockcraft import GAME


@pytest.mark.parametrize(("players", "options"), [
    (1, {"mode": "extreme"}), (2, {"mode": "boss"}), (4, {"mode": "team"}), (6, {"mode": "team",
     "team_split": "two_factions"}), (5, {"mode": "overlord"}), (10, {"mode": "extreme"}),
    (9, {"mode": "team"}),
])
def test_full_game(players: int, options: dict) -> None:
    res = run_match(GAME, [RandomBot(s) for s in range(players)], seed=41, options=options,
                    checkpoint_every=100)
    out = res.outcome
    assert out.details["reason"] in ("boss_dead", "anti_boss_dead", "one_faction", "last_player",
                                     "target_card", "all_dead", "round_limit")
    assert res.plies < GAME.info.safety_limit
    assert verify(Replay.loads(res.replay.dumps()), GAME).plies == res.plies
