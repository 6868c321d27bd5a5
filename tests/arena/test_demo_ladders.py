"""``arena demo``'s ladders decide something: in every game the heuristic bot ranks above the random bot
(issue 17: Blockcraft's old default, 2-seat `extreme`, ended nearly every game with everyone dead, so its
demo ladder was all draws). The demo runs as a user runs it, with the in-process executor so that the
deals and the bots' choices are the same on every run (a fixed deal key: the default is a fresh random key
per run, and 2 deals per scenario do not separate the bots in every draw of deals). The search bots are left
out (--no-search): the claim is about heuristic and random, and they would triple the demo's time."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.store import Store, queries
from referee.engine import game_ids

ROOT = Path(__file__).resolve().parents[2]
KEY = "2024" * 16  # fixed deals: the assertion is about this run, not about luck of the draw
GAMES = ["blockcraft", "clank", "dungeon_twister", "greyport", "mice_and_mystics"]

pytestmark = [pytest.mark.e2e]


def test_demo_ladder_separates_heuristic_from_random_in_every_game(tmp_path: Path) -> None:
    import os

    assert set(GAMES) <= set(game_ids())
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARENA_DB_URL", "ARENA_DB_SCHEMA", "ARENA_BROKER_URL", "ARENA_REFEREE", "ARENA_QUEUE",
                        "ARENA_EXTRA_GAMES")}
    env.update(ARENA_HOME=str(tmp_path / "home"), COLUMNS="160", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "demo", "--no-dashboard", "--executor",
                          "inprocess", "--games", ",".join(GAMES), "-j", "2", "--key", KEY,
                          "--no-search"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    store = Store(f"sqlite:///{tmp_path / 'home' / 'arena.db'}")
    for game in GAMES:
        rows = {r.player: r for r in queries.ladder(store, game).rows}
        heur, rand = rows["heuristic"], rows["random"]
        assert heur.wins > rand.wins and heur.rating > rand.rating, (
            f"{game}: the demo ladder does not separate heuristic ({heur.rating:+.0f}, {heur.wins} W / "
            f"{heur.draws} D / {heur.losses} L) from random ({rand.rating:+.0f}, {rand.wins} W / "
            f"{rand.draws} D)")
