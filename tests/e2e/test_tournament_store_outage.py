"""A store outage costs no attempt: a tournament runs on a private PostgreSQL (initdb in a temp
directory, a free loopback port; the shared server is never touched), with real Redis, two Celery
workers and a referee. PostgreSQL is killed mid-tournament (matches in flight, matches finishing,
claims and the driver's sweep all meet a dead store), stays down ~12 s — twice the workers' lease —
and is started again on the same data. Every match must be recorded exactly once, on its first attempt.
"""
from __future__ import annotations

import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.store import Store, ops, queries

from . import tournament_fixtures as tf
from .test_tournament_celery import Driver, check_exactly_once
from .tournament_fixtures import FIXTURE_GAMES, Processes, base_env, free_port, stop, wait_for

processes = tf.processes
shared_redis_url = tf.shared_redis_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


@dataclass
class PostgresServer:
    """A throw-away PostgreSQL cluster of our own (root may not run postgres: it runs as ``postgres``)."""

    dir: Path
    port: int
    user: str | None
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        postgres = _pg_bin("postgres")
        assert postgres
        log = open(self.dir / "postgres.log", "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [postgres, "-D", str(self.dir / "data"), "-p", str(self.port), "-k", str(self.dir),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=60"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, user=self.user)
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, (self.dir / "postgres.log").read_text()[-2000:]
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            assert time.monotonic() < deadline, "postgres did not start"
            time.sleep(0.05)
        from sqlalchemy import create_engine, text

        engine = create_engine(self.url)
        while True:  # the port opens before recovery ends ("the database system is starting up")
            try:
                with engine.connect() as conn:
                    conn.execute(text("select 1"))
                break
            except Exception:  # noqa: BLE001
                assert time.monotonic() < deadline, "postgres did not accept connections"
                time.sleep(0.1)
        engine.dispose()

    def kill(self) -> None:
        """A crash: the postmaster and every backend at once (it recovers from its WAL on start)."""
        if self.proc is not None:
            stop(self.proc, signal.SIGKILL)
            self.proc = None


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    initdb = _pg_bin("initdb")
    if initdb is None or _pg_bin("postgres") is None:
        pytest.skip("PostgreSQL server binaries are not installed")
    user = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="arena-pg-"))  # not under pytest's 0700 tmp: postgres must reach it
    if user:
        shutil.chown(root, user)
    subprocess.run([initdb, "-D", str(root / "data"), "-A", "trust", "-U", "postgres", "--no-sync"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, user=user)
    pg = PostgresServer(root, free_port(), user)
    pg.start()
    yield pg
    pg.kill()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(autouse=True)
def fixture_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)


def test_store_outage_costs_no_attempt(tmp_path: Path, own_postgres: PostgresServer, shared_redis_url: str,
                                       processes: Processes) -> None:
    token = secrets.token_urlsafe(12)
    queue = f"arena-{uuid.uuid4().hex[:8]}"
    schema = "arena_e2e"
    address = processes.referee(base_env(ARENA_ORGANIZER_TOKEN=token, ARENA_HOME=str(tmp_path / "ref")),
                                "referee")
    env = base_env(ARENA_DB_URL=own_postgres.url, ARENA_DB_SCHEMA=schema, ARENA_BROKER_URL=shared_redis_url,
                   ARENA_QUEUE=queue, ARENA_REFEREE=address, ARENA_ORGANIZER_TOKEN=token,
                   ARENA_HOME=str(tmp_path), ARENA_LEASE_S="6",  # the outage outlasts every lease
                   ARENA_MAX_ATTEMPTS="2")  # an attempt spent on the outage would show
    store = Store(own_postgres.url, schema)
    store.migrate()
    for name in ("alpha", "beta", "gamma"):
        ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name="random"),
                    agent="random")
    tid = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("alpha", "beta", "gamma"),
                                                             games_per_pairing=2))  # 12 matches
    total = 12
    for i in range(2):
        processes.worker(env, f"w{i}")
    driver = Driver(store, tid, shared_redis_url, queue)
    driver.start()
    wait_for(lambda: queries.progress(store, tid).done >= 2, 120, "2 finished matches")
    wait_for(lambda: queries.progress(store, tid).running >= 1, 30, "a match in flight", every=0.05)
    before = queries.progress(store, tid)
    assert before.queued + before.running > 0, before
    own_postgres.kill()
    time.sleep(12)
    assert driver.is_alive() and driver.error is None, driver.error
    own_postgres.start()
    driver.join(180)
    driver.stop.set()
    logs = processes.log("w0") + processes.log("w1")
    assert driver.error is None and not driver.is_alive(), (driver.error, logs)
    check_exactly_once(store, tid, total)
    items = queries.matches(store, tournament_id=tid, limit=50).items
    assert [mv.attempts for mv in items] == [1] * total, [(mv.id, mv.attempts, mv.reason) for mv in items]
    assert "store is unreachable" in logs  # the workers did meet the outage
    store.engine.dispose()


