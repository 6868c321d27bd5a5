"""Replays recorded before a rules change are refused with the version message (STYLE: "Store the game's
version in every replay and refuse to re-simulate a mismatched one")."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import cli
from referee.engine.replay import Replay, ReplayError, verify
from referee.games.blockcraft import GAME

OLD = Path(__file__).parent / "fixtures" / "replay-1.0.0.json"


def test_issue_17_rule_fixes_bumped_the_version() -> None:
    # Spec 1.1 (solo max_rounds 36), BC-6.12, BC-7.3 and the default mode changed behaviour in 1.1.0.
    assert GAME.info.version == "1.1.0"


def test_a_replay_recorded_with_1_0_0_is_refused_with_the_version_message() -> None:
    replay = Replay.load(OLD)
    assert replay.game_version == "1.0.0"
    with pytest.raises(ReplayError, match=r"recorded with blockcraft version 1\.0\.0; this engine is version 1\.1\.0"):
        verify(replay)


def test_arena_replay_verify_refuses_it_in_one_line() -> None:
    res = CliRunner().invoke(cli, ["replay", "verify", str(OLD)])
    assert res.exit_code == 2
    assert "blockcraft version 1.0.0" in res.output and "refuses to re-simulate" in res.output
    assert "Traceback" not in res.output
