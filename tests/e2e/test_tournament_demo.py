"""``arena demo --quick --no-dashboard`` as a user runs it: a real referee, hosted bots, ladders."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from .tournament_fixtures import ROOT, base_env, free_port, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_quick_demo_on_the_fixture_game(tmp_path: Path) -> None:
    env = base_env(ARENA_HOME=str(tmp_path / "home"), COLUMNS="160", ARENA_WORKERS="2")
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "demo", "--quick", "--no-dashboard",
                          "--games", "sealed_bids"], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "referee listening on" in out.stdout
    # random, random2 and the search bot (hosted: its forward model comes through the referee)
    assert "6 matches played, 0 failed" in out.stdout, out.stdout[-3000:]
    assert "ended by forfeit" not in out.stdout, out.stdout[-3000:]   # the bots played (no crash at launch)
    ladder = out.stdout[out.stdout.index("sealed_bids ladder"):]
    assert " random2 " in ladder and " search " in ladder, ladder
    # Run it again: same store, the ladder grows (registration is idempotent).
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "demo", "--quick", "--no-dashboard",
                          "--games", "sealed_bids"], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300, check=False)
    assert out.returncode == 0 and "(12 results" in out.stdout, out.stdout[-3000:] + out.stderr[-3000:]


def test_demo_from_another_checkout_than_the_venvs(tmp_path: Path) -> None:
    """A second checkout (a git worktree, say) run with a venv whose editable install points at the
    first: the referee imports ``bots`` and ``referee`` from the working directory, so the sandbox binds
    those; the hosted bots must import the same ones (they once found the venv's, unbound: every bot
    crashed at launch and the demo printed ladders of draws)."""
    checkout = tmp_path / "checkout"
    for part in ("bots", "referee", "proto"):
        shutil.copytree(ROOT / part, checkout / part, ignore=shutil.ignore_patterns("node_modules", "go",
                                                                                    "__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_") and k != "PYTHONPATH"}
    env.update(ARENA_HOME=str(tmp_path / "home"), COLUMNS="160", ARENA_WORKERS="2")
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "demo", "--quick", "--no-dashboard",
                          "--no-search", "--games", "liars_dice"], capture_output=True, text=True, env=env,
                         cwd=checkout, timeout=300, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "2 matches played, 0 failed" in out.stdout and "forfeit" not in out.stdout, out.stdout[-3000:]


def test_the_demo_serves_its_dashboard_while_the_matches_run(tmp_path: Path) -> None:
    """The dashboard comes up before the first match, with the demo's referee for live spectating, and
    keeps serving after the ladders until the demo is stopped."""
    port = free_port()
    env = base_env(ARENA_HOME=str(tmp_path / "home"), COLUMNS="160", ARENA_WORKERS="2")
    argv = [sys.executable, "-m", "arena.cli.main", "demo", "--quick", "--games", "sealed_bids",
            "--port", str(port)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            cwd=ROOT, start_new_session=True)
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl-C to stop" in line:
                break
        out = "".join(lines)
        assert "Ctrl-C to stop" in out, out[-3000:]
        first = out.index(f"dashboard: http://127.0.0.1:{port}/")
        assert first < out.index("matches played"), out        # up before the tournament, not after it
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/matches/1", timeout=30) as page:
            html = page.read().decode()
        # the dashboard relays the demo's referee (live spectating), and the match is there
        assert "&#34;liveAvailable&#34;: true" in html or '"liveAvailable": true' in html, html[:3000]
        assert "sealed_bids" in html
    finally:
        stop(proc, signal.SIGTERM)  # type: ignore[arg-type]  # a text-mode Popen
    assert proc.returncode is not None
