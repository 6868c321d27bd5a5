"""The rogue-bot suite: every wrong thing a bot can do gets its documented consequence
(docs/protocol.md, "Errors"), while a well-behaved match runs beside it undisturbed.

Rogue bots are hosted processes (tests/e2e/rogue_bot.py MODE) that log every message they get
to stderr as JSON lines, so each test reads the typed errors from the match report's logs.
Deadlines are 300 ms; the referee runs with a 1 s reconnect grace.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from referee.engine import Replay, TimeControl, register, verify
from referee.matchspec import MatchReport, MatchSpec, SeatSpec
from referee.protocol import bot_pb2, bot_pb2_grpc
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

from .conftest import RunningReferee, start_referee

pytestmark = pytest.mark.e2e
register(SEALED_BIDS)

ROGUE = f"{sys.executable} {Path(__file__).with_name('rogue_bot.py')}"
TC = TimeControl(per_decision_ms=1_000)  # room for a loaded machine: a late answer would add a timeout strike
MAX_STRIKES = 3


@pytest.fixture(scope="module")
def ref(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningReferee]:
    # a low flood limit, so that even a slow machine's rogue outpaces it (answers are exempt)
    r = start_referee(tmp_path_factory.mktemp("rogue-referee"), "--reconnect-grace", "1", "--live-wait", "5",
                      "--flood-rate", "50", "--flood-burst", "50")
    yield r
    r.stop()


@pytest.fixture(scope="module")
def house(ref: RunningReferee) -> Iterator[str]:
    """A live random bot (one process, several matches at once): the rogues' opponent and the bystanders."""
    token = ref.client.register_bot("house", ["sealed_bids"])
    env = {k: v for k, v in ref.env.items() if k != "ARENA_ORGANIZER_TOKEN"}
    proc = subprocess.Popen([sys.executable, "-m", "bots.serve", "random", "--live", "--capacity", "6",
                             "--address", ref.address, "--token", token], env=env)
    yield "house"
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module", autouse=True)
def bystander(ref: RunningReferee, house: str) -> Iterator[list[MatchReport]]:
    """Well-behaved matches played back to back for the whole module: none may see a fault."""
    from referee.client import RefereeClient

    reports: list[MatchReport] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def loop() -> None:
        with RefereeClient(ref.address, ref.organizer_token) as c:
            i = 0
            while not stop.is_set():
                i += 1
                spec = MatchSpec(f"bystander-{i}", "sealed_bids", i, [SeatSpec(house)] * 2,
                                 {"rounds": 5}, TimeControl(per_decision_ms=2_000))
                try:
                    reports.append(c.run_match(spec, timeout_s=60, live_wait_s=20))
                    stop.wait(0.25)  # leave the CPU to the rogues: the point is overlap, not load
                except BaseException as exc:  # noqa: BLE001
                    errors.append(exc)
                    return

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    yield reports
    stop.set()
    t.join(60)
    assert not errors, errors
    assert reports, "no bystander match finished during the rogue suite"
    for r in reports:
        assert r.outcome["reason"] == "normal", (r.match_id, r.outcome, r.logs.get("referee"))
        assert "faults" not in r.replay["meta"], (r.match_id, r.replay["meta"])
        verify(Replay.from_json(r.replay))


def play(ref: RunningReferee, mode: str, *, seed: int = 1, rounds: int = 5) -> MatchReport:
    spec = MatchSpec(f"rogue-{mode}-{seed}", "sealed_bids", seed,
                     [SeatSpec(f"rogue-{mode}", command=f"{ROGUE} {mode}"),
                      SeatSpec("house")], {"rounds": rounds}, TC)
    report = ref.client.run_match(spec, timeout_s=60, live_wait_s=20)
    verify(Replay.from_json(report.replay))  # whatever happened, the replay re-simulates
    return report


def got(report: MatchReport, seat: int = 0) -> list[dict]:
    out = []
    for line in report.logs.get(f"seat{seat}", "").splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))
    return out


def errors(report: MatchReport, seat: int = 0) -> list[tuple[str, str]]:
    return [(g["code"], g["consequence"]) for g in got(report, seat) if g["got"] == "error"]


def assert_forfeit(report: MatchReport, seat: int, why: str) -> None:
    assert report.outcome["reason"] == "forfeit", report.outcome
    assert why in report.outcome["forfeits"][str(seat)], report.outcome
    assert report.outcome["ranks"][seat] == max(report.outcome["ranks"])
    assert str(1 - seat) not in report.outcome["forfeits"]


