"""Populated dashboard sources for tests: real replays of the fixture game (and of the five games
once they are registered), a tournament, a running match and a bot with a hostile name."""
from __future__ import annotations

from bots.builtin import heuristic_available, make_bot
from dashboard.source import MemorySource
from referee.engine import get_game, register, run_match
from referee.engine.errors import UnknownGame
from tests.fixtures.sealed_bids import GAME as SEALED

EVIL = "<script>alert(1)</script>"
FIVE = ["dungeon_twister", "clank", "blockcraft", "mice_and_mystics", "greyport"]


def play(game_id: str, players: int, seed: int, names: list[str], bot: str = "random"):  # -> MatchResult
    game = get_game(game_id)
    agents = [make_bot(bot, game_id, seed * 10 + s) for s in range(players)]
    return run_match(game, agents, seed=seed, bot_names=names, match_id=f"{game_id}-{seed}")


def showcase(game_id: str, players: int, seed: int, names: list[str]):  # -> MatchResult
    """A match worth watching: the game's heuristic bots (they fight, explore and finish the game
    in a few hundred steps), or random bots while a game has no heuristic bot or it fails."""
    if heuristic_available(game_id):
        try:
            return play(game_id, players, seed, names, bot="heuristic")
        except Exception:  # noqa: BLE001 - another engineer's bot mid-change must not hide the renderers
            pass
    return play(game_id, players, seed, names)


def available_games() -> list[str]:
    """The five games that load (registered, or importable from ``referee.games.<id>`` while the
    registry line is not in yet)."""
    import importlib

    out = []
    for gid in FIVE:
        try:
            get_game(gid)
        except UnknownGame:
            try:
                register(importlib.import_module(f"referee.games.{gid}").GAME)
            except Exception:  # noqa: BLE001 - a game still being written
                continue
        except Exception:  # noqa: BLE001
            continue
        out.append(gid)
    return out


def build_source(extra_games: bool = True) -> MemorySource:
    register(SEALED)
    src = MemorySource()
    for bid, name in [("alpha", "alpha"), ("beta", "beta"), ("gamma", "gamma"), (EVIL, EVIL)]:
        src.add_bot(bid, name)
    src.add_tournament("t1", "Spring <b>Cup</b>", "sealed_bids", status="running")
    pairs = [("alpha", "beta"), ("beta", "gamma"), ("gamma", EVIL), (EVIL, "alpha"), ("alpha", "gamma"),
             ("beta", EVIL)]
    n = 0
    for _ in range(3):
        for a, b in pairs:
            n += 1
            res = play("sealed_bids", 2, n, [a, b])
            src.add_match(f"m{n}", "sealed_bids", [a, b], replay=res.replay, tournament_id="t1",
                          finished=f"2024-05-01T10:{n:02d}:00")
    # one running and one queued match: no replay, no seed, no outcome may leak
    res = play("sealed_bids", 2, 999, ["alpha", "beta"])
    src.add_match("live1", "sealed_bids", ["alpha", "beta"], status="running", tournament_id="t1", seed=999)
    src.add_match("queued1", "sealed_bids", ["beta", "gamma"], status="queued", tournament_id="t1", seed=1000)
    src.live_replays = {"live1": res.replay}
    if extra_games:
        for gid in available_games():
            game = get_game(gid)
            players = max(2, game.info.min_players) if game.info.max_players >= 2 else 1
            for seed in (1,):
                names = [["alpha", "beta", "gamma"][s % 3] for s in range(players)]
                res = showcase(gid, players, seed, names)
                src.add_match(f"{gid}-{seed}", gid, names, replay=res.replay,
                              finished=f"2024-05-02T10:{seed:02d}:00")
    return src
