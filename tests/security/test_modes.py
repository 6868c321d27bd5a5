"""No silent downgrade: without a sandbox the referee refuses hosted bots unless told otherwise,
and says which mode it runs in; the unsafe mode really is unsafe (the red team's probe sees it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.matchspec import MatchRejected, MatchSpec, SeatSpec
from tests.e2e.conftest import start_referee

from .conftest import HONEST, Played, play


def test_without_bwrap_hosted_bots_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_BWRAP", str(tmp_path / "no-such-bwrap"))
    ref = start_referee(tmp_path / "home")
    try:
        with pytest.raises(MatchRejected) as info:
            ref.client.run_match(MatchSpec("m-refused", "clank", 1,
                                           [SeatSpec("a", HONEST), SeatSpec("b", HONEST)]), 60)
        assert "--unsandboxed-hosted-bots" in str(info.value)
        assert "hosted bots: refused" in ref.log()
    finally:
        ref.stop()


def test_unsandboxed_mode_is_explicit_and_visibly_unsafe(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_BWRAP", str(tmp_path / "no-such-bwrap"))
    ref = start_referee(tmp_path / "home", "--unsandboxed-hosted-bots")
    try:
        p: Played = play(ref, "procs", match_id="m-unsafe")
        assert "hosted bots: UNSANDBOXED" in ref.log()
        # the same probe that is blocked in the sandbox finds the opponent's token here
        assert p.attacks()["procs"].startswith("succeeded"), p.attacks()
        assert p.outcome["reason"] == "normal"
    finally:
        ref.stop()
