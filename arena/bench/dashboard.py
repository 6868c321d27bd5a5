"""``arena bench dashboard``: ladder page and ladder JSON under concurrent load.

Builds a temporary store with ``--matches`` synthetic results (bulk insert, no games played),
fits the ladder once, starts ``arena dashboard`` on it in its own process, and drives it from
other processes with ``--clients`` concurrent keep-alive connections for ``--seconds`` per URL:
requests per second and p50/p99 latency. The goal: p99 under 50 ms at 50 clients (the dashboard
serves the ladder pre-rendered, revalidated at most once a second; it never refits per request).

The load comes from ``wrk`` when it is installed (``apt-get install wrk``), else from a Python
generator: several processes, each with raw asyncio sockets (an HTTP client library costs more
per request than the server being measured). The machine's load average is printed with the
figures: on a shared machine the tail latency measures the neighbours as much as the server.
"""
from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from multiprocessing.connection import Connection
from pathlib import Path

import click
from rich.console import Console
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

    from arena.store import Store, ladders
    from arena.store import models as m
    from arena.store.models import utcnow

    store = Store(url)
    store.migrate()
    rng = random.Random(seed)
    names = ["random"] + [f"bot{i:02d}" for i in range(1, bots)]
    strength = {n: rng.gauss(0, 250) for n in names}
    strength["random"] = -300.0
    now = utcnow()
    with store.tx() as s:
        s.execute(insert(m.Bot), [{"name": n, "kind": "hosted", "command": "x", "agent": "random",
                                   "games": [], "env": {}, "active": True} for n in names])
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
                         "started_at": now - timedelta(seconds=matches - i),
                         "finished_at": now - timedelta(seconds=matches - i)})
            seats += [{"match_id": mid, "seat": 0, "bot": a, "rank": ranks[0], "score": 0.0},
                      {"match_id": mid, "seat": 1, "bot": b, "rank": ranks[1], "score": 0.0}]
            outs.append({"match_id": mid, "data": {"ranks": ranks, "scores": [0.0, 0.0], "reason": "normal"},
                         "reason": "normal", "plies": 0, "seconds": 0.0, "recorded_at": now})
        s.execute(insert(m.Match), rows)
        s.execute(insert(m.MatchSeat), seats)
        s.execute(insert(m.Outcome), outs)
    ladders.refresh(store, game, tournament_id=t.id, force=True)


def _running_match(url: str, game: str) -> tuple[int, str]:
    """A running match in the bench store for the live viewers.

    Returns its id and the id the referee plays it under."""
    from sqlalchemy import func, select

    from arena.store import Store
    from arena.store import models as m
    from arena.store.models import utcnow

    store = Store(url)
    with store.tx() as s:
        tid = s.scalar(select(func.min(m.Tournament.id)))
        number = (s.scalar(select(func.max(m.Match.number)).where(m.Match.tournament_id == tid)) or 0) + 1
        match = m.Match(tournament_id=tid, number=number, game=game, players=2, seed=1, options={},
                        group_key="", status=m.RUNNING, attempts=1, started_at=utcnow())
        match.seats = [m.MatchSeat(seat=i, bot="watched") for i in range(2)]
        s.add(match)
        s.flush()
        mid = match.id
    return mid, store.referee_match_id(mid)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Load:
    """One URL under load: what the load generator measured."""

    tool: str
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    errors: int

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


# -- wrk -------------------------------------------------------------------------------------
_UNIT = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text.strip())
    if not m:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(m.group(1)) * _UNIT[m.group(2)]


def parse_wrk(out: str) -> Load:
    """Requests, duration, p50/p99/max and errors from ``wrk --latency`` output."""
    pct = {k: _ms(v) for k, v in re.findall(r"^\s+(50|99)%\s+(\S+)$", out, re.MULTILINE)}
    mx = re.search(r"^\s+Latency\s+\S+\s+\S+\s+(\S+)", out, re.MULTILINE)
    done = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", out)
    if not (done and "50" in pct and "99" in pct):
        raise ValueError("unexpected wrk output:\n" + out)
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors += int(non2xx.group(1)) if non2xx else 0
    return Load("wrk", int(done.group(1)), _ms(done.group(2) + done.group(3)) / 1000, pct["50"], pct["99"],
                _ms(mx.group(1)) if mx else pct["99"], errors)


def load_wrk(url: str, clients: int, seconds: float, gzip_ok: bool = False) -> Load:
    threads = max(1, min(2, clients))
    header = ["-H", "Accept-Encoding: gzip"] if gzip_ok else []
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--latency",
                          "--timeout", "10s", *header, url], capture_output=True, text=True,
                         check=True).stdout
    return parse_wrk(out)


