"""One task per match: the body shared by Celery workers and the local process pool.

``play_match(match_id)`` claims the match row (a lease the worker renews while it plays), builds the
``MatchSpec`` from the store, asks an executor to play it and records the report exactly once.
It is idempotent: a match that is done, failed or cancelled is skipped; one held by a live
worker is retried later. It never waits on another task. The Celery task (``arena.celery_app``) is
this function plus ``self.retry``; the driver (``arena.scheduling.driver``) sends the tasks and sweeps up
matches whose message or worker was lost.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self, TypeVar

from sqlalchemy import select

from referee.engine.agent import TimeControl
from referee.matchspec import MatchRejected, MatchReport, MatchSpec, RefereeUnavailable, SeatSpec

from .config import settings
from .store import Store, ladders, models, open_store, ops

if TYPE_CHECKING:
    from .executor import Executor
    from .scheduling.driver import Dispatcher

log = logging.getLogger(__name__)
T = TypeVar("T")

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
        # twins dealt from the same seed: the referee's watch feed must not reveal this match's end
        shared = bool(match.deal) and bool(s.scalar(select(models.Match.id).where(
            models.Match.tournament_id == match.tournament_id, models.Match.deal == match.deal,
            models.Match.id != match.id).limit(1)))
    seats, agents = [], []
    for name in names:
        b = bots.get(name)
        if b is None:
            raise MatchRejected(f"bot {name!r} is not registered")
        command = b.command.replace("{python}", sys.executable) if b.command else None
        seats.append(SeatSpec(name, command if b.kind == "hosted" else None, b.cwd, dict(b.env or {})))
        agents.append(b.agent)
    spec = MatchSpec(store.referee_match_id(match_id), match.game, match.seed, seats, dict(match.options),
                     TimeControl(**t.time_control) if t.time_control else TimeControl(), shared)
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


#: The match's ``reason`` while its worker waits out an outage (the CLI, API and dashboard show it).
WAITING = "waiting for referee"


def store_outage(exc: BaseException) -> bool:
    """True when ``exc`` means the database is unreachable (not a bug in a query)."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    from .store.db import StoreError

    if isinstance(exc, (OperationalError, InterfaceError, StoreError)):
        return True
    return isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)


def outage_text(exc: BaseException) -> str:
    """The first line of an outage's error, for a one-line log (a driver's message can run to pages)."""
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def durable(fn: Callable[[], T], what: str, give_up_s: float) -> T:
    """``fn()`` through a database outage: retried every 0.5 .. 1 s for up to ``give_up_s`` (often: a
    worker holding a match must reach the store again before its expired lease is taken over)."""
    since, step = time.monotonic(), 0
    while True:
        try:
            return fn()
        except Exception as exc:
            if not store_outage(exc) or time.monotonic() - since > give_up_s:
                raise
            step += 1
            if step == 1:
                log.warning("%s: the store is unreachable (%s); retrying until it is back", what,
                            outage_text(exc))
            time.sleep(min(1.0, 0.25 * 2 ** step))


class OutageTooLong(RuntimeError):
    """The referee stayed unreachable longer than ``ARENA_OUTAGE_WAIT_S``."""


def play_through_outages(executor: Executor, spec: MatchSpec, agents: list[str | None], store: Store,
                         match_id: int, owner: str, give_up_s: float) -> MatchReport:
    """Play ``spec``; while no referee answers, hold the match as "waiting for referee" and try again
    as soon as one is back (its health is polled every quarter second; channels redial within a second).
    An outage is not the match's fault: it costs no attempt."""
    since: float | None = None
    pause = 0.5
    while True:
        try:
            report = executor.play(spec, agents)
            if since is not None:
                log.info("match %s: a referee is back after %.0f s; played", match_id,
                         time.monotonic() - since)
            return report
        except RefereeUnavailable as exc:
            now = time.monotonic()
            if since is None:
                since = now
                log.warning("match %s: %s (%s)", match_id, WAITING, exc)
                with contextlib.suppress(Exception):
                    ops.note(store, match_id, owner, f"{WAITING}: {exc}"[:2000])
            if now - since > give_up_s:
                raise OutageTooLong(f"no referee for {now - since:.0f}s; last: {exc}") from None
            wait_ready = getattr(executor, "wait_ready", None)
            if wait_ready is None or wait_ready(min(pause, give_up_s)):
                # a referee answers but could not play it (e.g. a live bot is not connected): back off
                time.sleep(pause)
                pause = min(5.0, pause * 2)


