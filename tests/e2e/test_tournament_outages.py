"""Outages don't consume attempts: the only referee is killed mid-tournament and comes back on the
same address; the matches in flight wait ("waiting for referee") and the tournament completes with
every match played once and no attempt spent on the outage. A restarted referee is redialled within
about a second (the channels' reconnect backoff is capped)."""
from __future__ import annotations

import secrets
import signal
import time
import uuid
from pathlib import Path

import pytest

from arena.executor import RefereeExecutor
from arena.store import Store, ops, queries
from referee.service.server import RefereeThread

from . import tournament_fixtures as tf
from .test_tournament_celery import Driver, check_exactly_once
from .tournament_fixtures import (
    FIXTURE_GAMES,
    PG_URL,
    Processes,
    RedisServer,
    base_env,
    free_port,
    stop,
    wait_for,
)

own_redis = tf.own_redis
processes = tf.processes
pg_schema = tf.pg_schema
shared_redis_url = tf.shared_redis_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(autouse=True)
def fixture_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)


def test_referee_restart_costs_no_attempt(tmp_path: Path, own_redis: RedisServer, pg_schema: str,
                                          processes: Processes) -> None:
    token = secrets.token_urlsafe(12)
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    address = f"127.0.0.1:{free_port()}"
    ref_env = base_env(ARENA_ORGANIZER_TOKEN=token, ARENA_HOME=str(tmp_path / "ref"))
    assert processes.referee(ref_env, "referee", address=address) == address
    env = base_env(ARENA_DB_URL=PG_URL, ARENA_DB_SCHEMA=pg_schema, ARENA_BROKER_URL=own_redis.url,
                   ARENA_QUEUE=queue, ARENA_REFEREE=address, ARENA_ORGANIZER_TOKEN=token,
                   # the outage alone would use up 2 attempts if it counted
                   ARENA_HOME=str(tmp_path), ARENA_MAX_ATTEMPTS="2")
    store = Store(PG_URL, pg_schema)
    store.migrate()
    for name in ("alpha", "beta", "gamma"):
        ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name="random"),
                    agent="random")
    tid = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("alpha", "beta", "gamma"),
                                                             games_per_pairing=2))  # 12 matches
    for i in range(2):
        processes.worker(env, f"w{i}")
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()
    wait_for(lambda: queries.progress(store, tid).done >= 2, 180, "2 finished matches")
    stop(processes.procs[0], signal.SIGKILL)  # the referee, and the hosted bots it launched
    wait_for(lambda: queries.progress(store, tid).waiting >= 1, 60, "a match waiting for the referee")
    time.sleep(12)  # an outage longer than the whole backoff ladder used to be
    during = queries.progress(store, tid)
    assert during.failed == 0 and during.waiting >= 1, during
    waiting = queries.matches(store, tournament_id=tid, status="running", limit=20).items
    assert all((mv.reason or "").startswith("waiting for referee") for mv in waiting), [mv.reason
                                                                                        for mv in waiting]
    done_before = during.done
    processes.procs.pop(0)
    processes.referee(ref_env, "referee2", address=address)
    back = time.monotonic()  # from the moment it listens: its own start-up is not the redial gap
    wait_for(lambda: queries.progress(store, tid).done > done_before, 60, "a match played after the restart")
    resumed_s = time.monotonic() - back
    driver.join(300)
    driver.stop.set()
    assert driver.error is None and not driver.is_alive(), processes.log("w0")
    check_exactly_once(store, tid, 12)
    items = queries.matches(store, tournament_id=tid, limit=20).items
    assert [mv.attempts for mv in items] == [1] * 12, [(mv.id, mv.attempts, mv.reason) for mv in items]
    assert resumed_s < 20, resumed_s  # a match takes a few seconds with hosted bots; no 16-40 s redial gap


def test_channel_redials_within_a_second(tmp_path: Path) -> None:
    """A referee down for 20 s (gRPC's own backoff would have grown to ~10 s gaps) is seen within ~1 s of
    its return."""
    port = free_port()
    ex = RefereeExecutor([f"127.0.0.1:{port}"], "token")
    try:
        assert not ex.wait_ready(20.0)  # nothing listens: the channel keeps failing and backing off
        ref = RefereeThread(f"127.0.0.1:{port}", organizer_token="token").start()
        try:
            t0 = time.monotonic()
            assert ex.wait_ready(10.0)
            assert time.monotonic() - t0 < 1.5
        finally:
            ref.stop()
    finally:
        ex.close()


def test_resent_matches_go_to_the_front(shared_redis_url: str) -> None:
    """Re-sent and retried matches land in the list a worker pops first (kombu: priority 0 before 6)."""
    import redis

    from arena.celery_app import queue_keys
    from arena.scheduling.driver import CeleryDispatch

    queue = f"arena-{uuid.uuid4().hex[:8]}"
    d = CeleryDispatch(shared_redis_url, queue)
    r = redis.Redis.from_url(shared_redis_url)
    try:
        assert d.send([1, 2, 3]) == [1, 2, 3]
        assert d.send([4], front=True) == [4]
        lengths = {k: r.llen(k) for k in queue_keys(queue)}
        assert lengths[queue] == 1 and sum(lengths.values()) == 4 and d.queue_length() == 4
        import json

        head = json.loads(r.lindex(queue, -1))
        assert head["headers"]["argsrepr"] in ("[4]", "(4,)")
    finally:
        r.delete(*queue_keys(queue))
