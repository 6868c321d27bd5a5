"""The remote forward model through a real referee (in-process, real gRPC): SDK bots, errors, limits,
malformed calls, the clock and other matches' share."""
from __future__ import annotations

import json
import queue
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from bots.sdk.examples.flat_mc import FlatMonteCarlo
from bots.sdk.remote_forward import RemoteForwardError, RemoteForwardModel
from bots.search.ismcts import Budget, SearchBot
from referee.client import RefereeClient
from referee.engine import DecisionRequest, TimeControl
from referee.matchspec import MatchSpec, SeatSpec
from referee.protocol import bot_pb2, bot_pb2_grpc
from referee.service.config import RefereeConfig
from referee.service.server import RefereeThread
from referee.service.tokens import TokenStore

from ..e2e.conftest import RunningReferee, start_referee
from .conftest import LiveBot

OP = bot_pb2.ForwardOp


def _referee(tmp_path, **cfg: Any) -> RefereeThread:  # type: ignore[no-untyped-def]
    config = RefereeConfig(reconnect_grace_s=0.2, live_wait_s=5.0, **cfg)
    return RefereeThread(config=config, store=TokenStore(f"sqlite:///{tmp_path / 'tokens.db'}"))


def _play(ref: RefereeThread | RunningReferee, name: str, factory: Any, game: str = "clank", seed: int = 3,
          per_decision_ms: int = 20_000, other: Any = None) -> tuple[Any, Any]:
    """One match: ``factory`` at seat 0 against a random-ish bot; returns (report, stats)."""
    with RefereeClient(ref.address, ref.organizer_token) as c:
        token = c.register_bot(name, [game])
        opp = c.register_bot(name + "-opp", [game])
        bot = LiveBot(factory, ref.address, token)
        rnd = LiveBot(other or (lambda start: _First()), ref.address, opp)
        try:
            spec = MatchSpec(f"fm-{name}", game, seed, [SeatSpec(name), SeatSpec(name + "-opp")],
                             time_control=TimeControl(per_decision_ms=per_decision_ms))
            report = c.run_match(spec, timeout_s=180, live_wait_s=10)
        finally:
            bot.stop()
            rnd.stop()
    return report, bot.stats


class _First:
    """Answers 0 (deterministic, fast)."""

    def start(self, info: Any) -> None:
        pass

    def act(self, request: DecisionRequest) -> int:
        return (request.decision_id * 7) % len(request.legal)

    def end(self, outcome: Any) -> None:
        pass


