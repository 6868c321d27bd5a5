"""Connect bots to a referee: ``run(bot_factory, address, token, games, capacity)``.

One gRPC stream per session (see docs/protocol.md). The SDK turns each ``MatchStart`` into a
fresh bot (``bot_factory(start)``, or ``BotClass(seed)`` when given a ``Bot`` subclass), each
``DecisionRequest`` into ``bot.act(request)`` and sends the answer; it plays several matches at
once (``capacity``), reconnects after a dropped connection (the referee keeps the seats for its
grace period and re-sends the pending decision), and stops on a refused token.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from referee import viewpatch
from referee.engine.agent import DecisionRequest, MatchStart, TimeControl
from referee.protocol import bot_pb2, bot_pb2_grpc
from referee.viewpatch import loads

from .bot import Bot
from .remote_forward import ForwardLink, bind_remote

log = logging.getLogger("bots.sdk")

BotFactory = Callable[[MatchStart], Bot] | type[Bot]

_FATAL = {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.INVALID_ARGUMENT,
          grpc.StatusCode.PERMISSION_DENIED}


class BotRefused(RuntimeError):
    """The referee refused the session (bad or revoked token, no playable game): do not retry."""


@dataclass
class SessionStats:
    """What a session did (returned by ``run`` / ``run_async``)."""

    bot: str = ""
    matches: int = 0
    decisions: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    reconnects: int = 0
    #: views that arrived as patches (Hello.view_delta) and were rebuilt here
    view_patches: int = 0


def channel_options() -> list[tuple[str, Any]]:
    return [("grpc.keepalive_time_ms", 20_000), ("grpc.keepalive_timeout_ms", 10_000),
            ("grpc.keepalive_permit_without_calls", 1), ("grpc.max_receive_message_length", 64 << 20)]


def open_channel(address: str, tls_ca: str | None = None) -> grpc.aio.Channel:
    tls_ca = tls_ca or os.environ.get("ARENA_TLS_CA") or None
    if tls_ca:
        with open(tls_ca, "rb") as fh:
            creds = grpc.ssl_channel_credentials(root_certificates=fh.read())
        return grpc.aio.secure_channel(address, creds, options=channel_options())
    return grpc.aio.insecure_channel(address, options=channel_options())


def _make(factory: BotFactory, start: MatchStart) -> Bot:
    if isinstance(factory, type) and issubclass(factory, Bot):
        return factory(start_seed(start))
    return factory(start)  # type: ignore[call-arg,return-value]


def start_seed(start: MatchStart) -> int:
    """The seed a built-in bot uses for a match: the referee's per-seat ``bot_seed``."""
    return int(getattr(start, "seed", 0))


def to_match_start(m: bot_pb2.MatchStart) -> MatchStart:
    tc = TimeControl(per_decision_ms=m.time_control.per_decision_ms, bank_ms=m.time_control.bank_ms)
    start = MatchStart(m.match_id, m.game, m.game_version, json.loads(m.options_json or "{}"), m.seat,
                       m.players,
                       list(m.bots), tc)
    object.__setattr__(start, "seed", m.bot_seed)  # the bot's own seed (never the game's)
    return start


def to_request(d: bot_pb2.DecisionRequest, view: dict[str, Any] | None = None) -> DecisionRequest:
    """The request as the SDK's ``DecisionRequest`` (``view``: already reconstructed from a patch)."""
    return DecisionRequest(d.match_id, d.decision_id, d.game, d.seat,
                           view if view is not None else loads(d.view_json), loads(d.legal_json),
                           loads(d.events_json or "[]"), d.deadline_ms, d.time_bank_ms)


def apply_view_patch(previous: dict[str, Any], patch_json: str) -> dict[str, Any]:
    """The view a ``view_patch_json`` describes on ``previous`` (docs/protocol.md, "View deltas";
    ``referee.viewpatch``). Applying it twice changes nothing. Parts of the view that did not
    change are shared with ``previous``: treat views as read-only."""
    return viewpatch.apply(previous, loads(patch_json))


def answer_message(request: DecisionRequest | bot_pb2.DecisionRequest, choice: Any) -> bot_pb2.BotMessage:
    """The Answer for ``choice``: an index, an action dict, or (passed through as is) a JSON string."""
    ans = bot_pb2.Answer(match_id=request.match_id, decision_id=request.decision_id)
    if isinstance(choice, int) and not isinstance(choice, bool) and choice >= 0:
        ans.index = choice
    elif isinstance(choice, str):
        ans.action_json = choice
    else:
        ans.action_json = json.dumps(choice, separators=(",", ":"))
    return bot_pb2.BotMessage(answer=ans)


