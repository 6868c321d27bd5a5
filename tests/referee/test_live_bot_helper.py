"""The tests' LiveBot helper stops even when stop() comes before its thread is running (it used to leak a
bot that reconnected forever and logged after the test session had ended)."""
from __future__ import annotations

import socket
import sys

from bots.random_bot import RandomBot

from .conftest import LiveBot


def _dead_address() -> str:
    with socket.socket() as s:   # a port nobody listens on: the bot would retry for ever
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


def test_stop_right_after_start_ends_the_bot() -> None:
    # a tiny switch interval lets stop() win the race against the thread's start (before the fix: the
    # first leaked bot within a few of these 30)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(30):
            bot = LiveBot(RandomBot, _dead_address(), "token")
            bot.stop()
            assert not bot.thread.is_alive()
    finally:
        sys.setswitchinterval(interval)


def test_stop_while_it_reconnects_ends_the_bot() -> None:
    bot = LiveBot(RandomBot, _dead_address(), "token", max_backoff_s=0.2)
    bot.thread.join(0.5)
    bot.stop()
    assert not bot.thread.is_alive()
