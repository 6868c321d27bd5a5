"""The match driver's rules, transport-free: batches, answer order, re-asks, strikes, losses, limits."""
from __future__ import annotations

import pytest

from referee.engine import TimeControl, verify
from referee.engine.driver import EngineBug, Fault, FaultPolicy, MatchDriver, fault_rng, resolve_answer
from tests.fixtures.sealed_bids import GAME


def _driver(seed: int = 1, **kw) -> MatchDriver:
    return MatchDriver(GAME, GAME.new_state(2, None, seed), seed, ["a", "b"], "m1", **kw)


def _play(d: MatchDriver, order: list[int], faulty: dict[int, Fault] | None = None) -> str:
    """Answer every batch in ``order`` of seats (index 0, or the seat's fault); the replay's JSON."""
    faulty = faulty or {}
    while not d.over:
        asks = {a.seat: a for a in d.ask()}
        for seat in sorted(asks, key=lambda s: order.index(s)):
            if seat in faulty:
                d.fail(seat, faulty[seat], 5)
            else:
                assert d.answer(seat, 0, 5).consequence == "accepted"
        d.settle()
    d.finish()
    return d.replay.dumps().replace(d.replay.created, "")


def test_the_answers_arrival_order_does_not_change_the_replay() -> None:
    fault = Fault("timeout", "no answer within 10 ms")
    a = _play(_driver(), [0, 1], {0: fault})
    b = _play(_driver(), [1, 0], {0: fault})
    assert a == b and '"faults"' in a


def test_a_batch_is_built_from_one_position_and_settled_only_when_complete() -> None:
    d = _driver()
    asks = d.ask()
    assert [a.seat for a in asks] == [0, 1] and asks[0].view["submitted"] == [False, False]
    d.answer(1, 0, 1)
    assert not d.complete and d.plies == 0
    d.answer(0, 0, 1)
    assert d.complete and len(d.settle()) == 2 and d.plies == 2


def test_a_wrong_answer_is_reasked_then_struck_with_the_fault_rng_move() -> None:
    d = _driver(policy=FaultPolicy(max_strikes=3, reasks=1))
    ask = d.ask()[0]
    first = d.answer(0, 99, 1)
    assert first.consequence == "reask" and first.fault and first.fault.kind == "illegal_action"
    second = d.answer(0, "{not json", 2)
    assert second.consequence == "random_move" and second.strikes == 1 and second.fault
    assert second.fault.kind == "malformed_answer"
    d.answer(1, 0, 1)
    applied = dict(d.settle())
    assert applied[0] == fault_rng(1).choice(ask.legal)
    assert d.strikes == [1, 0] and d.faults[0]["fault"].startswith("malformed_answer: decision 1:")


def test_the_strike_past_the_limit_forfeits() -> None:
    d = _driver(policy=FaultPolicy(max_strikes=0, reasks=0))
    d.ask()
    assert d.answer(0, {"type": "nope"}, 1).consequence == "forfeit"
    d.answer(1, 0, 1)
    assert d.settle() == [] and d.over
    outcome = d.finish()
    assert outcome.reason == "forfeit" and "1 strikes, last: illegal_action" in outcome.forfeits[0]
    verify(d.replay, GAME)


def test_a_lost_seat_forfeits_at_once_and_drops_the_open_batch() -> None:
    d = _driver()
    d.ask()
    d.fail(1, Fault("timeout", "x"), 3)  # not settled: dropped with the batch
    d.lose(0, "the bot exited with code 3 during the match")
    assert d.over and d.ask() == []
    outcome = d.finish()
    assert outcome.forfeits == {0: "the bot exited with code 3 during the match"} and d.faults == []


def test_late_answers_are_timeouts_and_the_bank_pays_for_slow_ones() -> None:
    d = _driver(time_control=TimeControl(per_decision_ms=100, bank_ms=50))
    asks = d.ask()
    assert asks[0].deadline_ms == 150 and asks[0].time_bank_ms == 50
    assert d.answer(0, 0, 130).consequence == "accepted"  # 30 ms from the bank
    v = d.answer(1, 0, 151)
    assert v.consequence == "random_move" and v.fault == Fault("timeout", "no answer within 150 ms")
    d.settle()
    assert d.deadline_ms(0) == 120


def test_answers_resolve_the_same_from_an_index_an_object_or_its_json_text() -> None:
    d = _driver()
    ask = d.ask()[0]
    action = ask.legal[1]
    import json

    assert resolve_answer(ask, 1) == resolve_answer(ask, action) == resolve_answer(
        ask, json.dumps(action)) == 1
    assert isinstance(resolve_answer(ask, None), Fault)
    assert resolve_answer(ask, "x" * 100, max_action_bytes=10) == Fault(
        "oversized", "decision 1: action_json is larger than 10 bytes")


def test_passing_the_safety_limit_is_an_engine_bug() -> None:
    d = _driver()
    d.limit = 1
    d.ask()
    d.answer(0, 0, 1)
    d.answer(1, 0, 1)
    with pytest.raises(EngineBug, match="safety limit"):
        d.settle()


@pytest.mark.parametrize("every", [1, 2, 50])
def test_checkpoints_left_to_idle_time_are_the_same(every: int) -> None:
    """The referee calls ``idle`` once a batch is sent (the due checkpoint, the log's text encoded
    ahead); the in-process runner never does. Same checkpoints, mid-batch ones included (every=1:
    sealed_bids settles two plies at once), and the digests still verify."""

    def play(idle: bool) -> MatchDriver:
        d = _driver(checkpoint_every=every)
        while not d.over:
            asks = d.ask()
            if idle:
                d.idle()
                d.idle()  # twice changes nothing
            for a in asks:
                d.answer(a.seat, 0, 5)
            d.settle()
        d.finish()
        return d

    lazy, eager = play(False), play(True)
    assert lazy.replay.checkpoints == eager.replay.checkpoints
    plies = [c["ply"] for c in eager.replay.checkpoints]
    assert plies[0] == 0 and plies[-1] == eager.plies and len(plies) == len(set(plies))
    assert len(plies) == (eager.plies // every + 1 + (eager.plies % every > 0))
    assert verify(eager.replay, GAME).checkpoints == len(plies)
