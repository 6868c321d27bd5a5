"""A hosted bot's output within a byte budget: the start and the latest part, what lies between dropped.

A crash's traceback is the last thing a bot writes, so keeping only the first bytes (as the referee did)
lost it behind any chatty logging; keeping only the last loses how the bot started. Half and half.
"""
from __future__ import annotations


class CappedOutput:
    """At most ``limit`` bytes of a stream: its first half and its latest half (``dropped``: the rest)."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = self.limit // 2 - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if not chunk:
            return
        self.tail += chunk
        over = len(self.tail) - (self.limit - self.limit // 2)
        if over > 0:
            del self.tail[:over]
            self.dropped += over

    def text(self) -> str:
        head, tail = self.head.decode("utf-8", "replace"), self.tail.decode("utf-8", "replace")
        if not self.dropped:
            return head + tail
        return f"{head}\n[... {self.dropped} bytes not kept ...]\n{tail}"
