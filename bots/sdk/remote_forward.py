"""The forward model through a referee ("remote mode"): ``ForwardCall`` / ``ForwardReply`` on the stream.

Two ways for a Python bot, both bound by the SDK at match start (``bind_remote``):

* ``bind_forward(fm)``: ``fm`` is a ``RemoteForwardModel``, the local ``ForwardModel``'s methods
  (``sample``, ``apply``, ``legal``, ``view``, ``outcome``, ``pending``, ``clone``, ``release``,
  ``playout``, ``batch``) served by the referee on its handles. One round trip per call, so put the
  work of a decision in a few ``batch()``-es;
* ``bind_sampler(sampler)`` (what ``bots/search`` defines): ``sampler`` is a ``RemoteSampler``; its
  samples arrive as snapshots and are simulated here by the bot's own ``ForwardModel``, exactly as
  in-process (no round trip per simulated step).

Calls block, so the SDK runs ``act`` on a worker thread for bots bound here; the reply comes back
through the session's stream reader (``ForwardLink.resolve``). Every call is about the decision the
bot is answering (``ForwardLink.current``); the referee refuses anything else.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import threading
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from referee.engine.forward import ErrorKind, ForwardModelError
from referee.engine.registry import get_game
from referee.engine.state import State
from referee.protocol import bot_pb2

_KIND: dict[int, ErrorKind] = {bot_pb2.FORWARD_HANDLE_LIMIT: "handle_limit",
                               bot_pb2.FORWARD_DECISION_LIMIT: "decision_limit",
                               bot_pb2.FORWARD_MEMORY_LIMIT: "memory_limit",
                               bot_pb2.FORWARD_DISABLED: "no_sampler"}
#: snapshots the referee sends per call (RefereeConfig.forward_max_snapshots' default)
SNAPSHOTS_PER_CALL = 64


class RemoteForwardError(ForwardModelError):
    """The referee refused a forward call or op; ``code`` is the ``ForwardError`` name
    (e.g. ``"FORWARD_NO_DECISION"``), ``results`` the decoded results of the ops before it."""

    def __init__(self, code: int, message: str, results: list[Any] | None = None) -> None:
        super().__init__(f"{bot_pb2.ForwardError.Name(code)}: {message}", _KIND.get(code, "bad_handle"))
        self.code = bot_pb2.ForwardError.Name(code)
        self.results = results or []


class ForwardLink:
    """One session's forward channel: blocking calls from bot threads, replies from the stream reader."""

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 send: Callable[[bot_pb2.BotMessage], Coroutine[Any, Any, None]]) -> None:
        self.loop = loop
        self._send = send
        self._ids = itertools.count(1)
        self._waiting: dict[int, concurrent.futures.Future[bot_pb2.ForwardReply]] = {}
        #: (match_id, seat) -> the decision its bot is answering now (set before ``act``)
        self.current: dict[tuple[str, int], int] = {}
        self.calls = 0
        self._lock = threading.Lock()

    def call(self, match_id: str, decision_id: int, ops: Sequence[bot_pb2.ForwardOp],
             timeout: float = 600.0) -> bot_pb2.ForwardReply:
        """Send one ForwardCall and wait for its reply (from a worker thread, never the loop's)."""
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            raise RuntimeError("a forward call blocks: call it from act on a worker thread")
        with self._lock:
            cid = next(self._ids)
            self.calls += 1
        fut: concurrent.futures.Future[bot_pb2.ForwardReply] = concurrent.futures.Future()
        self._waiting[cid] = fut
        msg = bot_pb2.BotMessage(forward=bot_pb2.ForwardCall(call_id=cid, match_id=match_id,
                                                              decision_id=decision_id, ops=ops))
        try:
            asyncio.run_coroutine_threadsafe(self._send(msg), self.loop)
            return fut.result(timeout)
        except concurrent.futures.TimeoutError:
            raise RemoteForwardError(bot_pb2.FORWARD_DECISION_OVER, f"no reply within {timeout:g}s") from None
        finally:
            self._waiting.pop(cid, None)

    def resolve(self, reply: bot_pb2.ForwardReply) -> None:
        fut = self._waiting.pop(reply.call_id, None)
        if fut is not None and not fut.done():
            fut.set_result(reply)

    def fail_all(self, why: str) -> None:
        """The stream is gone: every waiting call fails (its decision will be re-sent after a reconnect)."""
        for fut in list(self._waiting.values()):
            if not fut.done():
                fut.set_exception(RemoteForwardError(bot_pb2.FORWARD_DECISION_OVER, why))
        self._waiting.clear()


def _decode(op: bot_pb2.ForwardOp, res: bot_pb2.ForwardResult) -> Any:
    kind = op.op
    if kind == bot_pb2.OP_SAMPLE:
        return [json.loads(s) for s in res.snapshots_json] if op.snapshots else list(res.handles)
    if kind == bot_pb2.OP_CLONE:
        return res.handles[0]
    if kind == bot_pb2.OP_PENDING:
        return list(res.seats)
    if kind == bot_pb2.OP_RELEASE:
        return None
    return json.loads(res.json)