def test_flat_monte_carlo_plays_through_the_referee_and_handles_go_at_the_end(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bots: list[FlatMonteCarlo] = []

    def make(start: Any) -> FlatMonteCarlo:
        b = FlatMonteCarlo(7)
        b.per_action, b.max_simulations, b.depth = 2, 8, 40
        bots.append(b)
        return b

    with _referee(tmp_path) as ref:
        seen: list[Any] = []
        stop = threading.Event()

        def watch() -> None:  # keep the LiveMatch object, to look at it after the end
            while not stop.is_set() and not seen:
                seen.extend(ref.referee.matches.values())
                time.sleep(0.01)

        t = threading.Thread(target=watch, daemon=True)
        t.start()
        report, stats = _play(ref, "flat", make)
        stop.set()
        t.join(5)
    assert report.outcome["reason"] in ("normal", "safety_limit")
    assert not report.outcome.get("forfeits")
    assert stats.errors == [] and bots and bots[0].simulations > 50
    assert isinstance(bots[0].fm, RemoteForwardModel) and bots[0].fm.decisions > 0
    assert seen and seen[0].forward == {}, "forward handles outlived the match"


def test_search_bot_gets_remote_samples_through_bind_sampler(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bots: list[SearchBot] = []

    def make(start: Any) -> SearchBot:
        b = SearchBot(5, Budget(iterations=12))
        bots.append(b)
        return b

    with _referee(tmp_path) as ref:
        report, stats = _play(ref, "search", make, game="sealed_bids", seed=4)
    assert report.outcome["reason"] in ("normal", "safety_limit") and not report.outcome.get("forfeits")
    assert stats.errors == [] and bots[0].iterations_done > 20


# -- the raw protocol: errors, limits, malformed calls
# --------------------------------------------------------
class RawBot:
    """A bare protocol client on a thread (no SDK): send messages, read replies in order."""

    def __init__(self, address: str, token: str, capacity: int = 1) -> None:
        self.q: queue.Queue[bot_pb2.BotMessage | None] = queue.Queue()
        self.channel = grpc.insecure_channel(address)
        self.inbox: queue.Queue[tuple[float, bot_pb2.RefereeMessage]] = queue.Queue()
        self.last_t = 0.0  # when the message ``next`` returned arrived
        self.backlog: list[tuple[float, bot_pb2.RefereeMessage]] = []
        self.q.put(bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token, capacity=capacity)))
        self.stream = bot_pb2_grpc.BotServiceStub(self.channel).Connect(iter(self.q.get, None))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self._ids = iter(range(1, 1 << 30))

    def _read(self) -> None:
        try:
            for msg in self.stream:
                self.inbox.put((time.monotonic(), msg))
        except grpc.RpcError:
            pass

    def next(self, kind: str, timeout: float = 30) -> Any:
        """The next message of ``kind`` (others are kept, in order, for a later ``next``)."""
        for i, (t, msg) in enumerate(self.backlog):
            if msg.WhichOneof("kind") == kind:
                del self.backlog[i]
                self.last_t = t
                return getattr(msg, kind)
        end = time.monotonic() + timeout
        while True:
            t, msg = self.inbox.get(timeout=max(0.01, end - time.monotonic()))
            if msg.WhichOneof("kind") == kind:
                self.last_t = t
                return getattr(msg, kind)
            if msg.WhichOneof("kind") == "ping":
                self.q.put(bot_pb2.BotMessage(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
            else:
                self.backlog.append((t, msg))

    def call(self, d: Any, ops: list[bot_pb2.ForwardOp], *, match_id: str | None = None,
             decision_id: int | None = None) -> bot_pb2.ForwardReply:
        cid = next(self._ids)
        self.q.put(bot_pb2.BotMessage(forward=bot_pb2.ForwardCall(
            call_id=cid, match_id=d.match_id if match_id is None else match_id,
            decision_id=d.decision_id if decision_id is None else decision_id, ops=ops)))
        reply = self.next("forward")
        assert reply.call_id == cid
        return reply

    def answer(self, d: Any, index: int = 0) -> None:
        self.q.put(bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id=d.match_id, decision_id=d.decision_id,
                                                             index=index)))

    def close(self) -> None:
        self.q.put(None)
        self.stream.cancel()
        self.channel.close()


class _Match:
    """A match on a thread: seat 0 is a RawBot, seat 1 a live SDK bot answering at once."""

    def __init__(self, ref: RefereeThread | RunningReferee, name: str, game: str = "sealed_bids",
                 per_decision_ms: int = 30_000) -> None:
        self.client = RefereeClient(ref.address, ref.organizer_token)
        self.raw = RawBot(ref.address, self.client.register_bot(name, [game]))
        self.opp = LiveBot(lambda start: _First(), ref.address, self.client.register_bot(name + "-o", [game]))
        self.report: Any = None
        spec = MatchSpec(f"raw-{name}", game, 11, [SeatSpec(name), SeatSpec(name + "-o")],
                         time_control=TimeControl(per_decision_ms=per_decision_ms))

        def run() -> None:
            self.report = self.client.run_match(spec, timeout_s=120, live_wait_s=10)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def decision(self) -> Any:
        return self.raw.next("decision")

    def finish(self) -> Any:
        """Answer every later decision at once until the end."""
        while self.thread.is_alive():
            try:
                self.raw.answer(self.raw.next("decision", timeout=0.2))
            except queue.Empty:
                continue
        return self.abandon()

    def abandon(self) -> Any:
        """Close the raw bot's stream (its seat forfeits after the grace period) and wait for the end."""
        self.raw.close()
        self.thread.join(60)
        self.opp.stop()
        self.client.close()
        return self.report


@pytest.fixture()
def small_limits(tmp_path) -> Iterator[RefereeThread]:  # type: ignore[no-untyped-def]
    with _referee(tmp_path, forward_max_handles=6, forward_max_decisions=10, forward_max_ops=50,
                  forward_max_snapshots=3) as ref:
        yield ref


