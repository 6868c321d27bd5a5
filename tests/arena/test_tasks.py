"""The match task (claim, play, record once, retry, fail) and the local-pool driver."""
from __future__ import annotations

import pytest

from arena import executor as executor_mod
from arena.scheduling.driver import LocalPool, drive
from arena.store import Store, queries
from arena.tasks import TaskResult, backoff, play_match
from referee.matchspec import MatchRejected, RefereeUnavailable

from .conftest import EXTRA_GAMES
from .helpers import sealed_tournament


class Failing:
    name = "failing"

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
        self.calls = 0

    def play(self, spec, agents):
        self.calls += 1
        raise self.exc


@pytest.fixture
def fake_executor(monkeypatch):
    def install(ex: Failing) -> Failing:
        monkeypatch.setitem(executor_mod._cache, "failing", ex)
        return ex
    yield install


def organizer_seeds(store: Store, tid: int) -> dict[int, int]:
    from sqlalchemy import select

    from arena.store import models

    with store.read() as s:
        query = select(models.Match.id, models.Match.seed).where(models.Match.tournament_id == tid)
        return dict(s.execute(query).all())


def first(store: Store, tid: int) -> int:
    return queries.matches(store, tournament_id=tid, limit=1).items[0].id


def test_play_match_records_and_is_idempotent(store: Store) -> None:
    tid = sealed_tournament(store)
    mid = first(store, tid)
    assert play_match(mid, store=store).state == "done"
    assert play_match(mid, store=store) == TaskResult("skipped", 0.0, "done")
    deal = queries.match(store, mid).deal
    for twin in queries.matches(store, tournament_id=tid, limit=100).items:  # published once all are played
        if twin.deal == deal and twin.id != mid:
            assert play_match(twin.id, store=store).state == "done"
    mv = queries.match(store, mid)
    assert mv.status == "done" and mv.attempts == 1 and mv.plies > 0
    replay = queries.replay(store, mid)
    assert replay["seed"] == mv.seed and [s["bot"] for s in replay["seats"]] == mv.bots
    from referee.engine import Replay, verify

    verify(Replay.from_json(replay))  # the stored replay re-simulates


