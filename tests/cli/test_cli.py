"""The CLI as a user runs it: real processes, --help everywhere, one clear line for bad input."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT),
       "ARENA_EXTRA_GAMES": "sealed_bids=tests.fixtures.sealed_bids:GAME", "COLUMNS": "120"}


def arena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args], capture_output=True, text=True,
                          env=ENV, cwd=cwd or ROOT, timeout=120)


def test_games_lists_the_fixture() -> None:
    out = arena("games")
    assert out.returncode == 0, out.stderr
    assert "sealed_bids" in out.stdout and "2-4" in out.stdout


def test_play_then_verify_then_show(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    out = arena("play", "sealed_bids", "--seats", "3", "--seed", "5", "--replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "replay written to" in out.stdout and path.exists()
    out = arena("replay", "verify", str(path))
    assert out.returncode == 0 and "OK sealed_bids" in out.stdout
    out = arena("replay", "show", str(path), "--no-interactive")
    assert out.returncode == 0 and "step 1/" in out.stdout
    out = arena("replay", "show", str(path), "--step", "2", "--view", "1")
    assert out.returncode == 0 and '"hand"' in out.stdout


@pytest.mark.parametrize("args, words", [
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "sealed_bids", "--seats", "9"], "takes 2-4 seats, not 9"),
    (["play", "sealed_bids", "-o", "rounds=99"], "at most 8"),
    (["play", "sealed_bids", "-o", "colour=red"], "unknown option"),
    (["play", "sealed_bids", "--bots", "random,random,random"], "3 bots for 2 seats"),
    (["play", "sealed_bids", "--bots", "genius"], "unknown built-in bot"),
    (["replay", "verify", "/nonexistent/replay.json"], "cannot read replay"),
    (["replay", "show", "/nonexistent/replay.json"], "cannot read replay"),
    (["eval", "sealed_bids", "--bots", "random"], "two bots"),
])
def test_bad_input_gets_one_clear_line(args: list[str], words: str) -> None:
    out = arena(*args)
    assert out.returncode != 0
    assert words in out.stderr
    assert "Traceback" not in out.stderr


def test_corrupt_replay_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "arena-replay", "format_ver')
    out = arena("replay", "verify", str(bad))
    assert out.returncode == 2 and "not valid JSON" in out.stderr and "Traceback" not in out.stderr


def test_help_everywhere() -> None:
    top = arena("--help")
    assert top.returncode == 0
    commands = [line.split()[0] for line in top.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert {"games", "play", "replay", "eval", "bench"} <= set(commands)
    for cmd in commands:
        out = arena(cmd, "--help")
        assert out.returncode == 0 and "Usage:" in out.stdout, cmd


def test_eval_reports_win_rates() -> None:
    out = arena("eval", "sealed_bids", "--bots", "random,random", "--games", "8", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout and "8 games" in out.stdout
    # stdout is a pipe here: the progress is a plain line (a live bar prints nothing until the end)
    assert "sealed_bids 2 seats: 8/8" in out.stdout


def test_eval_of_a_solo_game_says_one_seat() -> None:
    out = arena("eval", "blockcraft", "--bots", "random", "--seats", "1", "--games", "2", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "blockcraft 1 seat: 2/2" in out.stdout and "Blockcraft, 1 seat," in out.stdout


def test_bench_engine_prints_its_table() -> None:
    out = arena("bench", "engine", "--game", "sealed_bids", "--runs", "1", "--seconds", "0.2")
    assert out.returncode == 0, out.stderr
    assert "decisions/s" in out.stdout and "sealed_bids" in out.stdout
