"""The public feed of one match: PUBLIC frames for spectators (``WatchMatch``).

Frames are built only while someone watches, so the per-decision path stays lean; a watcher
that attaches mid-match gets the current position first. The end of a match whose deal is shared
(``MatchSpec.shared_deal``: its twins may still be playing the same seed) is embargoed: the last
frame says the match is over and embargoed, and nothing else (the final view, the last events and
the outcome reveal the deal; they are published with the replay once the whole group is over).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from referee.engine import PUBLIC, State
from referee.protocol import organizer_pb2

from .wirejson import dumps as _dumps


class FrameFeed:
    """Frames of one match and the watchers waiting for the next one."""

    def __init__(self, match_id: str, game: str, bots: Sequence[str], *, embargoed: bool = False) -> None:
        self.match_id = match_id
        self.embargoed = embargoed
        self.game = game
        self.bots = list(bots)
        self.frames: list[tuple[float, organizer_pb2.WatchFrame]] = []
        self.watchers = 0
        self._cursor = 0
        self._changed = asyncio.Event()

    def publish(self, st: State, ply: int, outcome: dict[str, Any] | None = None,
                actors: Sequence[int] = ()) -> None:
        """Append the PUBLIC frame of ``st`` (the final one when ``outcome`` is given); ``actors`` are the
        seats whose decisions were applied last (who decided is public, what is not)."""
        if outcome is not None and self.embargoed:
            self._append(organizer_pb2.WatchFrame(match_id=self.match_id, game=self.game, bots=self.bots,
                                                  seq=len(self.frames), ply=ply, done=True, embargoed=True))
            return
        events = st.events_for(PUBLIC, self._cursor)
        self._cursor = len(st.log)
        self._append(organizer_pb2.WatchFrame(
            match_id=self.match_id, game=self.game, bots=self.bots, seq=len(self.frames), ply=ply,
            view_json=_dumps(st.observe(PUBLIC)), events_json=_dumps(events),
            pending=[] if outcome is not None else st.pending(), actors=list(actors),
            done=outcome is not None, outcome_json=_dumps(outcome) if outcome is not None else ""))

    def _append(self, frame: organizer_pb2.WatchFrame) -> None:
        self.frames.append((time.monotonic(), frame))
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def watch(self, delay_s: float) -> AsyncIterator[organizer_pb2.WatchFrame]:
        """Frames from the current one to the last, each ``delay_s`` after it happened."""
        self.watchers += 1
        try:
            i = len(self.frames) - 1
            while True:
                while i >= len(self.frames):
                    await self._changed.wait()
                t, frame = self.frames[i]
                if delay_s:
                    wait = t + delay_s - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                yield frame
                if frame.done:
                    return
                i += 1
        finally:
            self.watchers -= 1