class _Session:
    def __init__(self, factory: BotFactory, stats: SessionStats, capacity: int, threaded: bool) -> None:
        self.factory = factory
        self.stats = stats
        self.capacity = capacity
        self.threaded = threaded
        self.bots: dict[tuple[str, int], Bot] = {}
        self.call: Any = None
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.views: dict[tuple[str, int], dict[str, Any]] = {}  # last view per (match, seat)
        # [forward] the referee's forward model for bots that bind one (remote_forward.py); their act runs
        # on a worker thread, since a forward call blocks until its reply comes through this session
        self.link = ForwardLink(asyncio.get_running_loop(), self.send)
        self.remote: set[tuple[str, int]] = set()

    def view_of(self, d: bot_pb2.DecisionRequest) -> dict[str, Any]:
        """The full view of ``d`` (rebuilt from the seat's previous view when it is a patch)."""
        key = (d.match_id, d.seat)
        if d.view_patch_json:
            view = apply_view_patch(self.views.get(key, {}), d.view_patch_json)
            self.stats.view_patches += 1
        else:
            view = loads(d.view_json)
        self.views[key] = view
        return view

    async def send(self, msg: bot_pb2.BotMessage) -> None:
        # Written straight to the stream (no queue, no extra task): one write at a time.
        async with self.lock:
            await self.call.write(msg)

    async def _decide(self, bot: Bot, d: bot_pb2.DecisionRequest, view: dict[str, Any]) -> None:
        req = to_request(d, view)
        try:
            if self.threaded or (d.match_id, d.seat) in self.remote:
                choice = await asyncio.to_thread(bot.act, req)
            else:
                choice = bot.act(req)
        except Exception:
            log.exception("bot.act failed on %s decision %d; answering index 0", d.match_id, d.decision_id)
            choice = 0
        self.stats.decisions += 1
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError, grpc.aio.UsageError):
            await self.send(answer_message(d, choice))

    async def handle(self, msg: bot_pb2.RefereeMessage) -> bool:
        """Handle one referee message; False when the session should end (Goodbye)."""
        kind = msg.WhichOneof("kind")
        if kind == "decision":
            d = msg.decision
            bot = self.bots.get((d.match_id, d.seat))
            if bot is None:
                log.warning("decision for unknown match %s seat %d", d.match_id, d.seat)
                return True
            view = self.view_of(d)  # in arrival order: a patch applies to the view before it
            self.link.current[(d.match_id, d.seat)] = d.decision_id
            if self.threaded or (d.match_id, d.seat) in self.remote:
                t = asyncio.get_running_loop().create_task(self._decide(bot, d, view))
                self.tasks.add(t)
                t.add_done_callback(self.tasks.discard)
            else:
                req = to_request(d, view)
                try:
                    choice = bot.act(req)
                except Exception:
                    log.exception("bot.act failed on %s decision %d; answering index 0", d.match_id,
                                  d.decision_id)
                    choice = 0
                self.stats.decisions += 1
                await self.send(answer_message(d, choice))
        elif kind == "match_start":
            m = msg.match_start
            key = (m.match_id, m.seat)
            if key not in self.bots:
                start = to_match_start(m)
                bot = _make(self.factory, start)
                bot.start(start)
                self.bots[key] = bot
                if bind_remote(bot, self.link, m.match_id, m.seat):
                    self.remote.add(key)
                self.stats.matches += 1
                log.info("match %s: playing seat %d of %s", m.match_id, m.seat, m.game)
        elif kind == "match_end":
            e = msg.match_end
            outcome = loads(e.outcome_json)
            self.stats.outcomes[e.match_id] = outcome
            self.views.pop((e.match_id, e.seat), None)
            self.remote.discard((e.match_id, e.seat))
            self.link.current.pop((e.match_id, e.seat), None)
            bot = self.bots.pop((e.match_id, e.seat), None)
            if bot is not None:
                try:
                    bot.end(outcome)
                except Exception:
                    log.exception("bot.end failed")
            log.info("match %s ended: ranks %s", e.match_id, outcome.get("ranks"))
        elif kind == "error":
            e = msg.error
            err = {"code": bot_pb2.ErrorCode.Name(e.code),
                   "consequence": bot_pb2.Consequence.Name(e.consequence),
                   "message": e.message, "match_id": e.match_id, "decision_id": e.decision_id,
                   "strikes": e.strikes}
            self.stats.errors.append(err)
            log.warning("referee error %s (%s): %s", err["code"], err["consequence"], e.message)
            for (mid, _seat), bot in self.bots.items():
                if mid == e.match_id and hasattr(bot, "on_error"):
                    bot.on_error(err)
        elif kind == "forward":
            self.link.resolve(msg.forward)
        elif kind == "ping":
            await self.send(bot_pb2.BotMessage(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
        elif kind == "welcome":
            self.stats.bot = msg.welcome.bot
            log.info("connected as %s (session %s, capacity %d, games %s)", msg.welcome.bot,
                     msg.welcome.session_id, msg.welcome.capacity, list(msg.welcome.games))
        elif kind == "goodbye":
            log.info("referee says goodbye: %s", msg.goodbye.reason)
            return False
        return True


async def run_async(bot_factory: BotFactory, address: str, token: str, games: Sequence[str] = (),
                    capacity: int = 1, *, client: str = "arena-python-sdk", tls_ca: str | None = None,
                    reconnect: bool = True, once: bool = False, max_backoff_s: float = 10.0,
                    give_up_s: float | None = None, stop: asyncio.Event | None = None,
                    threaded: bool | None = None, view_delta: bool = False) -> SessionStats:
    """Play until stopped, the referee says Goodbye, or (``once``) the first stream ends.

    After a lost connection it reconnects with backoff; ``give_up_s`` ends the attempts when no
    stream has been welcomed for that long (hosted bots use it, so an orphan never lingers).
    ``threaded`` (default: when ``capacity > 1``) calls ``act`` on worker threads, so a slow bot
    never blocks its other matches or the stream. ``view_delta`` asks the referee for views as
    patches (smaller messages for games with large views); ``act`` still gets full views.
    """
    import time

    stats = SessionStats()
    last_ok = time.monotonic()
    backoff = 0.2
    first = True
    while True:
        if not first:
            stats.reconnects += 1
        first = False
        sess = _Session(bot_factory, stats, capacity, threaded=capacity > 1 if threaded is None else threaded)
        hello = bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token, games=list(games), capacity=capacity,
                                                       client=client, view_delta=view_delta))
        channel = open_channel(address, tls_ca)
        goodbye = False
        try:
            call = bot_pb2_grpc.BotServiceStub(channel).Connect()
            sess.call = call
            await sess.send(hello)
            stopper = None
            if stop is not None:
                stopper = asyncio.get_running_loop().create_task(stop.wait())
                stopper.add_done_callback(lambda _t, c=call: c.cancel())  # type: ignore[misc]
            try:
                async for msg in call:
                    last_ok = time.monotonic()
                    if not await sess.handle(msg):
                        goodbye = True
                        # hang up our side, so the referee's stream ends now rather than after its linger
                        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError,
                                                 grpc.aio.UsageError):
                            await call.done_writing()
                        break
                    backoff = 0.2
            finally:
                if stopper is not None:
                    stopper.cancel()
                sess.link.fail_all("the connection to the referee ended")
                for t in list(sess.tasks):
                    t.cancel()
        except asyncio.CancelledError:
            if stop is not None and stop.is_set():  # our own call.cancel() on stop
                return stats
            raise
        except grpc.aio.AioRpcError as exc:
            if exc.code() in _FATAL:
                raise BotRefused(f"{exc.code().name}: {exc.details()}") from None
            if stop is not None and stop.is_set():
                return stats
            log.warning("connection to %s lost: %s: %s", address, exc.code().name, exc.details())
            if not reconnect:
                raise
        finally:
            await channel.close()
        if goodbye or once or (stop is not None and stop.is_set()):
            return stats
        if give_up_s is not None and time.monotonic() - last_ok > give_up_s:
            log.warning("no connection to %s for %.0fs; giving up", address, give_up_s)
            return stats
        await asyncio.sleep(backoff * (0.5 + random.random()))
        backoff = min(max_backoff_s, backoff * 2)


