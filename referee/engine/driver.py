"""The match driver: one transport-free rule book for playing a match, used by every runner.

``run_match`` (agents in this process) and the referee (bots over gRPC) both drive a match
through a ``MatchDriver``; they only carry its requests and answers and measure time. So a match
with the same bots, seed and faults gives the same replay however it was played. The driver owns:

* the **requests**: ``ask()`` builds one ``Ask`` per pending seat, all from the same position
  (a simultaneous choice is blind to the others), with the seat's view, legal list and the events
  it may see since its last decision; decision ids count every request of the match;
* **answers**: an index, an action object or its JSON text (``resolve_answer``), each wrong one
  with the same message on every transport;
* **faults**: a wrong answer is re-asked ``policy.reasks`` times, then (like a time-out) replaced
  by a random legal action drawn from the fault RNG ``Rng("faults:<seed>")``, with a strike;
  more than ``policy.max_strikes`` strikes forfeits the seat; a lost seat (crash, disconnect)
  forfeits at once;
* **settling** a batch: answers may arrive in any order, but a batch is settled in seat order
  once every seat has one (faults recorded, fallback moves drawn, actions applied), so the
  replay does not depend on arrival order;
* the **time bank** (``deadline_ms``, charged with each answer's elapsed time), **checkpoints**
  (every ``checkpoint_every`` plies, and the last one) and the **safety limit**
  (``game.decision_limit``: going past it is an ``EngineBug``);
* the **end**: outcome (forfeits applied) and replay.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .agent import DecisionRequest, TimeControl
from .game import Game
from .jsonutil import canonical
from .outcome import Outcome, undecided
from .replay import Replay
from .rng import Rng
from .state import State

#: Plies between two replay checkpoints (the last ply always gets one too).
CHECKPOINT_EVERY = 50
#: Largest action JSON text accepted as an answer (the referee announces it in Welcome).
MAX_ACTION_BYTES = 64 << 10


class EngineBug(RuntimeError):
    """The game broke its own contract (e.g. ran past its safety limit)."""


@dataclass
class FaultPolicy:
    """What happens when a seat misbehaves (every runner uses the same defaults)."""

    #: Strikes a seat may collect; the next one forfeits it.
    max_strikes: int = 3
    #: Re-asks after a malformed or illegal answer before a random move + strike is played.
    reasks: int = 1


def fault_rng(seed: int) -> Rng:
    """The RNG that draws the random legal moves played for faulty answers (one rule everywhere)."""
    return Rng(f"faults:{seed}")


def exit_reason(code: int) -> str:
    """The forfeit reason of a bot that exited during its match (a hosted process or an agent)."""
    return f"the bot exited with code {code} during the match"


@dataclass(frozen=True)
class Fault:
    """Why a decision produced no usable answer. ``kind`` is the protocol's error code, lower case."""

    kind: Literal["timeout", "illegal_action", "malformed_answer", "oversized", "bot_error"]
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass
class Ask:
    """One decision request to one seat (what a bot receives, before any encoding)."""

    decision_id: int
    seat: int
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    events: list[dict[str, Any]]
    deadline_ms: int
    time_bank_ms: int
    attempts: int = 0
    _keys: dict[str, int] | None = None

    def index_of(self, key: str) -> int | None:
        """Position of the action whose canonical JSON is ``key`` (the map is built on first use)."""
        if self._keys is None:
            self._keys = {canonical(a): i for i, a in enumerate(self.legal)}
        return self._keys.get(key)


