"""``arena ladder run/status/retire/reinstate/close`` on the embedded store, and ``arena ladder GAME``
still showing a ladder (``show`` is the default subcommand)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli.main import cli
from arena.store import Store, ops, queries
from tests.ladder.agents import FIELD


def arena(home: Path, *args: str) -> str:
    env = {"ARENA_HOME": str(home), "ARENA_DB_URL": f"sqlite:///{home}/arena.db", "ARENA_BROKER_URL": "",
           "ARENA_EXTRA_GAMES": "sealed_bids=tests.fixtures.sealed_bids:GAME", "ARENA_LADDER_INFLIGHT": "4",
           "COLUMNS": "200"}
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_run_a_ladder_for_a_while_then_retire_and_close_it(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/arena.db")
    store.migrate()
    for name, agent in FIELD[:3]:
        ops.add_bot(store, name, command="unused", agent=agent)
    out = arena(tmp_path, "ladder", "run", "sealed_bids", "--for", "4s", "--executor", "inprocess",
                "--workers", "1",
                "--tick", "0.2", "--option", "rounds=2")
    assert "sealed_bids ladder, season 1" in out and "matches made" in out
    # a plain progress line (the output is no terminal), where the run ended
    assert "sealed_bids ladder: 4/4 s" in out and " played" in out
    done = queries.progress(store, 1).done
    assert done > 0 and queries.progress(store, 1).queued == 0
    status = arena(tmp_path, "ladder", "status")
    assert all(name in status for name, _ in FIELD[:3]) and f"{done} done" in status
    assert FIELD[0][0] in arena(tmp_path, "ladder", "sealed_bids")  # the published ladder, as before
    assert "retired" in arena(tmp_path, "ladder", "retire", FIELD[1][0], "--reason", "too weak")
    assert "too weak" in arena(tmp_path, "ladder", "status", "sealed_bids")
    arena(tmp_path, "ladder", "reinstate", FIELD[1][0])
    assert queries.bot(store, FIELD[1][0]).active
    assert "closed" in arena(tmp_path, "ladder", "close", "sealed_bids")
    assert queries.tournament(store, 1).deal_key is not None  # nothing was running: the key is published
    assert "no ladder season is running" in arena(tmp_path, "ladder", "status")
