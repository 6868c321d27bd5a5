"""``arena bench dashboard``: ladder page and ladder JSON under concurrent load.

Builds a temporary store with ``--matches`` synthetic results (bulk insert, no games played),
fits the ladder once, starts ``arena dashboard`` on it in its own process, and drives it from
this process with ``--clients`` concurrent HTTP clients for ``--seconds`` per URL: requests per
second and p50/p99 latency. The goal: p99 under 50 ms at 50 clients (the dashboard caches the
computed ladder per store version; it never refits per request).
"""
from __future__ import annotations

import asyncio
import importlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import click
from rich.table import Table

from ..cli.common import console


def _ensure_game(game_id: str) -> str:
    from referee.engine import get_game, register
    from referee.engine.errors import UnknownGame

    try:
        return get_game(game_id).info.name
    except UnknownGame:
        game = importlib.import_module(f"referee.games.{game_id}").GAME  # not in the registry yet
        register(game)
        return game.info.name


def build_store(url: str, game: str, matches: int, bots: int, seed: int) -> None:
    """Bulk-insert ``matches`` finished 2-seat results between ``bots`` bots of hidden strength."""
    from sqlalchemy import insert

    from arena.store import Store, ladders, models as m
    from arena.store.models import utcnow

    store = Store(url)
    store.migrate()
    rng = random.Random(seed)
    names = ["random"] + [f"bot{i:02d}" for i in range(1, bots)]
    strength = {n: rng.gauss(0, 250) for n in names}
    strength["random"] = -300.0
    now = utcnow()
    with store.tx() as s:
        s.execute(insert(m.Bot), [{"name": n, "kind": "hosted", "command": "x", "agent": "random", "games": [],
                                   "env": {}, "active": True} for n in names])
        t = m.Tournament(name="bench", game=game, format="round_robin", seats=[2], bots=names, status="done")
        s.add(t)
        s.flush()
        rows, seats, outs = [], [], []
        for i in range(matches):
            a, b = rng.sample(names, 2)
            p = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            r = rng.random()
            ranks = [1, 2] if r < p * 0.9 else [2, 1] if r > p * 0.9 + 0.1 else [1, 1]
            mid = i + 1
            rows.append({"id": mid, "tournament_id": t.id, "number": i, "game": game, "players": 2, "seed": i,
                         "options": {}, "status": "done", "attempts": 1, "group_key": "",
                         "started_at": now - timedelta(seconds=matches - i), "finished_at": now - timedelta(seconds=matches - i)})
            seats += [{"match_id": mid, "seat": 0, "bot": a, "rank": ranks[0], "score": 0.0},
                      {"match_id": mid, "seat": 1, "bot": b, "rank": ranks[1], "score": 0.0}]
            outs.append({"match_id": mid, "data": {"ranks": ranks, "scores": [0.0, 0.0], "reason": "normal"},
                         "reason": "normal", "plies": 0, "seconds": 0.0, "recorded_at": now})
        s.execute(insert(m.Match), rows)
        s.execute(insert(m.MatchSeat), seats)
        s.execute(insert(m.Outcome), outs)
    ladders.refresh(store, game, tournament_id=t.id, force=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _load(url: str, clients: int, seconds: float) -> tuple[int, list[float], int]:
    import httpx

    lat: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30, trust_env=False) as client:
        async def worker() -> None:
            nonlocal errors
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                r = await client.get(url)
                lat.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    errors += 1
        await asyncio.gather(*(worker() for _ in range(clients)))
    return len(lat), lat, errors


@click.command("dashboard")
@click.option("--matches", type=int, default=10_000, show_default=True, help="Synthetic stored results.")
@click.option("--bots", type=int, default=24, show_default=True)
@click.option("--game", default="clank", show_default=True, help="The game whose ladder is served.")
@click.option("--clients", type=int, default=50, show_default=True, help="Concurrent HTTP clients.")
@click.option("--seconds", type=float, default=8.0, show_default=True, help="Load duration per URL.")
@click.option("--seed", type=int, default=1, show_default=True)
def command(matches: int, bots: int, game: str, clients: int, seconds: float, seed: int) -> None:
    """Ladder page and ladder JSON under concurrent load (goal: p99 < 50 ms at 50 clients)."""
    import httpx

    name = _ensure_game(game)
    with tempfile.TemporaryDirectory(prefix="arena-bench-dash-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        t0 = time.perf_counter()
        build_store(url, game, matches, bots, seed)
        console.print(f"store: {matches:,} {name} results between {bots} bots in {time.perf_counter() - t0:.1f}s")
        port = _free_port()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        extra = env.get("ARENA_EXTRA_GAMES", "")
        from referee.games import BUILTIN

        if game not in BUILTIN and f"{game}=" not in extra:
            env["ARENA_EXTRA_GAMES"] = ",".join(x for x in [extra, f"{game}=referee.games.{game}:GAME"] if x)
        server = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "dashboard", "--db-url", url,
                                   "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise click.ClickException("the dashboard did not start: " + (server.stderr.read() or b"").decode()[-2000:])
                time.sleep(0.2)
            table = Table("URL", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "errors",
                          title=f"arena bench dashboard: {clients} concurrent clients, {seconds:g}s per URL")
            worst = 0.0
            for path in (f"/games/{game}", f"/api/games/{game}/ladder"):
                t1 = time.perf_counter()
                first = httpx.get(base + path, timeout=60)
                cold = (time.perf_counter() - t1) * 1000
                if first.status_code != 200:
                    raise click.ClickException(f"{path} answered {first.status_code}")
                asyncio.run(_load(base + path, clients, 1.0))  # warm-up
                n, lat, errors = asyncio.run(_load(base + path, clients, seconds))
                lat.sort()
                p50 = statistics.median(lat) * 1000
                p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
                worst = max(worst, p99)
                table.add_row(path + f"  (cold {cold:.0f} ms)", f"{n:,}", f"{n / seconds:,.0f}", f"{p50:.1f}",
                              f"{p99:.1f}", f"{lat[-1] * 1000:.1f}", str(errors))
            console.print(table)
            verdict = "[green]met[/green]" if worst < 50 else "[red]missed[/red]"
            console.print(f"goal p99 < 50 ms at {clients} clients: {verdict} (worst p99 {worst:.1f} ms)")
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
