"""What a bot is told when it leaves or comes back: Goodbye at shutdown, and the MatchEnds it missed.

A live bot whose seat was forfeited while it was disconnected (the grace period ran out) is owed
that match's MatchEnd: it gets it on its next session, so it can drop the match's state instead of
waiting for a decision that will never come. Entries are kept ``ttl_s`` and at most ``per_bot``.
"""
from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Iterable
from typing import Protocol

from referee.protocol import bot_pb2


class _Session(Protocol):
    closed: bool

    def send(self, msg: bot_pb2.RefereeMessage) -> None: ...

    def close(self, code: object = None, detail: str = "") -> None: ...


class OwedMatchEnds:
    def __init__(self, ttl_s: float = 600.0, per_bot: int = 100) -> None:
        self.ttl_s = ttl_s
        self.per_bot = per_bot
        self._owed: dict[str, deque[tuple[float, bot_pb2.RefereeMessage]]] = defaultdict(deque)

    def add(self, bot: str, msg: bot_pb2.RefereeMessage) -> None:
        q = self._owed[bot]
        q.append((time.monotonic() + self.ttl_s, msg))
        while len(q) > self.per_bot:
            q.popleft()

    def take(self, bot: str) -> list[bot_pb2.RefereeMessage]:
        """The MatchEnds ``bot`` has not received and that are not too old (each given once)."""
        q = self._owed.pop(bot, None)
        now = time.monotonic()
        return [msg for expires, msg in q or () if expires > now]


def goodbye_all(sessions: Iterable[_Session], reason: str) -> int:
    """Queue Goodbye and an orderly end on every open session; returns how many."""
    n = 0
    for sess in list(sessions):
        if not sess.closed:
            sess.send(bot_pb2.RefereeMessage(goodbye=bot_pb2.Goodbye(reason=reason)))
            sess.close(None, reason)
            n += 1
    return n
