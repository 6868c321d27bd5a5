"""Live spectating: the referee's PUBLIC watch stream, relayed as server-sent events.

The dashboard never sees a running match's state: it relays ``RefereeClient.watch`` frames,
which the referee builds from ``observe(PUBLIC)`` and the public events only. Each relayed
frame is re-shaped through a whitelist (step, view, events, pending, over, outcome) so nothing
else the feed might carry reaches a browser.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, Protocol

from referee.engine import PUBLIC, Replay
from referee.engine.replay import states

FRAME_KEYS = ("step", "view", "events", "over", "outcome", "actors", "pending")


class LiveFeed(Protocol):
    def watch(self, match_id: str, delay_s: float) -> Iterator[dict[str, Any]]:
        """Public frames of a running match, ``delay_s`` seconds behind the table."""


def clean_frame(frame: dict[str, Any]) -> dict[str, Any]:
    """The referee's frame (``referee.service.convert.frame_to_dict``) in the viewer's terms."""
    out = {k: frame[k] for k in FRAME_KEYS if k in frame}
    if "step" not in out and "ply" in frame:
        out["step"] = frame["ply"]
    if "over" not in out and "done" in frame:
        out["over"] = bool(frame["done"])
    if not out.get("over"):
        out.pop("outcome", None)
    return out


def sse(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class RefereeFeed:
    """Adapter over ``referee.client.RefereeClient`` (imported lazily: the dashboard runs without it)."""

    def __init__(self, address: str, token: str = "") -> None:
        self.address = address
        self.token = token

    def watch(self, match_id: str, delay_s: float) -> Iterator[dict[str, Any]]:
        from referee.client import RefereeClient  # type: ignore[import-not-found]

        client = RefereeClient(self.address, self.token)
        try:
            for frame in client.watch(match_id, delay_s):
                yield frame if isinstance(frame, dict) else json.loads(frame)
        finally:
            close = getattr(client, "close", None)
            if close:
                close()


class ReplayFeed:
    """A stand-in referee feed for tests and demos: replays a stored match's PUBLIC frames in real time."""

    def __init__(self, replays: dict[str, Replay], interval_s: float = 0.3) -> None:
        self.replays = replays
        self.interval_s = interval_s

    def watch(self, match_id: str, delay_s: float) -> Iterator[dict[str, Any]]:
        rep = self.replays[match_id]
        cursor = 0
        time.sleep(delay_s)
        for ply, state in states(rep):
            events = state.events_for(PUBLIC, cursor)
            cursor = len(state.log)
            yield {"step": ply, "view": state.observe(PUBLIC), "events": events, "over": state.is_over(),
                   "actors": [rep.actions[ply - 1]["seat"]] if ply else []}
            time.sleep(self.interval_s)
