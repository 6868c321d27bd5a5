"""Golden playthroughs: a change in any game's behaviour shows as a diff (regenerate with
``python scripts/playthroughs.py GAME`` and bump the game's version)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.conformance.harness import games

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("playthroughs", ROOT / "scripts" / "playthroughs.py")
assert spec and spec.loader
playthroughs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(playthroughs)


@pytest.mark.parametrize("game", [pytest.param(g, id=g.info.id) for g in games()])
def test_playthrough_matches_golden(game) -> None:  # type: ignore[no-untyped-def]
    path = ROOT / "tests" / "golden" / f"{game.info.id}.txt"
    assert path.exists(), f"no golden playthrough for {game.info.id}: run python scripts/playthroughs.py {game.info.id}"
    assert playthroughs.playthrough(game) == path.read_text(), \
        f"{game.info.id} behaves differently from its golden playthrough"