def test_unavailable_referee_costs_no_attempt(sqlite_store: Store, fake_executor, monkeypatch) -> None:
    """An outage is not the match's fault: it waits (no attempt spent), and past ARENA_OUTAGE_WAIT_S it goes
    back to the queue, still without spending one."""
    monkeypatch.setenv("ARENA_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("ARENA_OUTAGE_WAIT_S", "1.5")
    ex = fake_executor(Failing(RefereeUnavailable("connection refused")))
    tid = sealed_tournament(sqlite_store)
    mid = first(sqlite_store, tid)
    r = play_match(mid, store=sqlite_store, executor_name="failing")
    assert r.state == "retry" and ex.calls >= 2  # kept trying while it waited
    mv = queries.match(sqlite_store, mid)
    assert mv.status == "queued" and mv.attempts == 0
    assert mv.reason.startswith("waiting for referee") and "connection refused" in mv.reason


def test_crashing_match_is_retried_with_backoff(sqlite_store: Store, fake_executor, monkeypatch) -> None:
    monkeypatch.setenv("ARENA_MAX_ATTEMPTS", "2")
    ex = fake_executor(Failing(RuntimeError("boom")))
    tid = sealed_tournament(sqlite_store)
    mid = first(sqlite_store, tid)
    r = play_match(mid, store=sqlite_store, executor_name="failing")
    assert r.state == "retry" and r.wait_s == backoff(1) == 1.0
    mv = queries.match(sqlite_store, mid)
    assert mv.status == "queued" and "boom" in mv.reason and mv.attempts == 1
    assert play_match(mid, store=sqlite_store, executor_name="failing").state == "retry"  # backoff not over
    import time

    time.sleep(1.05)
    r = play_match(mid, store=sqlite_store, executor_name="failing")
    assert r.state == "failed" and ex.calls == 2
    assert queries.match(sqlite_store, mid).reason.startswith("gave up after 2 attempts")
    t = queries.tournament(sqlite_store, tid)
    assert t is not None


def test_retry_failed_requeues_on_the_same_seeds(store: Store, fake_executor) -> None:
    """A tournament with failures ends "done, N failed"; `retry` queues them again and it completes."""
    from arena.store import ops

    fake_executor(Failing(MatchRejected("bad spec")))
    tid = sealed_tournament(store)
    mids = [mv.id for mv in queries.matches(store, tournament_id=tid, limit=50).items]
    seeds = organizer_seeds(store, tid)  # (the public reads withhold them until each deal group is over)
    for mid in mids[:2]:
        assert play_match(mid, store=store, executor_name="failing").state == "failed"
    for mid in mids[2:]:
        assert play_match(mid, store=store).state == "done"
    t = queries.tournament(store, tid)
    assert t is not None and t.status == "done" and t.status_text == "done, 2 failed"
    assert [f.reason for f in queries.failures(store, tid)] == ["rejected: bad spec"] * 2
    assert ops.retry_failed(store, tid) == 2
    t = queries.tournament(store, tid)
    assert t is not None and t.status == "running"
    stale = ops.needs_dispatch(store, tid, redispatch_after_s=30)
    assert [(s.match_id, s.why, s.front) for s in stale] == [(mid, "retried", True) for mid in mids[:2]]
    for mid in mids[:2]:
        assert play_match(mid, store=store).state == "done"
    t = queries.tournament(store, tid)
    assert t is not None and t.status_text == "done" and t.progress.done == len(mids)
    assert organizer_seeds(store, tid) == seeds
    assert ops.retry_failed(store, tid) == 0


def test_rejected_match_fails_with_its_reason(sqlite_store: Store, fake_executor) -> None:
    fake_executor(Failing(MatchRejected("unknown game")))
    tid = sealed_tournament(sqlite_store)
    mid = first(sqlite_store, tid)
    assert play_match(mid, store=sqlite_store, executor_name="failing").state == "failed"
    mv = queries.match(sqlite_store, mid)
    assert mv.status == "failed" and mv.reason == "rejected: unknown game"


def test_inprocess_executor_needs_agents(sqlite_store: Store) -> None:
    from arena.store import ops

    ops.add_bot(sqlite_store, "remote", kind="live")
    sealed_tournament(sqlite_store, ("random", "r2"), executor="referee")
    with pytest.raises(ops.BotError, match="no in-process equivalent"):
        ops.create_tournament(sqlite_store, ops.TournamentRequest("sealed_bids", ("random", "remote"),
                                                                  executor="inprocess"))


def test_local_pool_drives_a_tournament_to_the_end(tmp_path, monkeypatch) -> None:
    url = f"sqlite:///{tmp_path}/arena.db"
    monkeypatch.setenv("ARENA_DB_URL", url)
    monkeypatch.setenv("ARENA_EXTRA_GAMES", EXTRA_GAMES)
    from arena.store import open_store

    store = open_store()
    tid = sealed_tournament(store, games=2)
    seen = []
    pool = LocalPool(2)
    try:
        prog = drive(store, tid, pool, on_progress=seen.append)
    finally:
        pool.close()
    assert prog.done == prog.total == 12 and prog.failed == 0
    assert seen[-1].done == 12
    t = queries.tournament(store, tid)
    assert t.status == "done"
    lv = queries.ladder(store, "sealed_bids")
    assert lv.results == 12 and {r.player for r in lv.rows} == {"random", "r2", "r3"}
    assert queries.rating_history(store, "sealed_bids")["r2"][-1].tournament_id == tid
    assert len(queries.workers_seen(store, tid)) == 2  # both processes played


@pytest.mark.parametrize("deals, shared", [("paired", True), ("independent", False)])
def test_the_spec_tells_the_referee_when_the_deal_is_shared(store: Store, deals: str, shared: bool) -> None:
    """The referee embargoes the end of a shared deal on its watch feed
    (tests/referee/test_watch_embargo.py)."""
    from arena.tasks import build_spec

    tid = sealed_tournament(store, bots=("random", "r2"), deals=deals)
    for m in queries.matches(store, tournament_id=tid, limit=10).items:
        spec = build_spec(store, m.id)[0]
        assert spec.shared_deal is shared
        assert type(spec).from_json(spec.to_json()) == spec
