"""`arena referee revoke-bot NAME --referee ADDR`: the running referee ends the bot's sessions at once."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.e2e.conftest import ROOT, start_referee

pytestmark = pytest.mark.e2e


def test_revoke_bot_ends_connected_sessions(tmp_path) -> None:
    ref = start_referee(tmp_path)
    bot = None
    try:
        token = ref.client.register_bot("doomed")
        env = {k: v for k, v in ref.env.items() if k != "ARENA_ORGANIZER_TOKEN"}
        bot = subprocess.Popen([sys.executable, str(ROOT / "bots" / "starters" / "python" / "bot.py"),
                                "--address", ref.address], env={**env, "ARENA_TOKEN": token},
                               stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not any(b["name"] == "doomed" and b["sessions"] for b in ref.client.list_bots()):
            assert time.monotonic() < deadline and bot.poll() is None
            time.sleep(0.1)
        out = subprocess.run([sys.executable, "-m", "arena.cli.main", "referee", "revoke-bot", "doomed",
                              "--referee", ref.address], capture_output=True, text=True, env=ref.env,
                             cwd=ROOT, timeout=60, check=False)
        assert out.returncode == 0, out.stderr
        assert "1 connected session(s) ended" in out.stdout
        assert bot.wait(20) == 0  # Goodbye: the bot stops instead of reconnecting
        again = subprocess.run([sys.executable, "-m", "arena.cli.main", "referee", "revoke-bot", "doomed",
                                "--referee", ref.address], capture_output=True, text=True, env=ref.env,
                               cwd=ROOT, timeout=60, check=False)
        assert again.returncode == 2 and "no registered bot named 'doomed'" in again.stderr
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait(10)
        ref.stop()
