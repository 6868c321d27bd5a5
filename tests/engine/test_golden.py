"""Golden playthroughs: a change in any game's behaviour shows as a diff (regenerate with
``python scripts/playthroughs.py GAME`` and bump the game's version).

Every game of this repository (and the sealed_bids fixture) must have one in tests/golden/; a game
from another package has one only if it declares it (``Game.golden_file``), so it needs no file here.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from referee.engine import Game, all_games
from referee.games import BUILTIN
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("playthroughs", ROOT / "scripts" / "playthroughs.py")
assert spec and spec.loader
playthroughs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(playthroughs)


def _games_with_golden() -> list[Game]:
    games = {g.info.id: g for g in [SEALED_BIDS, *all_games()]}
    return [g for g in games.values() if playthroughs.golden_path(g) is not None]


def test_every_builtin_game_has_a_golden_path() -> None:
    ids = {g.info.id for g in _games_with_golden()}
    assert set(BUILTIN) | {"sealed_bids"} <= ids


@pytest.mark.parametrize("game", [pytest.param(g, id=g.info.id) for g in _games_with_golden()])
def test_playthrough_matches_golden(game: Game) -> None:
    path = playthroughs.golden_path(game)
    assert path is not None and path.exists(), \
        f"no golden playthrough for {game.info.id}: run python scripts/playthroughs.py {game.info.id}"
    assert playthroughs.playthrough(game) == path.read_text(), \
        f"{game.info.id} behaves differently from its golden playthrough"
