"""The soak: thousands of matches through 2 referees and 2 workers with a fault every minute.

Not in the default run (marker ``soak``). One command:

    .venv/bin/python -m pytest -m soak tests/e2e/test_tournament_soak.py -s

Knobs (environment): ARENA_SOAK_MATCHES (2000), ARENA_SOAK_GAME (clank), ARENA_SOAK_FAULT_EVERY_S
(60), ARENA_SOAK_MAX_S (5400: the bound; the test fails past it). Faults rotate: worker 1 SIGKILLed
(and started again), Redis restarted (every queued message lost), referee 1 restarted on its address;
worker 0 and referee 0 serve throughout, so their memory is measured across every match.
Bots are live sessions (``bots.serve --live``, one per bot per referee; they reconnect), so a
match costs no process launches and thousands fit in the bound. It prints (and writes to
``soak-report.json`` beside the logs) matches lost, duplicated and failed (all must be 0),
throughput, and the resident memory of each referee and worker after warm-up and per 1,000 matches.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.store import Store, models, ops, queries
from referee.client import RefereeClient

from . import tournament_fixtures as tf
from .test_tournament_celery import Driver
from .tournament_fixtures import (
    FIXTURE_GAMES,
    PG_URL,
    ROOT,
    Processes,
    RedisServer,
    base_env,
    free_port,
    stop,
)

own_redis = tf.own_redis
processes = tf.processes
pg_schema = tf.pg_schema

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.soak]


@pytest.fixture(autouse=True)
def fixture_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # ARENA_SOAK_GAME=sealed_bids: the fast fixture game
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (a worker's pool processes), in MB."""
    total = 0
    pids = [pid]
    try:
        kids = subprocess.run(["pgrep", "-P", str(pid)], check=False, capture_output=True,
                              text=True).stdout.split()
        pids += [int(k) for k in kids]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


