"""The referee process: bot sessions, organizer calls, matches; ``create_server`` and ``serve``.

Everything runs on one asyncio loop (``grpc.aio``). Games are looked up in the engine registry
only: the referee knows nothing of any particular game.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from referee.engine import game_ids
from referee.matchspec import MatchSpec
from referee.protocol import bot_pb2, bot_pb2_grpc, organizer_pb2, organizer_pb2_grpc

from .auth import OrganizerAuth
from .config import SERVER_VERSION, RefereeConfig
from .convert import spec_from_proto
from .grpclog import quiet_closed_streams
from .hosted import Hosting
from .launcher import Launcher, ProcessLauncher
from .lifecycle import MatchLifecycle
from .match import AFTER_WRITE, LiveMatch
from .reject import Reject
from .routing import SessionRouter
from .sessions import Close, Session
from .tokens import BadBotName, BotExists, TokenStore, UnknownBotName

log = logging.getLogger("referee")

# After an orderly end (Goodbye) the stream stays open this long, or until the bot hangs up: a bot that was
# answering when Goodbye came writes to an open stream (ignored) instead of one already ended, which its
# gRPC library reports as INTERNAL before the Goodbye it has not read yet (it would then reconnect for ever).
LINGER_S = 2.0


class Referee:
    """One referee process: its session router, match lifecycle and organizer auth."""

    def __init__(self, config: RefereeConfig, store: TokenStore, organizer_token: str,
                 launcher: Launcher | None = None) -> None:
        self.config = config
        self.store = store
        self.organizer_token = organizer_token
        self.auth = OrganizerAuth(organizer_token)
        self.router = SessionRouter(config, store, {})
        # [sandbox] hosted bots: their sandboxes and the Unix socket they reach us through
        self.hosting: Hosting | None = None
        if launcher is None:
            self.hosting = Hosting.from_config(config)
            launcher = ProcessLauncher(config, self.hosting)
        self.lifecycle = MatchLifecycle(config, self.router, launcher)
        self.started = time.monotonic()

    @property
    def sessions(self) -> dict[str, Session]:
        return self.router.sessions

    @property
    def matches(self) -> dict[str, LiveMatch]:
        return self.lifecycle.matches

    @property
    def address(self) -> str:
        """Where hosted bots connect (set by ``create_server``)."""
        return self.lifecycle.address

    @address.setter
    def address(self, value: str) -> None:
        self.lifecycle.address = value

    async def run_match(self, spec: MatchSpec, live_wait_s: float) -> organizer_pb2.RunMatchResponse:
        return await self.lifecycle.run_match(spec, live_wait_s)

    async def shut_down(self, drain_s: float = 2.0) -> None:
        """Before the server stops: running matches end (their RunMatch gets UNAVAILABLE, retryable),
        every bot session gets Goodbye("shutdown") and its stream ends normally, instead of every call
        being cancelled under it."""
        matches = self.lifecycle.abort_all("the referee is shutting down")
        sessions = self.router.shut_down()
        log.info("shutting down: %d match(es) aborted, %d session(s) told goodbye", matches, sessions)
        deadline = time.monotonic() + drain_s
        while (self.router.sessions or self.lifecycle.running) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)


async def _abort(context: grpc.aio.ServicerContext, exc: Reject) -> None:
    await context.abort(exc.code, exc.detail)


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, referee: Referee) -> None:
        self.r = referee

    async def Connect(self, request_iterator: AsyncIterator[bot_pb2.BotMessage],
                      context: grpc.aio.ServicerContext) -> None:
        r = self.r
        try:
            first = await asyncio.wait_for(request_iterator.__anext__(), r.config.hello_timeout_s)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                f"no Hello within {r.config.hello_timeout_s:g}s")
            return
        except StopAsyncIteration:
            return
        if first.WhichOneof("kind") != "hello":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be Hello")
            return
        try:
            session = await r.router.open(first.hello, context.peer() or "")
        except Reject as exc:
            log.info("refused a bot session: %s", exc.detail)
            await _abort(context, exc)
            return
        loop = asyncio.get_running_loop()
        session.kill = loop.create_future()
        reader = loop.create_task(self._read(session, request_iterator, context))
        writer = loop.create_task(self._write(session, context))
        why = "stream ended"
        lose = False
        orderly = False
        try:
            # The writer sends the queue in order and ends at a queued Close (a hosted bot's Goodbye
            # is delivered first). A forced close (flooding, a bot that does not read, a revoked
            # token) resolves `kill` and ends the stream at once, whatever is still queued.
            await asyncio.wait([writer, session.kill], return_when=asyncio.FIRST_COMPLETED)
            if session.kill.done():
                item = session.kill.result()
            else:
                item = writer.result()
            why = item.detail or why
            lose = item.code == grpc.StatusCode.ABORTED  # flooding or not reading: seats forfeit at once
            if item.code is not None:
                await context.abort(item.code, item.detail)
            orderly = True
            await asyncio.wait([reader], timeout=LINGER_S)
        except asyncio.CancelledError:
            if not orderly:  # a bot that hangs up after Goodbye has not lost its connection
                # nor has a hosted bot that exits as soon as it sees its MatchEnd, before the Goodbye
                hs = session.hosted_slot
                ended = hs is not None and hs.match.over
                why = "hung up after its match ended" if ended else "connection lost"
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed write is a lost connection
            why = f"connection lost ({type(exc).__name__})"
        finally:
            reader.cancel()
            writer.cancel()
            r.router.close(session, why, lose=lose)

    @staticmethod
    async def _write(session: Session, context: grpc.aio.ServicerContext) -> Close:
        while True:
            item = await session.out.get()
            if isinstance(item, Close):
                return item
            await context.write(item)

    async def _read(self, session: Session, it: AsyncIterator[bot_pb2.BotMessage],
                    context: grpc.aio.ServicerContext) -> None:
        why = "the bot closed its stream"
        box = session.out
        try:
            async for msg in it:
                if session.closed:
                    continue  # after Goodbye: read until the bot hangs up, act on nothing
                box.hold = True
                after: list[Callable[[], None]] = []
                try:
                    AFTER_WRITE.work = after
                    try:
                        self.r.router.on_message(session, msg)
                    finally:
                        AFTER_WRITE.work = None
                    # what that message produced (typically the next request) is written from here
                    # when the writer is idle: no task switch per decision
                    while box.writer_idle and box.items and not isinstance(box.items[0], Close):
                        await context.write(box.items.popleft())
                finally:
                    box.hold = False
                    if box.items:
                        box.wake()
                for work in after:
                    work()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken stream is a disconnect, never a crash
            why = f"stream error: {type(exc).__name__}"
        session.close(None, why)


class OrganizerServicer(organizer_pb2_grpc.OrganizerServiceServicer):
    def __init__(self, referee: Referee) -> None:
        self.r = referee

    async def _guard(self, context: grpc.aio.ServicerContext) -> None:
        try:
            self.r.auth.check(context.invocation_metadata())
        except Reject as exc:
            await _abort(context, exc)

    async def RegisterBot(self, request: organizer_pb2.RegisterBotRequest,
                          context: grpc.aio.ServicerContext) -> organizer_pb2.RegisterBotResponse:
        await self._guard(context)
        unknown = sorted(set(request.games) - set(game_ids()))
        if unknown:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"unknown game(s) {unknown}")
        try:
            token = await asyncio.to_thread(self.r.store.register, request.name, list(request.games))
        except BadBotName as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except BotExists as exc:
            await context.abort(grpc.StatusCode.ALREADY_EXISTS, str(exc))
        log.info("bot %s registered (games: %s)", request.name, list(request.games) or "all")
        return organizer_pb2.RegisterBotResponse(name=request.name, token=token)

    async def RevokeBot(self, request: organizer_pb2.RevokeBotRequest,
                        context: grpc.aio.ServicerContext) -> organizer_pb2.RevokeBotResponse:
        await self._guard(context)
        try:
            await asyncio.to_thread(self.r.store.revoke, request.name)
        except UnknownBotName:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no registered bot named {request.name!r}")
        n = self.r.router.revoke(request.name)
        log.info("bot %s revoked (%d session(s) closed)", request.name, n)
        return organizer_pb2.RevokeBotResponse(sessions_closed=n)

    async def ListBots(self, request: organizer_pb2.ListBotsRequest,
                       context: grpc.aio.ServicerContext) -> organizer_pb2.ListBotsResponse:
        await self._guard(context)
        records = await asyncio.to_thread(self.r.store.all)
        out = []
        for rec in records:
            sess = [s for s in self.r.sessions.values() if s.bot == rec.name and s.hosted_slot is None]
            out.append(organizer_pb2.BotInfo(name=rec.name, games=list(rec.games),
                                             created_unix_ms=int(rec.created * 1000), sessions=len(sess),
                                             free_capacity=sum(max(0, s.free) for s in sess),
                                             clients=[s.client for s in sess]))
        return organizer_pb2.ListBotsResponse(bots=out)

    async def ListMatches(self, request: organizer_pb2.ListMatchesRequest,
                          context: grpc.aio.ServicerContext) -> organizer_pb2.ListMatchesResponse:
        await self._guard(context)
        ms = sorted(self.r.matches.values(), key=lambda m: m.started_unix_ms)
        return organizer_pb2.ListMatchesResponse(matches=[m.info() for m in ms])

    async def RunMatch(self, request: organizer_pb2.RunMatchRequest,
                       context: grpc.aio.ServicerContext) -> organizer_pb2.RunMatchResponse:
        await self._guard(context)
        try:
            spec = spec_from_proto(request.spec)
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        wait_s = request.live_wait_ms / 1000 if request.live_wait_ms else self.r.config.live_wait_s
        t0 = time.monotonic()
        try:
            resp = await self.r.run_match(spec, wait_s)
        except Reject as exc:
            await _abort(context, exc)
            raise  # unreachable: abort raises
        if "seconds" not in resp.logs:  # the match's duration, measured here (a cached report keeps its own)
            resp.logs["seconds"] = f"{time.monotonic() - t0:.3f}"
        return resp

    async def WatchMatch(self, request: organizer_pb2.WatchMatchRequest,
                         context: grpc.aio.ServicerContext) -> AsyncIterator[organizer_pb2.WatchFrame]:
        await self._guard(context)
        match = self.r.matches.get(request.match_id)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no running match {request.match_id!r}")
            return
        if not match.feed.frames:
            if match.over:  # ended unwatched, not yet removed: there is no frame to show
                await context.abort(grpc.StatusCode.NOT_FOUND, f"match {request.match_id!r} has ended")
                return
            match.publish()
        async for frame in match.feed.watch(request.delay_ms / 1000):
            yield frame

    async def GetStatus(self, request: organizer_pb2.StatusRequest,
                        context: grpc.aio.ServicerContext) -> organizer_pb2.StatusResponse:
        await self._guard(context)
        hosting = self.r.hosting
        return organizer_pb2.StatusResponse(server_version=SERVER_VERSION, games=game_ids(),
                                            matches=len(self.r.matches), sessions=len(self.r.sessions),
                                            uptime_s=time.monotonic() - self.r.started,
                                            hosted=hosting.describe() if hosting is not None else "")


async def create_server(address: str = "127.0.0.1:0", *, organizer_token: str | None = None,
                        config: RefereeConfig | None = None, store: TokenStore | None = None,
                        tls_cert: str | None = None, tls_key: str | None = None,
                        ) -> tuple[grpc.aio.Server, int]:
    """Build and start a referee on ``address`` (port 0 = any free port); returns (server, port).

    The ``Referee`` is reachable as ``server.referee`` (tests register bots through it).
    """
    config = config or RefereeConfig()
    quiet_closed_streams()
    referee = Referee(config, store or TokenStore(), organizer_token or secrets.token_urlsafe(24))
    options = [("grpc.max_receive_message_length", config.max_message_bytes),
               ("grpc.max_send_message_length", 256 << 20),
               ("grpc.keepalive_time_ms", 30_000), ("grpc.keepalive_timeout_ms", 10_000),
               ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
               ("grpc.keepalive_permit_without_calls", 1)]
    server = grpc.aio.server(options=options)
    # [sandbox] the hosted bots' socket: gRPC fixes its ports before it starts
    if referee.hosting is not None:
        server.add_insecure_port(referee.hosting.channel.address)
    bot_pb2_grpc.add_BotServiceServicer_to_server(BotServicer(referee), server)
    organizer_pb2_grpc.add_OrganizerServiceServicer_to_server(OrganizerServicer(referee), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if tls_cert and tls_key:
        from pathlib import Path

        creds = grpc.ssl_server_credentials([(Path(tls_key).read_bytes(), Path(tls_cert).read_bytes())])
        port = server.add_secure_port(address, creds)
        referee.lifecycle.tls_ca = tls_cert
        host = "localhost"
    else:
        port = server.add_insecure_port(address)
        host = address.rpartition(":")[0].strip("[]") or "127.0.0.1"
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
    if port == 0:
        raise OSError(f"cannot bind {address}")
    referee.address = f"{host}:{port}"
    await server.start()
    if referee.hosting is not None:
        referee.hosting.channel.opened()
        log.info("%s", referee.hosting.describe())
    for name in ("", "arena.v1.BotService", "arena.v1.OrganizerService"):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    server.referee = referee
    server.health = health_servicer
    log.info("referee listening on %s (games: %s)", referee.address, ", ".join(game_ids()))
    return server, port


def tune_gc() -> None:
    """Fewer, later garbage collections: the per-decision path allocates many short-lived objects
    (protobuf messages, JSON strings) and gen-0 collections were ~10% of the referee's CPU.
    Objects alive at start-up (modules, games, content) are frozen out of every collection."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


