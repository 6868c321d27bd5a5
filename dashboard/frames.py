"""Replay frames: re-simulate a *stored* replay and record what one perspective saw at each step.

A frame is (step, actors, action, events, view). The action is shown only to the seat that took
it, to the full view, or to everyone in a perfect-information game: in a hidden-information game
the events are the game's own, filtered account of what the others learned (a sealed bid is not
shown to the rival as an action). Views come only from ``State.observe`` — the dashboard never
reads a state's internals.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from referee.engine import ALL, PUBLIC, Replay, get_game
from referee.engine.replay import states
from referee.engine.viewer import Viewer


@dataclass(frozen=True)
class Frames:
    perspective: str
    frames: list[dict[str, Any]]


def parse_perspective(text: str, players: int) -> Viewer:
    """'public', 'all' or a seat number in range; ``ValueError`` otherwise."""
    t = text.strip().lower()
    if t == PUBLIC:
        return PUBLIC
    if t == ALL:
        return ALL
    if t.isdigit() and int(t) < players:
        return int(t)
    raise ValueError(f"perspective must be 'public', 'all' or a seat 0..{players - 1}, not {text!r}")


def compute_frames(replay: Replay, viewer: Viewer, start: int = 0,
                   stop: int | None = None) -> list[dict[str, Any]]:
    """Frames ``start..stop-1`` for ``viewer`` (step 0 is the initial position).

    Re-simulation runs from the start (applying actions is cheap); only the requested steps are
    observed, which is where the time goes.
    """
    game = get_game(replay.game)
    public_actions = not game.info.hidden_information
    stop = len(replay.actions) + 1 if stop is None else min(stop, len(replay.actions) + 1)
    out: list[dict[str, Any]] = []
    cursor = 0
    for ply, state in states(replay, game):
        if ply >= stop:
            break
        if ply < start:
            cursor = len(state.log)
            continue
        if ply == 0:
            actors: list[int] = []
            action = None
        else:
            step = replay.actions[ply - 1]
            actors = [step["seat"]]
            seen = viewer == ALL or viewer == step["seat"] or public_actions
            action = step["action"] if seen else None
        events = state.events_for(viewer, cursor)
        cursor = len(state.log)
        out.append({"step": ply, "actors": actors, "action": action, "events": events,
                    "view": state.observe(viewer), "over": state.is_over()})
    return out


class FrameCache:
    """An LRU of computed frame chunks keyed by (match id, perspective, first step, size)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._data: OrderedDict[tuple[str, str, int, int], list[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str, replay: Replay, viewer: Viewer, start: int,
            limit: int) -> list[dict[str, Any]]:
        key = (match_id, str(viewer), start, limit)
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        frames = compute_frames(replay, viewer, start, start + limit)
        with self._lock:
            self._data[key] = frames
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return frames
