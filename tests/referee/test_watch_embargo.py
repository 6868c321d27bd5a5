"""The embargo on the referee's watch feed: a match dealt from a shared seed (its deal group's
twins may still be playing) must not reveal its end to an organizer already watching it.

The exploit: subscribe to ``WatchMatch`` while the match runs and read the last frame. Without the
embargo it carries the final view, the last events and the outcome (who won the deal)."""
from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from bots.random_bot import RandomBot
from referee.client import RefereeClient
from referee.engine import TimeControl
from referee.engine.agent import DecisionRequest
from referee.matchspec import MatchReport, MatchSpec, SeatSpec

from .conftest import LiveBot

WATCHING = threading.Event()  # set once the watcher holds its first frame: the bots may play on


class GatedBot(RandomBot):
    """Random, but the first decision waits until the test's watcher is attached."""

    def act(self, request: DecisionRequest) -> int:
        WATCHING.wait(20)
        return super().act(request)


def watch_to_the_end(c: RefereeClient, spec: MatchSpec) -> tuple[list[dict[str, Any]], MatchReport]:
    WATCHING.clear()
    result: dict[str, MatchReport] = {}
    t = threading.Thread(target=lambda: result.setdefault("r", c.run_match(spec, timeout_s=60)))
    t.start()
    deadline = time.monotonic() + 20
    while not any(m["match_id"] == spec.match_id for m in c.list_matches()):
        assert time.monotonic() < deadline, "the match never started"
        time.sleep(0.02)
    frames = []
    for frame in c.watch(spec.match_id):
        frames.append(frame)
        WATCHING.set()
    t.join(60)
    return frames, result["r"]


@pytest.mark.parametrize("shared", [True, False])
def test_a_watcher_of_a_shared_deal_never_sees_its_end(referee_thread, shared: bool) -> None:  # type: ignore[no-untyped-def]
    with RefereeClient(referee_thread.address, referee_thread.organizer_token) as c:
        token = c.register_bot("gated", ["sealed_bids"])
        bot = LiveBot(GatedBot, referee_thread.address, token, capacity=4)
        try:
            spec = MatchSpec(f"twin-{shared}", "sealed_bids", 11, [SeatSpec("gated")] * 2, {"rounds": 3},
                             TimeControl(per_decision_ms=30_000), shared_deal=shared)
            frames, report = watch_to_the_end(c, spec)
        finally:
            bot.stop()
    assert len(frames) >= 2 and frames[-1]["done"] and not any(f["done"] for f in frames[:-1])
    last = frames[-1]
    assert report.outcome["reason"] == "normal"
    if not shared:  # the control: a deal of its own ends with everything (so the check below can fail)
        assert last["outcome"] == report.outcome and last["view"] and not last["embargoed"]
        return
    # the organizer is told why, and learns nothing the frame before did not already show
    assert last["embargoed"] and last["outcome"] is None and last["view"] == {} and last["events"] == []
    assert last["ply"] == len(report.replay["actions"])
    for f in frames[:-1]:
        assert f["outcome"] is None and not f["embargoed"]


def test_watching_a_match_that_ended_unwatched_is_a_clear_not_found(referee_thread) -> None:  # type: ignore[no-untyped-def]
    # the short window between a match's end and its removal: no frame was ever published
    from referee.client import BotNotFound
    from referee.service.match import LiveMatch
    from tests.fixtures.sealed_bids import GAME as SEALED

    spec = MatchSpec("ended-1", "sealed_bids", 3, [SeatSpec("a"), SeatSpec("b")], {"rounds": 1})

    async def plant() -> None:
        match = LiveMatch(spec, SEALED, SEALED.new_state(2, {"rounds": 1}, 3), referee_thread.referee.config)
        match.over = True
        referee_thread.referee.matches[spec.match_id] = match

    referee_thread.call(plant())
    with RefereeClient(referee_thread.address, referee_thread.organizer_token) as c:
        with pytest.raises(BotNotFound, match="has ended"):
            list(c.watch(spec.match_id))