class RemoteBatch:
    """Ops sent in one ForwardCall; ``run()`` returns one result per op, as the single calls would."""

    def __init__(self, fm: RemoteForwardModel) -> None:
        self._fm = fm
        self.ops: list[bot_pb2.ForwardOp] = []

    def __len__(self) -> int:
        return len(self.ops)

    def _add(self, **fields: Any) -> RemoteBatch:
        self.ops.append(bot_pb2.ForwardOp(**fields))
        return self

    def sample(self, k: int, seed: int | str) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_SAMPLE, k=k, seed=str(seed))

    def apply(self, h: int, seat: int, action: int | dict[str, Any]) -> RemoteBatch:
        if isinstance(action, int) and not isinstance(action, bool):
            return self._add(op=bot_pb2.OP_APPLY, handle=h, seat=seat, index=action)
        return self._add(op=bot_pb2.OP_APPLY, handle=h, seat=seat, action_json=json.dumps(action))

    def legal(self, h: int, seat: int) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_LEGAL, handle=h, seat=seat)

    def view(self, h: int, seat: int) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_VIEW, handle=h, seat=seat)

    def outcome(self, h: int) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_OUTCOME, handle=h)

    def pending(self, h: int) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_PENDING, handle=h)

    def clone(self, h: int) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_CLONE, handle=h)

    def release(self, *handles: int) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_RELEASE, handles=list(handles))

    def playout(self, h: int, seed: int | str, max_decisions: int | None = None) -> RemoteBatch:
        return self._add(op=bot_pb2.OP_PLAYOUT, handle=h, seed=str(seed), max_decisions=max_decisions or 0)

    def run(self) -> list[Any]:
        ops, self.ops = self.ops, []
        return self._fm.run_ops(ops)


class RemoteForwardModel:
    """``ForwardModel``'s interface, served by the referee for one seat of one match."""

    def __init__(self, link: ForwardLink, match_id: str, seat: int) -> None:
        self.link = link
        self.match_id = match_id
        self.seat = seat
        self.decisions = 0  # simulated decisions charged to this seat in this match (from the last reply)
        self.live = 0  # live handles after the last call

    def run_ops(self, ops: list[bot_pb2.ForwardOp]) -> list[Any]:
        did = self.link.current.get((self.match_id, self.seat), 0)
        reply = self.link.call(self.match_id, did, ops)
        self.decisions, self.live = reply.decisions_used, reply.live_handles
        results = [_decode(op, r) for op, r in zip(ops, reply.results, strict=False) if not r.error]
        if reply.error:
            raise RemoteForwardError(reply.error, reply.message, results)
        return results

    def batch(self) -> RemoteBatch:
        return RemoteBatch(self)

    def _one(self, batch: RemoteBatch) -> Any:  # each op's result type is the method's own
        return batch.run()[0]

    def sample(self, k: int, seed: int | str) -> list[int]:
        return self._one(self.batch().sample(k, seed))

    def apply(self, h: int, seat: int, action: int | dict[str, Any]) -> dict[str, Any]:
        return self._one(self.batch().apply(h, seat, action))

    def apply_trusted(self, h: int, seat: int, action: dict[str, Any]) -> None:
        """As ``apply`` (the referee checks every action; there is no unchecked path over the wire)."""
        self.apply(h, seat, action)

    def legal(self, h: int, seat: int) -> list[dict[str, Any]]:
        return self._one(self.batch().legal(h, seat))

    def view(self, h: int, seat: int) -> dict[str, Any]:
        return self._one(self.batch().view(h, seat))

    def outcome(self, h: int) -> dict[str, Any] | None:
        return self._one(self.batch().outcome(h))

    def pending(self, h: int) -> list[int]:
        return self._one(self.batch().pending(h))

    def clone(self, h: int) -> int:
        return self._one(self.batch().clone(h))

    def release(self, *handles: int) -> None:
        self.batch().release(*handles).run()

    def release_all(self) -> None:
        self.run_ops([bot_pb2.ForwardOp(op=bot_pb2.OP_RELEASE, all=True)])

    def playout(self, h: int, seed: int | str, max_decisions: int | None = None) -> dict[str, Any] | None:
        return self._one(self.batch().playout(h, seed, max_decisions))


class RemoteSampler:
    """A ``Sampler`` whose samples the referee draws (``OP_SAMPLE`` with snapshots) and the bot's own
    ``ForwardModel`` simulates: ``ForwardModel(RemoteSampler(...))`` runs like the in-process one."""

    def __init__(self, link: ForwardLink, match_id: str, seat: int) -> None:
        self.link = link
        self.match_id = match_id
        self.seat = seat

    def sample(self, k: int, seed: int | str) -> list[State]:
        did = self.link.current.get((self.match_id, self.seat), 0)
        # at most SNAPSHOTS_PER_CALL per call: a larger k is drawn in parts, each from its own sub-seed
        # (the same samples as in-process for k <= SNAPSHOTS_PER_CALL, the search bot's case)
        n = SNAPSHOTS_PER_CALL
        ops = [bot_pb2.ForwardOp(op=bot_pb2.OP_SAMPLE, k=min(n, k - i), snapshots=True,
                                 seed=str(seed) if k <= n else f"{seed}/{i // n}") for i in range(0, k, n)]
        out: list[State] = []
        for op in ops:
            reply = self.link.call(self.match_id, did, [op])
            if reply.error:
                raise RemoteForwardError(reply.error, reply.message)
            for text in reply.results[0].snapshots_json:
                snap = json.loads(text)
                out.append(get_game(str(snap["game"])).restore(snap))
        return out


def bind_remote(bot: Any, link: ForwardLink, match_id: str, seat: int) -> bool:
    """Give ``bot`` the referee's forward model if it wants one (``bind_forward`` or ``bind_sampler``)."""
    if hasattr(bot, "bind_forward"):
        bot.bind_forward(RemoteForwardModel(link, match_id, seat))
        return True
    if hasattr(bot, "bind_sampler"):
        bot.bind_sampler(RemoteSampler(link, match_id, seat))
        return True
    return False
