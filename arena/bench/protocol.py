"""``arena bench protocol``: a decision's round trip through the referee vs bare gRPC ping-pong.

Measured in the same run, alternating, on loopback, for sealed_bids (small views) and Clank
(~10 KB views) by default. The servers (the referee, or a bare ping-pong server) run on an event
loop in this process; the other end is a separate process, as a real bot is:

* **referee**: whole matches of GAME between minimal protocol bots in one session (a child
  process); the figure is wall time per decision, match set-up and replay included (engine work,
  JSON, protobuf, the stream, the bot).
* **bare**: one gRPC bidirectional stream of raw bytes (no protobuf, no JSON), the server's
  message and the reply sized like the referee's average DecisionRequest and Answer; the figure
  is wall time per round trip, measured on the server like the referee's.

The ratio referee/bare is the protocol's overhead (goals: 1.3 for sealed_bids, 1.5 for Clank). The
**floor** line splits it: the bare ping-pong again, with the protocol's own messages (a DecisionRequest
and an Answer, built, encoded and decoded at both ends: ``pingpong``'s ``proto``), its server doing per
round trip one decision of the engine's own work, in-process (``_EngineWork``: the match driver, the
view, the JSON): what any referee speaking this protocol must do. The real work, not a busy loop of the
same CPU: between gRPC's steps it costs about twice its CPU alone (Clank, 2026-12-06: 63 us alone,
139-181 us more server CPU a round trip; not GC: the same with GC off). What is left above the floor
is the service (sessions, timers, routing, per-match set-up).
For a game whose length an option sets (``LENGTHS``: sealed_bids' prize rounds), the bench also plays
its shortest and longest matches, alternating, and splits the wall time of a match into a part per
match (spec check, MatchStart and MatchEnd for every seat, outcome and replay: ~15 decisions' worth of
sealed_bids' whole-match average) and the round trip of one more decision (the slope), which is what
the bare ping-pong is compared with. Long games (Clank: ~500 decisions a match) need no split.
Each figure is the median of ``--runs`` runs. The CPU time of the server's event-loop thread per
decision is printed beside it: on a loaded machine wall times swing, CPU times much less.

``--parallel N`` measures throughput instead: N matches at once (bots in 2 x cores processes,
answering each decision after ``--think-ms``, 10 ms, with a 100 ms limit) against N bare streams
whose clients also wait 10 ms, and counts the time-outs the referee gave (spurious: every bot
answers in 10 ms).
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import grpc

from .pingpong import bare_round, processes


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


# -- through the referee -------------------------------------------------------------------------
def _bot_client(address: str, token: str, game: str, capacity: int, think_ms: int, view_delta: bool) -> None:
    """A minimal protocol bot: answers every decision with a legal index, parses no JSON.

    It does what the bare ping-pong client does (read a message, write a reply, after
    ``think_ms``), so the ratio measures the referee, not the bot (an SDK bot adds its own JSON
    parsing and ``act``).
    """
    from referee.protocol import bot_pb2, bot_pb2_grpc

    async def go() -> None:
        async with grpc.aio.insecure_channel(address) as ch:
            call = bot_pb2_grpc.BotServiceStub(ch).Connect()
            out: asyncio.Queue[Any] = asyncio.Queue()
            loop = asyncio.get_running_loop()

            async def writer() -> None:
                while True:
                    await call.write(await out.get())

            await call.write(bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token, games=game.split(","),
                                                                    capacity=capacity, client="bench bot",
                                                                    view_delta=view_delta)))
            w = loop.create_task(writer()) if think_ms else None
            async for msg in call:
                if msg.WhichOneof("kind") == "decision":
                    d = msg.decision
                    ans = bot_pb2.BotMessage(answer=bot_pb2.Answer(
                        match_id=d.match_id, decision_id=d.decision_id, index=d.decision_id % d.legal_count))
                    if think_ms:
                        loop.call_later(think_ms / 1000, out.put_nowait, ans)
                    else:
                        await call.write(ans)
            if w is not None:
                w.cancel()

    try:
        asyncio.run(go())
    except (grpc.aio.AioRpcError, KeyboardInterrupt):
        pass


@dataclass
class _Lanes:
    """Totals of one referee round."""

    decisions: int = 0
    timeouts: int = 0


async def _referee_round(referee: Any, game_id: str, players: int, matches: int, tag: str, lanes: int = 1,
                         per_decision_ms: int = 10_000, options: dict[str, Any] | None = None,
                         ) -> tuple[float, float, float, _Lanes]:
    """``lanes`` concurrent sequences of ``matches`` matches: (wall s/decision, CPU s/decision,
    decisions/s, totals)."""
    from referee.engine import TimeControl
    from referee.matchspec import MatchSpec, SeatSpec

    tot = _Lanes()

    async def lane(k: int) -> None:
        for i in range(matches):
            spec = MatchSpec(f"bench-{tag}-{k}-{i}", game_id, i * 1000 + k, [SeatSpec("bench")] * players,
                             options or {}, time_control=TimeControl(per_decision_ms=per_decision_ms))
            resp = await referee.run_match(spec, 30.0)
            replay = json.loads(resp.replay_json)
            tot.decisions += len(replay["actions"])
            tot.timeouts += sum(1 for f in replay["meta"].get("faults", [])
                                if f["fault"].startswith("timeout"))

    t0, c0 = time.perf_counter(), time.thread_time()
    await asyncio.gather(*(lane(k) for k in range(lanes)))
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    return wall / tot.decisions * lanes, cpu / tot.decisions, tot.decisions / wall, tot


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
            match_id="bench-r0-0-0", decision_id=n + 1, seat=seat, game=game_id,
            view_json=json.dumps(st.observe(seat)), legal_json=json.dumps(legal),
            events_json=json.dumps(st.events_for(seat, cursors[seat])), deadline_ms=10_000,
            legal_count=len(legal)))
        cursors[seat] = len(st.log)
        a = bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id="bench-r0-0-0", decision_id=n + 1,
                                                     index=rng.below(len(legal))))
        req += m.ByteSize()
        ans += a.ByteSize()
        n += 1
        st.apply_trusted(seat, legal[a.answer.index])
    return req / max(1, n), ans / max(1, n)


class _EngineWork:
    """The work no referee can skip, one decision a call, in-process: the match driver (legal actions, the
    seat's view and events, the move, checkpoints, the replay) and the JSON the request carries, with
    answers chosen as the bench bot chooses them; whole matches of ``game_id``, one after another."""

    def __init__(self, game_id: str, players: int) -> None:
        from referee.engine import get_game

        self.game, self.players, self.matches = get_game(game_id), players, 0
        self._new()

    def _new(self) -> None:
        from referee.engine import TimeControl
        from referee.engine.driver import MatchDriver

        m = self.matches = self.matches + 1
        self.driver = MatchDriver(self.game, self.game.new_state(self.players, None, m), m,
                                  ["bench"] * self.players, f"floor-{m}", TimeControl(per_decision_ms=10_000))
        self.static: dict[str, bytes] = {}
        self.open: list[Any] = []

    def step(self) -> None:
        """One decision: its request's JSON when its batch is asked, its answer, the settle after the last."""
        from referee.service.wirejson import dumps, dumps_view

        d = self.driver
        if not self.open:
            self.open = d.ask()
            if not self.open:
                dumps(d.replay.to_json())
                self._new()
                return self.step()
            for a in self.open:
                dumps_view(a.view, d.state.STATIC_VIEW_KEYS, self.static)
                dumps(a.legal)
                dumps(a.events)
        a = self.open.pop(0)
        d.answer(a.seat, a.decision_id % len(a.legal), 1)
        if not self.open:
            d.settle()
            d.idle()


def _engine_cpu(game_id: str, players: int, decisions: int = 2000) -> float:
    """CPU seconds per decision of ``_EngineWork`` alone."""
    work = _EngineWork(game_id, players)
    c0 = time.thread_time()
    for _ in range(decisions):
        work.step()
    return (time.thread_time() - c0) / decisions


@dataclass
class _Figures:
    game: str
    players: int
    req_b: float
    ans_b: float
    ours: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    ours_cpu: list[float] = field(default_factory=list)
    bare_cpu: list[float] = field(default_factory=list)
    ours_rate: list[float] = field(default_factory=list)
    bare_rate: list[float] = field(default_factory=list)
    decisions: int = 0
    timeouts: int = 0
    engine_s: float = 0.0
    floor: list[float] = field(default_factory=list)
    floor_cpu: list[float] = field(default_factory=list)
    #: (per match, per decision) wall seconds from the shortest and longest matches (``LENGTHS``)
    split: list[tuple[float, float]] = field(default_factory=list)
    lengths: tuple[float, float] = (0.0, 0.0)  # decisions a match, shortest and longest


GOALS = {"sealed_bids": 1.3, "clank": 1.5}
#: a game's length option and its extreme values: the bench splits a match's wall time (``_split``)
LENGTHS = {"sealed_bids": ("rounds", 1, 8)}


async def _split(referee: Any, f: _Figures, matches: int, tag: str) -> None:
    """The shortest and longest matches of ``f.game``, alternating: wall = per match + decisions x per
    decision."""
    key, short, long_ = LENGTHS[f.game]
    per: dict[int, tuple[float, float]] = {}  # length -> (wall a match, decisions a match)
    for i, n in enumerate((short, long_, short, long_)):
        wall, _, _, tot = await _referee_round(referee, f.game, f.players, matches, f"{tag}-{n}-{i}",
                                               options={key: n})
        w, d = per.get(n, (0.0, 0.0))
        per[n] = (w + wall * tot.decisions / matches / 2, d + tot.decisions / matches / 2)
    (w1, d1), (w2, d2) = per[short], per[long_]
    step = (w2 - w1) / (d2 - d1)
    f.split.append((w1 - step * d1, step))
    f.lengths = (d1, d2)


def _players(game_id: str) -> int:
    from referee.engine import get_game

    info = get_game(game_id).info
    return max(2, info.min_players) if info.max_players >= 2 else 1


def _measure(loop: _Loop, games: list[str], matches: int, runs: int, parallel: int, think_ms: int,
             limit_ms: int, view_delta: bool) -> list[_Figures]:
    import tempfile

    from referee.service.config import RefereeConfig
    from referee.service.server import create_server, tune_gc
    from referee.service.tokens import TokenStore

    figures = [_Figures(g, _players(g), *_sizes(g, _players(g))) for g in games]
    if not parallel:
        for f in figures:
            f.engine_s = _engine_cpu(f.game, f.players)
    lanes = max(1, parallel)
    with tempfile.TemporaryDirectory() as tmp:
        store = TokenStore(f"sqlite:///{tmp}/bench.db")
        server, port = loop.run(create_server("127.0.0.1:0", config=RefereeConfig(), store=store))
        referee = server.referee
        token = store.register("bench", games)
        tune_gc()  # as `arena referee` does
        procs = processes(lanes)
        cap = max(f.players for f in figures) * -(-lanes // procs)
        bots = [subprocess.Popen([sys.executable, "-m", "arena.bench.protocol", "bot", f"127.0.0.1:{port}",
                                  token,
                                  ",".join(games), str(cap), str(think_ms if parallel else 0),
                                  str(int(view_delta))]) for _ in range(procs)]
        try:
            while len(referee.sessions) < procs:
                if any(b.poll() is not None for b in bots):
                    raise click.ClickException("a bench bot could not connect")
                time.sleep(0.01)
            tc = limit_ms if parallel else 10_000
            for f in figures:
                loop.run(_referee_round(referee, f.game, f.players, 1, f"warmup-{f.game}", lanes, tc))
            for r in range(runs):
                for f in figures:  # the two paths alternate, the games interleave: same conditions
                    per, cpu, rate, tot = loop.run(_referee_round(referee, f.game, f.players, matches,
                                                                  f"r{r}-{f.game}", lanes, tc))
                    f.ours.append(per)
                    f.ours_cpu.append(cpu)
                    f.ours_rate.append(rate)
                    f.decisions, f.timeouts = tot.decisions, f.timeouts + tot.timeouts
                    bare = loop.run(bare_round(int(f.req_b), int(f.ans_b), max(1, tot.decisions // lanes),
                                               lanes, think_ms if parallel else 0))
                    f.bare.append(bare.wall)
                    f.bare_cpu.append(bare.thread_cpu)
                    f.bare_rate.append(bare.rate)
                    if not parallel:  # the same ping-pong with the engine's work on the server: the floor
                        work = _EngineWork(f.game, f.players)
                        floor = loop.run(bare_round(int(f.req_b), int(f.ans_b), max(1, tot.decisions),
                                                    work=work.step, proto=True))
                        f.floor.append(floor.wall)
                        f.floor_cpu.append(floor.thread_cpu)
                    if not parallel and f.game in LENGTHS:
                        loop.run(_split(referee, f, max(4, matches // 2), f"r{r}-split"))
        finally:
            for b in bots:
                b.terminate()
            for b in bots:
                b.wait(10)
            loop.run(server.stop(0))
    return figures


def _us(xs: list[float]) -> str:
    return ", ".join(f"{x * 1e6:.0f}" for x in xs)


def _fixture_game() -> Any:
    """The sealed_bids test fixture. The ``arena`` script's path does not include the repository
    (only ``python -m`` adds the working directory), so a checkout's root is added here, for this
    process and the bench's children: else the default run silently measured Clank alone."""
    try:
        from tests.fixtures.sealed_bids import GAME
    except ImportError:
        root = Path(__file__).resolve().parents[2]
        if not (root / "tests" / "fixtures" / "sealed_bids.py").is_file():
            raise
        sys.path.insert(0, str(root))
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p)
        from tests.fixtures.sealed_bids import GAME
    return GAME


@click.command("protocol")
@click.option("--game", "games", multiple=True, help="Game(s) to play (repeatable) [default: sealed_bids and "
              "clank; sealed_bids needs the test fixtures importable, i.e. run from the repository].")
@click.option("--matches", type=click.IntRange(min=1), default=None,
              help="Matches per run (per lane with --parallel) "
              "[default: 40 sealed_bids-sized; fewer for longer games, about 2,000 decisions a run].")
@click.option("--runs", type=click.IntRange(min=1), default=5, show_default=True,
              help="Timed runs of each (the median is reported).")
@click.option("--parallel", type=click.IntRange(min=0), default=0,
              help="Throughput of N concurrent matches vs N bare streams "
              "(bots think --think-ms, limit --limit-ms) and spurious time-outs.")
@click.option("--think-ms", type=click.IntRange(min=0), default=10, show_default=True,
              help="With --parallel: each bot's answer delay.")
@click.option("--limit-ms", type=click.IntRange(min=1), default=100, show_default=True,
              help="With --parallel: per-decision limit.")
@click.option("--view-delta", is_flag=True, help="The bots ask for views as patches (Hello.view_delta); "
              "the bare payload stays the full request's size.")
def command(games: tuple[str, ...], matches: int | None, runs: int, parallel: int, think_ms: int,
            limit_ms: int, view_delta: bool) -> None:
    """Per-decision round trip through the referee vs a bare gRPC ping-pong of the same sizes, and the
    floor between them: the ping-pong with the protocol's messages whose server also does the engine's
    own work, a decision a round trip."""
    import logging

    from referee.engine import game_ids, register

    from ..cli.common import console

    if runs < 1 or parallel < 0 or (matches is not None and matches < 1):
        raise click.UsageError("--runs and --matches must be at least 1, --parallel at least 0")
    chosen = list(games) or ["sealed_bids", "clank"]
    if "sealed_bids" in chosen:
        try:
            register(_fixture_game())
            os.environ.setdefault("ARENA_EXTRA_GAMES", "sealed_bids=tests.fixtures.sealed_bids:GAME")
        except ImportError:
            if games:
                raise click.UsageError("sealed_bids is a test fixture: run from the repository "
                                       "root") from None
            chosen.remove("sealed_bids")
    unknown = [g for g in chosen if g not in game_ids()]
    if unknown:
        raise click.UsageError(f"unknown game(s) {unknown}; known: {', '.join(game_ids())}")
    logging.getLogger("referee").setLevel(logging.WARNING)
    if matches is None:
        matches = 3 if parallel else 40
    loop = _Loop("referee")
    load0 = os.getloadavg()[0]
    try:
        figures = _measure(loop, chosen, matches, runs, parallel, think_ms, limit_ms, view_delta)
    finally:
        loop.stop()
    load1 = os.getloadavg()[0]
    mode = (f"{parallel} concurrent matches vs {parallel} bare streams, bots in {processes(parallel)} "
            f"processes "
            f"answering after {think_ms} ms, limit {limit_ms} ms" if parallel else "one match at a time")
    mode += "; views as patches (--view-delta)" if view_delta else ""
    console.print(f"{runs} runs, {mode}; load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores")
    med = statistics.median
    for f in figures:
        console.print(f"[bold]{f.game}[/bold], {f.players} seats: {matches} matches a "
                      f"run{' a lane' if parallel else ''} "
                      f"({f.decisions} decisions); request ~{f.req_b:.0f} B, answer ~{f.ans_b:.0f} B")
        o, b, oc, bc = med(f.ours), med(f.bare), med(f.ours_cpu), med(f.bare_cpu)
        if parallel:
            orate, brate = med(f.ours_rate), med(f.bare_rate)
            console.print(f"  throughput: referee {orate:8.0f} decisions/s, bare {brate:8.0f} round trips/s "
                          f"(ratio bare/referee [bold]{brate / orate:.2f}[/bold])")
            console.print(f"  server CPU per decision: referee {oc * 1e6:.1f} us, bare {bc * 1e6:.1f} us "
                          f"(ratio {oc / bc:.2f})")
            console.print(f"  spurious time-outs (limit {limit_ms} ms, bots answer in {think_ms} ms): "
                          f"[bold]{f.timeouts}[/bold] of {f.decisions * runs} decisions")
            continue
        goal = GOALS.get(f.game)
        console.print(f"  referee, per decision:      {o * 1e6:8.1f} us   (runs: {_us(f.ours)})")
        console.print(f"  bare gRPC, per round trip:  {b * 1e6:8.1f} us   (runs: {_us(f.bare)})")
        console.print(f"  ratio referee/bare: wall "
                      f"[bold]{o / b:.2f}[/bold]{f' (goal <= {goal})' if goal else ''}, "
                      f"server CPU {oc / bc:.2f} ({oc * 1e6:.1f} vs {bc * 1e6:.1f} us per decision)")
        fl = med(f.floor)
        console.print(f"  floor: bare with the protocol's messages + the engine's work "
                      f"({f.engine_s * 1e6:.1f} us CPU a decision alone): {fl * 1e6:.1f} us   "
                      f"(runs: {_us(f.floor)}); server CPU {med(f.floor_cpu) * 1e6:.1f} us")
        console.print(f"         ratio floor/bare {fl / b:.2f}; the referee's service adds "
                      f"{(o - fl) * 1e6:.0f} us a decision above the floor")
        if f.split:
            m, d = med(x[0] for x in f.split), med(x[1] for x in f.split)
            key, short, long_ = LENGTHS[f.game]
            console.print(f"  split over {f.lengths[0]:.0f}- and {f.lengths[1]:.0f}-decision matches "
                          f"(-o {key}={short} and {long_}): a match's set-up and end "
                          f"{m * 1e6:.0f} us, one decision's round trip {d * 1e6:.1f} us   "
                          f"(runs: {_us([x[1] for x in f.split])})")
            console.print(f"         ratio round trip/bare: wall [bold]{d / b:.2f}[/bold]"
                          f"{f' (goal <= {goal})' if goal else ''}")


if __name__ == "__main__":  # the bench's bot processes
    if sys.argv[1] == "bot":
        _bot_client(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]),
                    sys.argv[7] == "1")
