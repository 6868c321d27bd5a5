"""The registry: built-ins, entry points, ARENA_EXTRA_GAMES, and a clear error for unknown ids."""
from __future__ import annotations

import pytest

from referee.engine import UnknownGame, game_ids, get_game, register
from referee.engine.registry import unregister
from referee.games import BUILTIN
from tests.fixtures.sealed_bids import GAME


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess'; known:"):
        get_game("chess")


def test_register_and_unregister() -> None:
    from referee.engine import registry

    before = registry._extra.get("sealed_bids")
    register(GAME)
    try:
        assert get_game("sealed_bids") is GAME
        assert "sealed_bids" in game_ids()
        unregister("sealed_bids")
        assert "sealed_bids" not in registry._extra
    finally:
        if before is not None:  # leave the registry as other tests' fixtures had it
            register(before)


def test_env_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", "sealed_bids=tests.fixtures.sealed_bids:GAME")
    assert "sealed_bids" in game_ids()
    assert get_game("sealed_bids").info.name == "Sealed Bids"


def test_builtins_load_and_match_their_ids() -> None:
    for gid in BUILTIN:
        assert get_game(gid).info.id == gid


def test_entry_point_adds_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """An outside package adds a game with an ``arena.games`` entry point and nothing else."""
    from importlib.metadata import EntryPoint

    from referee.engine import registry

    fake = [EntryPoint("sealed_bids", "tests.fixtures.sealed_bids:GAME", "arena.games")]
    monkeypatch.setattr(registry, "entry_points", lambda group: fake if group == "arena.games" else [])
    cached = registry._loaded.pop("sealed_bids", None)
    try:
        assert "sealed_bids" in game_ids()
        assert get_game("sealed_bids").info.id == "sealed_bids"
    finally:
        registry._loaded.pop("sealed_bids", None)
        if cached is not None:
            registry._loaded["sealed_bids"] = cached
