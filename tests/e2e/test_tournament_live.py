"""Live spectating at scale, for real: a referee plays a long live match, the dashboard (its own
process) serves 60 viewers of it through ONE referee watch stream, stays responsive, enforces the
per-client cap (429) and closes the upstream stream when the last viewer leaves."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from arena.bench.dashboard import _running_match, build_store
from arena.bench.spectators import LiveMatch, ViewerCrowd

from .tournament_fixtures import ROOT, free_port, stop, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _get(url: str, source: str | None = None) -> tuple[int, float]:
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            r.read(200)
            return int(r.status), time.monotonic() - t0
    except urllib.error.HTTPError as exc:
        return exc.code, time.monotonic() - t0


def test_sixty_viewers_share_one_referee_stream(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/dash.db"
    build_store(url, "clank", 200, 6, 1)
    mid, ref_id = _running_match(url, "clank")
    live = LiveMatch("clank", ref_id, think_s=0.06).start()
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), ARENA_REFEREE=live.address, ARENA_ORGANIZER_TOKEN=live.token,
               ARENA_LIVE_PER_CLIENT="10")
    log = open(tmp_path / "dashboard.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen([sys.executable, "-m", "arena.cli.main", "dashboard", "--db-url", url, "--port",
                               str(port)], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    crowd = None
    try:
        wait_for(lambda: _ok(base + "/api/games"), 90, "the dashboard")
        crowd = ViewerCrowd(f"{base}/api/matches/{mid}/live", 60, per_address=10)
        crowd.start(settle_s=3)
        assert live.upstream_watchers() == 1  # one stream for 60 viewers
        status, took = _get(base + "/api/bots")
        assert status == 200 and took < 3.0, took  # the dashboard is not frozen by its spectators
        import socket

        with socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.10", 0)) as s:
            s.sendall(f"GET /api/matches/{mid}/live HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert s.recv(100).startswith(b"HTTP/1.1 429")  # the 11th stream from one address
        rep = crowd.stop()
        crowd = None
        assert (rep.connected, rep.refused, rep.failed) == (60, 0, 0) and rep.frames >= 60, rep
        wait_for(lambda: live.upstream_watchers() == 0, 10, "the upstream stream to close")
    finally:
        if crowd is not None:
            crowd.stop()
        stop(server)
        log.close()
        live.stop()


def _ok(url: str) -> bool:
    try:
        return _get(url)[0] == 200
    except OSError:
        return False


def test_a_stopped_live_match_leaves_no_bot_reconnecting() -> None:
    """The bench's watched bot ends with ``stop()``; it used to reconnect for ever to the stopped referee,
    logging "connection lost" for the rest of the test session (and once after pytest's summary in CI)."""
    live = LiveMatch("clank", "leak-check", think_s=0.0).start()
    live.stop()
    assert not [t for t in threading.enumerate() if t.name == "live-bot" and t.is_alive()]
