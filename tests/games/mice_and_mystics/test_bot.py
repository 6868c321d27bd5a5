"""The heuristic bot plays through the public interface only and beats random play."""
from __future__ import annotations

import ast
from pathlib import Path

from bots.heuristic.mice_and_mystics import HeuristicBot
from bots.random_bot import RandomBot
from referee.engine import run_match
from referee.games.mice_and_mystics import GAME

BOT_FILE = Path(__file__).resolve().parents[3] / "bots" / "heuristic" / "mice_and_mystics.py"


def test_bot_never_imports_game_internals() -> None:
    tree = ast.parse(BOT_FILE.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith("referee.games"), node.module
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("referee.games") for a in node.names)


def test_heuristic_team_wins_chapter_one_sometimes_and_random_never() -> None:
    heur = [run_match(GAME, [HeuristicBot(s) for s in range(1 + i % 4)], seed=500 + i, options={"chapter": 1})
            for i in range(6)]
    assert all(not r.faults for r in heur)
    assert sum(r.outcome.team_result == "win" for r in heur) >= 2
    rand = run_match(GAME, [RandomBot(s) for s in range(2)], seed=500, options={"chapter": 1})
    assert rand.outcome.team_result == "loss"
