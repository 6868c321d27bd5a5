"""Running a ladder without beat: ``arena ladder run GAME --for 10m`` (and the tests).

The loop is what the periodic task does, on a shorter period: tick the matchmaker, send the tasks
of new (or lost) matches through a dispatcher (the local process pool, or Celery with
``ARENA_BROKER_URL``). When the time is up no new match is made; the matches in flight are given
``drain_s`` to finish, and the ladder is refitted.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..config import Settings, settings
from ..scheduling.driver import Dispatcher, dispatch
from ..store import Store, ladders, queries
from .matchmaker import tick


@dataclass(frozen=True)
class RunSummary:
    tournament_id: int
    created: int  # matches made by this run
    ticks: int
    left_in_flight: int  # still queued or running when the run gave up waiting


def run(store: Store, game: str, tid: int, dispatcher: Dispatcher, *, seconds: float, tick_s: float = 0.5,
        drain_s: float = 120.0, cfg: Settings | None = None, rng: random.Random | None = None,
        on_tick: Callable[[int], None] | None = None, max_matches: int | None = None) -> RunSummary:
    """Make and play ``game``'s ladder matches for ``seconds`` (or until ``max_matches`` are made), then let
    the ones in flight finish."""
    cfg = cfg or settings()
    created = ticks = 0
    end = time.monotonic() + seconds
    next_tick = 0.0
    while time.monotonic() < end and (max_matches is None or created < max_matches):
        dispatcher.poll()
        if time.monotonic() >= next_tick:
            t = tick(store, game, cfg=cfg, rng=rng)
            created += len(t.created)
            ticks += 1
            next_tick = time.monotonic() + tick_s
            if on_tick:
                on_tick(created)
        dispatch(store, tid, dispatcher)
        time.sleep(0.1)
    give_up = time.monotonic() + drain_s
    while True:
        dispatcher.poll()
        dispatch(store, tid, dispatcher)
        p = queries.progress(store, tid)
        left = p.queued + p.running
        if not left or time.monotonic() > give_up:
            break
        time.sleep(0.1)
    ladders.refresh(store, game, force=True)
    return RunSummary(tid, created, ticks, left)