def resolve_answer(ask: Ask, answer: Any, max_action_bytes: int = MAX_ACTION_BYTES) -> int | Fault:
    """An answer -> the index of the legal action it names, or the ``Fault`` it is.

    ``answer`` is an index, an action object, or the JSON text of one (``Answer.action_json``);
    anything else (``None`` = no choice at all) is malformed. The messages name the decision and
    what was sent, never anything hidden."""
    d = ask.decision_id
    if isinstance(answer, int) and not isinstance(answer, bool):
        if 0 <= answer < len(ask.legal):
            return answer
        return Fault("illegal_action", f"decision {d}: index {answer} is outside the legal list "
                     f"(0..{len(ask.legal) - 1})")
    if isinstance(answer, str):
        if len(answer.encode()) > max_action_bytes:
            return Fault("oversized", f"decision {d}: action_json is larger than {max_action_bytes} bytes")
        try:
            answer = json.loads(answer)
        except (ValueError, RecursionError):
            answer = None
        if not isinstance(answer, dict):
            return Fault("malformed_answer", f"decision {d}: action_json is not a JSON object")
    if isinstance(answer, Mapping):
        try:
            key = canonical(dict(answer))
        except (TypeError, ValueError, RecursionError):
            return Fault("malformed_answer", f"decision {d}: the action is not plain JSON")
        index = ask.index_of(key)
        if index is None:
            t = answer.get("type")
            kind = f"of type {t[:40]!r}" if isinstance(t, str) else "without a string 'type'"
            return Fault("illegal_action", f"decision {d}: the action {kind} is not in the legal list")
        return index
    return Fault("malformed_answer", f"decision {d}: the answer is neither an index nor an action object")


@dataclass(frozen=True)
class Verdict:
    """What the driver made of one answer or fault, for the transport to tell the bot."""

    consequence: Literal["accepted", "reask", "random_move", "forfeit", "ignored"]
    fault: Fault | None = None
    strikes: int = 0


@dataclass
class _Slot:
    """One seat's result for the current batch."""

    ask: Ask
    index: int | None = None
    fault: Fault | None = None
    ms: int = 0
    done: bool = False


