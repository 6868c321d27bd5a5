"""The search bot joins the demo's in-process round-robin as a third tier."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.tournament_fixtures import ROOT, base_env

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_inprocess_demo_has_random_heuristic_and_search(tmp_path: Path) -> None:
    env = base_env(ARENA_HOME=str(tmp_path / "home"), COLUMNS="160", ARENA_WORKERS="2")
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "demo", "--quick", "--no-dashboard",
                          "--executor", "inprocess", "--games", "clank"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    ladder = out.stdout[out.stdout.index("clank ladder"):]
    for bot in ("random", "heuristic", "search"):
        assert f" {bot} " in ladder, ladder
    assert "6 matches played, 0 failed" in out.stdout, out.stdout[-3000:]  # 3 pairings x 2 seat orders
