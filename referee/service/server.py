"""The referee process: bot sessions, organizer calls, matches; ``create_server`` and ``serve``.

Everything runs on one asyncio loop (``grpc.aio``). Games are looked up in the engine registry
only: the referee knows nothing of any particular game.
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from referee.engine import ArenaError, canonical, game_ids, get_game
from referee.matchspec import MatchSpec
from referee.protocol import bot_pb2, bot_pb2_grpc, organizer_pb2, organizer_pb2_grpc

from .config import SERVER_VERSION, RefereeConfig
from .convert import spec_from_proto
from .hosted import HostedBot
from .match import LiveMatch
from .sessions import Close, Fault, SeatSlot, Session
from .tokens import BadBotName, BotExists, TokenStore, UnknownBotName, hash_token

log = logging.getLogger("referee")


class Reject(Exception):
    """End an RPC with a status code (raised below the servicers, turned into ``context.abort``)."""

    def __init__(self, code: grpc.StatusCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class Referee:
    """The shared state of one referee process."""

    def __init__(self, config: RefereeConfig, store: TokenStore, organizer_token: str) -> None:
        self.config = config
        self.store = store
        self.organizer_token = organizer_token
        self.address = ""  # where hosted bots connect (set by create_server)
        self.tls_ca: str | None = None
        self.sessions: dict[str, Session] = {}
        self.matches: dict[str, LiveMatch] = {}
        self.running: dict[str, asyncio.Future[organizer_pb2.RunMatchResponse]] = {}
        self.finished: OrderedDict[str, tuple[str, organizer_pb2.RunMatchResponse]] = OrderedDict()
        self.hosted_tokens: dict[str, SeatSlot] = {}
        self.changed = asyncio.Condition()
        self.started = time.monotonic()
        self._ids = itertools.count(1)

    # -- sessions ----------------------------------------------------------------------------
    async def open_session(self, hello: bot_pb2.Hello) -> Session:
        cfg = self.config
        slot = self.hosted_tokens.get(hash_token(hello.token)) if hello.token else None
        if slot is not None:
            if slot.session is not None or slot.lost or slot.match.over:
                raise Reject(grpc.StatusCode.UNAUTHENTICATED, "this hosted token is in use or no longer valid")
            bot, games = slot.bot, frozenset([slot.match.game.info.id])
            capacity = 1
        else:
            record = await asyncio.to_thread(self.store.lookup, hello.token)
            if record is None:
                raise Reject(grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked token")
            bot = record.name
            known = set(game_ids())
            asked = set(hello.games) or known
            allowed = set(record.games) or known
            games = frozenset(asked & allowed & known)
            if not games:
                raise Reject(grpc.StatusCode.INVALID_ARGUMENT,
                             f"none of the games in Hello ({sorted(hello.games)}) can be played here; "
                             f"this referee runs {sorted(known)}")
            capacity = max(1, min(hello.capacity or 1, cfg.max_capacity))
        sid = f"s{next(self._ids)}-{secrets.token_hex(3)}"
        session = Session(sid, bot, games, capacity, hello.client[:200], slot,
                          flood_rate=cfg.flood_rate, flood_burst=cfg.flood_burst)
        self.sessions[sid] = session
        session.send(bot_pb2.RefereeMessage(welcome=bot_pb2.Welcome(
            bot=bot, session_id=sid, capacity=capacity, games=sorted(games),
            max_message_bytes=cfg.max_message_bytes, max_action_bytes=cfg.max_action_bytes,
            reconnect_grace_ms=int(cfg.reconnect_grace_s * 1000), server_version=SERVER_VERSION)))
        log.info("session %s: bot %s connected (%s; capacity %d; %s)", sid, bot,
                 "hosted" if slot else "live", capacity, session.client or "no client string")
        if slot is not None:
            slot.match.attach(slot, session, resumed=slot.ever_connected)
        else:
            self._adopt_orphans(session)
        await self._notify()
        return session

    def _adopt_orphans(self, session: Session) -> None:
        """A live bot reconnected: give it back the seats it left within the grace period."""
        for m in self.matches.values():
            for slot in m.slots:
                if (session.free > 0 and not slot.hosted and slot.bot == session.bot and slot.session is None
                        and slot.ever_connected and not slot.lost and not m.over and session.accepts(m.game.info.id)):
                    m.attach(slot, session, resumed=True)

    def close_session(self, session: Session, why: str, *, lose: bool = False) -> None:
        """The stream ended. Its seats get the disconnect rule (or forfeit at once when ``lose``)."""
        session.closed = True
        self.sessions.pop(session.id, None)
        for slot in list(session.slots):
            slot.match.detach(slot, 0 if lose else self.config.reconnect_grace_s, why)
        log.info("session %s (%s) closed: %s", session.id, session.bot, why)
        asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    def on_message(self, session: Session, msg: bot_pb2.BotMessage) -> None:
        """Handle one bot message. Never raises for anything the bot sent."""
        cfg = self.config
        kind = msg.WhichOneof("kind")
        if kind == "answer" and self._awaited(session, msg.answer):
            # An answer the referee is waiting for is never flooding: legitimate traffic grows with
            # the number of matches, so only unsolicited messages are rate limited.
            self.on_answer(session, msg.answer)
            return
        if not session.take_token():
            if session.dropped > cfg.flood_disconnect_after:
                why = f"flooding: more than {cfg.flood_rate:g} messages/s, {session.dropped} dropped"
                for slot in list(session.slots):
                    slot.lose(why)
                session.close(grpc.StatusCode.RESOURCE_EXHAUSTED, why)
            elif time.monotonic() - session.last_flood_error > 1.0:
                session.last_flood_error = time.monotonic()
                session.error(bot_pb2.FLOODING, bot_pb2.IGNORED,
                              f"rate limit is {cfg.flood_rate:g} messages/s; excess messages are dropped "
                              f"({session.dropped} so far; the session is closed after {cfg.flood_disconnect_after})")
            return
        if kind == "answer":
            self.on_answer(session, msg.answer)
        elif kind == "ping":
            session.send(bot_pb2.RefereeMessage(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
        elif kind == "pong":
            pass
        else:
            session.error(bot_pb2.PROTOCOL_VIOLATION, bot_pb2.IGNORED,
                          "Hello is only valid as the first message" if kind == "hello" else "empty message")

    @staticmethod
    def _awaited(session: Session, ans: bot_pb2.Answer) -> bool:
        for s in session.slots:
            if s.pending is not None and s.pending.decision_id == ans.decision_id and s.match.id == ans.match_id:
                return True
        return False

    def on_answer(self, session: Session, ans: bot_pb2.Answer) -> None:
        slots = [s for s in session.slots if s.match.id == ans.match_id]
        if not slots:
            session.error(bot_pb2.UNKNOWN_MATCH, bot_pb2.IGNORED,
                          f"match {ans.match_id[:80]!r} is not a match this session plays", decision_id=ans.decision_id)
            return
        slot = next((s for s in slots if s.pending is not None and s.pending.decision_id == ans.decision_id), None)
        if slot is None:
            session.error(bot_pb2.STALE_DECISION, bot_pb2.IGNORED,
                          f"decision {ans.decision_id} is not awaiting an answer from this session",
                          ans.match_id, ans.decision_id)
            return
        p = slot.pending
        assert p is not None
        which = ans.WhichOneof("choice")
        if which == "index":
            if ans.index < len(p.legal):
                p.resolve(ans.index)
                return
            fault = Fault(bot_pb2.ILLEGAL_ACTION,
                          f"decision {p.decision_id}: index {ans.index} is outside the legal list (0..{len(p.legal) - 1})")
        elif which == "action_json":
            parsed = self._parse_action(p, ans.action_json)
            if parsed is None:
                return
            fault = parsed
        else:
            fault = Fault(bot_pb2.MALFORMED_ANSWER, f"decision {p.decision_id}: the answer has neither index "
                          "nor action_json")
        self._answer_fault(slot, fault)

    def _parse_action(self, p: Any, text: str) -> Fault | None:
        if len(text.encode()) > self.config.max_action_bytes:
            return Fault(bot_pb2.OVERSIZED, f"decision {p.decision_id}: action_json is larger than "
                         f"{self.config.max_action_bytes} bytes")
        try:
            action = json.loads(text)
            key = canonical(action) if isinstance(action, dict) else None
        except (ValueError, TypeError, RecursionError):
            key = None
        if key is None:
            return Fault(bot_pb2.MALFORMED_ANSWER, f"decision {p.decision_id}: action_json is not a JSON object")
        index = p.index_of(key)
        if index is None:
            t = action.get("type")
            kind = f"of type {t[:40]!r}" if isinstance(t, str) else "without a string 'type'"
            return Fault(bot_pb2.ILLEGAL_ACTION, f"decision {p.decision_id}: the action {kind} is not in the legal list")
        p.resolve(index)
        return None

    def _answer_fault(self, slot: SeatSlot, fault: Fault) -> None:
        """A wrong answer: re-ask within the same deadline (``reasks`` times), then hand it to the policy."""
        p = slot.pending
        session = slot.session
        assert p is not None and session is not None
        if p.attempts < self.config.reasks and p.remaining_ms() > 0:
            p.attempts += 1
            session.error(fault.code, bot_pb2.REASKED, fault.message + "; asked again", slot.match.id,
                          p.decision_id, slot.strikes, self.config.max_strikes)
            req = bot_pb2.DecisionRequest()
            req.CopyFrom(p.request)
            req.attempt = p.attempts
            if req.deadline_ms:
                req.deadline_ms = p.remaining_ms()
            session.send(bot_pb2.RefereeMessage(decision=req))
            slot.match.note(f"seat {slot.seat} ({slot.bot}) re-asked decision {p.decision_id}: {fault.message}")
            return
        p.resolve(fault)

    # -- matches -----------------------------------------------------------------------------
    def check_spec(self, spec: MatchSpec) -> LiveMatch:
        if not spec.match_id or len(spec.match_id) > 200:
            raise Reject(grpc.StatusCode.INVALID_ARGUMENT, "match_id must be 1-200 characters")
        try:
            game = get_game(spec.game)
            state = game.new_state(len(spec.seats), spec.options, spec.seed)
        except ArenaError as exc:
            raise Reject(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        for s, seat in enumerate(spec.seats):
            if not seat.bot:
                raise Reject(grpc.StatusCode.INVALID_ARGUMENT, f"seat {s} has no bot name")
        tc = spec.time_control
        if tc.per_decision_ms < 0 or tc.bank_ms < 0:
            raise Reject(grpc.StatusCode.INVALID_ARGUMENT, "time control values must be >= 0")
        return LiveMatch(spec, game, state, self.config)

    async def run_match(self, spec: MatchSpec, live_wait_s: float) -> organizer_pb2.RunMatchResponse:
        key = canonical(spec.to_json())
        done = self.finished.get(spec.match_id)
        if done is not None:
            if done[0] != key:
                raise Reject(grpc.StatusCode.ALREADY_EXISTS, f"match {spec.match_id} was played with another spec")
            return done[1]
        if spec.match_id in self.running:
            # a retried request (e.g. a worker that lost its connection): wait for the same match
            return await asyncio.shield(self.running[spec.match_id])
        match = self.check_spec(spec)
        fut: asyncio.Future[organizer_pb2.RunMatchResponse] = asyncio.get_running_loop().create_future()
        self.running[spec.match_id] = fut
        self.matches[match.id] = match
        try:
            resp = await self._play(match, live_wait_s)
        except BaseException as exc:
            if not fut.done():
                fut.set_exception(exc if isinstance(exc, Exception) else Reject(grpc.StatusCode.UNAVAILABLE,
                                                                              "referee shutting down"))
                fut.exception()  # mark retrieved
            raise
        finally:
            self.running.pop(spec.match_id, None)
            self.matches.pop(match.id, None)
        fut.set_result(resp)
        self.finished[spec.match_id] = (key, resp)
        while len(self.finished) > self.config.keep_reports:
            self.finished.popitem(last=False)
        return resp

    async def _reserve_live(self, match: LiveMatch, wait_s: float) -> None:
        need = [slot for slot in match.slots if not slot.hosted]
        if not need:
            return
        gid = match.game.info.id
        deadline = time.monotonic() + wait_s
        async with self.changed:
            while True:
                for slot in need:
                    if slot.session is None:
                        for sess in self.sessions.values():
                            if (sess.bot == slot.bot and sess.hosted_slot is None and not sess.closed
                                    and sess.free > 0 and sess.accepts(gid)):
                                match.attach(slot, sess, resumed=False)
                                break
                missing = [s for s in need if s.session is None]
                if not missing:
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    for slot in need:
                        if slot.session is not None:
                            match.detach(slot, 0, "match not started")
                    names = sorted({s.bot for s in missing})
                    raise Reject(grpc.StatusCode.UNAVAILABLE,
                                 f"no connected session with free capacity for live bot(s) {names} "
                                 f"playing {gid} (waited {wait_s:g}s)")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), left)

    async def _play(self, match: LiveMatch, live_wait_s: float) -> organizer_pb2.RunMatchResponse:
        cfg = self.config
        spec = match.spec
        hosted: list[HostedBot] = []
        tokens: list[str] = []
        try:
            # inside the try: a cancelled RunMatch must give reserved seats back (see finally)
            await self._reserve_live(match, live_wait_s)
            for slot, seat in zip(match.slots, spec.seats):
                if not seat.hosted:
                    continue
                token = "hosted_" + secrets.token_urlsafe(24)
                th = hash_token(token)
                self.hosted_tokens[th] = slot
                tokens.append(th)
                try:
                    bot = HostedBot.build(slot.seat, seat.command or "", seat.cwd, seat.env, self.address, token,
                                          match.id, cfg.hosted_log_bytes, self.tls_ca)
                except ValueError as exc:
                    raise Reject(grpc.StatusCode.INVALID_ARGUMENT, f"seat {slot.seat}: bad command: {exc}") from None
                hosted.append(bot)
                if not await bot.start(cfg.hosted_cpu_s, cfg.hosted_memory_mb):
                    slot.lose(bot.launch_error)
                    continue
                match.note(f"seat {slot.seat} ({slot.bot}) launched: pid {bot.proc.pid if bot.proc else '?'}")
                asyncio.get_running_loop().create_task(self._watch_process(slot, bot))
            await self._await_hosted(match)
            outcome, replay = await match.run(spec.seed)
            resp = organizer_pb2.RunMatchResponse(
                match_id=match.id, outcome_json=json.dumps(outcome.to_json()),
                replay_json=json.dumps(replay.to_json(), separators=(",", ":")))
        except ArenaError as exc:
            log.exception("match %s: engine error", match.id)
            raise Reject(grpc.StatusCode.INTERNAL, f"engine error: {exc}") from None
        except (Reject, asyncio.CancelledError):
            raise
        except Exception as exc:
            log.exception("match %s: engine error", match.id)
            raise Reject(grpc.StatusCode.INTERNAL, f"engine error: {type(exc).__name__}: {exc}") from None
        finally:
            match.over = True
            connected = {slot.seat for slot in match.slots if slot.session is not None}
            for slot in match.slots:
                if slot.grace is not None:
                    slot.grace.cancel()
                if slot.pending is not None:
                    slot.pending.resolve(Fault(bot_pb2.ERROR_CODE_UNSPECIFIED, "match aborted", forfeit=True))
                sess = slot.session
                if sess is not None:
                    match.detach(slot, 0, "match over")
                    if sess.hosted_slot is slot:
                        sess.send(bot_pb2.RefereeMessage(goodbye=bot_pb2.Goodbye(reason="match over")))
                        sess.close(None, "match over")
            for th in tokens:
                self.hosted_tokens.pop(th, None)
            if hosted:
                # a connected bot got Goodbye and may exit on its own; a disconnected one is killed now
                await asyncio.gather(*(b.stop(2.0 if b.seat in connected else 0.0) for b in hosted),
                                     return_exceptions=True)
            await self._notify()
        for b in hosted:
            resp.logs[f"seat{b.seat}"] = b.log_text()
        resp.logs["referee"] = "\n".join(match.lines)
        return resp

    async def _await_hosted(self, match: LiveMatch) -> None:
        waiting = [s for s in match.slots if s.hosted and not s.lost]
        if not waiting:
            return
        # `connected` is set on the first connection and also when the seat is lost (bot died)
        waits = [asyncio.ensure_future(s.connected.wait()) for s in waiting]
        await asyncio.wait(waits, timeout=self.config.hosted_connect_s)
        for w in waits:
            w.cancel()
        for slot in waiting:
            if slot.session is None and not slot.lost:
                slot.lose(f"hosted bot did not connect within {self.config.hosted_connect_s:g}s")

    async def _watch_process(self, slot: SeatSlot, bot: HostedBot) -> None:
        rc = await bot.wait()
        if not slot.match.over and slot.lost is None:
            slot.lose(f"hosted bot exited with code {rc} during the match")

    # -- organizer ---------------------------------------------------------------------------
    def check_organizer(self, context: grpc.aio.ServicerContext) -> None:
        md = dict(context.invocation_metadata() or ())
        given = str(md.get("authorization", ""))
        token = given[7:] if given.startswith("Bearer ") else ""
        if not token or not hmac.compare_digest(token.encode(), self.organizer_token.encode()):
            raise Reject(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong organizer token "
                         "(metadata 'authorization: Bearer <token>')")

    def revoke_sessions(self, name: str) -> int:
        n = 0
        for sess in list(self.sessions.values()):
            if sess.bot == name and sess.hosted_slot is None:
                sess.send(bot_pb2.RefereeMessage(goodbye=bot_pb2.Goodbye(reason="token revoked")))
                sess.close(grpc.StatusCode.UNAUTHENTICATED, "token revoked")
                n += 1
        return n


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
            session = await r.open_session(first.hello)
        except Reject as exc:
            log.info("refused a bot session: %s", exc.detail)
            await _abort(context, exc)
            return
        loop = asyncio.get_running_loop()
        session.kill = loop.create_future()
        reader = loop.create_task(self._read(session, request_iterator))
        writer = loop.create_task(self._write(session, context))
        why = "stream ended"
        lose = False
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
            lose = item.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            if item.code is not None:
                await context.abort(item.code, item.detail)
        except asyncio.CancelledError:
            why = "connection lost"
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed write is a lost connection
            why = f"connection lost ({type(exc).__name__})"
        finally:
            reader.cancel()
            writer.cancel()
            r.close_session(session, why, lose=lose)

    @staticmethod
    async def _write(session: Session, context: grpc.aio.ServicerContext) -> Close:
        while True:
            item = await session.out.get()
            if isinstance(item, Close):
                return item
            await context.write(item)

    async def _read(self, session: Session, it: AsyncIterator[bot_pb2.BotMessage]) -> None:
        why = "the bot closed its stream"
        try:
            async for msg in it:
                self.r.on_message(session, msg)
                if session.closed:
                    return
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
            self.r.check_organizer(context)
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
        n = self.r.revoke_sessions(request.name)
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
        try:
            return await self.r.run_match(spec, wait_s)
        except Reject as exc:
            await _abort(context, exc)
            raise  # unreachable: abort raises

    async def WatchMatch(self, request: organizer_pb2.WatchMatchRequest,
                         context: grpc.aio.ServicerContext) -> AsyncIterator[organizer_pb2.WatchFrame]:
        await self._guard(context)
        match = self.r.matches.get(request.match_id)
        if match is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no running match {request.match_id!r}")
            return
        delay = request.delay_ms / 1000
        match.watchers += 1
        try:
            if not match.frames and not match.over:
                await match.publish()
            i = len(match.frames) - 1
            while True:
                async with match.frame_cond:
                    while i >= len(match.frames):
                        await match.frame_cond.wait()
                t, frame = match.frames[i]
                if delay:
                    wait = t + delay - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                yield frame
                if frame.done:
                    return
                i += 1
        finally:
            match.watchers -= 1

    async def GetStatus(self, request: organizer_pb2.StatusRequest,
                        context: grpc.aio.ServicerContext) -> organizer_pb2.StatusResponse:
        await self._guard(context)
        return organizer_pb2.StatusResponse(server_version=SERVER_VERSION, games=game_ids(),
                                            matches=len(self.r.matches), sessions=len(self.r.sessions),
                                            uptime_s=time.monotonic() - self.r.started)


async def create_server(address: str = "127.0.0.1:0", *, organizer_token: str | None = None,
                        config: RefereeConfig | None = None, store: TokenStore | None = None,
                        tls_cert: str | None = None, tls_key: str | None = None,
                        ) -> tuple[grpc.aio.Server, int]:
    """Build and start a referee on ``address`` (port 0 = any free port); returns (server, port).

    The ``Referee`` is reachable as ``server.referee`` (tests register bots through it).
    """
    config = config or RefereeConfig()
    referee = Referee(config, store or TokenStore(), organizer_token or secrets.token_urlsafe(24))
    options = [("grpc.max_receive_message_length", config.max_message_bytes),
               ("grpc.max_send_message_length", 256 << 20),
               ("grpc.keepalive_time_ms", 30_000), ("grpc.keepalive_timeout_ms", 10_000),
               ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
               ("grpc.keepalive_permit_without_calls", 1)]
    server = grpc.aio.server(options=options)
    bot_pb2_grpc.add_BotServiceServicer_to_server(BotServicer(referee), server)
    organizer_pb2_grpc.add_OrganizerServiceServicer_to_server(OrganizerServicer(referee), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if tls_cert and tls_key:
        from pathlib import Path

        creds = grpc.ssl_server_credentials([(Path(tls_key).read_bytes(), Path(tls_cert).read_bytes())])
        port = server.add_secure_port(address, creds)
        referee.tls_ca = tls_cert
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
    for name in ("", "arena.v1.BotService", "arena.v1.OrganizerService"):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    server.referee = referee  # type: ignore[attr-defined]
    server.health = health_servicer  # type: ignore[attr-defined]
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


async def serve(address: str, *, organizer_token: str, config: RefereeConfig | None = None,
                store: TokenStore | None = None, tls_cert: str | None = None, tls_key: str | None = None,
                ready: Any = None) -> None:
    """Run a referee until SIGINT/SIGTERM; ``ready(port)`` is called once it listens."""
    import signal

    server, port = await create_server(address, organizer_token=organizer_token, config=config, store=store,
                                       tls_cert=tls_cert, tls_key=tls_key)
    tune_gc()
    if ready is not None:
        ready(port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("referee shutting down")
    hs = server.health  # type: ignore[attr-defined]
    await hs.enter_graceful_shutdown()
    await server.stop(grace=2.0)


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
        return self.server.referee  # type: ignore[attr-defined,no-any-return]

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
            self.call(self.server.stop(grace=0.5))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)

    def __enter__(self) -> RefereeThread:  # noqa: PYI034
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

