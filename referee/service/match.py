"""One running match on the referee: messages, timers and sessions around a ``MatchDriver``.

The rules of play (requests, faults, strikes, forfeits, checkpoints, the safety limit, outcome
and replay) are the engine's ``MatchDriver``, shared with the in-process runner. This object only
carries them over the network: it encodes each request once, sends it, keeps one timer per seat
that runs at or before its deadline, feeds the answers (or time-outs, or a lost seat) to the
driver, tells the bot what became of a wrong answer, and sends the next batch as soon as one
settles, from the callback that delivered the last answer (no task, future, timer or ``wait_for``
per decision).
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee import viewpatch
from referee.engine import Game, Outcome, Replay, State
from referee.engine.driver import Ask, FaultPolicy, MatchDriver, Verdict
from referee.matchspec import MatchSpec
from referee.protocol import bot_pb2, organizer_pb2

from .sessions import SeatSlot, Session
from .spectators import FrameFeed
from .wirejson import dumps as _dumps
from .wirejson import dumps_view

if TYPE_CHECKING:
    from .config import RefereeConfig

log = logging.getLogger("referee.match")

_CONSEQUENCE = {"reask": bot_pb2.REASKED, "random_move": bot_pb2.RANDOM_MOVE, "forfeit": bot_pb2.FORFEIT}

#: Lag compensation (docs/protocol.md, "Deadlines"). The referee can only timestamp an answer when its
#: event loop reads it, and a loaded referee reads late: at its deadline the timer may run before an
#: answer that had already arrived (gRPC hands it over in several loop steps), or both run long after the
#: deadline. So a deadline is looked at twice: when its timer fires, the referee first reads what it has
#: received for GRACE_BASE_S + twice the timer's own lateness (at most GRACE_CAP_S), and an answer read
#: while the deadline is overdue by at most GRACE_CAP_S (the timer not yet run, or in that grace) counts
#: as on time, charged the limit. An answer never gets more than GRACE_CAP_S past its limit, and only
#: while the referee itself was late.
GRACE_BASE_S = 0.005


class _AfterWrite:
    """Work for the stream reader to run once it has written what the answer it is handling produced
    (set only while it handles one, synchronously): a loop turn fewer per decision than ``call_soon``."""

    work: list[Callable[[], None]] | None = None


AFTER_WRITE = _AfterWrite()
GRACE_CAP_S = 0.05


@dataclass
class Pending:
    """A decision sent to a seat and not yet answered."""

    ask: Ask
    message: bot_pb2.RefereeMessage  # the envelope as first sent (re-sent on a reconnect)
    sent_at: float
    limit_s: float
    #: the deadline on the event loop's clock (the seat's timer, ``LiveMatch._arm``, runs at or before it)
    due: float = 0.0
    #: the deadline's timer has fired once and granted the referee's read grace (lag compensation)
    in_grace: bool = False

    @property
    def decision_id(self) -> int:
        return self.ask.decision_id

    def remaining_ms(self) -> int:
        return max(0, int((self.limit_s - (time.monotonic() - self.sent_at)) * 1000))

    def elapsed_ms(self) -> int:
        return int((time.monotonic() - self.sent_at) * 1000)

    def again(self, attempt: int, *, full_view: bool = False, resent: bool = False) -> bot_pb2.RefereeMessage:
        """The request to send again (a re-ask, a reconnect): same decision, the time that is left;
        the full view instead of a patch for a new session (a re-ask's patch applies again as is).
        A re-send on a new session (``resent``) is marked and carries no events: they were sent once."""
        patched = full_view and self.message.decision.view_patch_json
        if attempt == 0 and not self.ask.deadline_ms and not patched and not resent:
            return self.message
        req = bot_pb2.DecisionRequest()
        req.CopyFrom(self.message.decision)
        req.attempt = attempt
        if resent:
            req.resent, req.events_json = True, "[]"
        if patched:
            req.view_json, req.view_patch_json = _dumps(self.ask.view), ""
        if req.deadline_ms:
            req.deadline_ms = self.remaining_ms()
        return bot_pb2.RefereeMessage(decision=req)


def view_texts(slot: SeatSlot, view: dict[str, Any], static: tuple[str, ...] = (),
               cache: dict[str, bytes] | None = None) -> tuple[str, str]:
    """(view_json, view_patch_json) for the seat's next request.

    A session that asked for view deltas gets a patch on the last view it was sent
    (``referee.viewpatch``) after its first full view. The values of the ``static`` keys (the
    game's ``STATIC_VIEW_KEYS``) are encoded once per match, in ``cache``."""
    session = slot.session
    if session is None or not session.view_delta:
        slot.view_parts = None
        return (dumps_view(view, static, cache) if cache is not None else _dumps(view)), ""
    slot.view_parts, patch = viewpatch.encode(slot.view_parts, view, static, cache)
    return ("", patch) if patch else (viewpatch.full_text(slot.view_parts), "")


def bot_seed(key: bytes, match_id: str, seat: int) -> int:
    mac = hmac.new(key, f"{match_id}:{seat}".encode(), hashlib.sha256)
    return int.from_bytes(mac.digest()[:8], "big")


def error_for(verdict: Verdict) -> tuple[int, int, str]:
    """(ErrorCode, Consequence, message) of the Error that tells a bot what became of its answer."""
    f = verdict.fault
    assert f is not None
    text = {"reask": f"{f.message}; asked again", "forfeit": f"{verdict.strikes} strikes, last: {f}",
            "random_move": f"{f.message}; a random legal action was played"}[verdict.consequence]
    code = (bot_pb2.ErrorCode.Value(f.kind.upper()) if f.kind != "bot_error"
            else bot_pb2.ERROR_CODE_UNSPECIFIED)
    return code, _CONSEQUENCE[verdict.consequence], text


class LiveMatch:
    """The seats, sessions and timers of one match; the driver decides everything else."""

    def __init__(self, spec: MatchSpec, game: Game, state: State, config: RefereeConfig) -> None:
        self.spec = spec
        self.id = spec.match_id
        self.game = game
        self.config = config
        self.bots = [s.bot for s in spec.seats]
        #: the seats whose decisions were applied last (who made the current position: public)
        self.last_batch: list[int] = []
        self.driver = MatchDriver(game, state, spec.seed, self.bots, spec.match_id, spec.time_control,
                                  FaultPolicy(config.max_strikes, config.reasks),
                                  max_action_bytes=config.max_action_bytes)
        self.slots = [SeatSlot(self, s, seat.bot, hosted=seat.hosted) for s, seat in enumerate(spec.seats)]
        self.feed = FrameFeed(self.id, game.info.id, self.bots, embargoed=spec.shared_deal)
        self.status = "starting"
        self.started_unix_ms = int(time.time() * 1000)
        self.over = False
        self.lines: list[str] = []
        self._done: asyncio.Future[None] | None = None
        tc = spec.time_control
        self.tc_msg = bot_pb2.TimeControl(per_decision_ms=tc.per_decision_ms, bank_ms=tc.bank_ms)
        self.options_json = _dumps(state.options)
        self.static_keys = state.STATIC_VIEW_KEYS
        self.static_texts: dict[str, bytes] = {}  # their encoded values, once per match
        #: the forward model's handles, per seat (referee/service/forward.py); dropped at the end
        self.forward: dict[int, Any] = {}

    # -- bookkeeping -------------------------------------------------------------------------
    def publish(self, outcome: dict[str, Any] | None = None) -> None:
        """The spectators' frame of the position now (the final one when ``outcome`` is given)."""
        self.feed.publish(self.driver.state, self.driver.plies, outcome, actors=self.last_batch)

    def note(self, line: str) -> None:
        self.lines.append(f"{time.strftime('%H:%M:%S')} {line}")
        log.info("match %s: %s", self.id, line)

    def info(self) -> organizer_pb2.MatchInfo:
        return organizer_pb2.MatchInfo(match_id=self.id, game=self.game.info.id, bots=self.bots,
                                       ply=self.driver.plies, started_unix_ms=self.started_unix_ms,
                                       status=self.status)

    def start_message(self, slot: SeatSlot, resumed: bool = False) -> bot_pb2.RefereeMessage:
        return bot_pb2.RefereeMessage(match_start=bot_pb2.MatchStart(
            match_id=self.id, game=self.game.info.id, game_version=self.game.info.version,
            options_json=self.options_json, seat=slot.seat, players=len(self.slots), bots=self.bots,
            time_control=self.tc_msg, resumed=resumed, bot_seed=self.bot_seed(slot.seat)))

    def bot_seed(self, seat: int) -> int:
        """A per-seat seed for the bot's own randomness, keyed so it says nothing about the game's seed."""
        return bot_seed(self.config.bot_seed_key, self.id, seat)

    # -- sessions ----------------------------------------------------------------------------
    def attach(self, slot: SeatSlot, session: Session, *, resumed: bool) -> None:
        """Give ``slot`` to ``session`` (first connection or a reconnect)."""
        if slot.grace is not None:
            slot.grace.cancel()
            slot.grace = None
        slot.session = session
        session.slots.append(slot)
        slot.ever_connected = True
        slot.connected.set()
        if self.status != "starting":
            session.send(self.start_message(slot, resumed=resumed))
            slot.view_parts = None  # a new session has no previous view: the next view is full
            if slot.pending is not None:
                session.send(slot.pending.again(slot.pending.ask.attempts, full_view=True, resent=resumed))
        if resumed:
            self.note(f"seat {slot.seat} ({slot.bot}) reconnected (session {session.id})")

    def detach(self, slot: SeatSlot, grace_s: float, why: str) -> None:
        """The slot's session is gone: forfeit after ``grace_s`` unless the bot comes back."""
        session, slot.session = slot.session, None
        if session is not None and slot in session.slots:
            session.slots.remove(slot)
        if self.over or slot.lost:
            return
        self.note(f"seat {slot.seat} ({slot.bot}) disconnected: {why}; waiting {grace_s:g}s for a reconnect")
        if grace_s <= 0:
            slot.lose(why)
        else:
            slot.grace = asyncio.get_running_loop().call_later(
                grace_s, slot.lose, f"disconnected ({why}) and did not reconnect within {grace_s:g}s")

    # -- the match ---------------------------------------------------------------------------
    async def run(self) -> tuple[Outcome, Replay]:
        """Play to the end. Raises whatever the game raises (an engine bug)."""
        self._done = asyncio.get_running_loop().create_future()
        self.status = "running"
        for slot in self.slots:
            if slot.session is not None:
                slot.session.send(self.start_message(slot))
        # [sandbox] never the seed: it fixes every deal
        self.note(f"started: {self.game.info.id}, seats {self.bots}")
        for slot in self.slots:  # lost before the start (hosted bot that never connected, ...)
            if slot.lost:
                self.driver.lose(slot.seat, slot.lost)
        if self.feed.watchers:
            self.publish()
        self._step()
        try:
            await self._done
        finally:
            self.close()
        return self._end()

    def _step(self) -> None:
        """Send the next batch (built in full before anything is sent), or end the match."""
        assert self._done is not None
        try:
            asks = self.driver.ask()
        except Exception as exc:  # noqa: BLE001 - an engine bug ends this match, not the referee
            self._finish(exc)
            return
        if not asks:
            self._finish()
            return
        loop = asyncio.get_running_loop()
        cap = self.config.max_decision_s
        batch = []
        for ask in asks:
            view_json, patch_json = view_texts(self.slots[ask.seat], ask.view, self.static_keys,
                                               self.static_texts)
            msg = bot_pb2.RefereeMessage()
            d = msg.decision  # filled in place: building a DecisionRequest and wrapping it copies the view
            d.match_id, d.decision_id, d.seat, d.game = self.id, ask.decision_id, ask.seat, self.game.info.id
            d.view_json, d.view_patch_json = view_json, patch_json
            d.legal_json, d.events_json = _dumps(ask.legal), _dumps(ask.events)
            d.deadline_ms, d.time_bank_ms, d.legal_count = ask.deadline_ms, ask.time_bank_ms, len(ask.legal)
            limit_s = min(cap, ask.deadline_ms / 1000) if ask.deadline_ms else cap
            batch.append((self.slots[ask.seat], Pending(ask, msg, 0.0, limit_s)))
        for slot, p in batch:
            slot.pending = p
            p.sent_at = time.monotonic()
            p.due = loop.time() + p.limit_s
            self._arm(loop, slot, p.due)
            if slot.session is not None:
                slot.session.send(p.message)
        # after the requests are written, while the bots think: off the round trip
        if AFTER_WRITE.work is None:
            loop.call_soon(self._idle)
        else:
            AFTER_WRITE.work.append(self._idle)

    def _idle(self) -> None:
        if self.over:
            return
        try:
            self.driver.idle()
        except Exception as exc:  # noqa: BLE001 - an engine bug ends this match, not the referee
            self._finish(exc)

    def answer(self, slot: SeatSlot, choice: Any) -> None:
        """A bot's answer to ``slot.pending`` (an index, action JSON text, or None for neither)."""
        p = slot.pending
        assert p is not None
        elapsed = p.elapsed_ms()
        limit_ms = int(p.limit_s * 1000)
        if elapsed > limit_ms and self._read_late(p):
            elapsed = limit_ms  # on time: the referee, not the bot, was late (GRACE_*)
        verdict = self.driver.answer(slot.seat, choice, elapsed,
                                     may_reask=p.remaining_ms() > 0 and not p.in_grace)
        if verdict.consequence == "reask":
            self._tell(slot, p, verdict)
            self._resend(slot, p, p.ask.attempts)
            self.note(f"seat {slot.seat} ({slot.bot}) re-asked decision {p.decision_id}: {verdict.fault}")
            return
        self._resolved(slot, p, verdict)

    def _arm(self, loop: asyncio.AbstractEventLoop, slot: SeatSlot, at: float) -> None:
        """Make the seat's one timer run at ``at`` or before. A timer that already runs sooner is kept:
        it finds a later deadline and re-arms for it (``_timer``). With a steady time control, decisions
        come faster than the limit, so a decision costs no timer of its own (no handle made, pushed on
        the loop's heap and cancelled)."""
        t = slot.timer
        if t is not None:
            if t.when() <= at:
                return
            t.cancel()
        slot.timer = loop.call_at(at, self._timer, slot)

    @staticmethod
    def _read_late(p: Pending) -> bool:
        """The deadline has passed, but the referee has not yet looked at it (its timer is overdue) or is
        still reading what it received before it did (the grace), by at most GRACE_CAP_S."""
        if p.in_grace:
            return True
        now = asyncio.get_running_loop().time()
        return p.due <= now <= p.due + GRACE_CAP_S

    def _timer(self, slot: SeatSlot) -> None:
        """The seat's timer: its pending decision's deadline (or grace) is due, or a later one is."""
        slot.timer = None
        p = slot.pending
        if p is None or self.over:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now < p.due:  # armed for an earlier decision
            self._arm(loop, slot, p.due)
            return
        if not p.in_grace:
            late = now - p.due
            if late < GRACE_CAP_S:
                p.in_grace = True
                p.due = now + min(GRACE_CAP_S - late, GRACE_BASE_S + 2 * late)
                self._arm(loop, slot, p.due)
                return
        self._resolved(slot, p, self.driver.time_out(slot.seat, int(p.limit_s * 1000)))

    def _resolved(self, slot: SeatSlot, p: Pending, verdict: Verdict) -> None:
        slot.pending = None  # the seat's timer stays: the next decision's deadline is later (``_arm``)
        if verdict.fault is not None:
            self._tell(slot, p, verdict)
            self.note(f"seat {slot.seat} ({slot.bot}) fault on decision {p.decision_id}: {verdict.fault} "
                      f"(strike {verdict.strikes}/{self.config.max_strikes})")
        if self.driver.complete:
            try:
                self.last_batch = [seat for seat, _ in self.driver.settle()]
            except Exception as exc:  # noqa: BLE001 - an engine bug ends this match, not the referee
                self._finish(exc)
                return
            if self.feed.watchers:
                self.publish()
            self._step()

    def _tell(self, slot: SeatSlot, p: Pending, verdict: Verdict) -> None:
        if slot.session is not None and verdict.fault is not None:
            code, consequence, text = error_for(verdict)
            slot.session.error(code, consequence, text, self.id, p.decision_id, verdict.strikes,
                               self.config.max_strikes)

    def _resend(self, slot: SeatSlot, p: Pending, attempt: int) -> None:
        if slot.session is not None:
            slot.session.send(p.again(attempt))

    def lose(self, slot: SeatSlot, why: str) -> None:
        """The seat can no longer play: it forfeits and the match ends now."""
        if self.over:
            return
        self.driver.lose(slot.seat, why)
        if self._done is not None:
            self._finish()

    def abort(self, error: BaseException) -> None:
        """Stop the match now (the referee is shutting down): ``run`` raises ``error``."""
        self.note(f"aborted: {error}")
        self._finish(error)

    def _finish(self, error: BaseException | None = None) -> None:
        self.close()
        if self._done is not None and not self._done.done():
            if error is None:
                self._done.set_result(None)
            else:
                self._done.set_exception(error)

    def close(self) -> None:
        """Stop every timer and release every forward-model handle; nothing is awaited any more."""
        self.forward.clear()
        for slot in self.slots:
            if slot.timer is not None:
                slot.timer.cancel()
                slot.timer = None
            slot.pending = None

    def _end(self) -> tuple[Outcome, Replay]:
        self.status = "ending"
        outcome = self.driver.finish()
        for seat, why in sorted(self.driver.forfeits.items()):
            self.note(f"seat {seat} ({self.bots[seat]}) forfeits: {why}")
        self.over = True
        self.note(f"ended after {self.driver.plies} decisions: ranks {outcome.ranks} ({outcome.reason})")
        out_json = _dumps(outcome.to_json())
        for slot in self.slots:
            if slot.session is not None:
                slot.session.send(bot_pb2.RefereeMessage(match_end=bot_pb2.MatchEnd(
                    match_id=self.id, outcome_json=out_json, seat=slot.seat,
                    strikes=self.driver.strikes[slot.seat])))
        if self.feed.watchers or self.feed.frames:
            self.publish(outcome.to_json())
        return outcome, self.driver.replay