def assert_strikes_then_forfeit(report: MatchReport, code: str) -> None:
    errs = [e for e in errors(report) if e[0] == code]
    assert errs.count((code, "RANDOM_MOVE")) == MAX_STRIKES, errs
    assert errs[-1] == (code, "FORFEIT"), errs
    assert_forfeit(report, 0, f"{MAX_STRIKES + 1} strikes, last: {code.lower()}")
    faults = report.replay["meta"]["faults"]
    assert [f["seat"] for f in faults] == [0] * (MAX_STRIKES + 1)


def test_well_behaved_rogue_harness(ref: RunningReferee) -> None:
    r = play(ref, "good")
    assert r.outcome["reason"] == "normal" and not errors(r)


def test_slow_bot_gets_random_moves_then_forfeits(ref: RunningReferee) -> None:
    r = play(ref, "slow")
    assert_strikes_then_forfeit(r, "TIMEOUT")
    # its late answers are stale: ignored, no extra strike
    assert ("STALE_DECISION", "IGNORED") in errors(r)


def test_silent_bot_times_out_and_forfeits(ref: RunningReferee) -> None:
    assert_strikes_then_forfeit(play(ref, "silent"), "TIMEOUT")


def test_illegal_index_is_reasked_then_random_then_forfeit(ref: RunningReferee) -> None:
    r = play(ref, "illegal")
    assert errors(r)[:2] == [("ILLEGAL_ACTION", "REASKED"), ("ILLEGAL_ACTION", "RANDOM_MOVE")]
    assert [g["attempt"] for g in got(r) if g["got"] == "decision"][:2] == [0, 1]
    assert_strikes_then_forfeit(r, "ILLEGAL_ACTION")


def test_illegal_action_object(ref: RunningReferee) -> None:
    r = play(ref, "illegal_action")
    assert_strikes_then_forfeit(r, "ILLEGAL_ACTION")
    messages = [g["message"] for g in got(r) if g["got"] == "error"]
    assert all("no_such_move" in m and "not in the legal list" in m for m in messages)


def test_malformed_answer(ref: RunningReferee) -> None:
    r = play(ref, "malformed")
    assert errors(r)[0] == ("MALFORMED_ANSWER", "REASKED")
    assert_strikes_then_forfeit(r, "MALFORMED_ANSWER")


def test_oversized_action_is_refused_in_stream(ref: RunningReferee) -> None:
    r = play(ref, "oversized")
    assert errors(r)[0] == ("OVERSIZED", "REASKED")
    assert_strikes_then_forfeit(r, "OVERSIZED")


def test_message_over_the_grpc_limit_ends_the_session(ref: RunningReferee) -> None:
    r = play(ref, "huge")
    assert any(g["got"] == "status" and g["code"] == "RESOURCE_EXHAUSTED" for g in got(r)), got(r)
    # the disconnect rule: deadlines keep running during the grace period, so whichever comes
    # first (the grace period ending, or a 4th timeout strike) forfeits the seat
    assert r.outcome["reason"] == "forfeit" and r.outcome["ranks"][0] == 2, r.outcome
    why = r.outcome["forfeits"]["0"]
    assert "did not reconnect" in why or "strikes, last: timeout" in why, why
    assert "disconnected" in r.logs["referee"]


def test_stale_decision_ids_are_ignored(ref: RunningReferee) -> None:
    r = play(ref, "stale")
    assert r.outcome["reason"] == "normal"
    assert set(errors(r)) == {("STALE_DECISION", "IGNORED")}
    assert "faults" not in r.replay["meta"]


def test_unknown_match_is_ignored(ref: RunningReferee) -> None:
    r = play(ref, "unknown_match")
    assert r.outcome["reason"] == "normal"
    assert set(errors(r)) == {("UNKNOWN_MATCH", "IGNORED")}


def test_claiming_another_seats_decisions(ref: RunningReferee) -> None:
    """Answers to decision ids addressed to the other seat are stale for this session: no effect
    on the other seat, and the error says nothing about whose decision it was."""
    r = play(ref, "claim")
    assert r.outcome["reason"] == "normal"
    assert set(errors(r)) == {("STALE_DECISION", "IGNORED")}
    assert "faults" not in r.replay["meta"]
    for g in got(r):
        if g["got"] == "error":
            assert "seat" not in g["message"]


def test_rogue_sees_only_its_own_hand(ref: RunningReferee) -> None:
    r = play(ref, "good", seed=3)
    final = Replay.from_json(r.replay)
    views = [g["view"] for g in got(r) if g["got"] == "decision"]
    assert views and all("hands" not in v and "deck" not in v and "prizes" not in v for v in views)
    assert all("hand" in v for v in views)
    assert final.seats[0]["bot"] == "rogue-good"


