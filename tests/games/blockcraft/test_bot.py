"""The heuristic bot plays legal moves from the view alone and beats random play in overlord."""
from __future__ import annotations

import ast
from pathlib import Path

from bots.heuristic.blockcraft import HeuristicBot
from bots.random_bot import RandomBot
from referee.engine import run_match
from referee.games.blockcraft import GAME


def test_bot_never_imports_engine_internals() -> None:
    src = Path(__file__).resolve().parents[3] / "bots" / "heuristic" / "blockcraft.py"
    mods = [n.module for n in ast.walk(ast.parse(src.read_text())) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in mods if m and m.startswith("referee.games")]


def test_bot_beats_random_in_overlord() -> None:
    wins = 0
    for g in range(6):
        agents = [HeuristicBot(g) if s == g % 4 else RandomBot(g * 7 + s) for s in range(4)]
        res = run_match(GAME, agents, seed=100 + g, options={"mode": "overlord"})
        assert not res.faults
        wins += res.outcome.details["results"][str(g % 4)] == "win"
    assert wins >= 3


def test_bot_plays_every_mode_without_faults() -> None:
    for players, options in ((1, {"mode": "extreme"}), (3, {"mode": "boss"}), (4, {"mode": "team"})):
        res = run_match(GAME, [HeuristicBot(s) for s in range(players)], seed=3,
                        options={**options, "max_rounds": 8})
        assert not res.faults
