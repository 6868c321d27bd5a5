"""The organizer API from another language: bots/node/run_match.js runs a match (the docs' example)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.e2e.conftest import NODE_BOT, ROOT, node_ready, start_referee

pytestmark = pytest.mark.e2e


def test_node_organizer_runs_a_match(tmp_path) -> None:
    ok, why = node_ready()
    if not ok:
        pytest.skip(f"NODE ORGANIZER NOT TESTED: {why}")
    ref = start_referee(tmp_path)
    try:
        env = {**ref.env, "ARENA_REFEREE": ref.address}
        out = subprocess.run(["node", str(ROOT / "bots" / "node" / "run_match.js"), "sealed_bids",
                              f"node {NODE_BOT}", f"{sys.executable} -m bots.serve random"],
                             capture_output=True, text=True, env=env, timeout=120, check=False)
        assert out.returncode == 0, out.stderr
        outcome = json.loads(out.stdout)
        assert outcome["reason"] == "normal" and sorted(outcome["ranks"]) in ([1, 2], [1, 1])
        bad = subprocess.run(["node", str(ROOT / "bots" / "node" / "run_match.js"), "sealed_bids", "true"],
                             capture_output=True, text=True, env={**env, "ARENA_ORGANIZER_TOKEN": "wrong"},
                             timeout=60, check=False)
        assert bad.returncode == 1 and "UNAUTHENTICATED" in bad.stderr
    finally:
        ref.stop()