def _sqlite_match(tmp: Path) -> tuple[Store, int, int]:
    store = Store(f"sqlite:///{tmp}/arena.db")
    store.migrate()
    for name in ("a", "b"):
        ops.add_bot(store, name, command="unused", agent="random")
    tid = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("a", "b"), games_per_pairing=1,
                                                             executor="inprocess"))
    ops.start_tournament(store, tid)
    return store, tid, queries.matches(store, tournament_id=tid, limit=1).items[0].id


def _attempts(store: Store, mid: int) -> int:
    mv = queries.match(store, mid)
    assert mv is not None
    return mv.attempts


def test_a_takeover_of_a_live_holder_costs_no_attempt(tmp_path: Path) -> None:
    """The holder could not renew (store down), its lease was taken over, both played: whichever
    records second gives the takeover's attempt back; a match that was really retried keeps its count."""
    store, _, mid = _sqlite_match(tmp_path)
    assert ops.claim(store, mid, "holder", 0.01).attempts == 1
    time.sleep(0.05)  # the lease runs out while the holder cannot reach the store
    taker = ops.claim(store, mid, "taker", 30)
    assert taker.ok and taker.attempts == 2
    assert ops.record(store, mid, {"ranks": [0, 1], "scores": [1, 0]}, None, worker="taker")
    assert not ops.record(store, mid, {"ranks": [1, 0], "scores": [0, 1]}, None, worker="holder")
    assert ops.forgive_takeover(store, mid)
    assert _attempts(store, mid) == 1
    assert not ops.forgive_takeover(store, mid)  # never below one
    assert _attempts(store, mid) == 1


class _Recorder:
    """Records what the driver would send (the broker itself is not what this test is about)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, bool]] = []
        self.redispatch_after_s = 30.0

    def keep(self, stale: list[ops.Stale]) -> list[ops.Stale]:
        return stale

    def send(self, match_ids: list[int], front: bool = False) -> list[int]:
        self.sent += [(mid, front) for mid in match_ids]
        return match_ids

    def poll(self) -> None: ...


def test_driver_spares_expired_leases_just_after_a_store_outage(tmp_path: Path) -> None:
    from arena.scheduling.driver import _step

    store, tid, mid = _sqlite_match(tmp_path)
    ops.mark_dispatched(store, [mv.id for mv in queries.matches(store, tournament_id=tid).items])
    assert ops.claim(store, mid, "holder", 0.01).ok
    time.sleep(0.05)
    d = _Recorder()
    _step(store, [tid], [tid], {tid: "sealed_bids"}, {}, d, spare_expired=True)
    assert d.sent == []  # its holder may be alive and about to renew
    _step(store, [tid], [tid], {tid: "sealed_bids"}, {}, d)
    assert d.sent == [(mid, True)]  # a lease still expired a while later: the worker is gone, re-send it
