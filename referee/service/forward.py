"""The remote forward model: a bot's ``ForwardCall`` run on samples of its pending decision.

Only a session that holds a decision may call, and only about that decision's position: the samples
are ``SeatSampler(state, seat)`` draws from the live state (leak-free by ``redeterminize``'s contract,
checked per game in ``referee/engine/conformance/test_forward_model.py``), and every later op works on
the engine's ``ForwardModel`` over those samples, never on the true state. Handles belong to the
decision (the first call for the seat's next decision releases them; the match's end drops them all).

Fairness and the clock. The call's time is the decision's time: nothing here touches the decision's
timer, so a call cannot extend a deadline, and a call still running when its decision ends stops with
``FORWARD_DECISION_OVER``. Ops run on the event loop (no thread: a worker thread would fight the loop
for the GIL and delay every other match by the interpreter's 5 ms switch interval) in slices of
``forward_slice_ms``; between slices the GIL goes to gRPC's threads and the loop serves everything else
(other matches' requests, answers and timers), so a bot simulating flat out costs the others at most one
slice per loop turn (measured: a 15-decision match beside a flat-out hog, 0.03 s alone, 0.15 s beside it,
``test_a_bot_simulating_flat_out_cannot_extend_its_deadline_or_stall_other_matches``). Calls of one seat
run in order, one at a time.

Limits (``RefereeConfig.forward_*``): live handles, simulated decisions per seat per match, memory
(live handles x the snapshot size of a sample, measured on the decision's first sample: a size taken
from the true state would tell the bot something about the hidden part), ops and snapshots per call.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.engine.errors import IllegalAction, MalformedAction, NotYourDecision
from referee.engine.forward import ForwardModel, ForwardModelError, Limits
from referee.engine.sampling import SeatSampler
from referee.protocol import bot_pb2

from .wirejson import dumps

if TYPE_CHECKING:
    from .config import RefereeConfig
    from .match import Pending
    from .sessions import SeatSlot, Session

log = logging.getLogger("referee.forward")

_KIND_ERROR = {"bad_handle": bot_pb2.FORWARD_BAD_HANDLE, "handle_limit": bot_pb2.FORWARD_HANDLE_LIMIT,
               "decision_limit": bot_pb2.FORWARD_DECISION_LIMIT, "memory_limit": bot_pb2.FORWARD_MEMORY_LIMIT,
               "no_sampler": bot_pb2.FORWARD_DISABLED}
#: Calls of one seat waiting to run (exempt from the flood limit, so bounded here).
MAX_QUEUED_CALLS = 64
_OP_NAME = {v: k.removeprefix("OP_").lower() for k, v in bot_pb2.ForwardOpKind.items()}


class OpError(Exception):
    """An op the bot got wrong: the code and a one-line message (never a hidden fact)."""

    def __init__(self, code: bot_pb2.ForwardError, message: str) -> None:
        super().__init__(message)
        self.code = code


def run_ops(fm: ForwardModel, sampler: SeatSampler, ops: Sequence[bot_pb2.ForwardOp],
            results: list[bot_pb2.ForwardResult], slice_over: Callable[[], bool], *,
            max_snapshots: int) -> Generator[None, None, None]:
    """Run ``ops`` in order on ``fm`` (its samples drawn from ``sampler``), one ``ForwardResult`` each
    appended to ``results``, stopping after the first failing op. Yields whenever ``slice_over()``
    (inside long ops too: a sample of k, a playout). Transport-free: the leak test drives it directly."""
    snapshots = 0
    for i, op in enumerate(ops):
        res = bot_pb2.ForwardResult()
        try:
            kind = op.op
            name = _OP_NAME.get(kind)
            if name is None or kind == bot_pb2.FORWARD_OP_UNSPECIFIED:
                raise OpError(bot_pb2.FORWARD_BAD_OP, f"op {i}: unknown op kind {kind}")
            if kind == bot_pb2.OP_SAMPLE:
                if op.k < 1:
                    raise OpError(bot_pb2.FORWARD_BAD_OP, f"op {i}: sample needs k >= 1")
                stream = sampler.stream(op.seed)
                if op.snapshots:
                    snapshots += op.k
                    if snapshots > max_snapshots:
                        raise OpError(bot_pb2.FORWARD_TOO_MANY_OPS,
                                      f"op {i}: more than {max_snapshots} snapshots in one call")
                    for _ in range(op.k):
                        res.snapshots_json.append(dumps(next(stream).snapshot()))
                        if slice_over():
                            yield
                else:
                    fm._room(op.k)
                    for _ in range(op.k):
                        s = next(stream)
                        if not fm.state_bytes:  # the memory estimate: a sample's size, never the truth's
                            fm.state_bytes = len(dumps(s.snapshot()))
                        res.handles.append(fm._new(s))
                        if slice_over():
                            yield
            elif kind == bot_pb2.OP_RELEASE:
                if op.all:
                    fm.release_all()
                else:
                    fm.release(*op.handles)
            elif kind == bot_pb2.OP_PLAYOUT:
                steps = fm.playout_steps(op.handle, op.seed, op.max_decisions or None)
                before = fm.decisions
                try:
                    while True:
                        next(steps)
                        if slice_over():
                            yield
                except StopIteration as stop:
                    res.json = dumps(stop.value)
                finally:
                    steps.close()
                res.decisions = fm.decisions - before
            else:
                _simple(fm, sampler.players, i, name, op, res)
        except OpError as exc:
            res.error, res.message = exc.code, str(exc)
        except ForwardModelError as exc:
            res.error, res.message = _KIND_ERROR[exc.kind], f"op {i} ({_OP_NAME.get(op.op)}): {exc}"
        except (IllegalAction, NotYourDecision, MalformedAction) as exc:
            res.error, res.message = bot_pb2.FORWARD_ILLEGAL_ACTION, f"op {i} ({_OP_NAME.get(op.op)}): {exc}"
        except (ValueError, TypeError, RecursionError) as exc:
            res.error, res.message = bot_pb2.FORWARD_BAD_OP, f"op {i} ({_OP_NAME.get(op.op)}): {exc}"
        except Exception as exc:  # noqa: BLE001 - an engine bug on a sample fails the op, not the referee
            log.exception("forward op %s raised", _OP_NAME.get(op.op))
            res.error = bot_pb2.FORWARD_ENGINE_ERROR
            res.message = f"op {i} ({_OP_NAME.get(op.op)}): the game raised {type(exc).__name__}"
        results.append(res)
        if res.error:
            return
        if slice_over():
            yield


def _simple(fm: ForwardModel, players: int, i: int, name: str, op: bot_pb2.ForwardOp,
            res: bot_pb2.ForwardResult) -> None:
    """The ops that are one engine call each."""
    kind = op.op
    if kind in (bot_pb2.OP_APPLY, bot_pb2.OP_LEGAL, bot_pb2.OP_VIEW) and op.seat >= players:
        raise OpError(bot_pb2.FORWARD_BAD_OP, f"op {i} ({name}): no seat {op.seat} in a {players}-seat game")
    if kind == bot_pb2.OP_APPLY:
        which = op.WhichOneof("action")
        if which is None:
            raise OpError(bot_pb2.FORWARD_BAD_OP, f"op {i} (apply): neither index nor action_json is set")
        if which == "index":
            res.json = dumps(fm.apply(op.handle, op.seat, op.index))
            return
        try:
            action = json.loads(op.action_json)
        except (ValueError, RecursionError):
            action = None
        if not isinstance(action, dict):
            raise OpError(bot_pb2.FORWARD_BAD_OP, f"op {i} (apply): action_json is not a JSON object")
        res.json = dumps(fm.apply(op.handle, op.seat, action))
    elif kind == bot_pb2.OP_LEGAL:
        res.json = dumps(fm.legal(op.handle, op.seat))
    elif kind == bot_pb2.OP_VIEW:
        res.json = dumps(fm.view(op.handle, op.seat))
    elif kind == bot_pb2.OP_OUTCOME:
        res.json = dumps(fm.outcome(op.handle))
    elif kind == bot_pb2.OP_PENDING:
        res.seats.extend(fm.pending(op.handle))
    elif kind == bot_pb2.OP_CLONE:
        res.handles.append(fm.clone(op.handle))


@dataclass
class _Job:
    """One ForwardCall being run."""

    call: bot_pb2.ForwardCall
    session: Session
    slot: SeatSlot
    pending: Pending
    results: list[bot_pb2.ForwardResult] = field(default_factory=list)
    steps: Generator[None, None, None] | None = None


@dataclass
class _SeatTable:
    """One seat's forward model in one match: the decision its handles belong to, its queued calls."""

    decision_id: int
    fm: ForwardModel
    sampler: SeatSampler
    jobs: deque[_Job] = field(default_factory=deque)
    busy: bool = False

    def new_decision(self, decision_id: int, sampler: SeatSampler, limits: Limits) -> None:
        """The seat's next decision: its handles go, the match's decision count stays."""
        used = self.fm.decisions
        self.fm.release_all()
        self.decision_id, self.sampler = decision_id, sampler
        self.fm = ForwardModel(sampler, limits, decisions=used)


