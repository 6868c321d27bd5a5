"""`arena refeed`: a bot gets exactly the requests its seat got in the recorded match, and
differences show."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT, e2e_env

pytestmark = pytest.mark.e2e

RECORDER = Path(__file__).with_name("recording_bot.py")


def arena(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args], capture_output=True, text=True,
                          env=e2e_env(tmp_path, COLUMNS="300", **env), cwd=ROOT, timeout=300, check=False)


@pytest.mark.parametrize("game, seats, seat", [("sealed_bids", 3, 1), ("clank", 2, 0)])
def test_refeed_sends_the_recorded_requests(tmp_path: Path, game: str, seats: int, seat: int) -> None:
    """The recorder sees the same views, legal lists and events in-process and when refed (simultaneous
    bids included), and repeats its answers when given the same seed."""
    bots = ",".join(f"{RECORDER}:Recorder" if s == seat else "random" for s in range(seats))
    replay = tmp_path / "r.json"
    played = tmp_path / "played.jsonl"
    out = arena(tmp_path, "play", game, "--seats", str(seats), "--seed", "4", "--bots", bots,
                "--replay", str(replay), RECORD_TO=str(played))
    assert out.returncode == 0, out.stderr
    refed = tmp_path / "refed.jsonl"
    out = arena(tmp_path, "refeed", str(replay), "--seat", str(seat), "--bot-seed", str(4 * 100 + seat), "--",
                sys.executable, str(RECORDER), RECORD_TO=str(refed))
    assert out.returncode == 0, out.stdout + out.stderr
    assert played.read_text() == refed.read_text()
    n = len(played.read_text().splitlines())
    assert n > 3 and f"{n} decisions refed to seat {seat}: {n} same, 0 differ" in out.stdout


def test_refeed_lists_differences(tmp_path: Path) -> None:
    replay = tmp_path / "r.json"
    out = arena(tmp_path, "play", "clank", "--seed", "4", "--bots", f"{RECORDER}:Recorder,random",
                "--replay", str(replay), RECORD_TO=os.devnull)
    assert out.returncode == 0, out.stderr
    out = arena(tmp_path, "refeed", str(replay), "--seat", "0", "--bot-seed", "12345", "--show", "2", "--",
                sys.executable, "-m", "bots.serve", "random", RECORD_TO=os.devnull)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "answers that differ" in out.stdout and "... and " in out.stdout
    assert "same," in out.stdout and " differ " in out.stdout


def test_refeed_a_bot_that_crashes(tmp_path: Path) -> None:
    replay = tmp_path / "r.json"
    assert arena(tmp_path, "play", "sealed_bids", "--replay", str(replay)).returncode == 0
    crash = Path(__file__).with_name("broken_bots.py")
    out = arena(tmp_path, "refeed", str(replay), "--seat", "0", "--", sys.executable, str(crash), "crash")
    assert out.returncode == 1 and "the bot closed its stream" in out.stdout, out.stdout + out.stderr
    assert "Traceback" not in out.stderr


def test_refeed_a_bot_that_exits_before_its_stream_closes(tmp_path: Path) -> None:
    """The bot's process ends before the refeed sees the end of its stream (seen in CI with the crashing bot,
    where the stream's end came late): a failed refeed, never "0 decisions refed, 0 differ" and status 0."""
    replay = tmp_path / "r.json"
    assert arena(tmp_path, "play", "sealed_bids", "--replay", str(replay)).returncode == 0
    gone = Path(__file__).with_name("vanishing_bot.py")
    out = arena(tmp_path, "refeed", str(replay), "--seat", "0", "--", sys.executable, str(gone))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "1 decisions refed to seat 0: 0 same, 1 differ" in out.stdout, out.stdout
    assert "the bot exited (status 0) before answering" in out.stdout and "Traceback" not in out.stderr


def test_refeed_a_bot_that_never_connects(tmp_path: Path) -> None:
    """A bot that runs but never opens its session (a wrong address, a hang at start) is stopped after
    ``--connect-s``, with one line and status 2, not after the refeed's ten minutes."""
    replay = tmp_path / "r.json"
    assert arena(tmp_path, "play", "sealed_bids", "--replay", str(replay)).returncode == 0
    out = arena(tmp_path, "refeed", str(replay), "--seat", "0", "--connect-s", "2", "--",
                sys.executable, "-c", "import time; time.sleep(120)")
    assert out.returncode == 2, out.stdout + out.stderr
    assert "the bot did not connect within 2 s (stopped it)" in out.stderr and "Traceback" not in out.stderr
