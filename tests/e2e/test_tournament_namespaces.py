"""Two installations sharing one referee: their match ids are namespaced (no ALREADY_EXISTS for
"match 1 played with another spec"), and the duration the referee measured is recorded."""
from __future__ import annotations

from pathlib import Path

import pytest

from arena.executor import forget_executors
from arena.store import Store, ops, queries
from arena.tasks import play_match
from referee.engine import register
from referee.engine.registry import unregister
from referee.service.server import RefereeThread
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

from .tournament_fixtures import FIXTURE_GAMES, ROOT

pytestmark = [pytest.mark.e2e]


def test_two_installations_share_a_referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    register(SEALED_BIDS)
    monkeypatch.setenv("ARENA_EXTRA_GAMES", FIXTURE_GAMES)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the hosted bots import the fixture game
    monkeypatch.delenv("ARENA_INSTALLATION", raising=False)
    try:
        with RefereeThread(organizer_token="tok") as ref:
            monkeypatch.setenv("ARENA_REFEREE", ref.address)
            monkeypatch.setenv("ARENA_ORGANIZER_TOKEN", "tok")
            stores, mids = [], []
            for i in range(2):
                store = Store(f"sqlite:///{tmp_path}/install{i}.db")
                store.migrate()
                for name in ("a", "b"):
                    ops.add_bot(store, name,
                                command=ops.BUILTIN_COMMAND.format(python="{python}", name="random"))
                tid = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("a", "b"),
                                                                         seed=100 + i))
                mid = queries.matches(store, tournament_id=tid, limit=1).items[0].id
                stores.append(store)
                mids.append(mid)
            assert mids[0] == mids[1]  # the same id in both databases...
            # ...not on the referee
            assert stores[0].referee_match_id(mids[0]) != stores[1].referee_match_id(mids[1])
            for store, mid in zip(stores, mids, strict=True):
                r = play_match(mid, store=store)
                assert r.state == "done", (r, queries.match(store, mid).reason)
                mv = queries.match(store, mid)
                assert mv.seconds is not None and mv.seconds > 0  # measured on the referee
            # a forced common name collides again, as it should
            monkeypatch.setenv("ARENA_INSTALLATION", "shared")
            assert stores[0].referee_match_id(1) == stores[1].referee_match_id(1) == "shared-1"
    finally:
        forget_executors()
        unregister("sealed_bids")
