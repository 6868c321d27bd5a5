"""RefereeClient against an in-process referee: the contract the tournaments engineer codes against."""
from __future__ import annotations

import threading
import time

import pytest

from bots.random_bot import RandomBot
from referee.client import BotNotFound, NotAuthorized, RefereeClient
from referee.engine import Replay, TimeControl, verify
from referee.matchspec import MatchRejected, MatchSpec, RefereeUnavailable, SeatSpec

from .conftest import LiveBot


def _client(ref) -> RefereeClient:
    return RefereeClient(ref.address, ref.organizer_token)


def test_health_and_status(referee_thread) -> None:
    with _client(referee_thread) as c:
        assert c.health()
        st = c.status()
        assert "sealed_bids" in st["games"] and st["matches"] == 0


def test_wrong_organizer_token(referee_thread) -> None:
    with RefereeClient(referee_thread.address, "wrong") as c:
        with pytest.raises(NotAuthorized):
            c.list_bots()
        assert c.health()  # the health service needs no token


def test_unreachable_referee_is_retryable() -> None:
    with RefereeClient("127.0.0.1:1", "x") as c:
        assert not c.health(timeout_s=0.5)
        with pytest.raises(RefereeUnavailable):
            c.run_match(MatchSpec("m", "sealed_bids", 1, [SeatSpec("a"), SeatSpec("b")]), timeout_s=2)


@pytest.mark.parametrize("spec, words", [
    (MatchSpec("m", "no_such_game", 1, [SeatSpec("a"), SeatSpec("b")]), "unknown game"),
    (MatchSpec("m", "sealed_bids", 1, [SeatSpec("a")]), "2-4 seats"),
    (MatchSpec("m", "sealed_bids", 1, [SeatSpec("a"), SeatSpec("b")], {"rounds": 99}), "at most"),
    (MatchSpec("m", "sealed_bids", 1, [SeatSpec("a"), SeatSpec("b")], {"bogus": 1}), "unknown option"),
    (MatchSpec("", "sealed_bids", 1, [SeatSpec("a"), SeatSpec("b")]), "match_id"),
])
def test_bad_specs_are_rejected(referee_thread, spec, words) -> None:
    with _client(referee_thread) as c, pytest.raises(MatchRejected, match=words):
        c.run_match(spec, timeout_s=10)


def test_missing_live_bot_is_unavailable(referee_thread) -> None:
    with _client(referee_thread) as c, pytest.raises(RefereeUnavailable, match="nobody"):
        c.run_match(MatchSpec("m", "sealed_bids", 1, [SeatSpec("nobody"), SeatSpec("nobody")]),
                    timeout_s=10, live_wait_s=0.3)


def test_register_list_revoke(referee_thread) -> None:
    with _client(referee_thread) as c:
        token = c.register_bot("gamma", ["sealed_bids"])
        assert token.startswith("arena_")
        with pytest.raises(MatchRejected, match="already registered"):
            c.register_bot("gamma")
        with pytest.raises(MatchRejected, match="unknown game"):
            c.register_bot("delta", ["chess"])
        assert [b["name"] for b in c.list_bots()] == ["gamma"]
        bot = LiveBot(RandomBot, referee_thread.address, token, capacity=2)
        try:
            for _ in range(100):
                if c.list_bots()[0]["sessions"]:
                    break
                time.sleep(0.02)
            assert c.list_bots()[0]["free_capacity"] == 2
            assert c.revoke_bot("gamma") == 1
        finally:
            bot.stop()
        assert c.list_bots() == []
        with pytest.raises(BotNotFound):
            c.revoke_bot("gamma")


def test_live_self_play_retry_and_watch(referee_thread) -> None:
    """Two seats of one live session; a retried RunMatch gets the same report; a watcher gets frames."""
    with _client(referee_thread) as c:
        token = c.register_bot("selfie", ["sealed_bids"])
        bot = LiveBot(RandomBot, referee_thread.address, token, capacity=4)
        try:
            spec = MatchSpec("self-1", "sealed_bids", 9, [SeatSpec("selfie")] * 3, {"rounds": 3},
                             TimeControl(per_decision_ms=2000))
            results: list = []
            threads = [threading.Thread(target=lambda: results.append(c.run_match(spec, timeout_s=30)))
                       for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert len(results) == 2 and results[0].replay == results[1].replay
            rep = results[0]
            assert rep.outcome["reason"] == "normal"
            verify(Replay.from_json(rep.replay))
            assert [s["bot"] for s in rep.replay["seats"]] == ["selfie"] * 3
            again = c.run_match(spec, timeout_s=30)  # finished: served from the referee's recent reports
            assert again.replay == rep.replay
            with pytest.raises(MatchRejected, match="another spec"):
                c.run_match(MatchSpec("self-1", "sealed_bids", 10, [SeatSpec("selfie")] * 2), timeout_s=10)
        finally:
            bot.stop()
        assert bot.error is None
        assert bot.stats.matches == 3 and bot.stats.decisions > 0


def test_watch_unknown_match(referee_thread) -> None:
    with _client(referee_thread) as c, pytest.raises(MatchRejected, match="no running match"):
        list(c.watch("nope"))
