"""The tournament CLI (in-process through click's runner; e2e tests run the real processes):
the whole flow, and one clear line for bad input."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from .conftest import EXTRA_GAMES

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Out:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from arena.cli.main import cli

    for k in list(os.environ):
        if k.startswith("ARENA_"):
            monkeypatch.delenv(k)
    env = {"PYTHONPATH": str(ROOT), "ARENA_EXTRA_GAMES": EXTRA_GAMES, "ARENA_HOME": str(tmp_path / "home"),
           "COLUMNS": "160", "ARENA_WORKERS": "2"}
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the local pool's processes import tests.*
    monkeypatch.setenv("ARENA_EXTRA_GAMES", EXTRA_GAMES)

    def run(*args: str, **extra: str) -> Out:
        r = CliRunner().invoke(cli, list(args), env={**env, **extra}, catch_exceptions=True)
        err = r.stderr
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            err += "Traceback: " + repr(r.exception)
        return Out(r.exit_code, r.stdout, err)
    return run


def one_line_error(out: Out, words: str) -> None:
    assert out.returncode != 0
    assert "Traceback" not in out.stderr, out.stderr
    errors = [ln for ln in out.stderr.splitlines() if ln.lower().startswith("error")]
    assert len(errors) == 1 and words in errors[0], out.stderr  # click may add a "Usage:" hint above it


def test_bots_tournament_status_ladder(arena) -> None:
    assert arena("bot", "add", "random", "--builtin", "random").returncode == 0
    assert arena("bot", "add", "rnd2", "--command", "{python} -m bots.serve random", "--agent",
                 "random").returncode == 0
    out = arena("bot", "list")
    assert out.returncode == 0 and "rnd2" in out.stdout and "bots.serve random" in out.stdout
    out = arena("tournament", "create", "sealed_bids", "--bots", "random,rnd2", "--games", "2",
                "--executor", "inprocess", "--run")
    assert out.returncode == 0, out.stderr
    assert "4 done, 0 failed" in out.stdout and "crosstable" in out.stdout
    out = arena("tournament", "status", "1")
    assert out.returncode == 0 and "status done" in out.stdout
    out = arena("tournament", "status")
    assert "sealed_bids" in out.stdout
    out = arena("ladder", "sealed_bids")
    assert out.returncode == 0 and "anchored to random" in out.stdout and "rnd2" in out.stdout
    out = arena("tournament", "create", "sealed_bids", "--bots", "random,rnd2", "--executor", "inprocess")
    assert "#2 created" in out.stdout.replace("tournament ", "")
    out = arena("tournament", "cancel", "2")
    assert out.returncode == 0 and "4 queued matches dropped" in out.stdout
    assert arena("bot", "remove", "rnd2").returncode == 0
    assert "rnd2" not in arena("bot", "list").stdout


@pytest.mark.parametrize("setup, args, extra, words", [
    ([], ("tournament", "create", "sealed_bids", "--bots", "random,ghost"), {}, "unknown bot 'ghost'"),
    ([("bot", "add", "c", "--command", "x", "--games", "sealed_bids")],
     ("tournament", "create", "sealed_bids", "--bots", "random,c", "--seats", "9"), {},
     "takes 2-4 seats, not 9"),
    ([], ("tournament", "create", "nope", "--bots", "random"), {}, "unknown game"),
    ([], ("bot", "add", "x", "--command", "a", "--builtin", "random"), {}, "exactly one of"),
    ([], ("bot", "add", "bad name!", "--command", "a"), {}, "bad bot name"),
    ([], ("bot", "remove", "ghost"), {}, "no bot named 'ghost'"),
    ([], ("tournament", "run", "42"), {}, "no tournament 42"),
    ([], ("worker",), {"ARENA_BROKER_URL": "redis://127.0.0.1:1/0"}, "cannot reach the broker"),
    ([], ("worker",), {}, "no broker"),
    ([], ("bot", "list"), {"ARENA_DB_URL": "postgresql://nobody@127.0.0.1:1/none"}, "cannot open the store"),
])
def test_bad_input_is_one_clear_line(arena, setup, args, extra, words) -> None:
    arena("bot", "add", "random", "--builtin", "random")
    for s in setup:
        assert arena(*s).returncode == 0
    one_line_error(arena(*args, **extra), words)


def test_bot_that_does_not_play_the_game(arena) -> None:
    arena("bot", "add", "random", "--builtin", "random")
    from referee.engine import game_ids

    other = next((g for g in game_ids() if g != "sealed_bids"), None)
    if other is None:
        pytest.skip("needs a second game")
    assert arena("bot", "add", "only", "--command", "x", "--games", other).returncode == 0
    one_line_error(arena("tournament", "create", "sealed_bids", "--bots", "random,only"),
                   "does not play sealed_bids")


def test_unreachable_broker_for_a_run(arena) -> None:
    arena("bot", "add", "random", "--builtin", "random")
    arena("bot", "add", "r2", "--builtin", "random")
    assert arena("tournament", "create", "sealed_bids", "--bots", "random,r2").returncode == 0
    one_line_error(arena("tournament", "run", "1", ARENA_BROKER_URL="redis://127.0.0.1:1/0"),
                   "cannot reach the broker")


def test_live_bot_gets_its_token_from_the_referee(arena, tmp_path: Path) -> None:
    from referee.service.server import RefereeThread
    from referee.service.tokens import TokenStore

    tokens = TokenStore(f"sqlite:///{tmp_path}/referee.db")
    with RefereeThread(store=tokens) as ref:
        env = {"ARENA_REFEREE": ref.address, "ARENA_ORGANIZER_TOKEN": ref.organizer_token}
        out = arena("bot", "add", "remote", "--live", "--games", "sealed_bids", **env)
        assert out.returncode == 0, out.stderr
        token = out.stdout.strip().splitlines()[-1]
        assert len(token) >= 20 and "token (shown once" in out.stdout
        assert [r.name for r in tokens.all()] == ["remote"]
        assert "live" in arena("bot", "list").stdout
        assert arena("bot", "remove", "remote", **env).returncode == 0
        assert [r.name for r in tokens.all()] == []
    one_line_error(arena("bot", "add", "remote2", "--live"), "needs a running referee")


def test_tournament_retry_reruns_failed_matches(arena) -> None:
    """A bot without an in-process agent... fixed afterwards: the failures are listed, then retried."""
    assert arena("bot", "add", "good", "--builtin", "random").returncode == 0
    assert arena("bot", "add", "flaky", "--command", "{python} -m bots.serve random",
                 "--agent", "tests.arena.helpers:NoSuchBot").returncode == 0
    out = arena("tournament", "create", "sealed_bids", "--bots", "good,flaky", "--games", "1",
                "--executor", "inprocess", "--run")
    assert "2 failed" in out.stdout and "arena tournament retry 1" in out.stdout, out.stdout
    out = arena("tournament", "status", "1", "--no-crosstable")
    assert "done, 2 failed" in out.stdout and "failed:" in out.stdout, out.stdout
    assert arena("bot", "add", "flaky", "--command", "{python} -m bots.serve random", "--agent", "random",
                 "--replace").returncode == 0
    out = arena("tournament", "retry", "1", "--run")
    assert out.returncode == 0 and "2 failed match(es) queued again" in out.stdout, out.stdout + out.stderr
    out = arena("tournament", "status", "1", "--no-crosstable")
    assert "status done\n" in out.stdout and "failed:" not in out.stdout, out.stdout
    one_line_error(arena("tournament", "retry", "99"), "no tournament 99")
