"""``arena worker`` says how its matches run their bots: each referee's hosted mode, and in-process."""
from __future__ import annotations

import pytest

from arena.cli.worker_cmd import bot_modes
from arena.demo import free_port


def test_worker_names_each_referees_hosted_mode(referee_thread, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    hosted = referee_thread.referee.hosting.describe()  # what `arena referee` prints at start
    assert hosted.startswith("hosted bots: ")
    down = f"127.0.0.1:{free_port()}"
    monkeypatch.setenv("ARENA_REFEREE", f"{referee_thread.address},{down}")
    monkeypatch.setenv("ARENA_ORGANIZER_TOKEN", referee_thread.organizer_token)
    lines = bot_modes(timeout_s=2.0)
    assert lines[0] == f"executor referee: referee {referee_thread.address}: {hosted}"
    assert lines[1].startswith(f"executor referee: referee {down}: not reachable now")
    assert lines[2].startswith("executor inprocess: bots play inside this worker, UNSANDBOXED")


def test_worker_without_a_referee_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARENA_REFEREE", raising=False)
    assert bot_modes()[0] == ("executor referee: no referee configured (ARENA_REFEREE); "
                              "such matches wait for one")
