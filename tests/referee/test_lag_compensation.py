"""Lag compensation: the referee's own lateness is not the bot's (referee/service/match.py, GRACE_*).

A real ``LiveMatch`` with real sessions on a real event loop. gRPC hands a received answer to the match in
several loop steps; when the loop stalls across a deadline, the deadline's timer used to run before an
answer that had arrived in time (a spurious time-out under load). The stall here is the loop itself
blocked (``time.sleep``), as a starved referee process is.
"""
from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from referee.engine import TimeControl
from referee.matchspec import MatchSpec, SeatSpec
from referee.protocol import bot_pb2
from referee.service.config import RefereeConfig
from referee.service.match import GRACE_CAP_S, LiveMatch
from referee.service.sessions import Session
from tests.fixtures.sealed_bids import GAME

LIMIT_MS = 100


def _setup() -> tuple[LiveMatch, list[Session]]:
    spec = MatchSpec("m-lag", "sealed_bids", 7, [SeatSpec("a"), SeatSpec("b")], {"rounds": 1},
                     TimeControl(per_decision_ms=LIMIT_MS))
    match = LiveMatch(spec, GAME, GAME.new_state(2, {"rounds": 1}, 7), RefereeConfig())
    sessions = []
    for slot in match.slots:
        s = Session(f"s{slot.seat}", slot.bot, None, 1, "test")
        match.attach(slot, s, resumed=False)
        sessions.append(s)
    return match, sessions


def _requests(session: Session) -> list[bot_pb2.DecisionRequest]:
    out = []
    while not session.out.empty():
        item = session.out.get_nowait()
        if isinstance(item, bot_pb2.RefereeMessage) and item.WhichOneof("kind") == "decision":
            out.append(item.decision)
    return out


def _strikes(match: LiveMatch) -> list[int]:
    return list(match.driver.strikes)


async def _play_with_a_stall(answer_at_s: float, stall_at_s: float, stall_s: float, hops: int,
                            stall_in_hop_s: float = 0.0) -> LiveMatch:
    """Both seats answer their first bid ``answer_at_s`` after it was sent (the answer reaches the match
    after ``hops`` loop steps, as gRPC's does, and the loop stalls ``stall_in_hop_s`` after the first);
    at ``stall_at_s`` the loop stalls for ``stall_s``.
    Everything later is answered at once."""
    match, sessions = _setup()
    loop = asyncio.get_running_loop()
    run = asyncio.ensure_future(match.run())
    await asyncio.sleep(0)
    first = True
    while not run.done():
        for seat, s in enumerate(sessions):
            for req in _requests(s):
                legal = json.loads(req.legal_json)

                def deliver(slot: Any = match.slots[seat], n: int = hops, stall: float = 0.0) -> None:
                    if n:
                        loop.call_soon(deliver, slot, n - 1)
                        time.sleep(stall)   # the loop stalls between the hops
                    elif slot.pending is not None:
                        match.answer(slot, 0)
                if first:
                    loop.call_later(answer_at_s, deliver, match.slots[seat], hops,
                                    stall_in_hop_s if seat == 0 else 0.0)   # one stall
                else:
                    deliver()
                del legal
        if first and any(slot.pending for slot in match.slots):
            first = False
            loop.call_later(stall_at_s, time.sleep, stall_s)   # the stall
        await asyncio.sleep(0.001)
    await run
    return match


def test_an_answer_that_arrived_in_time_is_on_time_though_the_referee_stalled_past_the_deadline() -> None:
    # the answers arrive at 80 ms; the loop stalls for 40 ms while handing them over, so the deadline's
    # timer and the answers' last hops are due together
    match = asyncio.run(_play_with_a_stall(answer_at_s=0.080, stall_at_s=0.0, stall_s=0.0, hops=3,
                                           stall_in_hop_s=0.040))
    assert _strikes(match) == [0, 0], match.lines


