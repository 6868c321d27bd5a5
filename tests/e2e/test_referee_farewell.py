"""Protocol fixes of issue 19, against a real referee process: Goodbye on shutdown, a re-sent decision
marked as such with its events sent once, and the MatchEnd a bot missed while it was away."""
from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from referee.engine import TimeControl
from referee.matchspec import MatchSpec, RefereeUnavailable, SeatSpec
from referee.protocol import bot_pb2, bot_pb2_grpc

from .conftest import PY_BOT, ROOT, RunningReferee, start_referee

pytestmark = pytest.mark.e2e


class RawBot:
    """A bot speaking the protocol by hand: every message it gets goes to ``inbox``."""

    def __init__(self, address: str, token: str, capacity: int = 1, client: str = "raw") -> None:
        self.channel = grpc.insecure_channel(address)
        self.outbox: queue.Queue[bot_pb2.BotMessage | None] = queue.Queue()
        self.inbox: queue.Queue[bot_pb2.RefereeMessage | grpc.RpcError | None] = queue.Queue()
        hello = bot_pb2.Hello(token=token, capacity=capacity, client=client)
        self.outbox.put(bot_pb2.BotMessage(hello=hello))
        self.call = bot_pb2_grpc.BotServiceStub(self.channel).Connect(self._send())
        threading.Thread(target=self._recv, daemon=True).start()

    def _send(self) -> Iterator[bot_pb2.BotMessage]:
        while (msg := self.outbox.get()) is not None:
            yield msg

    def _recv(self) -> None:
        try:
            for msg in self.call:
                self.inbox.put(msg)
            self.inbox.put(None)
        except grpc.RpcError as exc:
            self.inbox.put(exc)

    def next(self, kind: str, timeout: float = 30) -> bot_pb2.RefereeMessage:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            assert isinstance(msg, bot_pb2.RefereeMessage), f"stream ended waiting for {kind}: {msg}"
            if msg.WhichOneof("kind") == kind:
                return msg

    def answer(self, d: bot_pb2.DecisionRequest, index: int = 0) -> None:
        self.outbox.put(bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id=d.match_id,
                                                                 decision_id=d.decision_id, index=index)))

    def drop(self) -> None:
        """The connection goes away (as a crash or a network cut would)."""
        self.call.cancel()
        self.channel.close()


@pytest.fixture
def ref(tmp_path: Path) -> Iterator[RunningReferee]:
    r = start_referee(tmp_path, "--reconnect-grace", "2")
    yield r
    r.stop()


def _run(ref: RunningReferee, spec: MatchSpec, out: list) -> threading.Thread:
    def go() -> None:
        try:
            out.append(ref.client.run_match(spec, timeout_s=120, live_wait_s=20))
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            out.append(exc)
    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t


def test_a_client_string_cannot_drive_the_organizers_terminal(ref: RunningReferee) -> None:
    """The Hello's free-text client string reaches the referee's log and `ListBots`: its control
    characters (an escape sequence retitles, clears or writes to the clipboard of the terminal showing
    it) arrive as "?"."""
    token = ref.client.register_bot("esc", ["clank"])
    bot = RawBot(ref.address, token, client="\x1b]0;pwned\x07\x1b[2Jevil\r\n\x9b31m")
    bot.next("welcome")
    clients = next(b["clients"] for b in ref.client.list_bots() if b["name"] == "esc")
    assert clients == ["?]0;pwned??[2Jevil???31m"], clients
    deadline = time.monotonic() + 10
    while "evil" not in ref.log_path.read_text(errors="replace") and time.monotonic() < deadline:
        time.sleep(0.1)
    log_text = ref.log_path.read_bytes()
    assert b"evil" in log_text and not any(c in log_text for c in (b"\x1b", b"\x07", b"\r", b"\xc2\x9b"))
    bot.drop()


def test_reconnect_resends_the_decision_marked_and_without_its_events(ref: RunningReferee) -> None:
    token = ref.client.register_bot("raw")
    bot = RawBot(ref.address, token)
    bot.next("welcome")
    result: list = []
    t = _run(ref, MatchSpec("resend-1", "sealed_bids", 3,
                            [SeatSpec("raw"), SeatSpec("r", command=f"{PY_BOT} random")],
                            time_control=TimeControl(per_decision_ms=20_000)), result)
    first = bot.next("decision").decision
    assert not first.resent and json.loads(first.events_json), "the first sending carries the events"
    bot.drop()
    again = RawBot(ref.address, token)
    again.next("welcome")
    start = again.next("match_start").match_start
    assert start.resumed and start.match_id == "resend-1"
    d = again.next("decision").decision
    assert d.resent and d.decision_id == first.decision_id and d.attempt == 0
    assert json.loads(d.events_json) == [] and d.legal_json == first.legal_json
    assert 0 < d.deadline_ms <= first.deadline_ms
    again.answer(d)
    while True:  # play it out
        msg = again.inbox.get(timeout=30)
        assert isinstance(msg, bot_pb2.RefereeMessage)
        if msg.WhichOneof("kind") == "decision":
            assert not msg.decision.resent
            again.answer(msg.decision)
        elif msg.WhichOneof("kind") == "match_end":
            break
    t.join(60)
    assert result[0].outcome["reason"] == "normal", result


