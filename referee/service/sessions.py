"""Bot sessions (one per Connect stream) and seat slots (one per seat of a running match).

A ``SeatSlot`` outlives sessions: when a bot disconnects its slots wait ``reconnect_grace_s``
for a new session of the same bot (or the same hosted token) before they forfeit.
"""
from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.protocol import bot_pb2

if TYPE_CHECKING:
    from .match import LiveMatch, Pending

class Outbox:
    """A session's outgoing messages, in order.

    The stream's writer task waits on a future only while the box is empty. While the stream's
    reader handles a message (``hold``), new messages do not wake the writer: the reader writes
    them itself once it is done, when the writer is idle. So the answer that settles a decision and
    the next request it produces cost no task switch (most decisions)."""

    def __init__(self) -> None:
        self.items: deque[bot_pb2.RefereeMessage | Close] = deque()
        self.hold = False
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: bot_pb2.RefereeMessage | Close) -> None:
        self.items.append(item)
        if not self.hold:
            self.wake()

    def wake(self) -> None:
        w = self._waiter
        if w is not None and not w.done():
            w.set_result(None)

    @property
    def writer_idle(self) -> bool:
        return self._waiter is not None and not self._waiter.done()

    def qsize(self) -> int:
        return len(self.items)

    def empty(self) -> bool:
        return not self.items

    def get_nowait(self) -> bot_pb2.RefereeMessage | Close:
        return self.items.popleft()

    async def get(self) -> bot_pb2.RefereeMessage | Close:
        while not self.items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.items.popleft()


@dataclass
class Close:
    """Sentinel on a session's out-queue: end the stream (with a status code when ``code``)."""

    code: Any = None
    detail: str = ""


class Session:
    """One connected bot stream."""

    def __init__(self, sid: str, bot: str, games: frozenset[str] | None, capacity: int, client: str,
                 hosted_slot: SeatSlot | None = None, *, flood_rate: float = 200.0,
                 flood_burst: int = 400) -> None:
        self.id = sid
        self.bot = bot
        self.games = games
        self.capacity = capacity
        self.client = client
        self.hosted_slot = hosted_slot
        self.out = Outbox()
        self.slots: list[SeatSlot] = []
        self.closed = False
        self.close_reason = ""
        self.view_delta = False  # Hello.view_delta: views as patches after the first (see match.py)
        self.kill: asyncio.Future[Close] | None = None  # set by the stream handler
        # flood control: a token bucket
        self.flood_rate = flood_rate
        self.flood_burst = flood_burst
        self._tokens = float(flood_burst)
        self._refill = time.monotonic()
        self.dropped = 0
        self.last_flood_error = 0.0

    @property
    def free(self) -> int:
        return self.capacity - len(self.slots)

    def accepts(self, game: str) -> bool:
        return self.games is None or game in self.games

    #: A session whose bot does not read its stream is closed once this many messages wait.
    MAX_QUEUED = 10_000

    def send(self, msg: bot_pb2.RefereeMessage) -> None:
        if not self.closed:
            self.out.put_nowait(msg)
            if self.out.qsize() > self.MAX_QUEUED:
                import grpc

                self.close(grpc.StatusCode.ABORTED,
                           f"the bot is not reading its stream ({self.MAX_QUEUED} messages waiting)")

    def error(self, code: Any, consequence: Any, message: str, match_id: str = "", decision_id: int = 0,
              strikes: int = 0, max_strikes: int = 0) -> None:
        self.send(bot_pb2.RefereeMessage(error=bot_pb2.Error(
            code=code, consequence=consequence, message=message, match_id=match_id, decision_id=decision_id,
            strikes=strikes, max_strikes=max_strikes)))

    def close(self, code: Any = None, detail: str = "") -> None:
        """End the stream: after what is queued (``code`` None), or at once with a status code."""
        if not self.closed:
            self.closed = True
            self.close_reason = detail
            self.out.put_nowait(Close(code, detail))
            if code is not None and self.kill is not None and not self.kill.done():
                self.kill.set_result(Close(code, detail))

    def take_token(self) -> bool:
        """Flood control: False when this message is over the rate limit."""
        now = time.monotonic()
        self._tokens = min(self.flood_burst, self._tokens + (now - self._refill) * self.flood_rate)
        self._refill = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self.dropped += 1
        return False


@dataclass
class SeatSlot:
    """One seat of a running match and the session currently playing it (if any)."""

    match: LiveMatch
    seat: int
    bot: str
    hosted: bool = False
    session: Session | None = None
    pending: Pending | None = None
    lost: str | None = None
    grace: asyncio.TimerHandle | None = None
    #: runs at or before the pending decision's deadline (``LiveMatch._arm``)
    timer: asyncio.TimerHandle | None = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)  # first connection, or lost
    ever_connected: bool = False
    #: the encoded top-level values of the last view this seat's session received (view deltas,
    #referee.viewpatch)
    view_parts: dict[str, bytes] | None = None

    def lose(self, why: str) -> None:
        """The seat can no longer play (disconnect grace expired, flooding, hosted bot died)."""
        if self.lost is None and not self.match.over:
            self.lost = why
            self.match.note(f"seat {self.seat} ({self.bot}) lost: {why}")
            self.connected.set()  # settles a wait for a hosted bot's first connection
            self.match.lose(self, why)
