"""Celery workers through a real redis-server: a worker SIGKILLed mid-match and a Redis restart
mid-tournament; the tournament still completes with every match recorded exactly once."""
from __future__ import annotations

import signal
import threading
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.scheduling.driver import CeleryDispatch, drive
from arena.store import Store, models, ops, queries

from . import tournament_fixtures as tf
from .tournament_fixtures import FIXTURE_GAMES, Processes, RedisServer, base_env, stop, wait_for

# Fixtures shared by the tournament e2e tests.
own_redis = tf.own_redis
processes = tf.processes

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(autouse=True)
def fixture_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)


def slow_tournament(store: Store, games: int = 2) -> int:
    """12 matches of the fixture game, played in-process by bots that think 40 ms a move (~0.6 s a match)."""
    for name in ("s1", "s2", "s3"):
        ops.add_bot(store, name, command="unused", agent="tests.arena.helpers:SlowBot")
    return ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("s1", "s2", "s3"),
                                                              games_per_pairing=games, executor="inprocess"))


class Driver(threading.Thread):
    def __init__(self, store: Store, tid: int, broker: str, queue: str) -> None:
        super().__init__(daemon=True)
        self.store, self.tid = store, tid
        self.dispatch = CeleryDispatch(broker, queue, redispatch_after_s=3.0)
        self.result = None
        self.error: BaseException | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            self.result = drive(self.store, self.tid, self.dispatch, poll_s=0.3, should_stop=self.stop.is_set)
        except BaseException as exc:  # noqa: BLE001
            self.error = exc


def check_exactly_once(store: Store, tid: int, total: int) -> None:
    prog = queries.progress(store, tid)
    assert (prog.done, prog.failed, prog.queued, prog.running) == (total, 0, 0, 0)
    with store.read() as s:
        outcomes = s.scalar(select(func.count()).select_from(models.Outcome).join(models.Match)
                            .where(models.Match.tournament_id == tid))
        replays = s.scalar(select(func.count()).select_from(models.ReplayBlob))
    assert outcomes == replays == total
    assert queries.tournament(store, tid).status == "done"
    assert queries.ladder(store, "sealed_bids").results == total


def env_for(tmp: Path, redis_url: str, queue: str) -> dict[str, str]:
    return base_env(ARENA_DB_URL=f"sqlite:///{tmp}/arena.db", ARENA_BROKER_URL=redis_url, ARENA_QUEUE=queue,
                    ARENA_LEASE_S="3", ARENA_HOME=str(tmp))


def test_worker_killed_mid_match(tmp_path: Path, own_redis: RedisServer, processes: Processes) -> None:
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    env = env_for(tmp_path, own_redis.url, queue)
    store = Store(env["ARENA_DB_URL"])
    store.migrate()
    tid = slow_tournament(store)
    victim = processes.worker(env, "victim")
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()

    def running_match() -> int | None:
        page = queries.matches(store, tournament_id=tid, status="running", limit=1)
        return page.items[0].id if page.items else None

    wait_for(lambda: running_match() is not None, 120, "a running match", every=0.05)
    killed = running_match()
    stop(victim, signal.SIGKILL)  # the worker and its pool process, mid-match
    assert queries.match(store, killed).status == "running"  # its lease has not run out yet
    processes.worker(env, "rescuer")
    driver.join(240)
    driver.stop.set()
    assert driver.error is None and not driver.is_alive(), processes.log("rescuer")
    check_exactly_once(store, tid, 12)
    mv = queries.match(store, killed)
    assert mv.attempts >= 2  # claimed by the victim, re-run after its lease expired
    assert set(queries.workers_seen(store, tid)) != set()


def test_redis_restart_mid_tournament(tmp_path: Path, own_redis: RedisServer, processes: Processes) -> None:
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    env = env_for(tmp_path, own_redis.url, queue)
    store = Store(env["ARENA_DB_URL"])
    store.migrate()
    tid = slow_tournament(store, games=3)  # 18 matches
    processes.worker(env, "w1")
    processes.worker(env, "w2")
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()
    wait_for(lambda: queries.progress(store, tid).done >= 3, 180, "3 finished matches")
    own_redis.kill()  # every queued task message is lost with it
    before = queries.progress(store, tid)
    assert before.queued > 0
    own_redis.start()
    driver.join(300)
    driver.stop.set()
    assert driver.error is None and not driver.is_alive(), processes.log("w1")
    check_exactly_once(store, tid, 18)
