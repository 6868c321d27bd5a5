"""A game that breaks (an engine bug) fails its match with INTERNAL; the referee and other matches go on."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from bots.random_bot import RandomBot
from bots.sdk.bot import Bot
from referee.client import RefereeClient
from referee.engine import DecisionRequest, TimeControl, register
from referee.engine.registry import unregister
from referee.matchspec import MatchRejected, MatchSpec, SeatSpec
from tests.fixtures.sealed_bids import SealedBids, SealedBidsState

from .conftest import LiveBot


class _BrokenState(SealedBidsState):
    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        if self.round >= 1:
            raise KeyError("boom")  # a bug in the rules, not a bad move
        super()._apply(seat, action)


class _Broken(SealedBids):
    info = replace(SealedBids.info, id="broken_bids")
    state_class = _BrokenState

    def setup(self, players: int, options: dict[str, Any], seed: int) -> Any:
        st = super().setup(players, options, seed)
        st.__class__ = _BrokenState
        return st


@pytest.fixture()
def broken_game():
    register(_Broken())
    yield "broken_bids"
    unregister("broken_bids")


def test_engine_bug_fails_the_match_not_the_referee(referee_thread, broken_game) -> None:
    with RefereeClient(referee_thread.address, referee_thread.organizer_token) as c:
        token = c.register_bot("any")
        bot = LiveBot(RandomBot, referee_thread.address, token, capacity=4)
        try:
            with pytest.raises(MatchRejected, match="engine error: KeyError"):
                c.run_match(MatchSpec("b1", broken_game, 1, [SeatSpec("any")] * 2), timeout_s=20,
                            live_wait_s=5)
            ok = c.run_match(MatchSpec("ok1", "sealed_bids", 1, [SeatSpec("any")] * 2), timeout_s=20,
                             live_wait_s=5)
            assert ok.outcome["reason"] == "normal"
            assert c.health() and c.list_matches() == []
        finally:
            bot.stop()


class _Sleepy(Bot):
    def act(self, request: DecisionRequest) -> int:
        time.sleep(0.03)
        return 0


def test_watch_with_delay(referee_thread) -> None:
    import threading

    with RefereeClient(referee_thread.address, referee_thread.organizer_token) as c:
        token = c.register_bot("sleepy")
        bot = LiveBot(_Sleepy, referee_thread.address, token, capacity=2)
        try:
            spec = MatchSpec("watch-delay", "sealed_bids", 2, [SeatSpec("sleepy")] * 2, {"rounds": 3},
                             TimeControl(per_decision_ms=2000))
            done: list = []
            t = threading.Thread(target=lambda: done.append(c.run_match(spec, timeout_s=30, live_wait_s=5)))
            t.start()
            while not c.list_matches():
                time.sleep(0.01)
            t0 = time.monotonic()
            frames = list(c.watch("watch-delay", delay_s=0.3))
            t.join(30)
            assert frames and frames[-1]["done"]
            assert time.monotonic() - t0 >= 0.3
            assert [f["seq"] for f in frames] == list(range(frames[0]["seq"], frames[0]["seq"] + len(frames)))
            assert all("hand" not in f["view"] and "hands" not in f["view"] for f in frames)
            assert frames[-1]["outcome"] == done[0].outcome
        finally:
            bot.stop()
