"""Real processes for the submission tests: a referee and ``arena devserver`` on free ports.

``start_devserver(home, referee, **settings)`` runs the developer service with its own ARENA_HOME
(its store and packages) and the given ``ARENA_DEV_*`` settings; smoke tests play on ``referee``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest

from tests.e2e.conftest import ROOT, RunningReferee, e2e_env, start_referee


@dataclass
class DevServer:
    proc: subprocess.Popen[bytes]
    address: str
    home: Path
    env: dict[str, str]
    log_path: Path
    config: Path = field(default=Path())

    def cli(
        self, *args: str, token: str | None = None, timeout: float = 600, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """``arena ARGS`` as a developer (or organizer) on this machine would run it."""
        # a wide table whatever runs the tests (under xdist a narrow one wrapped the version names)
        env = dict(self.env, ARENA_DEV_SERVER=self.address, XDG_CONFIG_HOME=str(self.config), COLUMNS="200")
        env.pop("ARENA_DEV_TOKEN", None)
        if token is not None:
            env["ARENA_DEV_TOKEN"] = token
        return subprocess.run(
            [sys.executable, "-m", "arena.cli.main", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd or self.home,
            timeout=timeout,
            check=False,
        )

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_devserver(home: Path, referee: RunningReferee, **settings: str) -> DevServer:
    home.mkdir(parents=True, exist_ok=True)
    ready = home / "devserver.json"
    log_path = home / "devserver.log"
    env = e2e_env(home, ARENA_ORGANIZER_TOKEN=referee.organizer_token, **settings)
    env.pop("ARENA_DEV_SERVER", None)
    cmd = [
        sys.executable,
        "-m",
        "arena.cli.main",
        "-v",
        "devserver",
        "--address",
        "127.0.0.1:0",
        "--referee",
        referee.address,
        "--ready-file",
        str(ready),
    ]
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"devserver did not start:\n{log_path.read_text()}")
        time.sleep(0.05)
    info = json.loads(ready.read_text())
    return DevServer(proc, info["address"], home, env, log_path, home / "config")


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningReferee]:
    ref = start_referee(tmp_path_factory.mktemp("referee"))
    yield ref
    ref.stop()