# -- the Python generator: processes x raw asyncio sockets -----------------------------------------
async def _connection(host: str, port: int, path: str, stop: float, lat: list[float], errors: list[int],
                      gzip_ok: bool = False) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    extra = "Accept-Encoding: gzip\r\n" if gzip_ok else ""
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{extra}\r\n".encode()
    clock = time.perf_counter
    try:
        while clock() < stop:
            t0 = clock()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            at = head.lower().find(b"content-length:")
            if at < 0:
                raise ConnectionError("response without content-length")
            await reader.readexactly(int(head[at + 15:head.index(b"\r\n", at)]))
            lat.append(clock() - t0)
            if head[9:10] != b"2":
                errors[0] += 1
    finally:
        writer.close()


def _generator_process(host: str, port: int, path: str, clients: int, seconds: float, conn: Connection,
                       gzip_ok: bool = False) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    lat: list[float] = []
    errors = [0]

    async def run() -> None:
        stop = time.perf_counter() + seconds
        results = await asyncio.gather(*(_connection(host, port, path, stop, lat, errors, gzip_ok)
                                         for _ in range(clients)),
                                       return_exceptions=True)
        errors[0] += sum(1 for r in results if isinstance(r, BaseException))
    asyncio.run(run())
    conn.send((lat, errors[0]))
    conn.close()


