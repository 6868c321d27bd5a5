"""``arena bench protocol``: a decision's round trip through the referee vs bare gRPC ping-pong.

Measured in the same run, alternating, on loopback. The servers (the referee, or a bare
ping-pong server) run on an event loop in this process; the other end is a separate process,
as a real bot is:

* **referee**: whole matches of GAME between random bots in one SDK session (a child process);
  the figure is wall time per decision, match set-up and replay included (engine work, JSON,
  protobuf, the stream, the bot).
* **bare**: one gRPC bidirectional stream of raw bytes (no protobuf, no JSON), the server's
  message and the reply sized like the referee's average DecisionRequest and Answer; the figure
  is wall time per round trip, measured on the server like the referee's.

The ratio referee/bare is the protocol's overhead (goal: 1.3 or less). Each figure is the median
of ``--runs`` runs. The CPU time of the server's event-loop thread per decision is printed too:
on a loaded machine wall times swing, CPU times much less.
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import click
import grpc

_SERVICE = "bench.PingPong"


class _Loop:
    """An event loop on a daemon thread (the servers run here)."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float | None = 600) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# -- bare ping-pong ------------------------------------------------------------------------------
class _PingPong:
    def __init__(self, request_size: int, rounds: int) -> None:
        self.payload = b"x" * request_size
        self.rounds = rounds
        self.done: asyncio.Future[tuple[float, float]] | None = None

    async def stream(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:
        n = 0
        t0 = time.perf_counter()
        c0 = time.thread_time()
        await context.write(self.payload)
        async for _ in request_iterator:
            n += 1
            if n >= self.rounds:
                break
            await context.write(self.payload)
        assert self.done is not None
        self.done.set_result(((time.perf_counter() - t0) / n, (time.thread_time() - c0) / n))


async def _bare_round(request_size: int, answer_size: int, rounds: int) -> tuple[float, float]:
    pp = _PingPong(request_size, rounds)
    pp.done = asyncio.get_running_loop().create_future()
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        _SERVICE, {"Stream": grpc.stream_stream_rpc_method_handler(pp.stream)}),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "arena.bench.protocol", "pingpong",
                                                str(port), str(answer_size))
    per = await pp.done
    await proc.wait()
    await server.stop(0)
    return per


def _pingpong_client(port: int, answer_size: int) -> None:
    async def go() -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            call = ch.stream_stream(f"/{_SERVICE}/Stream")()
            answer = b"y" * answer_size
            async for _ in call:
                await call.write(answer)

    try:
        asyncio.run(go())
    except grpc.aio.AioRpcError:
        pass


# -- through the referee -------------------------------------------------------------------------
def _bot_client(address: str, token: str, game: str, capacity: int) -> None:
    """A minimal protocol bot: answers every decision with a legal index, parses no JSON.

    It does what the bare ping-pong client does (read a message, write a reply), so the ratio
    measures the referee, not the bot (an SDK bot adds its own JSON parsing and ``act``).
    """
    from referee.protocol import bot_pb2, bot_pb2_grpc

    async def go() -> None:
        async with grpc.aio.insecure_channel(address) as ch:
            call = bot_pb2_grpc.BotServiceStub(ch).Connect()
            await call.write(bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token, games=[game], capacity=capacity,
                                                                    client="bench bot")))
            async for msg in call:
                if msg.WhichOneof("kind") == "decision":
                    d = msg.decision
                    await call.write(bot_pb2.BotMessage(answer=bot_pb2.Answer(
                        match_id=d.match_id, decision_id=d.decision_id, index=d.decision_id % d.legal_count)))

    try:
        asyncio.run(go())
    except (grpc.aio.AioRpcError, KeyboardInterrupt):
        pass


async def _referee_round(referee: Any, game_id: str, players: int, matches: int,
                         tag: str) -> tuple[float, float, int]:
    from referee.engine import TimeControl
    from referee.matchspec import MatchSpec, SeatSpec

    decisions = 0
    t0 = time.perf_counter()
    c0 = time.thread_time()
    for i in range(matches):
        spec = MatchSpec(f"bench-{tag}-{i}", game_id, i, [SeatSpec("bench")] * players,
                         time_control=TimeControl(per_decision_ms=10_000))
        resp = await referee.run_match(spec, 30.0)
        decisions += len(json.loads(resp.replay_json)["actions"])
    return (time.perf_counter() - t0) / decisions, (time.thread_time() - c0) / decisions, decisions


