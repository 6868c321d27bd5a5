"""The Go bot (bots/go, built offline from Debian's packages) plays every game through a real referee."""
from __future__ import annotations

import subprocess
import threading
import time

import pytest

from referee.engine import Replay, TimeControl, all_games, get_game, register, verify
from referee.matchspec import MatchSpec, SeatSpec
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

from .conftest import PY_BOT
from .gobot import go_bot

pytestmark = pytest.mark.e2e



@pytest.fixture(autouse=True)
def _sealed_bids() -> None:
    """This process re-simulates the fixture game's replays (another test may have unregistered it)."""
    register(SEALED_BIDS)


def _seats(game_id: str) -> int:
    info = get_game(game_id).info
    return max(info.min_players, min(2, info.max_players))


def _check(report, game_id: str, n: int) -> None:
    assert report.outcome["reason"] in ("normal", "safety_limit"), report.logs
    assert "forfeits" not in report.outcome, report.logs
    assert len(report.outcome["ranks"]) == n
    replay = Replay.from_json(report.replay)
    assert replay.game == game_id and replay.actions
    assert "faults" not in replay.meta, replay.meta
    verify(replay)


@pytest.mark.parametrize("game_id", [g.info.id for g in all_games()])
def test_go_bot_plays_every_game(referee_process, game_id: str) -> None:
    binary = go_bot()
    n = _seats(game_id)
    seats = [SeatSpec("go" if s % 2 == 0 else "random",
                      command=f"{binary} --seed {s + 1}" if s % 2 == 0 else f"{PY_BOT} random")
             for s in range(n)]
    spec = MatchSpec(f"go-{game_id}", game_id, 13, seats, time_control=TimeControl(per_decision_ms=10_000))
    report = referee_process.client.run_match(spec, timeout_s=120)
    _check(report, game_id, n)
    assert "go bot: 1 match(es)" in report.logs["seat0"], report.logs["seat0"]
    assert "goodbye" in report.logs["seat0"], report.logs["seat0"]


def test_live_go_bot_holds_two_seats_of_one_match(referee_process) -> None:
    """One session, capacity 2, both seats of one match: a MatchStart and a MatchEnd per seat."""
    binary = go_bot()
    client = referee_process.client
    token = client.register_bot("live-go", ["sealed_bids"])
    env = {k: v for k, v in referee_process.env.items() if k != "ARENA_ORGANIZER_TOKEN"}
    proc = subprocess.Popen([str(binary), "--address", referee_process.address, "--capacity", "2", "--seed",
                             "3"],
                            env={**env, "ARENA_TOKEN": token}, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")), daemon=True)
    reader.start()
    try:
        spec = MatchSpec("live-go-1", "sealed_bids", 5, [SeatSpec("live-go"), SeatSpec("live-go")],
                         time_control=TimeControl(per_decision_ms=5_000))
        report = client.run_match(spec, timeout_s=60, live_wait_s=20)
        _check(report, "sealed_bids", 2)
        deadline = time.monotonic() + 20  # the MatchEnds may reach the bot after RunMatch returns
        while sum("match live-go-1 (seat" in line for line in lines) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        proc.terminate()
        proc.wait(10)
        reader.join(10)
    err = "".join(lines)
    assert "match live-go-1 (seat 0) ended" in err and "match live-go-1 (seat 1) ended" in err, err
