"""One running match on the referee: the asyncio twin of ``referee.engine.runner.run_match``.

Same rules as the in-process runner (requests built from the same position for simultaneous
choices, applied in seat order; per-seat event cursors; a random legal move and a strike for a
fault; forfeit past ``max_strikes``), plus what only a network has: deadlines measured on the
referee, a time bank, re-asks after a wrong answer, disconnects with a grace period, and a
public feed for spectators. The per-decision path builds each JSON string once and does no I/O
besides the two messages of the round trip.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from referee.engine import PUBLIC, Game, Outcome, Replay, Rng, State
from referee.engine.outcome import undecided
from referee.matchspec import MatchSpec
from referee.protocol import bot_pb2, organizer_pb2

from .sessions import Fault, Pending, SeatSlot, Session

if TYPE_CHECKING:
    from .config import RefereeConfig

log = logging.getLogger("referee.match")


_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class LiveMatch:
    """State, seats and spectator frames of one match."""

    def __init__(self, spec: MatchSpec, game: Game, state: State, config: RefereeConfig) -> None:
        self.spec = spec
        self.id = spec.match_id
        self.game = game
        self.state = state
        self.config = config
        self.slots = [SeatSlot(self, s, seat.bot, hosted=seat.hosted, bank_ms=spec.time_control.bank_ms)
                      for s, seat in enumerate(spec.seats)]
        self.status = "starting"
        self.started_unix_ms = int(time.time() * 1000)
        self.over = False
        self.plies = 0
        self.lines: list[str] = []
        self.faults: list[dict[str, Any]] = []
        self.watchers = 0
        self.frames: list[tuple[float, organizer_pb2.WatchFrame]] = []
        self.frame_cond = asyncio.Condition()
        self._public_cursor = 0
        self._wake = asyncio.Event()
        tc = spec.time_control
        self.tc_msg = bot_pb2.TimeControl(per_decision_ms=tc.per_decision_ms, bank_ms=tc.bank_ms)
        self.options_json = _dumps(state.options)
        self.bots = [s.bot for s in spec.seats]

    # -- bookkeeping -------------------------------------------------------------------------
    def note(self, line: str) -> None:
        stamp = time.strftime("%H:%M:%S")
        self.lines.append(f"{stamp} {line}")
        log.info("match %s: %s", self.id, line)

    def wake(self) -> None:
        self._wake.set()

    def info(self) -> organizer_pb2.MatchInfo:
        return organizer_pb2.MatchInfo(match_id=self.id, game=self.game.info.id, bots=self.bots, ply=self.plies,
                                       started_unix_ms=self.started_unix_ms, status=self.status)

    def start_message(self, slot: SeatSlot, resumed: bool = False) -> bot_pb2.RefereeMessage:
        return bot_pb2.RefereeMessage(match_start=bot_pb2.MatchStart(
            match_id=self.id, game=self.game.info.id, game_version=self.game.info.version,
            options_json=self.options_json, seat=slot.seat, players=len(self.slots), bots=self.bots,
            time_control=self.tc_msg, resumed=resumed, bot_seed=self.bot_seed(slot.seat)))

    def bot_seed(self, seat: int) -> int:
        """A per-seat seed for the bot's own randomness, keyed so it says nothing about the game's seed."""
        mac = hmac.new(self.config.bot_seed_key, f"{self.id}:{seat}".encode(), hashlib.sha256)
        return int.from_bytes(mac.digest()[:8], "big")

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
            if slot.pending is not None:
                req = bot_pb2.DecisionRequest()
                req.CopyFrom(slot.pending.request)
                req.deadline_ms = slot.pending.remaining_ms() if req.deadline_ms else 0
                session.send(bot_pb2.RefereeMessage(decision=req))
        if resumed:
            self.note(f"seat {slot.seat} ({slot.bot}) reconnected (session {session.id})")

    def detach(self, slot: SeatSlot, grace_s: float, why: str) -> None:
        """The slot's session is gone: forfeit after ``grace_s`` unless the bot comes back."""
        session = slot.session
        slot.session = None
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

    # -- spectators --------------------------------------------------------------------------
    async def publish(self, outcome: dict[str, Any] | None = None) -> None:
        """Append a PUBLIC frame (only while someone watches: the per-decision path stays lean)."""
        st = self.state
        events = st.events_for(PUBLIC, self._public_cursor)
        self._public_cursor = len(st.log)
        frame = organizer_pb2.WatchFrame(
            match_id=self.id, game=self.game.info.id, bots=self.bots, seq=len(self.frames), ply=self.plies,
            view_json=_dumps(st.observe(PUBLIC)), events_json=_dumps(events),
            pending=[] if outcome is not None else st.pending(), done=outcome is not None,
            outcome_json=_dumps(outcome) if outcome is not None else "")
        async with self.frame_cond:
            self.frames.append((time.monotonic(), frame))
            self.frame_cond.notify_all()

    # -- the match ---------------------------------------------------------------------------
    def _limit_s(self, slot: SeatSlot) -> tuple[float, int]:
        """Seconds allowed for the next decision of ``slot`` and the deadline_ms to announce."""
        tc = self.spec.time_control
        cap = self.config.max_decision_s
        if tc.per_decision_ms == 0 and tc.bank_ms == 0:
            return cap, 0
        ms = tc.per_decision_ms + slot.bank_ms
        return min(cap, ms / 1000), ms

    def _charge(self, slot: SeatSlot, elapsed_ms: int) -> None:
        tc = self.spec.time_control
        if tc.bank_ms:
            slot.bank_ms = max(0, slot.bank_ms - max(0, elapsed_ms - tc.per_decision_ms))

    async def run(self, seed: int) -> tuple[Outcome, Replay]:
        """Play to the end. Raises whatever the game raises (an engine bug)."""
        game, st = self.game, self.state
        players = len(self.slots)
        loop = asyncio.get_running_loop()
        replay = Replay(game.info.id, game.info.version, players, dict(st.options), seed,
                        [{"seat": s.seat, "bot": s.bot} for s in self.slots], match_id=self.id)
        replay.checkpoints.append({"ply": 0, "digest": st.digest()})
        fallback = Rng(f"referee:{seed}")
        cursors = [0] * players
        forfeits: dict[int, str] = {}
        decision_id = 0
        self.status = "running"
        for slot in self.slots:
            if slot.session is not None:
                slot.session.send(self.start_message(slot))
        self.note(f"started: {game.info.id} seed {seed}, seats {self.bots}")
        if self.watchers:
            await self.publish()

        while True:
            for slot in self.slots:
                if slot.lost and slot.seat not in forfeits:
                    forfeits[slot.seat] = slot.lost
            if forfeits:
                break
            pending = st.pending()
            if not pending:
                break
            batch: list[tuple[SeatSlot, Pending]] = []
            for seat in pending:
                slot = self.slots[seat]
                decision_id += 1
                legal = st.legal_actions(seat)
                if not legal:
                    raise RuntimeError(f"{game.info.id} gave pending seat {seat} no legal action (engine bug)")
                legal_json = _dumps(legal)
                limit_s, deadline_ms = self._limit_s(slot)
                # built in place inside the envelope (no copy); Pending keeps the envelope to re-send
                msg = bot_pb2.RefereeMessage(decision={
                    "match_id": self.id, "decision_id": decision_id, "seat": seat, "game": game.info.id,
                    "view_json": _dumps(st.observe(seat)), "legal_json": legal_json,
                    "events_json": _dumps(st.events_for(seat, cursors[seat])), "deadline_ms": deadline_ms,
                    "time_bank_ms": slot.bank_ms, "legal_count": len(legal)})
                cursors[seat] = len(st.log)
                p = Pending(decision_id, legal, legal_json, msg.decision, time.monotonic(), limit_s,
                            loop.create_future(), message=msg)
                slot.pending = p
                batch.append((slot, p))
            # Send only after every request is built: a simultaneous choice is asked from one position.
            timers = []
            for slot, p in batch:
                p.sent_at = time.monotonic()
                if slot.session is not None:
                    slot.session.send(p.message)
                timers.append(loop.call_later(p.limit_s, p.time_out))
            chosen: list[tuple[int, dict[str, Any], int]] = []
            for (slot, p), timer in zip(batch, timers):
                result = await p.future
                timer.cancel()
                slot.pending = None
                ms = int((time.monotonic() - p.sent_at) * 1000)
                self._charge(slot, ms)
                if isinstance(result, Fault):
                    action = self._fault(slot, p, result, forfeits, fallback)
                    if action is None:
                        continue
                else:
                    action = p.legal[result]
                chosen.append((slot.seat, action, ms))
            if forfeits:
                break
            for seat, action, ms in chosen:
                st.apply_trusted(seat, action)
                self.plies += 1
                replay.actions.append({"seat": seat, "action": action, "ms": ms})
                if self.plies % 50 == 0:
                    replay.checkpoints.append({"ply": self.plies, "digest": st.digest()})
            if self.plies > game.info.safety_limit:
                raise RuntimeError(f"{game.info.id} passed its safety limit of {game.info.safety_limit} decisions")
            if self.watchers:
                await self.publish()

        self.status = "ending"
        outcome = st.outcome()
        if forfeits:
            outcome = outcome or undecided(players, cooperative=game.info.cooperative)
            for seat, why in sorted(forfeits.items()):
                outcome = outcome.with_forfeit(seat, why)
                self.note(f"seat {seat} ({self.bots[seat]}) forfeits: {why}")
        assert outcome is not None, "a finished game has an outcome"
        if replay.checkpoints[-1]["ply"] != self.plies:
            replay.checkpoints.append({"ply": self.plies, "digest": st.digest()})
        replay.outcome = outcome.to_json()
        replay.forfeits = dict(forfeits)
        if self.faults:
            replay.meta["faults"] = self.faults
        self.over = True
        self.note(f"ended after {self.plies} decisions: ranks {outcome.ranks} ({outcome.reason})")
        out_json = _dumps(outcome.to_json())
        for slot in self.slots:
            if slot.session is not None:
                slot.session.send(bot_pb2.RefereeMessage(match_end=bot_pb2.MatchEnd(
                    match_id=self.id, outcome_json=out_json, seat=slot.seat, strikes=slot.strikes)))
        if self.watchers or self.frames:
            await self.publish(outcome.to_json())
        return outcome, replay

    def _fault(self, slot: SeatSlot, p: Pending, fault: Fault, forfeits: dict[int, str],
               fallback: Rng) -> dict[str, Any] | None:
        """Apply the fault policy; the substituted action, or None when the seat forfeits."""
        cfg = self.config
        session = slot.session
        if fault.forfeit:
            forfeits[slot.seat] = fault.message
            return None
        slot.strikes += 1
        self.faults.append({"ply": self.plies + 1, "seat": slot.seat, "fault": f"{fault.name}: {fault.message}"})
        self.note(f"seat {slot.seat} ({slot.bot}) fault on decision {p.decision_id}: {fault.name}: "
                  f"{fault.message} (strike {slot.strikes}/{cfg.max_strikes})")
        if slot.strikes > cfg.max_strikes:
            why = f"{slot.strikes} strikes, last: {fault.name}: {fault.message}"
            forfeits[slot.seat] = why
            if session is not None:
                session.error(fault.code, bot_pb2.FORFEIT, why, self.id, p.decision_id, slot.strikes, cfg.max_strikes)
            return None
        if session is not None:
            session.error(fault.code, bot_pb2.RANDOM_MOVE, f"{fault.message}; a random legal action was played",
                          self.id, p.decision_id, slot.strikes, cfg.max_strikes)
        return fallback.choice(p.legal)
