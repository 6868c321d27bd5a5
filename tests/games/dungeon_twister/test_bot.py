"""The heuristic bot answers with legal indices from what a remote bot sees (smoke test)."""
from __future__ import annotations

from bots.heuristic.dungeon_twister import HeuristicBot
from referee.engine import run_match
from referee.games.dungeon_twister import GAME


def test_heuristic_bot_plays_legally() -> None:
    result = run_match(GAME, [HeuristicBot(1), HeuristicBot(2)], seed=2, checkpoint_every=0,
                       options={"max_turns": 12})
    assert result.faults == []
    assert result.outcome.details["turns"] == 12 or max(result.outcome.scores) >= 5
