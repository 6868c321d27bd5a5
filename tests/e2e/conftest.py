"""Shared e2e fixtures: a real referee process on a free port, node availability, bot commands.

``referee_process(**flags)`` starts ``arena referee`` (port 0, its own ARENA_HOME, the fixture game
loaded through ARENA_EXTRA_GAMES) and returns a ``RunningReferee`` with ``address``,
``organizer_token`` and a connected ``client``. Other engineers may add fixtures here.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_GAMES = "sealed_bids=tests.fixtures.sealed_bids:GAME"
NODE_BOT = ROOT / "bots" / "node" / "bot.js"
PY_BOT = f"{sys.executable} -m bots.serve"


def e2e_env(home: Path, **extra: str) -> dict[str, str]:
    """Environment for every process an e2e test starts: repo on PYTHONPATH, fixture game registered."""
    env = dict(os.environ)
    extra_games = env.get("ARENA_EXTRA_GAMES", "")
    if "sealed_bids=" not in extra_games:
        env["ARENA_EXTRA_GAMES"] = ",".join(x for x in (extra_games, FIXTURE_GAMES) if x)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(ROOT), env.get("PYTHONPATH", "")) if x)
    env["ARENA_HOME"] = str(home)
    env.pop("ARENA_DB_URL", None)
    env.update(extra)
    return env


def node_ready() -> tuple[bool, str]:
    """(usable, why not). In CI a missing node or node_modules is a failure, never a skip."""
    if shutil.which("node") is None:
        why = "node is not installed"
    elif not (ROOT / "bots" / "node" / "node_modules" / "@grpc" / "grpc-js").is_dir():
        why = "bots/node/node_modules is missing (run `npm ci` in bots/node)"
    else:
        return True, ""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI=true but {why}: .ci/run must install it", pytrace=False)
    return False, why


@dataclass
class RunningReferee:
    proc: subprocess.Popen[bytes]
    address: str
    organizer_token: str
    home: Path
    env: dict[str, str]
    log_path: Path

    @property
    def client(self):
        from referee.client import RefereeClient

        if not hasattr(self, "_client"):
            self._client = RefereeClient(self.address, self.organizer_token)
        return self._client

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if hasattr(self, "_client"):
            self._client.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_referee(home: Path, *flags: str, token: str = "test-organizer-token") -> RunningReferee:
    home.mkdir(parents=True, exist_ok=True)
    ready = home / "ready.json"
    log_path = home / "referee.log"
    env = e2e_env(home, ARENA_ORGANIZER_TOKEN=token)
    cmd = [sys.executable, "-m", "arena.cli.main", "-v", "referee", "--address", "127.0.0.1:0",
           "--ready-file", str(ready), *flags]
    with open(log_path, "wb") as log_file:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60  # generous: a loaded CI machine starts Python slowly
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"referee did not start:\n{log_path.read_text()}")
        time.sleep(0.05)
    info = json.loads(ready.read_text())
    return RunningReferee(proc, info["address"], token, home, env, log_path)


@pytest.fixture(scope="module")
def referee_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningReferee]:
    """One referee process per test module (default settings)."""
    ref = start_referee(tmp_path_factory.mktemp("referee"))
    yield ref
    ref.stop()
