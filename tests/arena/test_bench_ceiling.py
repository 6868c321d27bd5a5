"""``arena bench tournament``'s ceiling: the CPU a decision costs in-process, through a real referee
with sandboxed hosted bots, and over a bare gRPC stream, and the throughput bound they give."""
from __future__ import annotations

import contextlib
import os
import sys

import pytest

from arena.bench.ceiling import Ceiling, bare_cpu, inprocess_cpu, measure
from arena.store import ops


def test_the_bound_is_in_process_over_in_process_plus_a_round_trip() -> None:
    c = Ceiling("clank", inprocess_us=100.0, referee_us=500.0, bots_us=700.0, bare_server_us=150.0,
                bare_client_us=150.0, request_b=10_000, answer_b=21)
    assert c.bare_us == 300.0
    assert c.bound == pytest.approx(0.25)


def test_a_bare_round_trip_costs_both_processes_cpu() -> None:
    server, client = bare_cpu(2000, 21, 300)
    # whole-process CPU of both ends, gRPC's threads included: never free, never absurd
    assert 5e-6 < server < 0.05 and 5e-6 < client < 0.05


def test_in_process_cpu_per_decision_counts_every_ply() -> None:
    one = inprocess_cpu("clank", ["random", "random"], [1])
    assert 1e-6 < one < 0.01


def test_measure_through_a_real_referee() -> None:
    from arena.demo import local_referee
    from referee.service import sandbox_cgroup

    # as after a boot: the hosted bots' parent group is made by the first sandboxed bot, so the counter is
    # missing before the measurement (it read "unknown" then); an rmdir fails, harmlessly, while it is in use
    for c in sandbox_cgroup.CONTROLLERS:
        with contextlib.suppress(OSError):
            os.rmdir(os.path.join(sandbox_cgroup.ROOT, c, sandbox_cgroup.PARENT))
    with local_referee() as ref:
        cmd = ops.BUILTIN_COMMAND.format(python=sys.executable, name="random")
        c = measure("clank", ["random", "random"], [cmd, cmd], ref.address, ref.token, ref.process.pid,
                    matches=2, rounds=200)
    assert c.referee_us > 0 and c.inprocess_us > 0 and c.bare_us > 0
    if "sandboxed" in ref.hosted:  # the hosted bots' control group counts their CPU
        assert c.bots_us is not None and c.bots_us > 0
    assert 0 < c.bound < 1
