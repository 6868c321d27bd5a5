"""A misbehaving bot for the rogue-bot suite: ``python rogue_bot.py MODE``.

Hosted: it reads ARENA_REFEREE/ARENA_TOKEN.

Every message it receives from the referee is logged to stderr as one JSON line
(``{"got": kind, ...}``), so a test reads the typed errors it got from ``MatchReport.logs``.
"""
from __future__ import annotations

import json
import os
import queue
import sys
import time

import grpc

from referee.protocol import bot_pb2, bot_pb2_grpc

MODE = sys.argv[1]
ADDRESS = os.environ["ARENA_REFEREE"]
TOKEN = os.environ.get("ROGUE_TOKEN", os.environ.get("ARENA_TOKEN", ""))


def note(kind: str, **data: object) -> None:
    sys.stderr.write(json.dumps({"got": kind, **data}) + "\n")
    sys.stderr.flush()


def answer(d: bot_pb2.DecisionRequest, **kw: object) -> bot_pb2.BotMessage:
    fields = {"match_id": d.match_id, "decision_id": d.decision_id, **kw}
    return bot_pb2.BotMessage(answer=bot_pb2.Answer(**fields))


def session(out: queue.Queue, decisions_before_drop: int | None = None) -> str:
    """Run one stream; returns why it ended."""
    def requests():
        while True:
            m = out.get()
            if m is None:
                return
            yield m

    channel = grpc.insecure_channel(ADDRESS)
    call = bot_pb2_grpc.BotServiceStub(channel).Connect(requests())
    out.put(bot_pb2.BotMessage(hello=bot_pb2.Hello(token=TOKEN, capacity=1, client=f"rogue {MODE}")))
    seen = 0
    try:
        for msg in call:
            kind = msg.WhichOneof("kind")
            if kind == "error":
                e = msg.error
                note("error", code=bot_pb2.ErrorCode.Name(e.code),
                     consequence=bot_pb2.Consequence.Name(e.consequence), message=e.message,
                     strikes=e.strikes)
                continue
            if kind == "match_start":
                note("match_start", resumed=msg.match_start.resumed, seat=msg.match_start.seat)
                continue
            if kind == "match_end":
                note("match_end", outcome=json.loads(msg.match_end.outcome_json))
                continue
            if kind == "goodbye":
                note("goodbye", reason=msg.goodbye.reason)
                return "goodbye"
            if kind != "decision":
                note(kind)
                continue
            d = msg.decision
            note("decision", decision_id=d.decision_id, attempt=d.attempt, deadline_ms=d.deadline_ms,
                 view=json.loads(d.view_json))
            seen += 1
            if decisions_before_drop is not None and seen > decisions_before_drop:
                note("dropping")
                call.cancel()
                return "dropped"
            act(d, out)
    except grpc.RpcError as exc:
        note("status", code=exc.code().name, details=exc.details())
        return exc.code().name
    finally:
        out.put(None)
        channel.close()
    return "end"


def act(d: bot_pb2.DecisionRequest, out: queue.Queue) -> None:
    good = answer(d, index=0)
    if MODE in ("good", "reconnect", "exit", "drop"):
        out.put(good)
    elif MODE == "slow":  # always answers after the deadline
        time.sleep(d.deadline_ms / 1000 + 0.15)
        out.put(good)
    elif MODE == "silent":
        pass
    elif MODE == "illegal":
        out.put(answer(d, index=d.legal_count + 5))
    elif MODE == "illegal_action":
        out.put(answer(d, action_json=json.dumps({"type": "no_such_move", "x": 1})))
    elif MODE == "malformed":
        out.put(answer(d, action_json="this is not json {"))
    elif MODE == "oversized":  # over max_action_bytes (64 KiB) but under the gRPC limit
        out.put(answer(d, action_json=json.dumps({"type": "x", "pad": "y" * 100_000})))
    elif MODE == "huge":  # over the gRPC message limit (1 MiB): the session is cut
        out.put(answer(d, action_json=json.dumps({"type": "x", "pad": "y" * 2_000_000})))
    elif MODE == "stale":
        out.put(answer(d, index=0, decision_id=d.decision_id + 1000))
        out.put(good)
    elif MODE == "unknown_match":
        out.put(bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id="no-such-match", decision_id=d.decision_id,
                                                         index=0)))
        out.put(good)
    # answers for the decisions around its own (the other seat's, in a simultaneous round)
    elif MODE == "claim":
        for other in (d.decision_id - 1, d.decision_id + 1):
            out.put(answer(d, index=0, decision_id=other))
        out.put(good)
    elif MODE == "flood":
        for i in range(5000):
            out.put(bot_pb2.BotMessage(ping=bot_pb2.Ping(nonce=i)))
        out.put(good)
    else:
        raise SystemExit(f"unknown mode {MODE}")


def main() -> None:
    if MODE == "reconnect":
        why = session(queue.Queue(), decisions_before_drop=2)
        note("reconnecting", after=why)
        time.sleep(0.2)
        session(queue.Queue())
    elif MODE == "exit":
        session(queue.Queue(), decisions_before_drop=2)
        os._exit(0)
    elif MODE == "drop":  # drops the connection and never comes back (the process stays)
        session(queue.Queue(), decisions_before_drop=2)
        time.sleep(60)
    elif MODE == "huge":  # the referee cuts the stream; the process stays (a disconnect, not an exit)
        session(queue.Queue())
        time.sleep(60)
    else:
        session(queue.Queue())


if __name__ == "__main__":
    main()
