"""The heuristic bot: remote-safe (no engine internals) and clearly better than random."""
from __future__ import annotations

import time
from pathlib import Path

from bots.heuristic.clank import HeuristicBot
from bots.random_bot import RandomBot
from referee.engine import run_match
from referee.games.clank import GAME


def test_bot_does_not_import_engine_internals() -> None:
    src = (Path(__file__).resolve().parents[3] / "bots" / "heuristic" / "clank.py").read_text()
    assert "referee.games" not in src and "import referee" not in src


def test_bot_beats_random_quickly() -> None:
    wins = 0
    t0 = time.perf_counter()
    decisions = 0
    for g in range(4):
        seat = g % 2
        agents = [HeuristicBot(g) if s == seat else RandomBot(100 + g) for s in range(2)]
        result = run_match(GAME, agents, seed=500 + g)
        wins += result.outcome.ranks[seat] == 1 and result.outcome.ranks.count(1) == 1
        decisions += result.plies
    assert wins >= 3
    assert (time.perf_counter() - t0) / decisions < 0.05
