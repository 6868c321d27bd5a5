"""The bare gRPC ping-pong the benchmarks compare the referee with: one way to measure it.

A server on the caller's event loop and its client processes (``python -m arena.bench.pingpong``,
as a real bot is a separate process) exchange raw bytes over bidirectional streams: no protobuf, no
JSON, no referee. The server writes a payload, reads a reply, ``rounds`` times per stream; the clock
starts once every stream is open (process start-up excluded). With ``proto`` both ends build, encode
and decode the protocol's own messages of the same sizes instead (a DecisionRequest, an Answer), as the
referee and the bench's minimal bot do. ``arena bench protocol`` reads the
wall time and the event-loop thread's CPU; ``arena bench tournament``'s ceiling reads both processes'
whole CPU (gRPC's polling threads cost as much as the loop's).
"""
from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc

from referee.protocol import bot_pb2

_SERVICE = "bench.PingPong"


def process_cpu() -> float:
    """User + system CPU seconds of this whole process (every thread)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@dataclass(frozen=True)
class BareRound:
    """Figures of one ping-pong run, per round trip (seconds) unless said otherwise."""

    wall: float  # of one stream (all streams run at once)
    thread_cpu: float  # the server's event-loop thread
    process_cpu: float  # the whole server process
    client_cpu: float  # the client processes, together
    rate: float  # round trips a second, all streams


def _request(decision_id: int, view: str) -> bot_pb2.RefereeMessage:
    """A DecisionRequest, built field by field as the referee builds one (gRPC encodes it)."""
    msg = bot_pb2.RefereeMessage()
    d = msg.decision
    d.match_id, d.decision_id, d.seat, d.game = "bench-pingpong-0", decision_id, 0, "bench"
    d.view_json, d.view_patch_json = view, ""
    d.legal_json, d.events_json = "[0,1]", "[]"
    d.deadline_ms, d.time_bank_ms, d.legal_count = 10_000, 0, 2
    return msg


def _view(request_size: int) -> str:
    """A view text that makes the request ``request_size`` bytes long."""
    return "x" * max(1, request_size - _request(1, "x").ByteSize() + 1)


class _Server:
    def __init__(self, request_size: int, rounds: int, streams: int, work: Callable[[], object] | None,
                 proto: bool) -> None:
        self.payload = b"x" * request_size
        self.view = _view(request_size) if proto else ""
        self.work = work  # run per round trip before the write (``arena bench protocol``'s floor)
        self.rounds = rounds
        self.left = self.waiting = streams
        self.total = 0
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.go = asyncio.Event()
        self.t0 = self.c0 = self.p0 = 0.0
        self.t1 = self.c1 = self.p1 = 0.0

    async def stream(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:
        n = 0
        self.waiting -= 1
        if self.waiting == 0:
            self.t0, self.c0, self.p0 = time.perf_counter(), time.thread_time(), process_cpu()
            self.go.set()
        await self.go.wait()
        view = self.view
        await context.write(_request(1, view) if view else self.payload)
        async for reply in request_iterator:
            n += 1
            if n >= self.rounds:
                break
            if view:
                reply.answer.index  # noqa: B018 - the referee reads it
            if self.work is not None:
                self.work()
            await context.write(_request(n + 1, view) if view else self.payload)
        self.total += n
        self.left -= 1
        if self.left == 0:
            self.t1, self.c1, self.p1 = time.perf_counter(), time.thread_time(), process_cpu()
            self.done.set_result(None)


def processes(streams: int) -> int:
    """Client processes: 1 for a single stream, else 2 x cores (the oversubscription issue 13 asks)."""
    return 1 if streams == 1 else min(streams, 2 * (os.cpu_count() or 1))


async def bare_round(request_size: int, answer_size: int, rounds: int, streams: int = 1, think_ms: int = 0,
                     work: Callable[[], object] | None = None, proto: bool = False) -> BareRound:
    """``streams`` concurrent streams of ``rounds`` round trips each (clients wait ``think_ms`` before each
    reply; the server calls ``work`` before each request; ``proto``: protocol messages)."""
    srv = _Server(request_size, rounds, streams, work, proto)
    server = grpc.aio.server()
    codec: dict[str, Any] = {}
    if proto:
        codec = {"request_deserializer": bot_pb2.BotMessage.FromString,
                 "response_serializer": bot_pb2.RefereeMessage.SerializeToString}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        _SERVICE, {"Stream": grpc.stream_stream_rpc_method_handler(srv.stream, **codec)}),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        procs = processes(streams)
        per_proc = [streams // procs + (1 if i < streams % procs else 0) for i in range(procs)]
        children = [await asyncio.create_subprocess_exec(
            sys.executable, "-m", "arena.bench.pingpong", str(port), str(answer_size), str(k), str(think_ms),
            str(int(proto)), stdout=subprocess.PIPE) for k in per_proc]
        await srv.done
        outs = [(await c.communicate())[0] for c in children]
    finally:
        await server.stop(0)
    client = sum(float(o.decode().strip() or "nan") for o in outs)
    n = max(1, srv.total)
    wall = srv.t1 - srv.t0
    return BareRound(wall / n * streams, (srv.c1 - srv.c0) / n, (srv.p1 - srv.p0) / n, client / n, n / wall)


def client(port: int, answer_size: int, streams: int, think_ms: int, proto: bool = False) -> None:
    """The other end: answers every message of ``streams`` streams; prints its CPU seconds at the end.
    With ``proto`` it reads each DecisionRequest and answers as the bench's minimal bot does."""
    async def one(ch: grpc.aio.Channel) -> None:
        codec: dict[str, Any] = {}
        if proto:
            codec = {"request_serializer": bot_pb2.BotMessage.SerializeToString,
                     "response_deserializer": bot_pb2.RefereeMessage.FromString}
        call = ch.stream_stream(f"/{_SERVICE}/Stream", **codec)()
        answer: Any = b"y" * answer_size
        async for msg in call:
            if proto:
                d = msg.decision
                answer = bot_pb2.BotMessage(answer=bot_pb2.Answer(
                    match_id=d.match_id, decision_id=d.decision_id, index=d.decision_id % d.legal_count))
            if think_ms:
                await asyncio.sleep(think_ms / 1000)
            await call.write(answer)

    async def go() -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            await asyncio.gather(*(one(ch) for _ in range(streams)))

    c0 = process_cpu()
    try:
        asyncio.run(go())
    except grpc.aio.AioRpcError:
        pass
    print(process_cpu() - c0, flush=True)


if __name__ == "__main__":  # a client process
    client(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:] == ["1"])
