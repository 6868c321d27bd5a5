"""``arena bench protocol``: the referee against a bare gRPC ping-pong, and the floor between them (the
bare ping-pong whose server also does the engine's own work for each round trip)."""
from __future__ import annotations

import asyncio
import re
import time

from click.testing import CliRunner

from arena.bench.pingpong import bare_round
from arena.bench.protocol import _engine_cpu, _EngineWork, command


def test_the_engines_own_work_is_measured_per_decision() -> None:
    per = _engine_cpu("clank", 2, decisions=300)
    assert 1e-6 < per < 0.01


def test_the_engines_work_plays_whole_matches_one_decision_a_step() -> None:
    work = _EngineWork("clank", 2)
    for _ in range(3000):  # longer than a random Clank match
        work.step()
    assert work.matches >= 2 and work.driver.plies > 0


def test_the_floors_server_does_the_engines_work_on_every_round_trip() -> None:
    calls: list[float] = []

    def burn() -> None:  # 2 ms of this thread's CPU
        end = time.thread_time() + 0.002
        while time.thread_time() < end:
            pass
        calls.append(end)

    plain = asyncio.run(bare_round(500, 20, 200)).thread_cpu
    worked = asyncio.run(bare_round(500, 20, 200, work=burn)).thread_cpu
    assert len(calls) == 199 and worked >= 0.002 > plain  # server CPU per round trip: the work on top


def test_the_bench_prints_the_ratio_and_the_floor_for_each_game() -> None:
    out = CliRunner().invoke(command, ["--game", "clank", "--runs", "1", "--matches", "1"])
    assert out.exit_code == 0, out.output
    ratio = re.search(r"ratio referee/bare: wall ([\d.]+) \(goal <= 1.5\)", out.output)
    floor = re.search(r"ratio floor/bare ([\d.]+); the referee's service adds (-?\d+) us", out.output)
    assert ratio and floor, out.output
    assert float(ratio.group(1)) > 0 and float(floor.group(1)) > 0


def test_a_game_whose_length_an_option_sets_is_split_into_set_up_and_round_trip() -> None:
    out = CliRunner().invoke(command, ["--game", "sealed_bids", "--runs", "1", "--matches", "8"])
    assert out.exit_code == 0, out.output
    split = re.search(r"split over (\d+)- and (\d+)-decision matches \(-o rounds=1 and 8\): a match's set-up "
                      r"and end (-?\d+) us, one decision's round trip ([\d.]+) us", out.output)
    ratio = re.search(r"ratio round trip/bare: wall ([\d.]+) \(goal <= 1.3\)", out.output)
    assert split and ratio, out.output
    short, long_, _, per_decision = (float(x) for x in split.groups())  # the set-up: noisy over 4 matches
    assert 1 <= short < long_ and per_decision > 0 and float(ratio.group(1)) > 0


def test_the_floors_ping_pong_speaks_the_protocols_messages_of_the_requests_size() -> None:
    from arena.bench.pingpong import _request, _view

    for size in (508, 10_214):
        assert abs(_request(7, _view(size)).ByteSize() - size) <= 2
    r = asyncio.run(bare_round(508, 20, 100, proto=True))  # the client parses each request, or fails
    assert r.rate > 0 and r.client_cpu > 0