class ForwardService:
    """Runs the ForwardCalls of every session of one referee."""

    def __init__(self, config: RefereeConfig) -> None:
        self.config = config
        self.limits = Limits(max_handles=config.forward_max_handles,
                             max_decisions=config.forward_max_decisions,
                             max_memory_bytes=config.forward_memory_mb << 20)
        self._slice_s = config.forward_slice_ms / 1000.0
        self._slice_end = 0.0

    @staticmethod
    def pending_slot(session: Session, call: bot_pb2.ForwardCall) -> SeatSlot | None:
        """The seat of ``session`` waiting on the call's decision, if any."""
        for s in session.slots:
            if (s.pending is not None and s.pending.decision_id == call.decision_id
                    and s.match.id == call.match_id):
                return s
        return None

    def refuse(self, session: Session, call: bot_pb2.ForwardCall, code: bot_pb2.ForwardError,
               message: str) -> None:
        session.send(bot_pb2.RefereeMessage(forward=bot_pb2.ForwardReply(call_id=call.call_id, error=code,
                                                                          message=message)))

    def call(self, session: Session, slot: SeatSlot | None, call: bot_pb2.ForwardCall) -> None:
        """Handle one ForwardCall (``slot``: ``pending_slot``'s answer). Never raises for what the bot
        sent."""
        cfg = self.config
        if not cfg.forward_enabled:
            self.refuse(session, call, bot_pb2.FORWARD_DISABLED, "this referee serves no forward model")
            return
        if slot is None or slot.pending is None:
            self.refuse(session, call, bot_pb2.FORWARD_NO_DECISION,
                        f"decision {call.decision_id} of match {call.match_id[:80]!r} is not awaiting an "
                        f"answer "
                        "from this session: the forward model serves only a pending decision's position")
            return
        if len(call.ops) > cfg.forward_max_ops:
            self.refuse(session, call, bot_pb2.FORWARD_TOO_MANY_OPS,
                        f"{len(call.ops)} ops in one call; at most {cfg.forward_max_ops}")
            return
        match = slot.match
        table: _SeatTable | None = match.forward.get(slot.seat)
        if table is None:
            sampler = SeatSampler(match.driver.state, slot.seat)
            table = match.forward[slot.seat] = _SeatTable(call.decision_id,
                                                          ForwardModel(sampler, self.limits), sampler)
        elif table.decision_id != call.decision_id:
            table.new_decision(call.decision_id, SeatSampler(match.driver.state, slot.seat), self.limits)
        if len(table.jobs) >= MAX_QUEUED_CALLS:
            self.refuse(session, call, bot_pb2.FORWARD_TOO_MANY_OPS,
                        f"{MAX_QUEUED_CALLS} calls of this seat are already waiting; wait for their replies")
            return
        table.jobs.append(_Job(call, session, slot, slot.pending))
        if not table.busy:
            table.busy = True
            if not self._run(table):  # the first slice runs now, in the reader: no task for a short call
                asyncio.get_running_loop().create_task(self._finish(table))
            else:
                table.busy = False

    async def _finish(self, table: _SeatTable) -> None:
        try:
            while True:
                # time.sleep(0) hands the GIL to gRPC's own threads, which carry every other session's
                # messages: without it they starved (a bystander's match stalled until the hog's
                # deadline); asyncio.sleep(0) then runs everything else that is ready on the loop
                time.sleep(0)
                await asyncio.sleep(0)  # everything else that is ready runs before our next slice
                if self._run(table):
                    return
        finally:
            table.busy = False

    def _over(self) -> bool:
        return time.perf_counter() >= self._slice_end

    def _run(self, table: _SeatTable) -> bool:
        """One slice of the seat's queued calls; True when the queue is empty."""
        self._slice_end = time.perf_counter() + self._slice_s
        while table.jobs:
            job = table.jobs[0]
            slot = job.slot
            if (slot.pending is not job.pending or slot.match.over or job.session.closed
                    or table is not slot.match.forward.get(slot.seat)
                    or table.decision_id != job.call.decision_id):
                # answered, timed out, lost or over: nothing more is served for that decision
                if job.steps is not None:
                    job.steps.close()
                table.jobs.popleft()
                self._reply(table, job, bot_pb2.FORWARD_DECISION_OVER,
                            f"decision {job.call.decision_id} ended while the call ran; "
                            "later ops did not run")
                continue
            if job.steps is None:
                job.steps = run_ops(table.fm, table.sampler, job.call.ops, job.results, self._over,
                                    max_snapshots=self.config.forward_max_snapshots)
            try:
                next(job.steps)
                return False  # the slice is over: continue after the loop has served the others
            except StopIteration:
                pass
            table.jobs.popleft()
            last = job.results[-1] if job.results else None
            if last is not None and last.error:
                self._reply(table, job, last.error, last.message)
            else:
                self._reply(table, job, bot_pb2.FORWARD_OK, "")
        return True

    @staticmethod
    def _reply(table: _SeatTable, job: _Job, code: bot_pb2.ForwardError, message: str) -> None:
        job.session.send(bot_pb2.RefereeMessage(forward=bot_pb2.ForwardReply(
            call_id=job.call.call_id, results=job.results, error=code, message=message,
            decisions_used=table.fm.decisions, live_handles=table.fm.live)))