def test_a_bot_back_after_the_grace_period_gets_its_match_end(ref: RunningReferee) -> None:
    token = ref.client.register_bot("away")
    bot = RawBot(ref.address, token)
    bot.next("welcome")
    result: list = []
    t = _run(ref, MatchSpec("away-1", "sealed_bids", 3,
                            [SeatSpec("away"), SeatSpec("r", command=f"{PY_BOT} random")],
                            time_control=TimeControl(per_decision_ms=20_000)), result)
    bot.next("decision")
    bot.drop()
    t.join(60)  # 2 s of grace, then the seat forfeits and the match ends
    assert result[0].outcome["forfeits"]["0"].startswith("disconnected"), result
    back = RawBot(ref.address, token)
    back.next("welcome")
    end = back.next("match_end", timeout=10).match_end
    assert end.match_id == "away-1" and end.seat == 0
    assert json.loads(end.outcome_json)["reason"] == "forfeit"
    back.drop()
    once_more = RawBot(ref.address, token)  # owed once, not on every session
    once_more.next("welcome")
    with pytest.raises(queue.Empty):
        once_more.next("match_end", timeout=1.5)
    once_more.drop()


def test_shutdown_says_goodbye_and_fails_running_matches_retryably(tmp_path: Path) -> None:
    ref = start_referee(tmp_path)
    bot = None
    try:
        token = ref.client.register_bot("live")
        env = {k: v for k, v in ref.env.items() if k != "ARENA_ORGANIZER_TOKEN"}
        bot = subprocess.Popen([sys.executable, "-m", "bots.serve", "random", "--live", "--address",
                                ref.address, "--token", token, "-v"], env=env, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
        deadline = time.monotonic() + 30
        while not any(b["name"] == "live" and b["sessions"] for b in ref.client.list_bots()):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        result: list = []
        t = _run(ref, MatchSpec("long-1", "dungeon_twister", 3,
                                [SeatSpec("live"), SeatSpec("r", command=f"{PY_BOT} random")],
                                time_control=TimeControl(per_decision_ms=20_000)), result)
        while not any(m["match_id"] == "long-1" and m["ply"] > 0 for m in ref.client.list_matches()):
            assert time.monotonic() < deadline + 30
            time.sleep(0.05)
        ref.proc.send_signal(signal.SIGTERM)
        assert ref.proc.wait(30) == 0
        t.join(30)
        assert isinstance(result[0], RefereeUnavailable) and "shutting down" in str(result[0]), result
        try:
            bot.wait(20)  # Goodbye: the bot ends instead of retrying a dead address
        except subprocess.TimeoutExpired:
            bot.kill()
        err = bot.stderr.read()
        assert bot.wait() == 0, err
        assert "referee says goodbye: shutdown" in err, err
        log = ref.log()
        assert "Traceback" not in log and "CancelledError" not in log, log
        assert "told goodbye" in log
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait(10)
        ref.stop()


def test_a_bot_that_floods_after_goodbye_cannot_hold_the_shutdown(tmp_path: Path) -> None:
    """After Goodbye the stream stays open until the bot hangs up (an answer in flight must not end it with an
    error before the bot reads Goodbye), but only for the linger: a bot that keeps sending and never hangs up
    has its messages dropped and its stream ended OK, and the referee still stops."""
    from referee.service.server import LINGER_S

    ref = start_referee(tmp_path)
    bot = RawBot(ref.address, ref.client.register_bot("flood"))
    bot.next("welcome")
    t0 = time.monotonic()
    ref.proc.send_signal(signal.SIGTERM)
    assert bot.next("goodbye", timeout=10).goodbye.reason == "shutdown"
    for i in range(20_000):
        bot.outbox.put(bot_pb2.BotMessage(ping=bot_pb2.Ping(nonce=i)))
    assert ref.proc.wait(30) == 0
    assert time.monotonic() - t0 < LINGER_S + 10
    while isinstance(end := bot.inbox.get(timeout=10), bot_pb2.RefereeMessage):
        assert end.WhichOneof("kind") != "pong", "a message after Goodbye was acted on"
    assert end is None, end  # status OK, not an error
    log = ref.log()
    assert "Traceback" not in log and "(flood) closed: shutdown" in log, log