def test_errors_are_typed_and_the_match_goes_on(small_limits: RefereeThread) -> None:
    m = _Match(small_limits, "errs")
    d = m.decision()
    raw = m.raw
    r = raw.call(d, [OP(op=bot_pb2.OP_SAMPLE, k=2, seed="a"), OP(op=bot_pb2.OP_LEGAL, handle=1, seat=d.seat)])
    assert r.error == bot_pb2.FORWARD_OK and list(r.results[0].handles) == [1, 2]
    assert json.loads(r.results[1].json) == json.loads(d.legal_json), "the sample's legal list is the seat's"
    assert r.live_handles == 2
    # the same seed gives the same samples (snapshots), another seed others
    s1 = raw.call(d, [OP(op=bot_pb2.OP_SAMPLE, k=1, seed="x", snapshots=True)]).results[0].snapshots_json
    s2 = raw.call(d, [OP(op=bot_pb2.OP_SAMPLE, k=1, seed="x", snapshots=True)]).results[0].snapshots_json
    assert s1 == s2 and json.loads(s1[0])["game"] == "sealed_bids"
    cases = [
        ([OP(op=bot_pb2.OP_LEGAL, handle=99, seat=0)], bot_pb2.FORWARD_BAD_HANDLE),
        ([OP(op=bot_pb2.OP_APPLY, handle=1, seat=d.seat, index=10_000)], bot_pb2.FORWARD_ILLEGAL_ACTION),
        ([OP(op=bot_pb2.OP_APPLY, handle=1, seat=d.seat, action_json='{"type": "nope"}')],
         bot_pb2.FORWARD_ILLEGAL_ACTION),
        ([OP(op=bot_pb2.OP_APPLY, handle=1, seat=d.seat, action_json="[1]")], bot_pb2.FORWARD_BAD_OP),
        ([OP(op=bot_pb2.OP_APPLY, handle=1, seat=d.seat)], bot_pb2.FORWARD_BAD_OP),
        ([OP(op=bot_pb2.OP_VIEW, handle=1, seat=7)], bot_pb2.FORWARD_BAD_OP),
        ([OP(op=bot_pb2.OP_SAMPLE, k=0)], bot_pb2.FORWARD_BAD_OP),
        ([OP(op=77)], bot_pb2.FORWARD_BAD_OP),
        ([OP()], bot_pb2.FORWARD_BAD_OP),
        ([OP(op=bot_pb2.OP_SAMPLE, k=5)], bot_pb2.FORWARD_HANDLE_LIMIT),
        ([OP(op=bot_pb2.OP_SAMPLE, k=4, snapshots=True)], bot_pb2.FORWARD_TOO_MANY_OPS),
        ([OP(op=bot_pb2.OP_PENDING, handle=1)] * 51, bot_pb2.FORWARD_TOO_MANY_OPS),
    ]
    for ops, code in cases:
        r = raw.call(d, ops)
        assert r.error == code, (ops[0], r)
        assert r.message and "Traceback" not in r.message
    # ops run in order and stop at the first failure: the release before the bad op happened
    r = raw.call(d, [OP(op=bot_pb2.OP_RELEASE, handles=[2]), OP(op=bot_pb2.OP_CLONE, handle=2),
                     OP(op=bot_pb2.OP_PENDING, handle=1)])
    assert r.error == bot_pb2.FORWARD_BAD_HANDLE and len(r.results) == 2 and r.live_handles == 1
    # another match / decision / a decision not yet sent: refused as a whole
    for kw in ({"match_id": "nope"}, {"decision_id": d.decision_id + 1000}):
        r = raw.call(d, [OP(op=bot_pb2.OP_SAMPLE, k=1)], **kw)
        assert r.error == bot_pb2.FORWARD_NO_DECISION and not r.results
    # the simulated-decision budget (10 a match): a playout to the end passes it
    r = raw.call(d, [OP(op=bot_pb2.OP_PLAYOUT, handle=1, seed="p")])
    assert r.error == bot_pb2.FORWARD_DECISION_LIMIT and r.decisions_used > 10
    raw.answer(d)
    # after the answer, the decision's handles are no longer served
    r = raw.call(d, [OP(op=bot_pb2.OP_PENDING, handle=1)])
    assert r.error == bot_pb2.FORWARD_NO_DECISION
    d2 = m.decision()
    r = raw.call(d2, [OP(op=bot_pb2.OP_PENDING, handle=1)])
    assert r.error == bot_pb2.FORWARD_BAD_HANDLE, "handles belong to their decision"
    raw.answer(d2)
    report = m.finish()
    assert report.outcome["reason"] in ("normal", "safety_limit") and not report.outcome.get("forfeits")