# its own bound, not pytest's 600 s
@pytest.mark.timeout(int(float(os.environ.get("ARENA_SOAK_MAX_S", "5400"))) + 300)
def test_soak(tmp_path: Path, own_redis: RedisServer, pg_schema: str, processes: Processes) -> None:
    total_wanted = int(os.environ.get("ARENA_SOAK_MATCHES", "2000"))
    game = os.environ.get("ARENA_SOAK_GAME", "clank")
    every = float(os.environ.get("ARENA_SOAK_FAULT_EVERY_S", "60"))
    bound = float(os.environ.get("ARENA_SOAK_MAX_S", "5400"))
    token = uuid.uuid4().hex
    queue = f"arena-soak-{uuid.uuid4().hex[:6]}"
    addresses = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    ref_env = [base_env(ARENA_ORGANIZER_TOKEN=token, ARENA_HOME=str(tmp_path / f"ref{i}")) for i in range(2)]
    refs: dict[int, subprocess.Popen[bytes]] = {}

    def start_referee(i: int) -> None:
        processes.referee(ref_env[i], f"referee{i}", address=addresses[i])
        refs[i] = processes.procs[-1]

    for i in range(2):
        start_referee(i)
    # two live bots, each connected to both referees (capacity 4: several matches at once)
    bots = {}
    for i, addr in enumerate(addresses):
        with RefereeClient(addr, token) as c:
            for name in ("ra", "rb"):
                bots[(i, name)] = c.register_bot(name, [game])
    for (i, name), tok in bots.items():
        log = open(tmp_path / f"bot-{name}-{i}.log", "ab")  # noqa: SIM115 - closed with the process
        processes.procs.append(subprocess.Popen(
            [sys.executable, "-m", "bots.serve", "random", "--live", "--capacity", "4",
             "--address", addresses[i],
             "--token", tok, "--games", game], env=base_env(), stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
            start_new_session=True))
    env = base_env(ARENA_DB_URL=PG_URL, ARENA_DB_SCHEMA=pg_schema, ARENA_BROKER_URL=own_redis.url,
                   ARENA_QUEUE=queue,
                   ARENA_REFEREE=",".join(addresses), ARENA_ORGANIZER_TOKEN=token, ARENA_HOME=str(tmp_path),
                   ARENA_LEASE_S="15")
    store = Store(PG_URL, pg_schema)
    store.migrate()
    for name in ("ra", "rb"):
        ops.add_bot(store, name, kind="live", games=[game])
    per_pairing = max(1, total_wanted // 2)
    tid = ops.create_tournament(store, ops.TournamentRequest(game, ("ra", "rb"),
                                                             games_per_pairing=per_pairing))
    total = queries.progress(store, tid).total
    workers: dict[int, subprocess.Popen[bytes]] = {}

    def start_worker(i: int) -> None:
        workers[i] = processes.worker(env, f"worker{i}", concurrency=2)

    for i in range(2):
        start_worker(i)
    driver = Driver(store, tid, own_redis.url, queue)
    driver.start()
    t0 = time.monotonic()
    faults: list[str] = []
    rss: list[dict[str, float]] = []
    next_fault, next_sample, kind = t0 + every, 200, 0
    try:
        while driver.is_alive():
            driver.join(1.0)
            now = time.monotonic()
            assert now - t0 < bound, (
                f"the soak passed its bound of {bound:g}s: {queries.progress(store, tid)}")
            done = queries.progress(store, tid).done
            if done >= next_sample:  # warm-up at 200, then every 1,000
                sample = {"matches": float(done)}
                sample.update({f"referee{i} pid {p.pid}": rss_mb(p.pid) for i, p in refs.items()})
                sample.update({f"worker{i} pid {p.pid}": rss_mb(p.pid) for i, p in workers.items()})
                rss.append(sample)
                print(f"\nSOAK RSS at {done} matches ({now - t0:.0f}s): "
                      + ", ".join(f"{k} {v:.1f} MB" for k, v in sample.items() if k != "matches"), flush=True)
                next_sample = 1000 if next_sample == 200 else next_sample + 1000
            if now >= next_fault:
                next_fault = now + every
                # faults hit worker1, referee1 and Redis; worker0 and referee0 live through the whole soak, so
                # their memory is measured over every match (a restarted process starts afresh)
                which, n = kind % 3, 1
                kind += 1
                if which == 0:
                    stop(workers[n], signal.SIGKILL)
                    start_worker(n)
                    faults.append(f"{now - t0:.0f}s worker{n} SIGKILL")
                elif which == 1:
                    own_redis.kill()
                    time.sleep(2)
                    own_redis.start()
                    faults.append(f"{now - t0:.0f}s redis restart")
                else:
                    stop(refs[n], signal.SIGKILL)
                    time.sleep(1)
                    start_referee(n)
                    faults.append(f"{now - t0:.0f}s referee{n} restart")
        elapsed = time.monotonic() - t0
    finally:
        driver.stop.set()
    assert driver.error is None, driver.error
    p = queries.progress(store, tid)
    with store.read() as s:
        outcomes = s.scalar(select(func.count()).select_from(models.Outcome).join(models.Match)
                            .where(models.Match.tournament_id == tid)) or 0
        replays = s.scalar(select(func.count()).select_from(models.ReplayBlob)) or 0
    report = {"matches": total, "done": p.done, "lost": total - p.done - p.failed,
              "duplicated": outcomes - p.done,
              "failed": p.failed, "seconds": round(elapsed, 1), "per_minute": round(p.done / elapsed * 60, 1),
              "faults": faults, "rss_mb": rss, "replays": replays}
    if rss:
        base = rss[0]
        report["rss_growth_pct_after_warmup"] = {  # processes alive from the first sample to the last
            k: round(100 * (rss[-1][k] - base[k]) / base[k], 1) for k in base
            if k != "matches" and base[k] and k in rss[-1]}
    (tmp_path / "soak-report.json").write_text(json.dumps(report, indent=2))
    print("\nSOAK REPORT " + json.dumps(report))
    assert (report["lost"], report["duplicated"], report["failed"]) == (0, 0, 0), report
    assert p.done == total == outcomes
