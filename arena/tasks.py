"""One task per match: the body shared by Celery workers and the local process pool.

``play_match(match_id)`` claims the match row (a lease the worker renews while it plays), builds the
``MatchSpec`` from the store, asks an executor to play it and records the report exactly once.
It is idempotent: a match that is done, failed or cancelled is skipped; one held by a live
worker is retried later. It never waits on another task. The Celery task (``arena.celery_app``) is
this function plus ``self.retry``; the driver (``arena.scheduling.driver``) sends the tasks and sweeps up
matches whose message or worker was lost.
"""
from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Self

from sqlalchemy import select

from referee.engine.agent import TimeControl
from referee.matchspec import MatchRejected, MatchSpec, RefereeUnavailable, SeatSpec

from .config import settings
from .store import Store, ladders, models, open_store, ops

log = logging.getLogger(__name__)

_owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def worker_id() -> str:
    """This process's identity in leases and in ``outcomes.worker``."""
    global _owner
    if f":{os.getpid()}:" not in _owner:  # forked: a new identity
        _owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
    return _owner


@dataclass(frozen=True)
class TaskResult:
    state: str  # done | duplicate | retry | failed | skipped
    wait_s: float = 0.0
    detail: str = ""


def backoff(attempt: int) -> float:
    """Seconds before retry number ``attempt`` (1, 2, 4, ... capped at 30)."""
    return float(min(30, 2 ** max(0, attempt - 1)))


def build_spec(store: Store, match_id: int) -> tuple[MatchSpec, list[str | None], str, int]:
    """The ``MatchSpec`` of a stored match, the seats' in-process agents, the executor and tournament id."""
    with store.read() as s:
        match = s.get(models.Match, match_id)
        assert match is not None
        t = s.get(models.Tournament, match.tournament_id)
        assert t is not None
        names = match.bot_names
        bots = {b.name: b for b in s.scalars(select(models.Bot).where(models.Bot.name.in_(names)))}
    seats, agents = [], []
    for name in names:
        b = bots.get(name)
        if b is None:
            raise MatchRejected(f"bot {name!r} is not registered")
        command = b.command.replace("{python}", sys.executable) if b.command else None
        seats.append(SeatSpec(name, command if b.kind == "hosted" else None, b.cwd, dict(b.env or {})))
        agents.append(b.agent)
    spec = MatchSpec(str(match_id), match.game, match.seed, seats, dict(match.options),
                     TimeControl(**t.time_control) if t.time_control else TimeControl())
    return spec, agents, t.executor, t.id


class Heartbeat:
    """Renews this worker's lease on a match every third of the lease while it plays."""

    def __init__(self, store: Store, match_id: int, owner: str, lease_s: float) -> None:
        self.store, self.match_id, self.owner, self.lease_s = store, match_id, owner, lease_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-{match_id}", daemon=True)
        self.lost = False

    def _run(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            try:
                if not ops.renew(self.store, self.match_id, self.owner, self.lease_s):
                    self.lost = True
                    return
            except Exception:
                log.warning("lease renewal of match %s failed", self.match_id, exc_info=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


_last_refit: dict[str, float] = {}
REFIT_EVERY_S = 2.0


def after_result(store: Store, tournament_id: int, game: str) -> None:
    """Refit the ladder (at most every few seconds per process) and close a finished tournament."""
    finished = ops.finish_if_complete(store, tournament_id)
    now = time.monotonic()
    if finished or now - _last_refit.get(game, 0.0) >= REFIT_EVERY_S:
        _last_refit[game] = now
        ladders.refresh(store, game, tournament_id=tournament_id if finished else None, force=finished)


def play_match(match_id: int, *, store: Store | None = None, executor_name: str | None = None) -> TaskResult:
    """Claim, play and record one match. Safe to call any number of times for the same id."""
    from .executor import executor_for

    cfg = settings()
    store = store or open_store()
    owner = worker_id()
    claim = ops.claim(store, match_id, owner, cfg.lease_s)
    if not claim.ok:
        if claim.state in ("busy", "backoff"):
            return TaskResult("retry", claim.wait_s, claim.state)
        return TaskResult("skipped", 0.0, claim.state)
    tid, game = None, ""
    try:
        spec, agents, ex_name, tid = build_spec(store, match_id)
        game = spec.game
        executor = executor_for(executor_name or ex_name)
        with Heartbeat(store, match_id, owner, cfg.lease_s):
            report = executor.play(spec, agents)
    except MatchRejected as exc:
        ops.fail(store, match_id, owner, f"rejected: {exc}")
        if tid is not None:
            after_result(store, tid, game)
        return TaskResult("failed", 0.0, str(exc))
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}" if not isinstance(exc, RefereeUnavailable) else f"unavailable: {exc}"
        if not isinstance(exc, RefereeUnavailable):
            log.exception("match %s crashed", match_id)
        if claim.attempts >= cfg.max_attempts:
            ops.fail(store, match_id, owner, f"gave up after {claim.attempts} attempts; last: {why}")
            if tid is not None:
                after_result(store, tid, game)
            return TaskResult("failed", 0.0, why)
        delay = backoff(claim.attempts)
        ops.release(store, match_id, owner, why, delay)
        return TaskResult("retry", delay, why)
    plies = len(report.replay.get("actions") or []) if report.replay else 0
    seconds = float(report.logs.get("seconds", 0) or 0) if report.logs else 0.0
    recorded = ops.record(store, match_id, report.outcome, report.replay, worker=owner, plies=plies, seconds=seconds)
    after_result(store, tid, game)
    return TaskResult("done" if recorded else "duplicate")
