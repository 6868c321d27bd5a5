"""``arena bench tournament``: matches per second with 1 and 2 Celery workers and the local pool.

The same matches (one tournament definition, same seed) are played three ways in one run, each
after a warm-up tournament so process start-up is not timed:

* ``celery x1``: one ``arena worker -c 1`` through Redis,
* ``celery x2``: two ``arena worker -c 1`` through Redis,
* ``local x2``: the embedded local pool with two processes.

Redis is ``ARENA_BROKER_URL`` when set, else a private ``redis-server`` on a free port; the store is
a fresh SQLite file in a temporary directory. Matches are played in-process by default (the
workers' own cost, which is what scales with workers); ``--executor referee`` routes them through a
local referee with hosted bots instead. The scaling ratio is celery x2 / celery x1 (goal >= 1.8 on 2 cores).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import click
from rich.table import Table

from ..cli.common import console


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _redis(tmp: Path) -> Iterator[str]:
    url = os.environ.get("ARENA_BROKER_URL")
    if url:
        yield url
        return
    if shutil.which("redis-server") is None:
        raise click.ClickException("no ARENA_BROKER_URL and no redis-server to start")
    port = _free_port()
    proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", str(tmp)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(200):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@click.command("tournament")
@click.option("--game", default=None, help="Game to play (default: the first competitive game registered).")
@click.option("--bots", default="random,heuristic", show_default=True,
              help="Built-in bots entered (a bot without a heuristic for the game falls back to random).")
@click.option("--deals", type=int, default=8, show_default=True, help="Deals per pairing (2 matches each).")
@click.option("--executor", type=click.Choice(["inprocess", "referee"]), default="inprocess", show_default=True)
def command(game: str | None, bots: str, deals: int, executor: str) -> None:
    """Matches per second: 1 vs 2 Celery workers vs the local pool, on the same matches."""
    from bots.builtin import heuristic_available
    from referee.engine import all_games, get_game

    from ..scheduling.driver import CeleryDispatch, LocalPool, drive
    from ..store import Store, ops

    game_id = game or next((g.info.id for g in all_games() if not g.info.cooperative), None)
    if game_id is None:
        raise click.ClickException("no competitive game registered")
    info = get_game(game_id).info
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    db_url = f"sqlite:///{tmp}/arena.db"
    env_keys = {"ARENA_DB_URL": db_url, "ARENA_HOME": str(tmp)}
    saved = {k: os.environ.get(k) for k in (*env_keys, "ARENA_BROKER_URL", "ARENA_QUEUE")}
    os.environ.update(env_keys)
    store = Store(db_url)
    store.migrate()
    names = []
    for i, b in enumerate(x.strip() for x in bots.split(",") if x.strip()):
        agent = b if b != "heuristic" or heuristic_available(game_id) else "random"
        name = f"{b}{i}"
        ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name=agent), agent=agent)
        names.append(name)

    def tournament(n: int) -> int:
        return ops.create_tournament(store, ops.TournamentRequest(
            game_id, tuple(names), games_per_pairing=n, seed=17, executor=executor, name=f"bench {n}"))

    rates: dict[str, float] = {}
    console.print(f"bench: {game_id} ({info.min_players}-{info.max_players} seats), bots {', '.join(names)}, "
                  f"{deals} deals per pairing, executor {executor}", highlight=False)

    def timed(label: str, dispatcher) -> None:  # type: ignore[no-untyped-def]
        drive(store, tournament(1), dispatcher, poll_s=0.05)  # warm-up: start-up is not timed
        tid = tournament(deals)
        t0 = time.perf_counter()
        prog = drive(store, tid, dispatcher, poll_s=0.05)
        dt = time.perf_counter() - t0
        rates[label] = prog.done / dt
        console.print(f"  {label:10s} {prog.done} matches in {dt:6.2f}s = {rates[label]:6.2f} matches/s"
                      + (f" ({prog.failed} failed)" if prog.failed else ""), highlight=False)

    try:
        ctx = contextlib.ExitStack()
        with ctx:
            if executor == "referee":
                from ..demo import local_referee

                ctx.enter_context(local_referee())
            redis_url = ctx.enter_context(_redis(tmp))
            for n_workers in (1, 2):
                queue = f"bench-{uuid.uuid4().hex[:8]}"
                env = {**os.environ, "ARENA_BROKER_URL": redis_url, "ARENA_QUEUE": queue,
                       "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                      os.environ.get("PYTHONPATH", "")])}
                procs = [subprocess.Popen([sys.executable, "-m", "arena.cli.main", "worker", "-c", "1",
                                           "-n", f"bench{i}@%h"], env=env, stdout=subprocess.DEVNULL,
                                          stderr=open(tmp / f"worker{n_workers}-{i}.log", "ab"),  # noqa: SIM115
                                          start_new_session=True) for i in range(n_workers)]
                try:
                    timed(f"celery x{n_workers}", CeleryDispatch(redis_url, queue, redispatch_after_s=60))
                finally:
                    for p in procs:
                        _stop(p)
            pool = LocalPool(2)
            try:
                timed("local x2", pool)
            finally:
                pool.close()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(tmp, ignore_errors=True)
    table = Table("configuration", "matches/s", "vs celery x1", title=f"arena bench tournament ({game_id})")
    for label, rate in rates.items():
        table.add_row(label, f"{rate:.2f}", f"{rate / rates['celery x1']:.2f}x")
    console.print(table)
    ratio = rates["celery x2"] / rates["celery x1"]
    console.print(f"scaling 1 -> 2 Celery workers: [bold]{ratio:.2f}x[/bold] (goal >= 1.8 on 2 cores; "
                  f"{os.cpu_count()} CPUs here)")
