"""SDK pieces that need no server: answers, views, the JSON-lines parser, wire conversions."""
from __future__ import annotations

import json

import pytest

from bots.sdk import View, actions_of
from bots.sdk.bridge import parse_answer
from bots.sdk.client import answer_message, start_seed, to_match_start, to_request
from referee.engine import DecisionRequest, TimeControl
from referee.matchspec import MatchSpec, SeatSpec
from referee.protocol import bot_pb2
from referee.service.convert import spec_from_proto, spec_to_proto


def _req() -> DecisionRequest:
    return DecisionRequest("m", 7, "g", 1, {"hand": [1, 2], "me": {"hp": 3}},
                           [{"type": "bid", "card": 1}, {"type": "pass"}, {"type": "bid", "card": 2}], [])


def test_answer_message_index_action_and_raw() -> None:
    r = _req()
    assert answer_message(r, 2).answer.index == 2
    a = answer_message(r, {"type": "pass"}).answer
    assert a.WhichOneof("choice") == "action_json" and json.loads(a.action_json) == {"type": "pass"}
    assert answer_message(r, "garbage").answer.action_json == "garbage"
    assert answer_message(r, 0).answer.WhichOneof("choice") == "index"  # index 0 is still sent


def test_view_and_actions_of() -> None:
    r = _req()
    v = View(r.view)
    assert v.hand == [1, 2] and v.me.hp == 3
    with pytest.raises(AttributeError, match="no field 'nope'"):
        _ = v.nope
    assert actions_of(r, "bid") == [(0, {"type": "bid", "card": 1}), (2, {"type": "bid", "card": 2})]


@pytest.mark.parametrize("line, expected", [
    ('{"index": 3}\n', 3),
    ('{"action": {"type": "pass"}}', {"type": "pass"}),
    ('{"index": -1}', '{"index": -1}'),
    ('{"index": true}', '{"index": true}'),
    ("not json", "not json"),
    ("[1, 2]", "[1, 2]"),
])
def test_bridge_parse_answer(line: str, expected: object) -> None:
    assert parse_answer(line) == expected


def test_wire_conversions_round_trip() -> None:
    spec = MatchSpec("m1", "sealed_bids", 5,
                     [SeatSpec("a", "python -m bots.serve random", "/tmp", {"X": "1"}),
                                              SeatSpec("b")], {"rounds": 2}, TimeControl(300, 1000))
    assert spec_from_proto(spec_to_proto(spec)) == spec
    d = bot_pb2.DecisionRequest(match_id="m", decision_id=3, seat=1, game="g", view_json='{"a":1}',
                                legal_json='[{"type":"x"}]', events_json="[]", deadline_ms=50, legal_count=1)
    r = to_request(d)
    assert (r.view, r.legal, r.events, r.deadline_ms, r.seat) == ({"a": 1}, [{"type": "x"}], [], 50, 1)
    s = to_match_start(bot_pb2.MatchStart(match_id="m", game="g", options_json='{"k":2}', seat=1, players=2,
                                          bots=["a", "b"], bot_seed=9,
                                          time_control=bot_pb2.TimeControl(per_decision_ms=5)))
    assert s.options == {"k": 2} and s.time_control.per_decision_ms == 5 and start_seed(s) == 9


def test_a_session_that_is_not_read_is_closed() -> None:
    import asyncio

    import grpc

    from referee.service.sessions import Session

    async def go() -> None:
        s = Session("s", "b", None, 1, "")
        s.kill = asyncio.get_running_loop().create_future()
        s.MAX_QUEUED = 5
        for i in range(6):
            s.send(bot_pb2.RefereeMessage(ping=bot_pb2.Ping(nonce=i)))
        assert s.closed and s.kill.done()
        assert s.kill.result().code == grpc.StatusCode.ABORTED
        s.send(bot_pb2.RefereeMessage(ping=bot_pb2.Ping(nonce=99)))  # ignored once closed
        assert s.out.qsize() == 7  # 6 pings + the Close marker

    asyncio.run(go())


def test_bots_never_receive_the_game_seed() -> None:
    """The game's seed fixes every hidden deck: bots get a keyed per-seat seed instead."""
    from referee.engine import get_game, register
    from referee.matchspec import MatchSpec, SeatSpec
    from referee.service.config import RefereeConfig
    from referee.service.match import LiveMatch as Match
    from tests.fixtures.sealed_bids import GAME

    register(GAME)
    spec = MatchSpec("m-1", "sealed_bids", 7, [SeatSpec("a"), SeatSpec("b")])
    game = get_game("sealed_bids")
    m1 = Match(spec, game, game.new_state(2, None, 7), RefereeConfig())
    m2 = Match(spec, game, game.new_state(2, None, 7), RefereeConfig())
    seeds = [m1.bot_seed(0), m1.bot_seed(1), m2.bot_seed(0)]
    assert 7 not in seeds and len(set(seeds)) == 3, "per seat, and keyed per referee"
    assert "seed" not in bot_pb2.MatchStart.DESCRIPTOR.fields_by_name
