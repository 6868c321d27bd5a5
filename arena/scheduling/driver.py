"""Driving a tournament to the end: send one task per match, watch progress, sweep up the lost.

The store is the source of truth; the broker only delivers. Every ``poll_s`` the driver asks the
store which matches need a (new) message — never sent, sent long ago but still queued (the broker
lost it, e.g. Redis restarted without persistence), or running under an expired lease (the worker
died) — and sends them. Duplicates are harmless (the claim makes a task idempotent).

Two dispatchers: ``LocalPool`` (the embedded default: a process pool running the same task body)
and ``CeleryDispatch`` (``ARENA_BROKER_URL``: tasks to Redis for ``arena worker`` processes).
"""
from __future__ import annotations

import heapq
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from referee.engine.errors import ArenaError

from ..config import settings
from ..store import Store, ladders, ops, queries
from ..store.ops import Stale
from ..store.queries import Progress

log = logging.getLogger(__name__)


class BrokerUnavailable(ArenaError):
    code = "broker_unavailable"


class Dispatcher(Protocol):
    redispatch_after_s: float

    def keep(self, stale: list[Stale]) -> list[Stale]:
        """Which of the store's candidates really need a message now."""
        ...

    def send(self, match_ids: list[int], front: bool = False) -> list[int]:
        """Send one task per id (``front``: ahead of the matches waiting their first turn); return the ids
        sent."""
        ...

    def poll(self) -> None: ...

    def close(self) -> None: ...


# -- the local pool --------------------------------------------------------------------------------
def _child_init() -> None:
    from ..executor import forget_executors
    from ..store import forget_stores

    forget_stores()
    forget_executors()


def _arena_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith("ARENA_")}


def _run_local(match_id: int, executor_name: str | None, env: dict[str, str]) -> tuple[str, float]:
    from ..tasks import play_match

    # Pool processes are forked from a fork server started with the environment of its first use;
    # the settings that count are the driver's now (store, referee, games), so they travel along.
    for k in [k for k in os.environ if k.startswith("ARENA_") and k not in env]:
        del os.environ[k]
    os.environ.update(env)

    r = play_match(match_id, executor_name=executor_name)
    return r.state, r.wait_s


PRELOAD = ["arena.tasks", "arena.executor", "arena.store", "referee.engine", "alembic.runtime.migration",
           "alembic.script", "alembic.command", "bots.builtin"]


class LocalPool:
    """The embedded default: ``workers`` processes (spawned: no inherited connections)."""

    redispatch_after_s = 2.0

    def __init__(self, workers: int, executor_name: str | None = None) -> None:
        self.workers = max(1, workers)
        self.executor_name = executor_name
        self.inflight: dict[int, Future[tuple[str, float]]] = {}
        self.timers: list[tuple[float, int]] = []
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # A fork server (started clean, with the heavy modules preloaded) forks the workers: fast
        # start, and no inherited gRPC threads or database connections from this process.
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_child_init)

    def keep(self, stale: list[Stale]) -> list[Stale]:
        waiting = {mid for _, mid in self.timers}
        return [s for s in stale if s.match_id not in self.inflight and s.match_id not in waiting]

    def send(self, match_ids: list[int], front: bool = False) -> list[int]:
        env = _arena_env()
        for mid in match_ids:
            self.inflight[mid] = self._pool.submit(_run_local, mid, self.executor_name, env)
        return match_ids

    def poll(self) -> None:
        broken = False
        for mid, fut in list(self.inflight.items()):
            if not fut.done():
                continue
            del self.inflight[mid]
            try:
                state, wait = fut.result()
            except BrokenProcessPool:
                broken = True
                continue
            except Exception:
                log.exception("match %s: task crashed", mid)
                state, wait = "retry", 1.0
            if state == "retry":
                heapq.heappush(self.timers, (time.monotonic() + wait, mid))
        if broken:  # a pool process died (killed?): new pool; the sweep re-sends after the lease
            log.warning("a local worker process died; restarting the pool")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self.inflight.clear()
            self._pool = self._new_pool()
        now = time.monotonic()
        due = []
        while self.timers and self.timers[0][0] <= now:
            due.append(heapq.heappop(self.timers)[1])
        if due:
            self.send(due)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


# -- Celery ----------------------------------------------------------------------------------------
class CeleryDispatch:
    """Tasks to Redis; ``arena worker`` processes (anywhere) play them."""

    def __init__(self, broker_url: str, queue: str, redispatch_after_s: float = 30.0) -> None:
        from ..celery_app import TASK, make_app, queue_keys

        self.broker_url, self.queue, self.task = broker_url, queue, TASK
        self.keys = queue_keys(queue)
        self.redispatch_after_s = redispatch_after_s
        self.app = make_app(broker_url, queue)
        try:
            with self.app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, interval_start=0, timeout=3)
        except Exception as exc:  # noqa: BLE001
            raise BrokerUnavailable(f"cannot reach the broker at {_safe(broker_url)}: {exc}") from None
        self._redis: Any = None

    def queue_length(self) -> int | None:
        try:
            if self._redis is None:
                import redis

                self._redis = redis.Redis.from_url(self.broker_url, socket_timeout=2)
            pipe = self._redis.pipeline()
            for key in self.keys:
                pipe.llen(key)
            return int(sum(pipe.execute()))
        except Exception:  # noqa: BLE001 - broker down right now
            return None

    def keep(self, stale: list[Stale]) -> list[Stale]:
        if not any(s.why == "lost" for s in stale):
            return stale
        qlen = self.queue_length()
        if qlen is None:
            return [s for s in stale if s.why != "lost"]
        # Messages still waiting in the queue: the "lost" ones are probably just queued behind them.
        return [s for s in stale if s.why != "lost" or qlen == 0]

    def send(self, match_ids: list[int], front: bool = False) -> list[int]:
        from ..celery_app import FRONT, NORMAL

        sent = []
        try:
            with self.app.producer_or_acquire() as producer:
                for mid in match_ids:
                    self.app.send_task(self.task, args=[mid], queue=self.queue, producer=producer, retry=True,
                                       priority=FRONT if front else NORMAL,
                                       retry_policy={"max_retries": 2, "interval_start": 0.2,
                                                     "interval_step": 0.5, "interval_max": 1})
                    sent.append(mid)
        except Exception as exc:  # noqa: BLE001 - broker down: the sweep sends the rest later
            log.warning("broker unavailable, %d task(s) not sent yet: %s", len(match_ids) - len(sent), exc)
        return sent

    def poll(self) -> None:
        pass

    def close(self) -> None:
        pass


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001
        return url