def play_match(match_id: int, *, store: Store | None = None, executor_name: str | None = None) -> TaskResult:
    """Claim, play and record one match. Safe to call any number of times for the same id.

    Outages (referee, store or broker unreachable) make the match wait and cost no attempt; only a
    failure of the match itself (rejected spec, engine error, a crash here) counts toward
    ``ARENA_MAX_ATTEMPTS``. A store outage at claim time raises (the Celery task retries it later)."""
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
    hold = cfg.outage_wait_s
    try:
        spec, agents, ex_name, tid = build_spec(store, match_id)
        game = spec.game
        executor = executor_for(executor_name or ex_name)
        with Heartbeat(store, match_id, owner, cfg.lease_s):
            report = play_through_outages(executor, spec, agents, store, match_id, owner, hold)
    except MatchRejected as exc:
        rejected = f"rejected: {exc}"
        durable(lambda: ops.fail(store, match_id, owner, rejected), f"match {match_id}", hold)
        if tid is not None:
            _after(store, tid, game)
        return TaskResult("failed", 0.0, str(exc))
    except OutageTooLong as exc:
        # not the match's fault: back to the queue without spending an attempt
        waiting = f"{WAITING}: {exc}"
        durable(lambda: ops.release(store, match_id, owner, waiting, 5.0, refund=True),
                f"match {match_id}", hold)
        return TaskResult("retry", 5.0, str(exc))
    except Exception as exc:
        if store_outage(exc):  # not the match's fault either: give it back once the store answers
            durable(lambda: ops.release(store, match_id, owner, "store unreachable", 1.0, refund=True),
                    f"match {match_id}", hold)
            return TaskResult("retry", 1.0, "store unreachable")
        why = f"{type(exc).__name__}: {exc}"
        log.exception("match %s crashed", match_id)
        if claim.attempts >= cfg.max_attempts:
            durable(lambda: ops.fail(store, match_id, owner,
                                     f"gave up after {claim.attempts} attempts; last: {why}"),
                    f"match {match_id}", hold)
            if tid is not None:
                _after(store, tid, game)
            return TaskResult("failed", 0.0, why)
        delay = backoff(claim.attempts)
        durable(lambda: ops.release(store, match_id, owner, why, delay), f"match {match_id}", hold)
        return TaskResult("retry", delay, why)
    plies = len(report.replay.get("actions") or []) if report.replay else 0
    seconds = float(report.logs.get("seconds", 0) or 0) if report.logs else 0.0
    recorded = durable(lambda: ops.record(store, match_id, report.outcome, report.replay, worker=owner,
                                          plies=plies, seconds=seconds,
                                          outputs=seat_outputs(report.logs), outputs_kept=cfg.outputs_kept),
                       f"recording match {match_id}", hold)
    if not recorded:
        durable(lambda: ops.forgive_takeover(store, match_id), f"match {match_id}", hold)
    _after(store, tid, game)
    if recorded:
        _suspend_failing(store, match_id)
    return TaskResult("done" if recorded else "duplicate")


def seat_outputs(logs: dict[str, str] | None) -> dict[int, str]:
    """Each hosted seat's own output, from the referee's report ("seat<N>"; a live bot's output stays on
    its own machine), where the bot wrote anything: the referee's "[exit code N]" line alone is no output
    (the seat's health keeps how the process ended)."""
    out = {}
    for key, text in (logs or {}).items():
        if key.startswith("seat") and key[4:].isdigit() and any(
                line.strip() and not _EXIT_LINE.fullmatch(line.strip()) for line in text.splitlines()):
            out[int(key[4:])] = text
    return out


_EXIT_LINE = re.compile(r"\[exit code -?\d+\]")


def _suspend_failing(store: Store, match_id: int) -> None:
    """A ladder version that crashed or forfeited N matches in a row is suspended
    (``arena.ladder.suspension``)."""
    from .ladder.suspension import check

    try:
        for bot in check(store, match_id):
            log.warning("ladder: %s suspended after match %s", bot, match_id)
    except Exception:  # the next match of the version checks again
        log.warning("suspension check after match %s failed", match_id, exc_info=True)


def ladder_tick(*, store: Store | None = None, dispatcher: Dispatcher | None = None) -> dict[str, int]:
    """The matchmaker's periodic task: top up every running ladder season and send the tasks of its new
    (or lost) matches. Idempotent: concurrent ticks never exceed the in-flight limit. Returns game -> sent."""
    from .ladder.matchmaker import seasons, tick
    from .scheduling.driver import dispatch, dispatcher_from_env

    store = store or open_store()
    dispatcher = dispatcher or dispatcher_from_env()
    out = {}
    for tid, game in seasons(store):
        tick(store, game)
        out[game] = dispatch(store, tid, dispatcher)
    return out


def _after(store: Store, tid: int, game: str) -> None:
    """``after_result``, but a refit that fails (store gone again) never loses the recorded result."""
    try:
        after_result(store, tid, game)
    except Exception:  # the next result, or the driver, refits
        log.warning("refit after a result of tournament %s failed", tid, exc_info=True)
