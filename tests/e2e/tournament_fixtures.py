"""Fixtures of the tournament e2e tests: our own redis-server, Celery workers and referees as processes.

Import the fixtures into a test module with ``from .tournament_fixtures import *``. Every test gets a
unique queue name, its own redis-server (or a unique DB number on the shared one) and its own store.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_GAMES = "sealed_bids=tests.fixtures.sealed_bids:GAME"
SHARED_REDIS = os.environ.get("ARENA_TEST_REDIS", "redis://127.0.0.1:6379")
PG_URL = os.environ.get("ARENA_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def base_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(ROOT), env.get("PYTHONPATH", "")) if x)
    games = env.get("ARENA_EXTRA_GAMES", "")
    if "sealed_bids=" not in games:
        env["ARENA_EXTRA_GAMES"] = ",".join(x for x in (games, FIXTURE_GAMES) if x)
    for k in ("ARENA_DB_URL", "ARENA_DB_SCHEMA", "ARENA_BROKER_URL", "ARENA_REFEREE", "ARENA_QUEUE"):
        env.pop(k, None)
    env.update(extra)
    return env


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM, wait: float = 15) -> None:
    """Stop a process we started (its own session: the whole group, so pool children go too)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


@dataclass
class RedisServer:
    port: int
    dir: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly",
             "no", "--dir", str(self.dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """Stop it, losing every queued message (no persistence): a crash or a restart."""
        if self.proc is not None:
            stop(self.proc, signal.SIGKILL)
            self.proc = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    r = RedisServer(free_port(), tmp_path)
    r.start()
    yield r
    r.kill()


@pytest.fixture
def shared_redis_url() -> str:
    """A unique DB number on the machine's shared Redis (the queue name is unique per test too)."""
    import redis

    try:
        redis.Redis.from_url(SHARED_REDIS, socket_timeout=2).ping()
    except Exception:  # noqa: BLE001
        pytest.skip(f"no Redis at {SHARED_REDIS}")
    return f"{SHARED_REDIS}/{1 + uuid.uuid4().int % 15}"


@dataclass
class Processes:
    """Processes a test started; all stopped at teardown."""

    tmp: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def worker(self, env: dict[str, str], name: str, concurrency: int = 1,
               extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "worker", "-c", str(concurrency),
                                 "-l", "info", "-n", f"{name}@%h", *extra], env=env, stdout=log,
                                stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        self.procs.append(proc)
        return proc

    def referee(self, env: dict[str, str], name: str, address: str = "127.0.0.1:0") -> str:
        ready = self.tmp / f"{name}.ready"
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "referee", "--address", address,
                                 "--ready-file", str(ready)], env=env, stdout=log, stderr=subprocess.STDOUT,
                                cwd=ROOT, start_new_session=True)
        self.procs.append(proc)
        deadline = time.monotonic() + 90
        while not ready.exists():
            assert proc.poll() is None, f"referee {name} exited; see {self.tmp / (name + '.log')}"
            assert time.monotonic() < deadline, "referee did not start"
            time.sleep(0.1)
        return str(json.loads(ready.read_text())["address"])

    def log(self, name: str) -> str:
        p = self.tmp / f"{name}.log"
        return p.read_text(errors="replace")[-3000:] if p.exists() else ""


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    ps = Processes(tmp_path)
    yield ps
    for p in ps.procs:
        stop(p)


def wait_for(cond, timeout: float, what: str, every: float = 0.1, log=None) -> None:
    """``log``: a function whose text (read when the wait fails, not before) ends the message."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}" + (f":\n{log()}" if log is not None else ""))
        time.sleep(every)


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A PostgreSQL schema of its own on the shared server (dropped afterwards)."""
    from sqlalchemy import create_engine, text

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
