"""Scale-out on one machine: 2 referee processes and 2 Celery workers sharing the real Redis and
PostgreSQL (a unique Redis DB number, queue and PostgreSQL schema per run) complete a tournament."""
from __future__ import annotations

import secrets
import threading
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from arena.scheduling.driver import CeleryDispatch, drive
from arena.store import Store, ops, queries

from . import tournament_fixtures as tf
from .tournament_fixtures import FIXTURE_GAMES, PG_URL, Processes, base_env

# Fixtures shared by the tournament e2e tests.
processes = tf.processes
shared_redis_url = tf.shared_redis_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def pg_schema() -> str:
    schema = f"arena_e2e_{uuid.uuid4().hex[:10]}"
    try:
        engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("select 1"))
    except Exception:  # noqa: BLE001
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}")
    yield schema
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


def test_two_referees_two_workers_redis_postgres(tmp_path: Path, shared_redis_url: str, pg_schema: str,
                                                 processes: Processes,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)
    token = secrets.token_urlsafe(12)
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    referees = [processes.referee(base_env(ARENA_ORGANIZER_TOKEN=token, ARENA_HOME=str(tmp_path / f"ref{i}")),
                                  f"referee{i}") for i in range(2)]
    env = base_env(ARENA_DB_URL=PG_URL, ARENA_DB_SCHEMA=pg_schema, ARENA_BROKER_URL=shared_redis_url,
                   ARENA_QUEUE=queue, ARENA_REFEREE=",".join(referees), ARENA_ORGANIZER_TOKEN=token,
                   ARENA_HOME=str(tmp_path))
    store = Store(PG_URL, pg_schema)
    store.migrate()
    for name in ("alpha", "beta", "gamma"):
        ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name="random"),
                    agent="random")
    tid = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("alpha", "beta", "gamma"),
                                                             games_per_pairing=2))
    for i in range(2):
        processes.worker(env, f"worker{i}")
    result: dict[str, object] = {}

    def run() -> None:
        result["progress"] = drive(store, tid, CeleryDispatch(shared_redis_url, queue, redispatch_after_s=20),
                                   poll_s=0.5)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(300)
    assert not t.is_alive(), processes.log("worker0")
    prog = result["progress"]
    assert prog.done == prog.total == 12 and prog.failed == 0, processes.log("worker0")
    workers = queries.workers_seen(store, tid)
    assert sum(workers.values()) == 12 and len(workers) == 2, workers  # both workers played
    for mv in queries.matches(store, tournament_id=tid, limit=20).items:
        replay = queries.replay(store, mv.id)
        assert replay is not None and [s["bot"] for s in replay["seats"]] == mv.bots
    referee_logs = processes.log("referee0") + processes.log("referee1")
    assert "Traceback" not in referee_logs
    lv = queries.ladder(store, "sealed_bids")
    assert lv.results == 12 and {r.player for r in lv.rows} == {"alpha", "beta", "gamma"}