@dataclass
class MatchDriver:
    """One match, step by step: ``ask()``, then ``answer``/``fail`` each ask; ``lose`` any time."""

    game: Game
    state: State
    seed: int
    bots: Sequence[str]
    match_id: str = ""
    time_control: TimeControl = field(default_factory=lambda: TimeControl(per_decision_ms=0))
    policy: FaultPolicy = field(default_factory=FaultPolicy)
    checkpoint_every: int = CHECKPOINT_EVERY
    max_action_bytes: int = MAX_ACTION_BYTES

    def __post_init__(self) -> None:
        st = self.state
        self.players = st.players
        info = self.game.info
        self.replay = Replay(info.id, info.version, self.players, dict(st.options), self.seed,
                             [{"seat": s, "bot": self.bots[s]} for s in range(self.players)],
                             match_id=self.match_id)
        self.checkpoint_due = True  # ply 0's (see ``checkpoint``)
        self._warm = 0  # log entries encoded by ``idle``
        self.fallback = fault_rng(self.seed)
        self.limit = self.game.decision_limit(self.players, st.options)
        self.cursors = [0] * self.players
        self.strikes = [0] * self.players
        self.reasked = [0] * self.players  # wrong answers corrected on a re-ask (no strike; health only)
        self.bank_ms = [self.time_control.bank_ms] * self.players
        self.faults: list[dict[str, Any]] = []
        self.forfeits: dict[int, str] = {}
        self.plies = 0
        self.decision_id = 0
        self.batch: dict[int, _Slot] = {}
        self._outcome: Outcome | None = None

    # -- asking ------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.forfeits) or (not self.batch and not self.state.pending())

    def deadline_ms(self, seat: int) -> int:
        """The seat's limit for its next decision: per-decision time plus its bank (0 = none)."""
        tc = self.time_control
        if tc.per_decision_ms == 0 and tc.bank_ms == 0:
            return 0
        return tc.per_decision_ms + self.bank_ms[seat]

    def ask(self) -> list[Ask]:
        """The next batch: one request per pending seat ([] when the match is over)."""
        assert not self.batch, "the previous batch is not settled"
        if self.forfeits:
            return []
        st = self.state
        asks = []
        for seat in st.pending():
            self.decision_id += 1
            legal = st.legal_actions(seat)
            if not legal:
                raise EngineBug(f"{self.game.info.id}: seat {seat} is pending with no legal action")
            events = st.events_for(seat, self.cursors[seat])
            ask = Ask(self.decision_id, seat, st.observe(seat), legal, events, self.deadline_ms(seat),
                      self.bank_ms[seat])
            self.cursors[seat] = len(st.log)
            self.batch[seat] = _Slot(ask)
            asks.append(ask)
        return asks

    def request(self, ask: Ask) -> DecisionRequest:
        """The in-process form of ``ask`` (what an ``Agent.act`` receives)."""
        return DecisionRequest(self.match_id, ask.decision_id, self.game.info.id, ask.seat, ask.view,
                               ask.legal, ask.events, ask.deadline_ms, ask.time_bank_ms)

    # -- answering ---------------------------------------------------------------------------
    def waiting(self, seat: int, decision_id: int) -> Ask | None:
        """The open ask of ``seat`` with this id, if the driver is waiting for it."""
        slot = self.batch.get(seat)
        if slot is None or slot.done or slot.ask.decision_id != decision_id:
            return None
        return slot.ask

    def answer(self, seat: int, answer: Any, ms: int, *, may_reask: bool = True) -> Verdict:
        """An answer from ``seat`` for its open ask, ``ms`` after it was sent."""
        slot = self.batch.get(seat)
        if slot is None or slot.done:
            return Verdict("ignored")
        deadline = slot.ask.deadline_ms
        if deadline and ms > deadline:  # late (an in-process agent cannot be interrupted)
            return self.fail(seat, Fault("timeout", f"no answer within {deadline} ms"), ms)
        result = resolve_answer(slot.ask, answer, self.max_action_bytes)
        if isinstance(result, int):
            slot.index, slot.ms, slot.done = result, ms, True
            self._charge(seat, ms)
            return Verdict("accepted", strikes=self.strikes[seat])
        if may_reask and slot.ask.attempts < self.policy.reasks:
            slot.ask.attempts += 1
            self.reasked[seat] += 1
            return Verdict("reask", result, self.strikes[seat])
        return self.fail(seat, result, ms)

    def fail(self, seat: int, fault: Fault, ms: int) -> Verdict:
        """``seat``'s open ask produced no usable answer (time-out, or a wrong answer not re-asked)."""
        slot = self.batch.get(seat)
        if slot is None or slot.done:
            return Verdict("ignored")
        slot.fault, slot.ms, slot.done = fault, ms, True
        self._charge(seat, ms)
        strikes = self.strikes[seat] + 1  # recorded when the batch settles, in seat order
        return Verdict("forfeit" if strikes > self.policy.max_strikes else "random_move", fault, strikes)

    def time_out(self, seat: int, limit_ms: int) -> Verdict:
        return self.fail(seat, Fault("timeout", f"no answer within {limit_ms} ms"), limit_ms)

    def lose(self, seat: int, why: str) -> None:
        """The seat can no longer play (crash, disconnect): it forfeits now; an open batch is dropped."""
        if seat not in self.forfeits and self._outcome is None:
            self.forfeits[seat] = why
            self.batch.clear()

    def _charge(self, seat: int, ms: int) -> None:
        tc = self.time_control
        if tc.bank_ms:
            self.bank_ms[seat] = max(0, self.bank_ms[seat] - max(0, ms - tc.per_decision_ms))

    @property
    def complete(self) -> bool:
        """Every seat of the current batch has an answer or a fault (``settle`` may run)."""
        return bool(self.batch) and all(s.done for s in self.batch.values())

    def checkpoint(self) -> None:
        """Record the checkpoint due at the current position, if one is.

        A checkpoint due after the last action of a batch (and ply 0's) is not computed in
        ``settle`` but here, which ``settle`` and ``finish`` call before the state changes again:
        the same digest of the same position, but a transport may call it once the next requests
        are sent, while the bots think (a digest is the largest part of a checkpoint ply's cost)."""
        if self.checkpoint_due:
            self.checkpoint_due = False
            self.replay.checkpoints.append({"ply": self.plies, "digest": self.state.digest()})

    #: New log entries (at least, and as a fraction of the log) that ``idle`` encodes ahead of the next
    #: digest: ``canonical_text`` joins the whole log each time, so fewer would cost more than they save.
    WARM_ENTRIES, WARM_FRACTION = 8, 8

    def idle(self) -> None:
        """Work that may wait until the next requests are sent (a transport calls it then; the
        results are the same without it): the due checkpoint, and the canonical text of new log
        entries, which a digest encodes once each (``EventLog.canonical_text``). Else the last
        digest of a match encoded most of its log: ~0.5 ms for a 15-ply sealed_bids match."""
        self.checkpoint()
        log = self.state.log
        if len(log) - self._warm >= max(self.WARM_ENTRIES, self._warm // self.WARM_FRACTION):
            log.canonical_text()
            self._warm = len(log)

    def settle(self) -> list[tuple[int, dict[str, Any]]]:
        """Apply a complete batch in seat order; returns the (seat, action) pairs applied."""
        assert self.complete
        self.checkpoint()
        batch, self.batch = self.batch, {}
        chosen: list[tuple[int, dict[str, Any], int]] = []
        for seat in sorted(batch):
            slot = batch[seat]
            if slot.fault is not None:
                self.strikes[seat] += 1
                self.faults.append({"ply": self.plies + 1, "seat": seat, "fault": str(slot.fault)})
                if self.strikes[seat] > self.policy.max_strikes:
                    self.forfeits[seat] = f"{self.strikes[seat]} strikes, last: {slot.fault}"
                    return []
                action = self.fallback.choice(slot.ask.legal)
            else:
                assert slot.index is not None
                action = slot.ask.legal[slot.index]
            chosen.append((seat, action, slot.ms))
        st = self.state
        last = len(chosen) - 1
        for i, (seat, action, ms) in enumerate(chosen):
            st.apply_trusted(seat, action)
            self.plies += 1
            self.replay.actions.append({"seat": seat, "action": action, "ms": ms})
            if self.checkpoint_every and self.plies % self.checkpoint_every == 0:
                if i == last:  # the position stays until the next settle: ``checkpoint`` may wait
                    self.checkpoint_due = True
                else:
                    self.replay.checkpoints.append({"ply": self.plies, "digest": st.digest()})
        if self.plies > self.limit:
            raise EngineBug(f"{self.game.info.id} passed its safety limit of {self.limit} decisions")
        return [(seat, action) for seat, action, _ in chosen]

    # -- the end -----------------------------------------------------------------------------
    def finish(self) -> Outcome:
        """The outcome (forfeits applied); completes the replay. Call once the match is over."""
        if self._outcome is not None:
            return self._outcome
        self.checkpoint()
        st = self.state
        outcome = st.outcome()
        if self.forfeits:
            outcome = outcome or undecided(self.players, cooperative=self.game.info.cooperative)
            for seat, why in sorted(self.forfeits.items()):
                outcome = outcome.with_forfeit(seat, why)
        if outcome is None:
            raise EngineBug(f"{self.game.info.id} has no pending seat and no outcome")
        replay = self.replay
        if replay.checkpoints[-1]["ply"] != self.plies:
            replay.checkpoints.append({"ply": self.plies, "digest": st.digest()})
        replay.outcome = outcome.to_json()
        replay.forfeits = dict(self.forfeits)
        if self.faults:
            replay.meta["faults"] = self.faults
        if any(self.reasked):  # read by referee.health (the faults list only has strikes)
            replay.meta["health"] = {str(s): {"reasked": n} for s, n in enumerate(self.reasked) if n}
        self._outcome = outcome
        return outcome
