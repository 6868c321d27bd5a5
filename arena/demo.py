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

from referee.engine.errors import ArenaError


class DemoError(ArenaError):
    code = "demo_error"


@dataclass
class LocalReferee:
    process: subprocess.Popen[bytes]
    address: str
    token: str
    log_path: Path


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
    with open(log_path, "ab") as log:
        proc = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "referee", "--address", "127.0.0.1:0",
                                 "--ready-file", str(ready), *(extra_args or [])],
                                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout_s
        while not ready.exists():
            if proc.poll() is not None:
                raise DemoError(f"the referee exited with code {proc.returncode}; see {log_path}")
            if time.monotonic() > deadline:
                raise DemoError(f"the referee did not start within {timeout_s:.0f}s; see {log_path}")
            time.sleep(0.1)
        address = json.loads(ready.read_text())["address"]
        saved = {k: os.environ.get(k) for k in ("ARENA_REFEREE", "ARENA_ORGANIZER_TOKEN")}
        os.environ["ARENA_REFEREE"], os.environ["ARENA_ORGANIZER_TOKEN"] = address, token
        try:
            yield LocalReferee(proc, address, token, log_path)
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


def register_demo_bots(store, games: list[str]) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """Hosted ``random`` (every game) and ``heuristic`` (where one exists); returns game -> bots."""
    from bots.builtin import heuristic_available

    from .store import ops, queries

    heur = [g for g in games if heuristic_available(g)]
    wanted = {"random": [], "heuristic": heur}
    for name, plays in wanted.items():
        if name == "heuristic" and not plays:
            continue
        existing = queries.bot(store, name)
        if existing is None or not existing.active or (name == "heuristic" and set(plays) - set(existing.games)):
            games_list = sorted(set(plays) | set(existing.games if existing and existing.games else []))
            ops.add_bot(store, name, command=ops.BUILTIN_COMMAND.format(python="{python}", name=name),
                        agent=name, games=games_list if name == "heuristic" else [], replace=True)
    return {g: ["random"] + (["heuristic"] if g in heur else []) for g in games}