def load_python(url: str, clients: int, seconds: float, gzip_ok: bool = False,
                processes: int | None = None) -> Load:
    from urllib.parse import urlsplit

    u = urlsplit(url)
    n = max(1, min(clients, processes or min(4, os.cpu_count() or 1)))
    ctx = multiprocessing.get_context("spawn")
    procs, pipes = [], []
    for i in range(n):
        share = clients // n + (1 if i < clients % n else 0)
        recv, send = ctx.Pipe(duplex=False)
        p = ctx.Process(target=_generator_process,
                        args=(u.hostname, u.port, u.path or "/", share, seconds, send, gzip_ok), daemon=True)
        p.start()
        send.close()  # the child holds the only writer: a crash reads as EOF, not a hang
        procs.append(p)
        pipes.append(recv)
    lat: list[float] = []
    errors = 0
    for p, r in zip(procs, pipes, strict=True):
        try:
            part, err = r.recv()
        except EOFError:
            p.join()
            raise click.ClickException(f"a load generator process died (exit code {p.exitcode})") from None
        lat += part
        errors += err
        p.join()
    lat.sort()
    if not lat:
        return Load("python", 0, seconds, 0.0, 0.0, 0.0, errors)
    return Load(f"python x{n}", len(lat), seconds, lat[len(lat) // 2] * 1000,
                lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, lat[-1] * 1000, errors)


def server_flavour() -> str:
    """What ``uvicorn``'s "auto" picks in the server process: httptools/h11 and uvloop/asyncio."""
    found = []
    for mod, yes, no in (("httptools", "httptools", "h11"), ("uvloop", "uvloop", "asyncio")):
        try:
            importlib.import_module(mod)
            found.append(yes)
        except ImportError:
            found.append(no)
    return " + ".join(found)


def _loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"
    except OSError:
        return "unknown"


def _get(url: str, timeout: float = 60) -> int:
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as r:
        r.read()
        return int(r.status)


@click.command("dashboard")
@click.option("--matches", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Synthetic stored results.")
@click.option("--bots", type=click.IntRange(min=2), default=24, show_default=True)
@click.option("--game", default="clank", show_default=True, help="The game whose ladder is served.")
@click.option("--clients", type=click.IntRange(min=1), default=50, show_default=True,
              help="Concurrent keep-alive connections.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=8.0, show_default=True,
              help="Load duration per URL.")
@click.option("--client", "tool", type=click.Choice(["auto", "wrk", "python"]), default="auto",
              show_default=True,
              help="Load generator: wrk if installed (auto), or Python processes with raw sockets.")
@click.option("--gzip/--no-gzip", "gzip_ok", default=False, show_default=True,
              help="Send Accept-Encoding: gzip as browsers do "
                   "(the server keeps a gzipped copy of each page).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--live-viewers", type=click.IntRange(min=0), default=0, show_default=True,
              help="Also keep N spectators on a live match (a real referee and live bot) during the load.")
def command(matches: int, bots: int, game: str, clients: int, seconds: float, tool: str, gzip_ok: bool,
            seed: int, live_viewers: int) -> None:
    """Ladder page and ladder JSON under concurrent load (goal: p99 < 50 ms at 50 clients, also with
    --live-viewers 500)."""
    import urllib.error

    if tool == "auto":
        tool = "wrk" if shutil.which("wrk") else "python"
    elif tool == "wrk" and not shutil.which("wrk"):
        raise click.ClickException("wrk is not installed (apt-get install wrk), or use --client python")
    name = _ensure_game(game)
    with tempfile.TemporaryDirectory(prefix="arena-bench-dash-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        t0 = time.perf_counter()
        build_store(url, game, matches, bots, seed)
        console.print(
            f"store: {matches:,} {name} results between {bots} bots in {time.perf_counter() - t0:.1f}s")
        port = _free_port()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        live = None
        live_mid = 0
        if live_viewers:
            from .spectators import LiveMatch

            live_mid, ref_id = _running_match(url, game)
            live = LiveMatch(game, ref_id).start()
            env.update(ARENA_REFEREE=live.address, ARENA_ORGANIZER_TOKEN=live.token)
            console.print(f"live: match {live_mid} on a referee at {live.address} (a live bot thinking "
                          f"{live.think_s:g}s a move), {live_viewers} viewers", highlight=False)
        extra = env.get("ARENA_EXTRA_GAMES", "")
        from referee.games import BUILTIN

        if game not in BUILTIN and f"{game}=" not in extra:
            env["ARENA_EXTRA_GAMES"] = ",".join(x for x in [extra, f"{game}=referee.games.{game}:GAME"] if x)
        log = Path(tmp) / "server.log"
        with open(log, "wb") as log_f:
            server = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "dashboard", "--db-url", url,
                                       "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=log_f)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    if _get(base + "/api/games", timeout=2) == 200:
                        break
                except (urllib.error.URLError, OSError):
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise click.ClickException("the dashboard did not start: "
                                               + log.read_text(errors="replace")[-2000:])
                time.sleep(0.2)
            crowd = None
            if live is not None:
                from .spectators import ViewerCrowd

                crowd = ViewerCrowd(f"{base}/api/matches/{live_mid}/live", live_viewers)
                crowd.start()
            table = Table("URL", "cold ms", "load by", "requests", "req/s", "p50 ms", "p99 ms", "max ms",
                          "errors",
                          title=f"arena bench dashboard: {clients} concurrent clients, {seconds:g}s per URL"
                                f"{', gzip' if gzip_ok else ''}"
                                f"{f', {live_viewers} live viewers' if live_viewers else ''}")
            run = load_wrk if tool == "wrk" else load_python
            worst = 0.0
            loads = []
            for path in (f"/games/{game}", f"/api/games/{game}/ladder"):
                t1 = time.perf_counter()
                if _get(base + path) != 200:
                    raise click.ClickException(f"{path} did not answer 200")
                cold = (time.perf_counter() - t1) * 1000
                run(base + path, clients, 1.0, gzip_ok)  # warm-up
                res = run(base + path, clients, seconds, gzip_ok)
                loads.append(f"{_loadavg()}")
                worst = max(worst, res.p99_ms)
                table.add_row(path, f"{cold:.0f}", res.tool, f"{res.requests:,}", f"{res.rps:,.0f}",
                              f"{res.p50_ms:.1f}", f"{res.p99_ms:.1f}", f"{res.max_ms:.1f}", str(res.errors))
            # a pipe or a log gets the whole table, not one cut to 80 columns
            out = console if console.is_terminal and console.width >= 110 else Console(width=120)
            out.print(table)
            console.print(f"server: uvicorn, {server_flavour()}, access log off · load average after each "
                          "URL: "
                          + " | ".join(loads))
            ok = worst < 50
            if crowd is not None and live is not None:
                upstream = live.upstream_watchers()
                rep = crowd.stop()
                still = "" if not live.done.is_set() else " (the match ended during the run)"
                console.print(f"live viewers: {rep.connected}/{rep.viewers} connected at the end{still}, "
                              f"{rep.refused} refused, {rep.failed} failed, {rep.frames:,} frames received; "
                              f"referee watch streams for the match: {upstream}", highlight=False)
                ok = ok and rep.connected == rep.viewers and upstream == 1
            verdict = "[green]met[/green]" if ok else "[red]missed[/red]"
            with_live = f" with {live_viewers} live viewers" if live_viewers else ""
            console.print(
                f"goal p99 < 50 ms at {clients} clients{with_live}: {verdict} (worst p99 {worst:.1f} ms)")
        finally:
            if live is not None:
                live.stop()
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
