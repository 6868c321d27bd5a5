"""What a hosted bot is given, checked without starting one: environment, binds, exit reasons,
and the private files of the store."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from referee.service.sandbox import INSIDE_SOCKET, Channel, Limits, Support, bot_env, exit_reason, plan


def test_environment_is_built_from_the_allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    for k in ("ARENA_ORGANIZER_TOKEN", "ARENA_DB_URL", "ARENA_HOME", "ARENA_BROKER_URL",
              "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(k, "secret")
    env = bot_env({"MY_BOT_LEVEL": "3", "ARENA_HOME": "/x", "arena_db_url": "y"})
    assert env["MY_BOT_LEVEL"] == "3"
    assert not any(v == "secret" for v in env.values())
    assert not {k for k in env if k.upper().startswith("ARENA_")}
    assert env["HOME"] == env["TMPDIR"] == "/tmp"


def test_plan_binds_only_the_runtime_and_the_bots_directory(tmp_path: Path) -> None:
    bot_dir = tmp_path / "mybot"
    bot_dir.mkdir()
    ch = Channel()
    try:
        p = plan([sys.executable, str(bot_dir / "bot.py")], str(bot_dir), {}, ch, Limits(), "g1",
                 Support("sandbox", "test", cgroups=True))
        dests = [d for _, d in p["binds"]]
        assert str(bot_dir.resolve()) in dests and INSIDE_SOCKET in dests
        assert str(tmp_path.resolve()) not in dests  # its parent (where a store could live) is not
        assert not any(d in ("/", "/root", "/etc", "/home", "/var") for d in dests)
        assert p["env"]["ARENA_REFEREE"] == f"unix:{INSIDE_SOCKET}"
        assert "--unshare-all" in p["pre"] and ["--remount-ro", "/"] == p["post"][:2]
        assert "token" not in repr(p).lower()  # the credential is never part of the plan
    finally:
        ch.close()
    assert not Path(ch.base).exists()


@pytest.mark.parametrize("code,sandboxed,expected", [
    (3, True, "the bot exited with code 3 during the match"),
    (0, True, "the bot exited with code 0 during the match"),
    (128 + signal.SIGKILL, True, "the bot was killed by signal SIGKILL during the match"),
    (-signal.SIGKILL, False, "the bot was killed by signal SIGKILL during the match"),
    (128 + signal.SIGXCPU, True, "the bot was stopped: CPU time exhausted (limit 5s)"),
    (129, False, "the bot exited with code 129 during the match"),
])
def test_exit_reasons_name_what_happened(code: int, sandboxed: bool, expected: str) -> None:
    assert exit_reason(code, sandboxed, 5) == expected


def test_the_store_is_private(tmp_path: Path) -> None:
    from arena.store import open_store

    open_store(f"sqlite:///{tmp_path}/home/arena.db")
    assert (tmp_path / "home" / "arena.db").stat().st_mode & 0o077 == 0
    assert (tmp_path / "home").stat().st_mode & 0o077 == 0
