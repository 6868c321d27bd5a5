"""``arena demo --quick --no-dashboard`` as a user runs it: a real referee, hosted bots, ladders."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .tournament_fixtures import ROOT, base_env

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
