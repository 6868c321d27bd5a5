"""``arena bench engine --cpu``: both sides of the ratio are timed by this process's CPU time (steadier than
wall time on a shared machine)."""
from __future__ import annotations

import time

from click.testing import CliRunner

from arena.bench import engine


def test_cpu_flag_switches_the_clock_and_says_so() -> None:
    res = CliRunner().invoke(engine.command,
                             ["--cpu", "--game", "greyport", "--runs", "1", "--seconds", "0.1"],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "(CPU time)" in res.output and "greyport" in res.output
    assert engine.CLOCK[0] is time.process_time
    res = CliRunner().invoke(engine.command, ["--game", "greyport", "--runs", "1", "--seconds", "0.1"],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "(CPU time)" not in res.output
    assert engine.CLOCK[0] is time.perf_counter
