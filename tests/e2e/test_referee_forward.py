"""The forward-model examples end to end: a real referee process, the example bots as hosted processes
in their sandboxes (Python: bots/sdk/examples/flat_mc.py; Node.js: bots/node/forward_bot.js) simulating
through ForwardCalls, against a random bot."""
from __future__ import annotations

import re

import pytest

from referee.engine import TimeControl
from referee.matchspec import MatchSpec, SeatSpec

from .conftest import PY_BOT, ROOT, node_ready

NODE_FORWARD_BOT = ROOT / "bots" / "node" / "forward_bot.js"


def _play(referee_process, match_id: str, command: str, game: str = "sealed_bids"):  # type: ignore[no-untyped-def]
    spec = MatchSpec(match_id, game, 5, [SeatSpec("fm", command=command),
                                         SeatSpec("random", command=f"{PY_BOT} random")],
                     time_control=TimeControl(per_decision_ms=20_000))
    report = referee_process.client.run_match(spec, timeout_s=180)
    assert report.outcome["reason"] in ("normal", "safety_limit"), report.logs
    assert not report.outcome.get("forfeits"), report.logs
    assert "fault" not in report.logs["referee"], report.logs["referee"]
    return report


def test_python_flat_monte_carlo_example(referee_process) -> None:  # type: ignore[no-untyped-def]
    report = _play(referee_process, "fm-python", "{python} -m bots.sdk.examples.flat_mc")
    m = re.search(r"flat_mc: (\d+) simulations", report.logs["seat0"])
    assert m and int(m.group(1)) > 10, report.logs["seat0"]


def test_node_flat_monte_carlo_example(referee_process) -> None:  # type: ignore[no-untyped-def]
    ok, why = node_ready()
    if not ok:
        pytest.skip(why)
    report = _play(referee_process, "fm-node", f"node {NODE_FORWARD_BOT}")
    m = re.search(r"node forward bot: 1 match\(es\), \d+ decisions, (\d+) forward calls, (\d+) simulations, "
                  r"0 error\(s\)", report.logs["seat0"])
    assert m and int(m.group(1)) >= 2 and int(m.group(2)) > 10, report.logs["seat0"]
