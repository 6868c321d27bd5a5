"""The continuous ladder's periodic task through real Celery and a real redis-server: two workers, each
running its own beat (so ticks race), keep a season topped up; the in-flight limit holds at every
moment, and every match played is recorded exactly once."""
from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.ladder import open_season
from arena.store import Store, models, ops
from tests.ladder.agents import FIELD, OPTIONS

from . import tournament_fixtures as tf
from .tournament_fixtures import Processes, RedisServer, base_env, stop

own_redis = tf.own_redis
processes = tf.processes

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
LIMIT = 4


@pytest.fixture(autouse=True)
def fixture_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", tf.FIXTURE_GAMES)


def counts(store: Store) -> dict[str, int]:
    with store.read() as s:
        return dict(s.execute(select(models.Match.status, func.count()).group_by(models.Match.status)).all())


def test_two_beats_keep_one_season_playing_within_the_limit(tmp_path: Path, own_redis: RedisServer,
                                                           processes: Processes) -> None:
    url = f"sqlite:///{tmp_path}/arena.db"
    store = Store(url)
    store.migrate()
    for name, agent in FIELD:
        ops.add_bot(store, name, command="unused", agent=agent)
    tid = open_season(store, "sealed_bids", executor="inprocess", options=OPTIONS)
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    workers = []
    for name in ("w1", "w2"):
        home = tmp_path / name
        home.mkdir()
        env = base_env(ARENA_DB_URL=url, ARENA_BROKER_URL=own_redis.url, ARENA_QUEUE=queue,
                       ARENA_HOME=str(home),
                       ARENA_LADDER_TICK_S="0.5", ARENA_LADDER_INFLIGHT=str(LIMIT), ARENA_LEASE_S="5")
        workers.append(processes.worker(env, name, concurrency=1, extra=("--beat",)))
    peak, deadline = 0, time.monotonic() + 120
    while time.monotonic() < deadline:
        c = counts(store)
        peak = max(peak, c.get("queued", 0) + c.get("running", 0))
        if c.get("done", 0) >= 40:
            break
        assert all(w.poll() is None for w in workers), processes.log("w1") + processes.log("w2")
        time.sleep(0.1)
    done_while_running = counts(store).get("done", 0)
    assert done_while_running >= 40, (counts(store), processes.log("w1")[-2000:])
    assert peak <= LIMIT
    for w in workers:
        stop(w)
    with store.read() as s:
        done = s.scalar(select(func.count()).select_from(models.Match).where(models.Match.status == "done"))
        outcomes = s.scalar(select(func.count()).select_from(models.Outcome))
        distinct = s.scalar(select(func.count(func.distinct(models.Outcome.match_id))))
        numbers = list(s.scalars(select(models.Match.number).where(models.Match.tournament_id == tid)
                                 .order_by(models.Match.number)))
        status = s.scalar(select(models.Tournament.status).where(models.Tournament.id == tid))
    assert outcomes == distinct == done >= done_while_running
    assert numbers == list(range(len(numbers)))
    assert status == "running"  # a season never ends by itself