def test_memory_cap(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with _referee(tmp_path, forward_memory_mb=1) as ref:
        m = _Match(ref, "mem")
        d = m.decision()
        r = m.raw.call(d,
                       [OP(op=bot_pb2.OP_SAMPLE, k=1, seed="s"), OP(op=bot_pb2.OP_SAMPLE, k=4000, seed="t")])
        assert r.error == bot_pb2.FORWARD_MEMORY_LIMIT and "memory limit" in r.message
        assert r.live_handles == 1
        m.raw.answer(d)
        m.finish()


def test_fuzzed_calls_never_break_the_referee(small_limits: RefereeThread) -> None:
    m = _Match(small_limits, "fuzz")
    d = m.decision()
    rng = random.Random(21)
    for _ in range(60):
        ops = []
        for _ in range(rng.randint(0, 8)):
            ops.append(OP(op=rng.randint(0, 12), handle=rng.choice([0, 1, 2, 3, 2**63]),
                          seat=rng.choice([0, 1, 5, 2**31]),
                          k=rng.choice([0, 1, 2, 3, 10**6]), seed=rng.choice(["", "x", "\u00e9" * 50]),
                          max_decisions=rng.choice([0, 1, 2**31]), handles=[rng.randint(0, 5)],
                          all=rng.random() < 0.1, snapshots=rng.random() < 0.2,
                          **rng.choice([{}, {"index": rng.randint(0, 50)},
                                        {"action_json": rng.choice(["{", "null", '{"type":1}',
                                                                    "[]" * 10, "{}"])}])))
        r = m.raw.call(d, ops)
        assert r.error in bot_pb2.ForwardError.values()
    m.raw.answer(d)
    report = m.finish()
    assert report.outcome["reason"] in ("normal", "safety_limit") and not report.outcome.get("forfeits")


def test_a_bot_simulating_flat_out_cannot_extend_its_deadline_or_stall_other_matches(tmp_path) -> None:  # type: ignore[no-untyped-def]
    limit_s = 2.5
    # the referee in its own process, as deployed: in a thread it would share this process's GIL with the
    # bystander's bots, and the test would time the GIL hand-offs, not the referee's slicing
    ref = start_referee(tmp_path / "referee", "--reconnect-grace", "0.2")
    try:
        m = _Match(ref, "hog", game="clank", per_decision_ms=int(limit_s * 1000))
        d = m.decision()
        t0 = m.raw.last_t
        # calls queued back to back, each 64 full Clank playouts on the 64 samples it draws (handles are
        # numbered from 1 in order: a playout of an already finished handle would cost nothing), 16
        # calls: far more than the decision's time even on a quiet machine
        calls = 16
        for i in range(calls):
            ops = [OP(op=bot_pb2.OP_SAMPLE, k=64, seed=f"h{i}")] + [
                OP(op=bot_pb2.OP_PLAYOUT, handle=h, seed=str(h)) for h in range(64 * i + 1, 64 * i + 65)]
            m.raw.q.put(bot_pb2.BotMessage(forward=bot_pb2.ForwardCall(call_id=100 + i, match_id=d.match_id,
                                                                        decision_id=d.decision_id, ops=ops)))
        # meanwhile another match plays to the end, with a 2 s limit per decision
        report, _ = _play(ref, "bystander", lambda start: _First(), game="sealed_bids", seed=2,
                          per_decision_ms=2000)
        bystander_done = time.monotonic() - t0
        err = m.raw.next("error")
        late = m.raw.last_t - t0
        codes = [m.raw.next("forward").error for _ in range(calls)]
        m.abandon()
    finally:
        ref.stop()
    assert not report.outcome.get("forfeits"), "the other match's bots timed out"
    # alone it takes 0.03 s, beside the hog 0.15 s (quiet machine); a starved loop ends it only at the hog's
    # deadline
    assert bystander_done < limit_s / 2, f"the other match took {bystander_done:.2f}s while a bot simulated"
    assert err.code == bot_pb2.TIMEOUT
    assert bot_pb2.FORWARD_DECISION_OVER in codes, codes  # the calls still queued at the deadline
    # the time-out came on time (slack for a loaded 2-core machine), not after the queued work
    assert limit_s - 0.05 < late < limit_s + 1.0, late


def test_disabled_referee_refuses_forward_calls(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with _referee(tmp_path, forward_enabled=False) as ref:
        m = _Match(ref, "off")
        d = m.decision()
        r = m.raw.call(d, [OP(op=bot_pb2.OP_SAMPLE, k=1)])
        assert r.error == bot_pb2.FORWARD_DISABLED
        m.raw.answer(d)
        m.finish()


def test_remote_errors_raise_typed_sdk_errors() -> None:
    err = RemoteForwardError(bot_pb2.FORWARD_HANDLE_LIMIT, "handle limit reached")
    assert err.code == "FORWARD_HANDLE_LIMIT" and err.kind == "handle_limit"
