"""Session routing: who a bot stream is, and where each of its messages goes.

A stream's Hello is checked (a registered token, or a hosted seat's one-time credential) and
becomes a ``Session``; answers go to the match and seat that wait for them, everything else is
rate limited and answered with a typed ``Error``. Live sessions are found here for matches that
need a named bot (``reserve``), and given back their seats when they reconnect.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time

import grpc

from referee.engine import game_ids
from referee.protocol import bot_pb2

from .config import SERVER_VERSION, RefereeConfig
from .farewell import OwedMatchEnds, goodbye_all
from .forward import ForwardService
from .match import LiveMatch
from .reject import Reject
from .sessions import SeatSlot, Session
from .tokens import TokenStore, hash_token

log = logging.getLogger("referee")


class SessionRouter:
    """Every connected bot session of one referee, and the hosted seats waiting for theirs."""

    def __init__(self, config: RefereeConfig, store: TokenStore, matches: dict[str, LiveMatch]) -> None:
        self.config = config
        self.store = store
        self.matches = matches  # the running matches (owned by the match lifecycle)
        self.sessions: dict[str, Session] = {}
        self.hosted: dict[str, SeatSlot] = {}  # hash of a hosted seat's credential -> its seat
        self.changed = asyncio.Condition()
        self._ids = itertools.count(1)
        self.owed = OwedMatchEnds()  # MatchEnds of seats forfeited while their live bot was away
        self.closing = False  # the referee is shutting down: no new sessions
        self.forward = ForwardService(config)  # bots' forward-model calls

    # -- hosted credentials ------------------------------------------------------------------
    def hosted_credential(self, slot: SeatSlot) -> str:
        """A one-time token for ``slot`` (valid while its match runs; ``forget`` revokes it)."""
        token = "hosted_" + secrets.token_urlsafe(24)
        self.hosted[hash_token(token)] = slot
        return token

    def forget(self, slot: SeatSlot) -> None:
        for key in [k for k, s in self.hosted.items() if s is slot]:
            del self.hosted[key]

    # -- opening and closing -----------------------------------------------------------------
    async def open(self, hello: bot_pb2.Hello, peer: str = "") -> Session:
        """A new stream said Hello (from ``peer``): its session (Welcome queued), or ``Reject``."""
        cfg = self.config
        if self.closing:
            raise Reject(grpc.StatusCode.UNAVAILABLE, "the referee is shutting down")
        slot = self.hosted.get(hash_token(hello.token)) if hello.token else None
        if slot is not None and not peer.startswith("unix:"):
            # [sandbox] a hosted seat's credential is good only over the sandboxes' own Unix socket
            raise Reject(grpc.StatusCode.UNAUTHENTICATED,
                         "a hosted seat's token is accepted only from its sandbox")
        if slot is not None:
            if slot.session is not None or slot.lost or slot.match.over:
                raise Reject(grpc.StatusCode.UNAUTHENTICATED,
                             "this hosted token is in use or no longer valid")
            bot, games, capacity = slot.bot, frozenset([slot.match.game.info.id]), 1
        else:
            record = await asyncio.to_thread(self.store.lookup, hello.token)
            if record is None:
                raise Reject(grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked token")
            bot = record.name
            known = set(game_ids())
            games = frozenset((set(hello.games) or known) & (set(record.games) or known) & known)
            if not games:
                raise Reject(grpc.StatusCode.INVALID_ARGUMENT,
                             f"none of the games in Hello ({sorted(hello.games)}) can be played here; "
                             f"this referee runs {sorted(known)}")
            capacity = max(1, min(hello.capacity or 1, cfg.max_capacity))
        sid = f"s{next(self._ids)}-{secrets.token_hex(3)}"
        # free text from the bot, bound for the log and ListBots: no control character reaches a terminal
        client = "".join(ch if ch.isprintable() else "?" for ch in hello.client[:200])
        session = Session(sid, bot, games, capacity, client, slot,
                          flood_rate=cfg.flood_rate, flood_burst=cfg.flood_burst)
        session.view_delta = hello.view_delta
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
            for end in self.owed.take(bot):  # matches it was forfeited in while away
                session.send(end)
        await self.notify()
        return session

    def _adopt_orphans(self, session: Session) -> None:
        """A live bot reconnected: give it back the seats it left within the grace period."""
        for m in self.matches.values():
            for slot in m.slots:
                if (session.free > 0 and not slot.hosted and slot.bot == session.bot and slot.session is None
                        and slot.ever_connected and not slot.lost and not m.over
                        and session.accepts(m.game.info.id)):
                    m.attach(slot, session, resumed=True)

    def close(self, session: Session, why: str, *, lose: bool = False) -> None:
        """The stream ended. Its seats get the disconnect rule (or forfeit at once when ``lose``)."""
        session.closed = True
        self.sessions.pop(session.id, None)
        for slot in list(session.slots):
            slot.match.detach(slot, 0 if lose else self.config.reconnect_grace_s, why)
        log.info("session %s (%s) closed: %s", session.id, session.bot, why)
        asyncio.get_running_loop().create_task(self.notify())

    async def notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    def free_session(self, bot: str, game: str) -> Session | None:
        """A live session of ``bot`` that plays ``game`` and has room for another match."""
        for sess in self.sessions.values():
            if (sess.bot == bot and sess.hosted_slot is None and not sess.closed and sess.free > 0
                    and sess.accepts(game)):
                return sess
        return None

    def revoke(self, name: str) -> int:
        """Close every live session of ``name`` (its token was revoked); returns how many."""
        n = 0
        for sess in list(self.sessions.values()):
            if sess.bot == name and sess.hosted_slot is None:
                sess.send(bot_pb2.RefereeMessage(goodbye=bot_pb2.Goodbye(reason="token revoked")))
                sess.close(grpc.StatusCode.UNAUTHENTICATED, "token revoked")
                n += 1
        return n

    def shut_down(self) -> int:
        """Refuse new sessions; every open one gets Goodbye("shutdown") and an orderly end."""
        self.closing = True
        return goodbye_all(self.sessions.values(), "shutdown")

    # -- messages ----------------------------------------------------------------------------
    def on_message(self, session: Session, msg: bot_pb2.BotMessage) -> None:
        """Handle one bot message. Never raises for anything the bot sent."""
        kind = msg.WhichOneof("kind")
        if kind == "answer":
            slot = self._awaiting(session, msg.answer)
            if slot is not None:
                # An answer the referee is waiting for is never flooding: legitimate traffic grows with
                # the number of matches, so only unsolicited messages are rate limited.
                ans = msg.answer
                which = ans.WhichOneof("choice")
                slot.match.answer(slot, ans.index if which == "index" else ans.action_json if which else None)
                return
        if kind == "forward":
            # [forward] calls about a decision the referee waits on are not flooding either: their cost is
            # bounded by the decision's clock and the forward limits (referee/service/forward.py)
            slot = self.forward.pending_slot(session, msg.forward)
            if slot is not None:
                self.forward.call(session, slot, msg.forward)
                return
        if not session.take_token():
            self._flooding(session)
            return
        if kind == "forward":
            self.forward.call(session, None, msg.forward)
        elif kind == "answer":
            self._unexpected_answer(session, msg.answer)
        elif kind == "ping":
            session.send(bot_pb2.RefereeMessage(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
        elif kind != "pong":
            session.error(bot_pb2.PROTOCOL_VIOLATION, bot_pb2.IGNORED,
                          "Hello is only valid as the first message" if kind == "hello" else "empty message")

    @staticmethod
    def _awaiting(session: Session, ans: bot_pb2.Answer) -> SeatSlot | None:
        for s in session.slots:
            if (s.pending is not None and s.pending.decision_id == ans.decision_id
                    and s.match.id == ans.match_id):
                return s
        return None

    def _unexpected_answer(self, session: Session, ans: bot_pb2.Answer) -> None:
        if not any(s.match.id == ans.match_id for s in session.slots):
            session.error(bot_pb2.UNKNOWN_MATCH, bot_pb2.IGNORED,
                          f"match {ans.match_id[:80]!r} is not a match this session plays",
                          decision_id=ans.decision_id)
        else:
            session.error(bot_pb2.STALE_DECISION, bot_pb2.IGNORED,
                          f"decision {ans.decision_id} is not awaiting an answer from this session",
                          ans.match_id, ans.decision_id)

    def _flooding(self, session: Session) -> None:
        cfg = self.config
        if session.dropped > cfg.flood_disconnect_after:
            why = f"flooding: more than {cfg.flood_rate:g} messages/s, {session.dropped} dropped"
            for slot in list(session.slots):
                slot.lose(why)
            session.close(grpc.StatusCode.ABORTED, why)  # RESOURCE_EXHAUSTED is gRPC's size limit
        elif time.monotonic() - session.last_flood_error > 1.0:
            session.last_flood_error = time.monotonic()
            session.error(bot_pb2.FLOODING, bot_pb2.IGNORED,
                          f"rate limit is {cfg.flood_rate:g} messages/s; excess messages are dropped "
                          f"({session.dropped} so far; the session is closed after "
                          f"{cfg.flood_disconnect_after})")