def run(bot_factory: BotFactory, address: str | None = None, token: str | None = None,
        games: Sequence[str] = (), capacity: int = 1, **kwargs: Any) -> SessionStats:
    """Blocking ``run_async``; address and token default to ARENA_REFEREE / ARENA_TOKEN."""
    address = address or os.environ.get("ARENA_REFEREE", "127.0.0.1:50051")
    token = token or os.environ.get("ARENA_TOKEN", "")
    return asyncio.run(run_async(bot_factory, address, token, games, capacity, **kwargs))


class SessionThread:
    """``run_async`` on a daemon thread of its own until ``stop()``: a bot session inside another program
    (a bench, a test). A ``stop()`` that comes before the thread has made its loop is not lost (the session
    would then reconnect for ever); ``stats`` and ``error`` hold how the session ended."""

    def __init__(self, bot_factory: BotFactory, address: str, token: str, games: Sequence[str] = (),
                 capacity: int = 1, *, name: str = "sdk-session", **kwargs: Any) -> None:
        self.stats: SessionStats | None = None
        self.error: BaseException | None = None
        self._stopping = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

        async def go() -> None:
            self._stop, self._loop = asyncio.Event(), asyncio.get_running_loop()
            if self._stopping.is_set():
                self._stop.set()
            try:
                self.stats = await run_async(bot_factory, address, token, games, capacity, stop=self._stop,
                                             **kwargs)
            except BaseException as exc:  # noqa: BLE001 - kept for the owner to look at
                self.error = exc

        self.thread = threading.Thread(target=asyncio.run, args=(go(),), daemon=True, name=name)
        self.thread.start()

    def stop(self, timeout_s: float = 10.0) -> bool:
        """Ends the session; whether its thread is over within ``timeout_s``."""
        self._stopping.set()
        loop, event = self._loop, self._stop
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):   # the loop is already closed: the session had ended
                loop.call_soon_threadsafe(event.set)
        self.thread.join(timeout_s)
        return not self.thread.is_alive()
