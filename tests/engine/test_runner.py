"""The in-process runner: requests carry only the seat's view; faults get strikes, then forfeit."""
from __future__ import annotations

import time
from typing import Any

from bots.random_bot import RandomBot
from bots.sdk import Bot, DecisionRequest
from referee.engine import TimeControl, run_match, verify
from tests.fixtures.sealed_bids import GAME


class Recorder(RandomBot):
    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.requests: list[DecisionRequest] = []
        self.ended: dict[str, Any] | None = None

    def act(self, request: DecisionRequest) -> int:
        self.requests.append(request)
        return super().act(request)

    def end(self, outcome: dict[str, Any]) -> None:
        self.ended = outcome


class Crasher(Bot):
    def act(self, request: DecisionRequest) -> int:
        raise RuntimeError("boom")


class Quitter(Bot):
    def act(self, request: DecisionRequest) -> int:
        raise SystemExit(3)


class Sleeper(Bot):
    def act(self, request: DecisionRequest) -> int:
        time.sleep(0.03)
        return 0


class Liar(Bot):
    def act(self, request: DecisionRequest) -> dict[str, Any]:
        return {"type": "bid", "card": 10_000}


def test_requests_carry_own_view_and_filtered_events() -> None:
    a, b = Recorder(1), Recorder(2)
    result = run_match(GAME, [a, b], seed=3)
    assert a.ended == result.outcome.to_json() == b.ended
    for req in a.requests:
        assert req.seat == 0 and "hand" in req.view
        assert req.legal and all(x["type"] in ("bid", "take") for x in req.legal)
        assert all(e["type"] != "drew" or "card" in e for e in req.events)
    # Seat 0 is told the card of each of its own draws and of nobody else's.
    drew = [e for r in a.requests for e in r.events if e["type"] == "drew"]
    own_draws = [e for r in a.requests for e in r.events if e["type"] == "draw" and e["seat"] == 0]
    all_draws = [e for r in a.requests for e in r.events if e["type"] == "draw"]
    assert drew and len(drew) == len(own_draws) < len(all_draws)
    ids = [r.decision_id for r in a.requests + b.requests]
    assert len(ids) == len(set(ids)), "decision ids are unique"


def test_simultaneous_requests_are_built_before_any_answer() -> None:
    a, b = Recorder(1), Recorder(2)
    run_match(GAME, [a, b], seed=4)
    first_a, first_b = a.requests[0], b.requests[0]
    assert first_a.view["submitted"] == [False, False] and first_b.view["submitted"] == [False, False]


def test_crashing_bot_gets_strikes_then_forfeits() -> None:
    result = run_match(GAME, [Crasher(), RandomBot(1)], seed=5)
    assert result.outcome.reason == "forfeit"
    assert result.outcome.forfeits and 0 in result.outcome.forfeits
    assert result.outcome.ranks == [2, 1]
    assert result.strikes[0] == 4 and "bot_error" in result.faults[0]["fault"]
    verify(result.replay, GAME)  # a forfeited match still re-simulates to its recorded outcome


def test_a_bot_that_exits_forfeits_at_once() -> None:
    result = run_match(GAME, [RandomBot(1), Quitter()], seed=5)
    assert result.outcome.forfeits == {1: "the bot exited with code 3 during the match"}
    assert result.plies == 0 and not result.faults
    verify(result.replay, GAME)


def test_illegal_answer_is_replaced_by_a_random_move() -> None:
    result = run_match(GAME, [Liar(), RandomBot(1)], seed=6, options={"rounds": 1})
    assert result.faults and result.faults[0]["fault"].startswith("illegal_action")
    assert result.outcome.reason in ("normal", "forfeit")


def test_late_answers_are_faults() -> None:
    result = run_match(GAME, [Sleeper(), RandomBot(1)], seed=7, time_control=TimeControl(per_decision_ms=5),
                       options={"rounds": 1})
    assert any(f["fault"].startswith("timeout") for f in result.faults)


def test_event_fields_cannot_shadow_the_type_tag() -> None:
    import pytest

    from referee.engine import EventLog

    log = EventLog()
    log.public("move", kind="pawn", to="r1")  # 'kind' is an ordinary data field
    assert log.since("public") == [{"type": "move", "kind": "pawn", "to": "r1"}]
    with pytest.raises(ValueError):
        log.private(0, "draw", type="card")