async def reap_cycles(every_s: float = 10.0) -> None:
    """A full collection every ``every_s`` seconds. A finished match leaves reference cycles (match <->
    seat slots <-> pending decisions) that ``tune_gc``'s lazy thresholds kept for hours: a referee's
    resident memory grew ~22-33 KB per match, steadily. With start-up objects frozen a full
    collection takes a few milliseconds."""
    import gc

    while True:
        await asyncio.sleep(every_s)
        gc.collect()


async def serve(address: str, *, organizer_token: str, config: RefereeConfig | None = None,
                store: TokenStore | None = None, tls_cert: str | None = None, tls_key: str | None = None,
                ready: Any = None) -> None:
    """Run a referee until SIGINT/SIGTERM; ``ready(port)`` is called once it listens."""
    import signal

    server, port = await create_server(address, organizer_token=organizer_token, config=config, store=store,
                                       tls_cert=tls_cert, tls_key=tls_key)
    tune_gc()
    reaper = asyncio.get_running_loop().create_task(reap_cycles())
    if ready is not None:
        ready(port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    reaper.cancel()
    log.info("referee shutting down")
    hs = server.health
    await hs.enter_graceful_shutdown()
    await server.referee.shut_down()
    if server.referee.hosting is not None:
        await server.referee.hosting.close()
    await server.stop(grace=2.0)
    # Finalise what the matches left behind (a bot process's subprocess transport, say) while the loop
    # still runs: collected after asyncio.run closes it, a transport's __del__ prints a traceback.
    gc.collect()
    await asyncio.sleep(0)


class RefereeThread:
    """A referee on a background thread's event loop (tests, benchmarks, ``arena`` commands).

        with RefereeThread(config=...) as ref:
            client = RefereeClient(ref.address, ref.organizer_token)
    """

    def __init__(self, address: str = "127.0.0.1:0", *, organizer_token: str | None = None,
                 config: RefereeConfig | None = None, store: TokenStore | None = None,
                 tls_cert: str | None = None, tls_key: str | None = None) -> None:
        self.organizer_token = organizer_token or secrets.token_urlsafe(24)
        self._args = (address, config, store)
        self._tls = (tls_cert, tls_key)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="referee", daemon=True)
        self.server: grpc.aio.Server | None = None
        self.port = 0

    @property
    def address(self) -> str:
        return f"{'localhost' if self._tls[0] else '127.0.0.1'}:{self.port}"

    @property
    def referee(self) -> Referee:
        assert self.server is not None
        return self.server.referee

    def call(self, coro: Any, timeout: float | None = 30) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> RefereeThread:
        self._thread.start()
        address, config, store = self._args
        self.server, self.port = self.call(create_server(address, organizer_token=self.organizer_token,
                                                         config=config, store=store, tls_cert=self._tls[0],
                                                         tls_key=self._tls[1]))
        return self

    def register_bot(self, name: str, games: list[str] | None = None) -> str:
        return self.referee.store.register(name, games or [])

    def stop(self) -> None:
        if self.server is not None:
            if self.referee.hosting is not None:
                self.call(self.referee.hosting.close())
            self.call(self.server.stop(grace=0.5))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)

    def __enter__(self) -> RefereeThread:  # noqa: PYI034
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

