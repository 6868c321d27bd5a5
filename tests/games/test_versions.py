"""Replays recorded before a rules change are refused with the version message (STYLE: "Store the game's
version in every replay and refuse to re-simulate a mismatched one")."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import cli
from referee.engine import get_game
from referee.engine.replay import Replay, ReplayError, verify

HERE = Path(__file__).parent

#: (game, version before the change, version after, why it changed)
BUMPS = [
    # GB-5.8.1, GB-6.14.1, GB-7.4 changed behaviour (and the event log) in 1.1.0.
    ("greyport", "1.0.0", "1.1.0"),
    # Spec 1.1 (solo max_rounds 36), BC-6.12, BC-7.3 and the default mode changed behaviour in 1.1.0.
    ("blockcraft", "1.0.0", "1.1.0"),
]


def old_replay(game: str, version: str) -> Path:
    return HERE / game / "fixtures" / f"replay-{version}.json"


@pytest.mark.parametrize(("game", "old", "new"), BUMPS)
def test_the_rule_fixes_bumped_the_version(game: str, old: str, new: str) -> None:
    assert get_game(game).info.version == new


@pytest.mark.parametrize(("game", "old", "new"), BUMPS)
def test_a_replay_of_the_old_version_is_refused_with_the_version_message(game: str, old: str,
                                                                         new: str) -> None:
    replay = Replay.load(old_replay(game, old))
    assert replay.game_version == old
    message = f"recorded with {game} version {old}; this engine is version {new}"
    with pytest.raises(ReplayError, match=re.escape(message)):
        verify(replay)


@pytest.mark.parametrize(("game", "old", "new"), BUMPS)
def test_arena_replay_verify_refuses_it_in_one_line(game: str, old: str, new: str) -> None:
    res = CliRunner().invoke(cli, ["replay", "verify", str(old_replay(game, old))])
    assert res.exit_code == 2
    assert f"{game} version {old}" in res.output and "refuses to re-simulate" in res.output
    assert "Traceback" not in res.output