def dispatcher_from_env(workers: int | None = None, executor_name: str | None = None) -> Dispatcher:
    from ..config import settings

    cfg = settings()
    if cfg.broker_url:
        return CeleryDispatch(cfg.broker_url, cfg.queue)
    return LocalPool(workers or cfg.workers, executor_name)


def drive(store: Store, tid: int, dispatcher: Dispatcher, *, poll_s: float = 0.25,
          on_progress: Callable[[Progress], None] | None = None,
          should_stop: Callable[[], bool] | None = None) -> Progress:
    """Run tournament ``tid`` until no match is queued or running (or ``should_stop``)."""
    cb = (lambda d: on_progress(d[tid])) if on_progress else None
    return drive_many(store, [tid], dispatcher, poll_s=poll_s, on_progress=cb, should_stop=should_stop)[tid]


def drive_many(store: Store, tids: list[int], dispatcher: Dispatcher, *, poll_s: float = 0.25,
               on_progress: Callable[[dict[int, Progress]], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> dict[int, Progress]:
    """Run several tournaments at once through one dispatcher (their matches interleave)."""
    games = {}
    for tid in tids:
        t = queries.tournament(store, tid)
        if t is None:
            raise ops.TournamentError(f"no tournament {tid}")
        if t.status == "cancelled":
            raise ops.TournamentError(f"tournament {tid} was cancelled")
        games[tid] = t.game
        ops.start_tournament(store, tid)
    open_ = list(tids)
    progress: dict[int, Progress] = {}
    outage_since: float | None = None
    # Leases cannot be renewed while the store is down, so right after an outage every running match
    # looks abandoned; its worker is usually alive and renews within a third of a lease. Until then an
    # expired lease is not re-sent (a takeover would play the match twice and spend an attempt).
    spare_until = 0.0
    while True:
        try:
            _step(store, open_, tids, games, progress, dispatcher,
                  spare_expired=time.monotonic() < spare_until)
            if outage_since is not None:
                log.warning("the store is back after %.0f s", time.monotonic() - outage_since)
                outage_since = None
        except Exception as exc:
            from ..tasks import outage_text, store_outage

            if not store_outage(exc):
                raise
            spare_until = time.monotonic() + settings().lease_s  # from the last failure: the store's return
            if outage_since is None:  # the workers wait it out too; so does the driver
                outage_since = time.monotonic()
                log.warning("the store is unreachable (%s); waiting for it", outage_text(exc))
        if on_progress and progress:
            on_progress(progress)
        if not open_ or (should_stop and should_stop()):
            break
        time.sleep(poll_s if outage_since is None else max(poll_s, 1.0))
    return {tid: queries.progress(store, tid) for tid in tids}


def dispatch(store: Store, tid: int, dispatcher: Dispatcher, *, spare_expired: bool = False) -> int:
    """Send a task for every match of ``tid`` that needs one (see ``ops.needs_dispatch``); how many were sent.
    ``spare_expired``: leave matches under an expired lease alone (the store just came back)."""
    stale = dispatcher.keep(ops.needs_dispatch(store, tid, redispatch_after_s=dispatcher.redispatch_after_s))
    if spare_expired:
        stale = [s for s in stale if s.why != "expired"]
    sent = 0
    for front in (True, False):
        batch = [s for s in stale if s.front == front]
        if batch:
            ids = dispatcher.send([s.match_id for s in batch], front=front)
            ops.mark_dispatched(store, ids)
            sent += len(ids)
    for s in stale:
        if s.front:
            log.info("match %s re-sent (%s)", s.match_id, s.why)
    return sent


def _step(store: Store, open_: list[int], tids: list[int], games: dict[int, str],
          progress: dict[int, Progress],
          dispatcher: Dispatcher, *, spare_expired: bool = False) -> None:
    """One round of the driver: (re)send what needs a message, read progress, close finished tournaments.
    ``spare_expired``: leave matches under an expired lease alone this round (the store just came back)."""
    dispatcher.poll()
    for tid in open_:
        dispatch(store, tid, dispatcher, spare_expired=spare_expired)
    for tid in tids:
        if tid in open_ or tid not in progress:
            progress[tid] = queries.progress(store, tid)
    for tid in list(open_):
        if progress[tid].queued + progress[tid].running == 0:
            ops.finish_if_complete(store, tid)
            ladders.refresh(store, games[tid], tournament_id=tid, force=True)
            open_.remove(tid)
