"""Issue 15 end to end: a paired Dungeon Twister tournament of hosted bots, played by a Celery worker
through Redis and a referee process, on PostgreSQL, while a spectator requests every dashboard route
(the live stream relayed from the referee included) for the twins of every open deal group."""
from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text

from arena.scheduling import Dealer
from arena.scheduling.driver import CeleryDispatch, drive
from arena.store import Store, models, ops, queries
from dashboard.app import create_app
from dashboard.queries import StoreSource
from tests.dashboard.spectator import Secrets, audit

from . import tournament_fixtures as tf
from .tournament_fixtures import PG_URL, Processes, base_env, wait_for

processes = tf.processes
shared_redis_url = tf.shared_redis_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
BOTS = ("alpha", "beta")
TOKEN = "deals-organizer-token"


@pytest.fixture
def pg_schema() -> str:
    try:
        with create_engine(PG_URL, connect_args={"connect_timeout": 3}).connect() as conn:
            conn.execute(text("select 1"))
    except Exception:  # noqa: BLE001
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}")
    schema = f"arena_deals_{uuid.uuid4().hex[:10]}"
    yield schema
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


def test_spectator_during_a_paired_celery_tournament(tmp_path: Path, shared_redis_url: str, pg_schema: str,
                                                     processes: Processes) -> None:
    queue = f"arena-deals-{uuid.uuid4().hex[:8]}"
    env = base_env(ARENA_DB_URL=PG_URL, ARENA_DB_SCHEMA=pg_schema, ARENA_BROKER_URL=shared_redis_url,
                   ARENA_QUEUE=queue, ARENA_HOME=str(tmp_path), ARENA_ORGANIZER_TOKEN=TOKEN)
    address = processes.referee(env, "referee")
    env["ARENA_REFEREE"] = address
    store = Store(PG_URL, pg_schema)
    store.migrate()
    for name in BOTS:  # hosted: the referee launches them per match (in the sandbox): paired deals
        ops.add_bot(store, name, command="{python} -m bots.serve random")
    tid = ops.create_tournament(store, ops.TournamentRequest("dungeon_twister", BOTS, games_per_pairing=2,
                                                             seed=2024))
    with store.read() as s:
        rows = list(s.scalars(select(models.Match).where(models.Match.tournament_id == tid)
                              .order_by(models.Match.number)))
        secrets = {m.id: Secrets.of(m.id, m.game, m.players, dict(m.options), m.seed) for m in rows}
        deal_of = {m.id: m.deal for m in rows}
    assert len(rows) == 4 and len(set(deal_of.values())) == 2
    processes.worker(env, "worker", concurrency=1)  # one match at a time: each twin runs after the other

    dispatch = CeleryDispatch(shared_redis_url, queue, redispatch_after_s=30.0)
    done = threading.Event()
    errors: list[BaseException] = []

    def driver() -> None:
        try:
            drive(store, tid, dispatch, poll_s=0.3)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=driver, daemon=True).start()
    app = create_app(StoreSource(store), referee=address, organizer_token=TOKEN)
    client = TestClient(app)

    def status() -> dict[int, str]:
        with store.read() as s:
            return dict(s.execute(select(models.Match.id, models.Match.status)
                                  .where(models.Match.tournament_id == tid)).all())

    def still_sealed(mid: int) -> bool:
        st = status()
        return any(st[o] in (models.QUEUED, models.RUNNING) for o, d in deal_of.items() if d == deal_of[mid])

    audits = 0
    try:
        deadline = time.monotonic() + 600
        while not done.is_set():
            assert time.monotonic() < deadline, "the tournament did not finish"
            st = status()
            open_deals = {deal_of[m] for m, x in st.items() if x in (models.QUEUED, models.RUNNING)}
            sealed = [m for m, x in st.items() if x == models.DONE and deal_of[m] in open_deals]
            if not sealed:
                time.sleep(0.2)
                continue
            twins = [m for m in st if deal_of[m] in open_deals]
            ids = {"match_id": [str(m) for m in twins], "tid": [str(tid)], "game_id": ["dungeon_twister"],
                   "bot_id": list(BOTS), "dev_name": ["nobody"]}
            audit(client, app, ids, [secrets[m] for m in sealed], still_sealed)
            audits += 1
        assert not errors, errors
    finally:
        dispatch.close()
    assert audits >= 1, "no deal group was ever seen half-finished: the audit proved nothing"

    wait_for(lambda: queries.tournament(store, tid).status == "done", 60, "the tournament to be done")
    assert client.post("/api/admin/refresh", headers={"authorization": f"Bearer {TOKEN}"}).status_code == 200
    t = client.get(f"/api/tournaments/{tid}").json()
    assert t["deal_key"] and all(p["paired"] for p in t["pairings"])
    assert client.get(f"/api/tournaments/{tid}/deals").json()["verified"]
    assert all(Dealer(t["deal_key"], 2024).seed(deal_of[m.id]) == m.seed for m in rows)
    m = rows[0]
    frame0 = client.get(f"/api/matches/{m.id}/frames?perspective=all&limit=1").text
    assert secrets[m.id].find(frame0.replace(str(m.seed), ""))  # the rooms alone give the deal away
