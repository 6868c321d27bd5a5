"""Live spectating: one referee watch stream per live match, fanned out to every viewer.

The dashboard never sees a running match's state: it relays the referee's PUBLIC feed
(``WatchMatch``: frames built from ``observe(PUBLIC)`` and the public events only), and re-shapes
each frame through a whitelist (step, view, events, pending, over, outcome, actors) so nothing
else the feed might carry reaches a browser.

Scale: the first viewer of a match opens the *one* upstream stream (``grpc.aio``, on the server's
event loop: no thread per viewer, nor per match); every viewer of that match is a coroutine
reading the match's shared, bounded frame history at its own pace and delay. When the last viewer
leaves, the upstream stream is closed. Caps: viewers per match and live streams per client
address (``LiveLimits``); past them the route answers 429.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.engine import PUBLIC, Replay
from referee.engine.replay import states

FRAME_KEYS = ("step", "view", "events", "over", "outcome", "actors", "pending")


class LiveFeed(Protocol):
    def frames(self, match_id: str) -> AsyncIterator[dict[str, Any]]:
        """Public frames of a running match as they happen (``match_id`` as the referee knows it)."""


class LiveUnavailable(RuntimeError):
    """The referee's feed failed (the match is unknown there, or the referee is unreachable)."""


def clean_frame(frame: dict[str, Any]) -> dict[str, Any]:
    """The referee's frame (``referee.service.convert.frame_to_dict``) in the viewer's terms."""
    out = {k: frame[k] for k in FRAME_KEYS if k in frame}
    if "step" not in out and "ply" in frame:
        out["step"] = frame["ply"]
    if "over" not in out and "done" in frame:
        out["over"] = bool(frame["done"])
    if out.get("over"):
        # The last public view reveals the deal, which twins of this match (same seed) may still be
        # playing: the end is published with the replay, once the whole deal group is over.
        return {"step": out.get("step"), "over": True}
    out.pop("outcome", None)
    return out