def test_flooding_closes_the_session_and_forfeits(ref: RunningReferee) -> None:
    r = play(ref, "flood")
    assert ("FLOODING", "IGNORED") in errors(r)
    # ABORTED, not RESOURCE_EXHAUSTED (gRPC's own size limit, after which a reconnect is allowed)
    assert any(g["got"] == "status" and g["code"] == "ABORTED" for g in got(r)), got(r)
    assert_forfeit(r, 0, "flooding")


def test_disconnect_then_reconnect_resumes_the_seat(ref: RunningReferee) -> None:
    r = play(ref, "reconnect")
    assert r.outcome["reason"] == "normal", r.outcome
    starts = [g for g in got(r) if g["got"] == "match_start"]
    assert [s["resumed"] for s in starts] == [False, True]
    assert "reconnected" in r.logs["referee"]


def test_disconnect_without_reconnect_forfeits_after_grace(ref: RunningReferee) -> None:
    r = play(ref, "drop")
    assert_forfeit(r, 0, "did not reconnect within 1s")


def test_hosted_bot_that_exits_forfeits_at_once(ref: RunningReferee) -> None:
    r = play(ref, "exit")
    assert_forfeit(r, 0, "exited with code 0")


def test_hosted_bot_that_cannot_start(ref: RunningReferee) -> None:
    spec = MatchSpec("nostart", "sealed_bids", 1, [SeatSpec("ghost", command="/nonexistent/bot --x"),
                                                   SeatSpec("house")], {}, TC)
    r = ref.client.run_match(spec, timeout_s=60, live_wait_s=20)
    assert_forfeit(r, 0, "exited with code 127")
    assert "cannot launch" in r.logs["seat0"]


# -- session-level faults (no match) -----------------------------------------------------------
def _connect(ref: RunningReferee, *msgs: bot_pb2.BotMessage) -> tuple[list[bot_pb2.RefereeMessage],
                                                                      grpc.RpcError | None]:
    with grpc.insecure_channel(ref.address) as ch:
        call = bot_pb2_grpc.BotServiceStub(ch).Connect(iter(msgs), timeout=5)
        got_msgs: list[bot_pb2.RefereeMessage] = []
        try:
            got_msgs.extend(call)
        except grpc.RpcError as exc:
            return got_msgs, exc
    return got_msgs, None


def test_wrong_token_is_unauthenticated(ref: RunningReferee) -> None:
    msgs, err = _connect(ref, bot_pb2.BotMessage(hello=bot_pb2.Hello(token="arena_not-a-token")))
    assert err is not None and err.code() == grpc.StatusCode.UNAUTHENTICATED and not msgs
    assert "token" in err.details()


def test_first_message_must_be_hello(ref: RunningReferee) -> None:
    _, err = _connect(ref, bot_pb2.BotMessage(ping=bot_pb2.Ping(nonce=1)))
    assert err is not None and err.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_answer_for_unknown_match_and_ping_on_a_live_session(ref: RunningReferee) -> None:
    token = ref.client.register_bot("prober", ["sealed_bids"])
    msgs, _ = _connect(ref, bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token)),
                         bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id="bystander-1", decision_id=1,
                                                                  index=0)),
                         bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token)),
                         bot_pb2.BotMessage(ping=bot_pb2.Ping(nonce=42)))
    kinds = [m.WhichOneof("kind") for m in msgs]
    assert kinds[0] == "welcome" and msgs[0].welcome.bot == "prober"
    errs = [m.error for m in msgs if m.WhichOneof("kind") == "error"]
    # another match's id is "not a match this session plays": nothing about that match leaks
    assert errs[0].code == bot_pb2.UNKNOWN_MATCH and errs[0].consequence == bot_pb2.IGNORED
    assert errs[1].code == bot_pb2.PROTOCOL_VIOLATION
    assert any(m.WhichOneof("kind") == "pong" and m.pong.nonce == 42 for m in msgs)


def test_revoked_token_is_refused(ref: RunningReferee) -> None:
    token = ref.client.register_bot("shortlived")
    ref.client.revoke_bot("shortlived")
    _, err = _connect(ref, bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token)))
    assert err is not None and err.code() == grpc.StatusCode.UNAUTHENTICATED


def test_referee_survived(ref: RunningReferee) -> None:
    assert ref.proc.poll() is None
    assert ref.client.health()
    assert "Traceback" not in ref.log()
