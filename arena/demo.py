"""``arena demo`` and the local referee the embedded default starts when none is configured.

The demo, on the embedded default (SQLite in ``ARENA_HOME``, a local process pool): start a
referee (``arena referee`` as a subprocess on a free port), register hosted ``random`` and
``heuristic`` bots, run a short round-robin (or team-vs-scenario) tournament for every game with a
progress bar, print the ladders, then start the dashboard (when one is installed) and print its
address.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.errors import ArenaError

if TYPE_CHECKING:
    from .store import Store


class DemoError(ArenaError):
    code = "demo_error"


@dataclass
class LocalReferee:
    process: subprocess.Popen[bytes]
    address: str
    token: str
    log_path: Path
    #: how it runs hosted bots ("hosted bots: sandboxed (...)" / "UNSANDBOXED ..." / "refused ...")
    hosted: str = ""


def exit_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit so ``finally`` blocks stop the referee and dashboard we started."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        def _exit(signum: int, _frame: object) -> None:
            raise SystemExit(128 + signum)

        signal.signal(signal.SIGTERM, _exit)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def local_referee(*, timeout_s: float = 90.0, log_dir: Path | None = None,
                  extra_args: list[str] | None = None) -> Iterator[LocalReferee]:
    """Start ``arena referee`` on a free port; sets ARENA_REFEREE / ARENA_ORGANIZER_TOKEN in this
    process's environment while it runs (so local pool workers find it)."""
    token = secrets.token_urlsafe(18)
    tmp = Path(tempfile.mkdtemp(prefix="arena-referee-"))
    ready = tmp / "ready.json"
    log_path = (log_dir or tmp) / "referee.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "ARENA_ORGANIZER_TOKEN": token}
    with open(os.open(log_path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600), "ab") as log:  # owner only
        proc = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "referee", "--address",
                                 "127.0.0.1:0", "--ready-file", str(ready), *(extra_args or [])],
                                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout_s
        while not ready.exists():
            if proc.poll() is not None:
                raise DemoError(f"the referee exited with code {proc.returncode}; see {log_path}")
            if time.monotonic() > deadline:
                raise DemoError(f"the referee did not start within {timeout_s:.0f}s; see {log_path}")
            time.sleep(0.1)
        info = json.loads(ready.read_text())
        address = info["address"]
        saved = {k: os.environ.get(k) for k in ("ARENA_REFEREE", "ARENA_ORGANIZER_TOKEN")}
        os.environ["ARENA_REFEREE"], os.environ["ARENA_ORGANIZER_TOKEN"] = address, token
        try:
            yield LocalReferee(proc, address, token, log_path, info.get("hosted", ""))
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


#: The demo's search bot (bots/search/improve.py: the heuristic improved by paired heuristic playouts on
#: determinized samples, at the load-independent budget by game at which the README measures it: 4 samples
#: a decision in Clank, 30 of 40 games against the heuristic; the earlier demo bot, IS-MCTS with the
#: heuristic as prior at 50 ms, tied it).
DEMO_SEARCH = "search+rollouts@tuned"


def register_demo_bots(store, games: list[str], *, search: bool = False) -> dict[str, list[str]]:
    """Hosted ``random`` (every game) and ``heuristic`` (where one exists); returns game -> entrants.

    With ``search``, a third tier: the IS-MCTS ``search`` bot (every game). In-process the runner hands it
    the forward model; through a referee the SDK binds the referee's (samples as snapshots, issue 21).

    A competitive game without a heuristic bot yet gets a second random bot (``random2``) so its
    round-robin has a pairing; cooperative games need only one team.
    """
    from bots.builtin import heuristic_available
    from referee.engine import get_game

    from .store import ops, queries

    heur = [g for g in games if heuristic_available(g)]
    lonely = [g for g in games if g not in heur and not get_game(g).info.cooperative]
    wanted = {"random": ("random", []), "heuristic": ("heuristic", heur), "random2": ("random", lonely),
              "search": (DEMO_SEARCH, games if search else [])}
    for name, (builtin, plays) in wanted.items():
        if name != "random" and not plays:
            continue
        existing = queries.bot(store, name)
        have = set(existing.games) if existing and existing.active else set()
        if existing is None or not existing.active or (plays and not set(plays) <= have):
            ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name=builtin),
                        agent=builtin, games=sorted(have | set(plays)) if name != "random" else [],
                        replace=True)
    return {g: ["random"] + (["heuristic"] if g in heur else ["random2"] if g in lonely else [])
            + (["search"] if search else []) for g in games}


def create_demo_tournaments(store, games: list[str], *, deals: int, executor: str,
                            seed: int = 2024, deal_key: str | None = None,
                            search: bool = True) -> dict[int, str]:
    """One tournament per game: a round-robin (teams against the scenarios for cooperative games)."""
    from .store import ops

    entrants = register_demo_bots(store, games, search=search)
    out = {}
    for g in games:
        tid = ops.create_tournament(store, ops.TournamentRequest(
            game=g, bots=tuple(entrants[g]), games_per_pairing=deals, seed=seed, executor=executor,
            name=f"demo {g}", deal_key=deal_key))
        out[tid] = g
    return out


@dataclass
class Forfeits:
    """The demo's matches that ended by forfeit: its own bots never should, so any is worth a warning,
    and all of them means the hosted bots could not play at all (the ladders would be all draws)."""

    count: int
    done: int
    reasons: list[str]

    @property
    def all(self) -> bool:
        return self.done > 0 and self.count == self.done


def forfeits(store: Store, tids: dict[int, str], *, examples: int = 3) -> Forfeits:
    """Count the finished matches of ``tids`` that ended by forfeit, with a few distinct reasons."""
    from .store import queries

    count = done = 0
    reasons: list[str] = []
    for tid, game in tids.items():
        # a demo's tournament is a few dozen matches: one page holds them all
        for mv in queries.matches(store, tournament_id=tid, status="done", limit=100_000).items:
            done += 1
            outcome = mv.outcome or {}
            if outcome.get("reason") != "forfeit":
                continue
            count += 1
            for seat, why in sorted((outcome.get("forfeits") or {}).items()):
                line = f"{game}, {mv.bots[int(seat)]}: {why}"
                if line not in reasons and len(reasons) < examples:
                    reasons.append(line)
    return Forfeits(count, done, reasons)


@contextlib.contextmanager
def dashboard_process(port: int = 8000, log_dir: Path | None = None,
                      timeout_s: float = 60.0) -> Iterator[str | None]:
    """``arena dashboard`` on ``port`` (or a free one if taken).

    Yields its URL (None if there is no dashboard)."""
    try:
        import dashboard.app  # noqa: F401
    except ImportError:
        yield None
        return
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            port = 0
    if port == 0:  # taken, or "any free port": choose it here so the URL printed is the real one
        port = free_port()
    log_path = (log_dir or Path(tempfile.mkdtemp(prefix="arena-dashboard-"))) / "dashboard.log"
    with open(os.open(log_path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600), "ab") as log:  # owner only
        proc = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "dashboard", "--port", str(port)],
                                env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise DemoError(f"the dashboard exited with code {proc.returncode}; see {log_path}")
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise DemoError(f"the dashboard did not start within {timeout_s:.0f}s; see {log_path}")
            time.sleep(0.2)
        yield url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
