"""The store: migrations, bots, tournaments, claims with leases, results recorded exactly once."""
from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import func, select, text

from arena.store import Store, StoreError, ladders, models, open_store, ops, queries

OUTCOME = {"ranks": [1, 2], "scores": [3.0, 1.0], "reason": "normal"}


def add_builtins(store: Store) -> None:
    ops.add_bot(store, "random", command="{python} -m bots.serve random", agent="random")
    ops.add_bot(store, "heuristic", command="{python} -m bots.serve heuristic", agent="random")
    ops.add_bot(store, "third", command="{python} -m bots.serve random", agent="random",
                games=["sealed_bids"])


def make(store: Store, **kw) -> int:
    add_builtins(store)
    req = ops.TournamentRequest(game="sealed_bids", bots=("random", "heuristic", "third"),
                                games_per_pairing=kw.pop("games", 1), **kw)
    return ops.create_tournament(store, req)


def test_migrations_are_applied_on_open_and_idempotent(tmp_path) -> None:
    url = f"sqlite:///{tmp_path}/x/arena.db"
    store = open_store(url, cached=False)
    store.migrate()  # a second time is a no-op
    with store.read() as s:
        rev = s.execute(text("select version_num from alembic_version")).scalar()
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from arena.store.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert rev == ScriptDirectory.from_config(cfg).get_current_head()  # one head, and it is applied


def test_models_match_the_migrations(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), models.Base.metadata)
    assert diff == []


def test_unreachable_database_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot open the store"):
        open_store("postgresql+psycopg://nobody@127.0.0.1:1/none", cached=False)


def test_bots_add_list_remove(store: Store) -> None:
    add_builtins(store)
    assert [b.name for b in queries.bots(store)] == ["heuristic", "random", "third"]
    with pytest.raises(ops.BotError, match="already exists"):
        ops.add_bot(store, "random", command="x")
    ops.remove_bot(store, "third")
    assert [b.name for b in queries.bots(store)] == ["heuristic", "random"]
    assert queries.bot(store, "third").active is False
    with pytest.raises(ops.BotError, match="no bot named"):
        ops.remove_bot(store, "third")
    ops.add_bot(store, "third", command="y")  # a removed name can be registered again
    assert queries.bot(store, "third").command == "y"


def test_create_tournament_writes_every_match_with_its_seed(store: Store) -> None:
    tid = make(store, games=2)
    t = queries.tournament(store, tid)
    assert t.format == "round_robin" and t.seats == [2]
    assert t.progress.total == 3 * 2 * 2 and t.progress.queued == 12
    page = queries.matches(store, tournament_id=tid, limit=4)
    assert page.total == 12 and [mv.number for mv in page.items] == [0, 1, 2, 3]
    first, second = page.items[:2]
    assert first.bots == list(reversed(second.bots)) and first.seed == second.seed  # paired seeds
    assert queries.matches(store, bot="third").total == 8


@pytest.mark.parametrize("kw, error", [
    ({"bots": ("random", "ghost")}, "unknown bot 'ghost'"),
    ({"seats": (7,)}, "takes 2-4 seats, not 7"),
    ({"format": "cooperative"}, "competitive"),
    ({"game": "nope"}, "unknown game"),
])
def test_bad_tournament_requests(sqlite_store: Store, kw, error) -> None:
    add_builtins(sqlite_store)
    req = ops.TournamentRequest(**{"game": "sealed_bids", "bots": ("random", "heuristic"), **kw})
    with pytest.raises(Exception, match=error):
        ops.create_tournament(sqlite_store, req)


def test_bot_that_does_not_play_the_game(sqlite_store: Store) -> None:
    add_builtins(sqlite_store)
    ops.add_bot(sqlite_store, "clanker", command="c", games=["clank"])
    with pytest.raises(ops.BotError, match="does not play sealed_bids"):
        ops.create_tournament(sqlite_store, ops.TournamentRequest("sealed_bids", ("random", "clanker")))


def first_match(store: Store, tid: int) -> int:
    return queries.matches(store, tournament_id=tid, limit=1).items[0].id


def test_claim_lease_and_record_exactly_once(store: Store) -> None:
    tid = make(store)
    mid = first_match(store, tid)
    c = ops.claim(store, mid, "w1", 30)
    assert c.ok and c.attempts == 1
    busy = ops.claim(store, mid, "w2", 30)
    assert not busy.ok and busy.state == "busy" and busy.wait_s > 20
    assert ops.renew(store, mid, "w1", 30) and not ops.renew(store, mid, "w2", 30)
    assert ops.record(store, mid, OUTCOME, {"format": "arena-replay"}, worker="w1", plies=9)
    assert not ops.record(store, mid, OUTCOME, None, worker="w2")  # second result dropped
    assert ops.claim(store, mid, "w3", 30).state == "done"
    sealed = queries.match(store, mid)  # its twin (the other seat order of the deal) is still to play
    assert sealed.status == "done" and sealed.sealed and sealed.seed is None and sealed.ranks is None
    assert not sealed.has_replay and queries.replay(store, mid) is None
    twin = next(v for v in queries.matches(store, tournament_id=tid, limit=100).items
                if v.deal == sealed.deal and v.id != mid)
    assert ops.claim(store, twin.id, "w1", 30).ok and ops.record(store, twin.id, OUTCOME, None)
    mv = queries.match(store, mid)
    assert mv.status == "done" and mv.ranks == [1, 2] and mv.plies == 9 and mv.has_replay and not mv.sealed
    assert queries.replay(store, mid) == {"format": "arena-replay"}
    with store.read() as s:
        assert s.scalar(select(func.count()).select_from(models.Outcome)) == 2  # the match and its twin