def test_an_answer_read_after_a_long_referee_stall_is_still_on_time_within_the_cap() -> None:
    # the loop is blocked from 70 to 130 ms: the answers that arrived at 80 ms are read 30 ms after the
    # deadline (before its timer runs)
    match = asyncio.run(_play_with_a_stall(answer_at_s=0.080, stall_at_s=0.070, stall_s=0.060, hops=0))
    assert _strikes(match) == [0, 0], match.lines


@pytest.mark.parametrize("late_s", [GRACE_CAP_S + 0.03, 0.25])
def test_a_really_late_answer_still_times_out(late_s: float) -> None:
    # no stall: the referee looks at the deadline in time; the bots answer late
    match = asyncio.run(_play_with_a_stall(answer_at_s=LIMIT_MS / 1000 + late_s, stall_at_s=0.0, stall_s=0.0,
                                           hops=0))
    assert _strikes(match) == [1, 1], match.lines
    assert any("timeout" in line for line in match.lines)


async def _play_answering_after(delay_s: float, rounds: int = 3) -> tuple[LiveMatch, list[float]]:
    """Every decision answered ``delay_s`` after it was sent; also returns how long each decision stayed
    pending (from its ``sent_at`` to a poll, every millisecond, that finds it gone)."""
    spec = MatchSpec("m-timer", "sealed_bids", 7, [SeatSpec("a"), SeatSpec("b")], {"rounds": rounds},
                     TimeControl(per_decision_ms=LIMIT_MS))
    match = LiveMatch(spec, GAME, GAME.new_state(2, {"rounds": rounds}, 7), RefereeConfig())
    sessions = []
    for slot in match.slots:
        s = Session(f"s{slot.seat}", slot.bot, None, 1, "test")
        match.attach(slot, s, resumed=False)
        sessions.append(s)
    loop = asyncio.get_running_loop()
    run = asyncio.ensure_future(match.run())
    # seat -> the pending decision seen; its wait runs from the referee's own ``sent_at`` (when the poller
    # first saw it could be late under load: CI once measured 86 ms for a 100 ms wait that way) to the
    # first poll that finds it gone (late by at most the poller's lateness, never early)
    open_since: dict[int, Any] = {}
    waits: list[float] = []

    def deliver(slot: Any, decision_id: int) -> None:
        if slot.pending is not None and slot.pending.decision_id == decision_id:
            match.answer(slot, 0)
    while not run.done():
        now = time.monotonic()
        for seat, s in enumerate(sessions):
            for req in _requests(s):
                loop.call_later(delay_s, deliver, match.slots[seat], req.decision_id)
            p = match.slots[seat].pending
            seen = open_since.get(seat)
            if seen is not None and seen is not p:
                waits.append(now - seen.sent_at)
                del open_since[seat]
            if p is not None and seat not in open_since:
                open_since[seat] = p
        await asyncio.sleep(0.001)
    await run
    return match, waits


def test_each_decision_has_its_own_deadline_though_a_seat_keeps_one_timer() -> None:
    # Answers 70 ms after each request: the timer armed for a seat's first decision runs 100 ms after it,
    # during the next decision (sent at ~70 ms, due at ~170 ms), and must wait for that one's deadline.
    match, _ = asyncio.run(_play_answering_after(0.070))
    assert match.driver.plies > 4 and _strikes(match) == [0, 0], match.lines
    assert all(slot.timer is None for slot in match.slots)  # the match's end cancels them


def test_a_later_decision_still_times_out_on_its_own_deadline() -> None:
    match, waits = asyncio.run(_play_answering_after(LIMIT_MS / 1000 + GRACE_CAP_S + 0.03, rounds=2))
    assert _strikes(match)[0] >= 1 and any("timeout" in line for line in match.lines), match.lines
    # every decision waited its whole limit before its time-out: no early one from an earlier timer
    assert len(waits) >= 4 and min(waits) >= LIMIT_MS / 1000 - 0.002, waits