def _sizes(game_id: str, players: int) -> tuple[float, float]:
    """Mean serialized DecisionRequest and Answer sizes over one random game."""
    from referee.engine import Rng, get_game
    from referee.protocol import bot_pb2

    game = get_game(game_id)
    st = game.new_state(players, None, 0)
    rng = Rng(1)
    req = ans = n = 0
    cursors = [0] * players
    while st.pending():
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        m = bot_pb2.RefereeMessage(decision=bot_pb2.DecisionRequest(
            match_id="bench-r0-0", decision_id=n + 1, seat=seat, game=game_id,
            view_json=json.dumps(st.observe(seat)), legal_json=json.dumps(legal),
            events_json=json.dumps(st.events_for(seat, cursors[seat])), deadline_ms=10_000, legal_count=len(legal)))
        cursors[seat] = len(st.log)
        a = bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id="bench-r0-0", decision_id=n + 1,
                                                     index=rng.below(len(legal))))
        req += m.ByteSize()
        ans += a.ByteSize()
        n += 1
        st.apply_trusted(seat, legal[a.answer.index])
    return req / max(1, n), ans / max(1, n)


@click.command("protocol")
@click.option("--game", "game_id", default=None, help="Game to play [default: sealed_bids when the test fixtures "
              "are importable, else the first registered game].")
@click.option("--matches", type=int, default=40, show_default=True, help="Matches per run.")
@click.option("--runs", type=int, default=5, show_default=True, help="Timed runs of each (the median is reported).")
def command(game_id: str | None, matches: int, runs: int) -> None:
    """Per-decision round trip through the referee vs a bare gRPC ping-pong of the same sizes."""
    import logging
    import tempfile

    from referee.engine import game_ids, get_game, register
    from referee.service.config import RefereeConfig
    from referee.service.server import create_server, tune_gc
    from referee.service.tokens import TokenStore

    from ..cli.common import console

    if game_id is None:
        try:
            from tests.fixtures.sealed_bids import GAME

            register(GAME)
            os.environ.setdefault("ARENA_EXTRA_GAMES", "sealed_bids=tests.fixtures.sealed_bids:GAME")
            game_id = "sealed_bids"
        except ImportError:
            game_id = game_ids()[0]
    game = get_game(game_id)
    players = max(2, game.info.min_players) if game.info.max_players >= 2 else 1
    logging.getLogger("referee").setLevel(logging.WARNING)
    req_b, ans_b = _sizes(game_id, players)

    loop = _Loop("referee")
    ours: list[float] = []
    bare: list[float] = []
    ours_cpu: list[float] = []
    bare_cpu: list[float] = []
    decisions = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = TokenStore(f"sqlite:///{tmp}/bench.db")
        server, port = loop.run(create_server("127.0.0.1:0", config=RefereeConfig(), store=store))
        referee = server.referee  # type: ignore[attr-defined]
        token = store.register("bench", [game_id])
        tune_gc()  # as `arena referee` does
        bot = subprocess.Popen([sys.executable, "-m", "arena.bench.protocol", "bot", f"127.0.0.1:{port}", token,
                                game_id, str(players)])
        try:
            while not referee.sessions:
                if bot.poll() is not None:
                    raise click.ClickException("the bench bot could not connect")
                time.sleep(0.01)
            loop.run(_referee_round(referee, game_id, players, 3, "warmup"))
            for r in range(runs):
                per, cpu, decisions = loop.run(_referee_round(referee, game_id, players, matches, f"r{r}"))
                ours.append(per)
                ours_cpu.append(cpu)
                per, cpu = loop.run(_bare_round(int(req_b), int(ans_b), decisions))
                bare.append(per)
                bare_cpu.append(cpu)
        finally:
            bot.terminate()
            bot.wait(10)
            loop.run(server.stop(0))
    loop.stop()
    o, b = statistics.median(ours), statistics.median(bare)
    console.print(f"game {game_id}, {players} seats; {runs} runs of {matches} matches ({decisions} decisions) "
                  f"alternating with {runs} bare runs of as many round trips")
    console.print(f"payloads: request ~{req_b:.0f} B, answer ~{ans_b:.0f} B")
    console.print(f"referee, per decision:      {o * 1e6:8.1f} us   (runs: {', '.join(f'{x * 1e6:.0f}' for x in ours)})")
    console.print(f"bare gRPC, per round trip:  {b * 1e6:8.1f} us   (runs: {', '.join(f'{x * 1e6:.0f}' for x in bare)})")
    console.print(f"ratio referee/bare: [bold]{o / b:.2f}[/bold] (goal <= 1.3)")
    oc, bc = statistics.median(ours_cpu), statistics.median(bare_cpu)
    console.print(f"server-thread CPU per decision: referee {oc * 1e6:.1f} us, bare {bc * 1e6:.1f} us "
                  f"(ratio {oc / bc:.2f}; less sensitive to a busy machine than wall time)")


if __name__ == "__main__":  # the child processes of the benchmark
    role = sys.argv[1]
    if role == "pingpong":
        _pingpong_client(int(sys.argv[2]), int(sys.argv[3]))
    elif role == "bot":
        _bot_client(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
