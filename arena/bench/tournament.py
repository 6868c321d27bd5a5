"""``arena bench tournament``: tournament throughput, measured side by side in one run.

Two measurements, each on the same tournament definition (same bots, same seeds):

1. **executors**: the embedded local pool (two processes) plays the tournament in-process and
   then through a local referee with sandboxed hosted bots; the referee / in-process ratio is the
   cost of the referee and the sandbox (issue 14: goal >= 40 % for 2-seat Clank);
2. **scaling**: one vs two ``arena worker -c 1`` through Redis (goal >= 1.8 on 2 cores).

After the executors, ``ceiling.py`` prints where a decision's CPU goes (in-process, through the referee,
a bare gRPC round trip) and the best referee / in-process ratio one round trip a decision allows.

Every configuration first plays a warm-up tournament (process start-up is not timed), then
repeats the tournament until at least ``--min-seconds`` have passed, so a rate is never taken from
a fraction of a second. Redis is ``ARENA_BROKER_URL`` when set, else a private ``redis-server`` on
a free port; the store is a fresh SQLite file in a temporary directory.
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
@click.option("--game", default="clank", show_default=True, help="Game to play.")
@click.option("--bots", default="random,heuristic", show_default=True,
              help="Built-in bots entered (a bot without a heuristic for the game falls back to random).")
@click.option("--deals", type=click.IntRange(min=1), default=8, show_default=True,
              help="Deals per pairing in one tournament (2 matches each).")
@click.option("--min-seconds", type=click.FloatRange(min=0, min_open=True), default=12.0, show_default=True,
              help="Each configuration repeats the tournament until it has run this long (in all rounds).")
@click.option("--executor", type=click.Choice(["inprocess", "referee"]), default="inprocess",
              show_default=True,
              help="Executor of the Celery scaling measurement.")
@click.option("--referee-workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="Local pool size for an extra referee run (its workers only wait on the referee).")
@click.option("--rounds", type=click.IntRange(min=1), default=3, show_default=True,
              help="In-process and referee runs alternate this many times (each gets --min-seconds in all).")
@click.option("--skip-celery", is_flag=True, help="Only the executor comparison (no Redis needed).")
def command(game: str, bots: str, deals: int, min_seconds: float, executor: str, referee_workers: int,
            rounds: int, skip_celery: bool) -> None:
    """Matches per second: in-process vs referee (local pool x2), the referee's CPU ceiling, then 1 vs 2
    Celery workers."""
    from bots.builtin import heuristic_available
    from referee.engine import get_game
    from referee.engine.errors import ArenaError

    from ..scheduling.driver import CeleryDispatch, Dispatcher, LocalPool, drive
    from ..store import Store, ops
    from .ceiling import measure

    try:
        info = get_game(game).info
    except ArenaError as exc:
        raise click.ClickException(str(exc)) from None
    if deals < 1 or min_seconds < 0 or referee_workers < 1 or rounds < 1:
        raise click.UsageError("--deals, --rounds and --referee-workers must be >= 1, --min-seconds >= 0")
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    db_url = f"sqlite:///{tmp}/arena.db"
    env_keys = {"ARENA_DB_URL": db_url, "ARENA_HOME": str(tmp)}
    saved = {k: os.environ.get(k) for k in (*env_keys, "ARENA_BROKER_URL", "ARENA_QUEUE", "ARENA_REFEREE",
                                            "ARENA_ORGANIZER_TOKEN")}
    os.environ.update(env_keys)
    store = Store(db_url)
    store.migrate()
    names, agents = [], []
    for i, b in enumerate(x.strip() for x in bots.split(",") if x.strip()):
        agent = b if b != "heuristic" or heuristic_available(game) else "random"
        name = f"{b}{i}"
        ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name=agent),
                    agent=agent)
        names.append(name)
        agents.append(agent)

    def tournament(n: int, ex: str) -> int:
        return ops.create_tournament(store, ops.TournamentRequest(
            game, tuple(names), games_per_pairing=n, seed=17, executor=ex, name=f"bench {n} {ex}"))

    rates: dict[str, float] = {}
    console.print(f"bench: {game} ({info.min_players}-{info.max_players} seats; {len(names)} seats here), "
                  f"bots "
                  f"{', '.join(names)}, {deals} deals per pairing, >= {min_seconds:g}s per configuration",
                  highlight=False)

    totals: dict[str, list[float]] = {}

    def timed(label: str, dispatcher: Dispatcher, ex: str, seconds: float, warm: bool = True) -> None:
        if warm:
            drive(store, tournament(1, ex), dispatcher, poll_s=0.02)  # warm-up: start-up is not timed
        done = failed = 0
        t0 = time.perf_counter()
        while True:
            prog = drive(store, tournament(deals, ex), dispatcher, poll_s=0.02)
            done, failed = done + prog.done, failed + prog.failed
            if time.perf_counter() - t0 >= seconds:
                break
        acc = totals.setdefault(label, [0, 0, 0.0])
        acc[0] += done
        acc[1] += failed
        acc[2] += time.perf_counter() - t0
        rates[label] = acc[0] / acc[2]

    def show(label: str) -> None:
        done, failed, dt = totals[label]
        console.print(f"  {label:18s} {int(done):4d} matches in {dt:6.2f}s = {rates[label]:6.2f} matches/s"
                      + (f" ({int(failed)} failed)" if failed else ""), highlight=False)

    try:
        with contextlib.ExitStack() as ctx:
            from ..demo import local_referee

            ref = ctx.enter_context(local_referee())
            console.print(f"local referee: {ref.hosted}", highlight=False)
            # interleaved rounds, so a change in the machine's load hits both executors alike
            configs = [("inprocess", 2), ("referee", 2)]
            if referee_workers != 2:
                configs.append(("referee", referee_workers))
            pools = {cfg: LocalPool(cfg[1]) for cfg in configs}
            try:
                for r in range(rounds):
                    for ex, n in configs:
                        timed(f"local x{n} {ex}", pools[(ex, n)], ex, min_seconds / rounds, warm=r == 0)
            finally:
                for pool in pools.values():
                    pool.close()
            for ex, n in configs:
                show(f"local x{n} {ex}")
            ceiling = measure(game, agents, [ops.BUILTIN_COMMAND.format(python=sys.executable, name=a)
                                             for a in agents], ref.address, ref.token, ref.process.pid)
            if not skip_celery:
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
                        label = f"celery x{n_workers} {executor}"
                        timed(label, CeleryDispatch(redis_url, queue, redispatch_after_s=60), executor,
                              min_seconds)
                        show(label)
                    finally:
                        for p in procs:
                            _stop(p)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(tmp, ignore_errors=True)
    table = Table("configuration", "matches/s", title=f"arena bench tournament ({game})")
    for label, rate in rates.items():
        table.add_row(label, f"{rate:.2f}")
    console.print(table)
    base = rates["local x2 inprocess"]
    extra = (f"; referee with x{referee_workers}: {rates[f'local x{referee_workers} referee'] / base:.0%}"
             if referee_workers != 2 else "")
    console.print(f"referee / in-process (local pool x2, sandboxed hosted bots): "
                  f"[bold]{rates['local x2 referee'] / base:.0%}[/bold]{extra} (goal >= 40 %; "
                  f"{os.cpu_count()} CPUs here, load average {os.getloadavg()[0]:.1f})", highlight=False)
    c = ceiling
    bots_cpu = f" + bots {c.bots_us:.0f}" if c.bots_us is not None else " (bots: no cgroup counter)"
    console.print(f"CPU per decision, one match at a time: in-process {c.inprocess_us:.0f} us (engine and "
                  f"bots); through the referee {c.referee_us:.0f} (referee){bots_cpu} us; a bare gRPC "
                  f"round trip alone {c.bare_us:.0f} us (server {c.bare_server_us:.0f} + client "
                  f"{c.bare_client_us:.0f}; {c.request_b:.0f} B / {c.answer_b:.0f} B)", highlight=False)
    console.print(f"ceiling with one gRPC round trip a decision: in-process / (in-process + round trip) = "
                  f"[bold]{c.bound:.0%}[/bold] (CPU-bound on the same cores, no referee executor does "
                  f"better)", highlight=False)
    if not skip_celery:
        scale = rates[f"celery x2 {executor}"] / rates[f"celery x1 {executor}"]
        console.print(f"scaling 1 -> 2 Celery workers ({executor}): [bold]{scale:.2f}x[/bold] (goal >= 1.8 "
                      f"on 2 cores)",
                      highlight=False)