def test_expired_lease_is_taken_over(store: Store) -> None:
    tid = make(store)
    mid = first_match(store, tid)
    assert ops.claim(store, mid, "dead", 0.2).ok
    time.sleep(0.4)
    stale = ops.needs_dispatch(store, tid, redispatch_after_s=-1)
    assert any(x.match_id == mid and x.why == "expired" for x in stale)
    c = ops.claim(store, mid, "alive", 30)
    assert c.ok and c.attempts == 2
    assert not ops.renew(store, mid, "dead", 30)  # the dead worker lost it


def test_release_backoff_and_fail(store: Store) -> None:
    tid = make(store)
    mid = first_match(store, tid)
    assert ops.claim(store, mid, "w", 30).ok
    assert ops.release(store, mid, "w", "referee unavailable", 0.3)
    c = ops.claim(store, mid, "w", 30)
    assert not c.ok and c.state == "backoff"
    time.sleep(0.4)
    assert ops.claim(store, mid, "w", 30).ok
    assert ops.fail(store, mid, "w", "rejected: bad options")
    mv = queries.match(store, mid)
    assert mv.status == "failed" and mv.reason == "rejected: bad options" and mv.attempts == 2
    assert not ops.record(store, mid, OUTCOME, None)


def test_concurrent_recorders_record_once(store: Store) -> None:
    """Eight threads race to record the same match; exactly one wins."""
    tid = make(store)
    mid = first_match(store, tid)
    ops.claim(store, mid, "w", 30)
    wins: list[bool] = []
    barrier = threading.Barrier(8)

    def go() -> None:
        barrier.wait()
        wins.append(ops.record(store, mid, OUTCOME, None, worker=threading.current_thread().name))

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [False] * 7 + [True]


def test_cancel_and_finish(store: Store) -> None:
    tid = make(store)
    mid = first_match(store, tid)
    ops.claim(store, mid, "w", 30)
    assert ops.cancel_tournament(store, tid) == 5
    assert not ops.finish_if_complete(store, tid)  # one still running
    ops.record(store, mid, OUTCOME, None)
    t = queries.tournament(store, tid)
    assert t.status == "cancelled" and t.progress.done == 1 and t.progress.cancelled == 5


def test_ladder_refresh_history_and_head_to_head(store: Store) -> None:
    tid = make(store, games=3)
    for mv in queries.matches(store, tournament_id=tid, limit=100).items:
        ops.claim(store, mv.id, "w", 30)
        # "heuristic" always wins; random vs third alternate by seat.
        if "heuristic" in mv.bots:
            ranks = [1, 2] if mv.bots[0] == "heuristic" else [2, 1]
        else:
            ranks = [1, 2]
        ops.record(store, mv.id, {"ranks": ranks, "scores": [0.0, 0.0], "reason": "normal"}, None)
    assert ops.finish_if_complete(store, tid)
    assert ladders.refresh(store, "sealed_bids", tournament_id=tid)
    assert not ladders.refresh(store, "sealed_bids")  # nothing new: not republished
    lv = queries.ladder(store, "sealed_bids")
    assert lv.results == 18 and lv.anchor == "random"
    assert lv.rows[0].player == "heuristic"
    rnd = next(r for r in lv.rows if r.player == "random")
    assert rnd.rating == 0 and rnd.games == 12 and rnd.wins == 3 and rnd.losses == 9
    hist = queries.rating_history(store, "sealed_bids")
    assert hist["heuristic"][0].tournament_id == tid
    h2h = queries.head_to_head(store, "sealed_bids", tournament_id=tid)
    assert h2h.cells["heuristic"]["random"] == [6, 0, 0] and h2h.score("random", "third") == 0.5
    assert queries.ladder_games(store) == ["sealed_bids"]
    page = queries.tournaments(store)
    assert page.total == 1 and page.items[0].progress.done == 18 and page.items[0].status == "done"


def test_published_ladder_recovers_known_strengths(sqlite_store: Store) -> None:
    """Results drawn from bots of known Elo, recorded through the store, refitted: truth inside the
    intervals."""
    import math
    import random

    from arena.ratings import K

    true = {"random": 0.0, "weak": -150.0, "good": 200.0, "best": 400.0}
    for name in true:
        ops.add_bot(sqlite_store, name, command="x", agent="random")
    tid = ops.create_tournament(sqlite_store,
                                ops.TournamentRequest("sealed_bids", tuple(true), games_per_pairing=15))
    rng = random.Random(0)
    for mv in queries.matches(sqlite_store, tournament_id=tid, limit=10_000).items:
        a, b = mv.bots
        p = 1 / (1 + math.exp(-(true[a] - true[b]) * K))
        ranks = [1, 2] if rng.random() < p else [2, 1]
        # queued -> done is allowed
        ops.record(sqlite_store, mv.id, {"ranks": ranks, "scores": [0.0, 0.0]}, None)
    ladders.refresh(sqlite_store, "sealed_bids", tournament_id=tid)
    lv = queries.ladder(sqlite_store, "sealed_bids")
    assert lv.results == 180 and lv.anchor == "random"
    assert [r.player for r in lv.rows] == ["best", "good", "random", "weak"]
    for r in lv.rows:
        assert r.lo <= true[r.player] <= r.hi, r