def sse(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class RefereeFeed:
    """The referee's ``WatchMatch`` over ``grpc.aio`` (one channel per event loop, organizer token)."""

    def __init__(self, address: str, token: str = "") -> None:
        self.address = address
        self.token = token
        self._channel: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _stub(self) -> Any:
        import grpc

        from referee.protocol import organizer_pb2_grpc

        loop = asyncio.get_running_loop()
        if self._channel is None or self._loop is not loop:
            self._channel = grpc.aio.insecure_channel(self.address, options=[
                ("grpc.max_receive_message_length", 64 << 20),
                ("grpc.initial_reconnect_backoff_ms", 200), ("grpc.max_reconnect_backoff_ms", 1000)])
            self._loop = loop
        return organizer_pb2_grpc.OrganizerServiceStub(self._channel)

    async def frames(self, match_id: str) -> AsyncIterator[dict[str, Any]]:
        import grpc

        from referee.protocol import organizer_pb2
        from referee.service.convert import frame_to_dict

        call = self._stub().WatchMatch(organizer_pb2.WatchMatchRequest(match_id=match_id, delay_ms=0),
                                       metadata=(("authorization", f"Bearer {self.token}"),))
        try:
            async for frame in call:
                yield frame_to_dict(frame)
        except grpc.aio.AioRpcError as exc:
            raise LiveUnavailable(exc.code().name) from None
        finally:
            call.cancel()


class ReplayFeed:
    """A stand-in referee feed for tests and demos: replays a stored match's PUBLIC frames in real time."""

    def __init__(self, replays: dict[str, Replay], interval_s: float = 0.3) -> None:
        self.replays = replays
        self.interval_s = interval_s

    async def frames(self, match_id: str) -> AsyncIterator[dict[str, Any]]:
        rep = self.replays.get(match_id)
        if rep is None:
            raise LiveUnavailable("NOT_FOUND")
        cursor = 0
        for ply, state in states(rep):
            events = state.events_for(PUBLIC, cursor)
            cursor = len(state.log)
            yield {"step": ply, "view": state.observe(PUBLIC), "events": events, "over": state.is_over(),
                   "actors": [rep.actions[ply - 1]["seat"]] if ply else []}
            await asyncio.sleep(self.interval_s)


@dataclass(frozen=True)
class LiveLimits:
    """Caps that keep a crowd from taking the dashboard down (``ARENA_LIVE_PER_MATCH`` / ``_PER_CLIENT``)."""

    per_match: int = 2000
    per_client: int = 16
    #: frames kept per match for delayed and slow viewers (older ones are dropped; a viewer that far
    #: behind skips ahead)
    history: int = 4096

    @classmethod
    def from_env(cls) -> LiveLimits:
        return cls(per_match=int(os.environ.get("ARENA_LIVE_PER_MATCH", "2000")),
                   per_client=int(os.environ.get("ARENA_LIVE_PER_CLIENT", "16")))


class TooMany(Exception):
    """A cap is reached (the route answers 429 with this message)."""


@dataclass
class _Channel:
    """One live match: its upstream pump and the frames every viewer reads."""

    match_id: str
    first_seq: int = 0
    #: (arrival time, SSE bytes, over?): each frame is cleaned and encoded once, for every viewer
    frames: list[tuple[float, bytes, bool]] = field(default_factory=list)
    ended: str | None = None  # "end" or an error message once the upstream stream is over
    viewers: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    @property
    def next_seq(self) -> int:
        return self.first_seq + len(self.frames)

    def push(self, frame: dict[str, Any], keep: int) -> None:
        clean = clean_frame(frame)
        self.frames.append((time.monotonic(), sse("frame", clean), bool(clean.get("over"))))
        if len(self.frames) > keep:
            drop = len(self.frames) - keep
            del self.frames[:drop]
            self.first_seq += drop
        self._wake()

    def close(self, why: str) -> None:
        self.ended = why
        self._wake()

    def _wake(self) -> None:
        # every waiting viewer wakes; a fresh Event for the next change
        ev, self.changed = self.changed, asyncio.Event()
        ev.set()


class LiveHub:
    """Live matches being watched on this dashboard, and who watches them."""

    def __init__(self, feed: LiveFeed, limits: LiveLimits | None = None) -> None:
        self.feed = feed
        self.limits = limits or LiveLimits.from_env()
        self.channels: dict[str, _Channel] = {}
        self.clients: Counter[str] = Counter()

    def stats(self) -> dict[str, int]:
        return {"matches": len(self.channels), "viewers": sum(c.viewers for c in self.channels.values())}

    async def _pump(self, ch: _Channel) -> None:
        try:
            async for frame in self.feed.frames(ch.match_id):
                ch.push(frame, self.limits.history)
            ch.close("end")
        except asyncio.CancelledError:
            ch.close("end")
            raise
        except LiveUnavailable as exc:
            ch.close(f"live feed unavailable ({exc})")
        except Exception as exc:  # noqa: BLE001 - the referee went away: tell the viewers, don't stack-trace
            ch.close(f"live feed interrupted ({type(exc).__name__})")

    def check(self, match_id: str, client: str) -> None:
        """Raise ``TooMany`` if a new viewer of ``match_id`` from ``client`` would pass a cap."""
        ch = self.channels.get(match_id)
        if ch is not None and ch.viewers >= self.limits.per_match:
            raise TooMany(f"this match has {ch.viewers} live viewers already (the limit); try again later")
        if self.clients[client] >= self.limits.per_client:
            raise TooMany(f"at most {self.limits.per_client} live streams per client address")

    def _join(self, match_id: str, client: str) -> _Channel:
        self.check(match_id, client)
        ch = self.channels.get(match_id)
        if ch is None:
            ch = self.channels[match_id] = _Channel(match_id)
            ch.task = asyncio.get_running_loop().create_task(self._pump(ch))
        ch.viewers += 1
        self.clients[client] += 1
        return ch

    def _leave(self, ch: _Channel, client: str) -> None:
        ch.viewers -= 1
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]
        if ch.viewers <= 0 and self.channels.get(ch.match_id) is ch:
            del self.channels[ch.match_id]  # the last viewer left: close the upstream stream
            if ch.task is not None and not ch.task.done():
                ch.task.cancel()

    async def watch(self, match_id: str, client: str, delay_s: float,
                    label: str = "") -> AsyncIterator[bytes]:
        """One viewer's SSE byte stream (call ``check`` first to answer 429 at a cap)."""
        try:
            ch = self._join(match_id, client)
        except TooMany as exc:
            yield sse("error", {"message": str(exc)})
            return
        try:
            yield sse("hello", {"match_id": label or match_id, "delay": delay_s})
            # a viewer who joins mid-match starts at the newest frame it may see (``delay_s`` old)
            cut = time.monotonic() - delay_s
            seq = ch.first_seq
            for i, (t, _, _) in enumerate(ch.frames):
                if t <= cut:
                    seq = ch.first_seq + i
            over = False
            while not over:
                seq = max(seq, ch.first_seq)  # a viewer behind the kept history skips ahead
                if seq < ch.next_seq:
                    t = ch.frames[seq - ch.first_seq][0]
                    wait = t + delay_s - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    # everything this viewer may see now goes out in one write
                    now = time.monotonic() - delay_s
                    chunk: list[bytes] = []
                    while seq < ch.next_seq and not over:
                        t, data, last = ch.frames[seq - ch.first_seq]
                        if t > now and chunk:
                            break
                        chunk.append(data)
                        seq, over = seq + 1, last
                    yield b"".join(chunk)
                    continue
                if ch.ended is not None:
                    if ch.ended != "end":
                        yield sse("error", {"message": ch.ended})
                    break
                await ch.changed.wait()
            yield sse("end", {})
        finally:
            with contextlib.suppress(Exception):
                self._leave(ch, client)
