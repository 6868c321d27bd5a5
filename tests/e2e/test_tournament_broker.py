"""Workers survive broker restarts in every phase, on PostgreSQL with a private redis-server:
idle (before any task), mid-match (down and back while matches run) and a match finishing
while Redis is down (its ack cannot reach the broker). Every match is recorded exactly once."""
from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from arena.store import Store, queries

from . import tournament_fixtures as tf
from .test_tournament_celery import Driver, check_exactly_once, slow_tournament
from .tournament_fixtures import FIXTURE_GAMES, PG_URL, Processes, RedisServer, base_env, wait_for

own_redis = tf.own_redis
processes = tf.processes
pg_schema = tf.pg_schema

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(autouse=True)
def fixture_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)


def _setup(tmp: Path, redis: RedisServer, schema: str, processes: Processes) -> tuple[Store, str,
                                                                                      dict[str, str]]:
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    env = base_env(ARENA_DB_URL=PG_URL, ARENA_DB_SCHEMA=schema, ARENA_BROKER_URL=redis.url, ARENA_QUEUE=queue,
                   ARENA_LEASE_S="6", ARENA_HOME=str(tmp))
    store = Store(PG_URL, schema)
    store.migrate()
    for i in range(2):
        processes.worker(env, f"w{i}")
    return store, queue, env


def _finish(store: Store, tid: int, driver: Driver, processes: Processes, total: int,
            timeout: float = 240) -> None:
    driver.join(timeout)
    driver.stop.set()
    logs = processes.log("w0") + processes.log("w1")
    assert driver.error is None and not driver.is_alive(), (queries.progress(store, tid), logs)
    check_exactly_once(store, tid, total)


def test_redis_restart_while_idle(tmp_path: Path, own_redis: RedisServer, pg_schema: str,
                                  processes: Processes) -> None:
    store, queue, _ = _setup(tmp_path, own_redis, pg_schema, processes)
    time.sleep(8)  # workers connected and idle
    own_redis.kill()
    time.sleep(4)
    own_redis.start()
    tid = slow_tournament(store)
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()
    _finish(store, tid, driver, processes, 12)


def test_redis_restart_mid_match(tmp_path: Path, own_redis: RedisServer, pg_schema: str,
                                 processes: Processes) -> None:
    store, queue, _ = _setup(tmp_path, own_redis, pg_schema, processes)
    tid = slow_tournament(store, games=3)  # 18 matches
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()
    wait_for(lambda: queries.progress(store, tid).done >= 2 and queries.progress(store, tid).running > 0,
             120, "matches running", every=0.05)
    own_redis.kill()
    own_redis.start()  # back well before the running matches end
    _finish(store, tid, driver, processes, 18)


def test_match_finishes_while_redis_is_down(tmp_path: Path, own_redis: RedisServer, pg_schema: str,
                                            processes: Processes) -> None:
    store, queue, _ = _setup(tmp_path, own_redis, pg_schema, processes)
    tid = slow_tournament(store, games=3)  # 18 matches
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()
    wait_for(lambda: queries.progress(store, tid).done >= 2 and queries.progress(store, tid).running > 0,
             120, "matches running", every=0.05)
    own_redis.kill()
    done = queries.progress(store, tid).done
    # the running matches end (and their tasks try to ack) while the broker is gone
    wait_for(lambda: queries.progress(store, tid).done > done and queries.progress(store, tid).running == 0,
             60, "the running matches finishing without Redis")
    time.sleep(3)
    own_redis.start()
    _finish(store, tid, driver, processes, 18)
