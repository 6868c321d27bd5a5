"""Ladders per seat count: 2-seat and 3-seat Sealed Bids are rated apart, and combined on request."""
from __future__ import annotations

from arena.store import Store, ladders, ops, queries
from arena.tasks import play_match

from .helpers import register_inprocess_bots
from .test_cli import arena  # noqa: F401 - the fixture


def test_each_seat_count_has_its_own_ladder(store: Store) -> None:
    register_inprocess_bots(store, "random", "r2", "r3")
    two = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("random", "r2"), seats=(2,),
                                                             games_per_pairing=2, executor="inprocess"))
    three = ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("random", "r2", "r3"),
                                                               seats=(3,), games_per_pairing=1,
                                                               executor="inprocess"))
    for tid in (two, three):
        for mv in queries.matches(store, tournament_id=tid, limit=100).items:
            assert play_match(mv.id, store=store, executor_name="inprocess").state == "done"
    ladders.refresh(store, "sealed_bids", force=True)
    assert queries.seat_counts(store, "sealed_bids") == [2, 3]
    assert queries.ladder_games(store) == ["sealed_bids"]
    at2, at3 = queries.ladder(store, "sealed_bids@2"), queries.ladder(store, "sealed_bids@3")
    combined = queries.ladder(store, "sealed_bids")
    assert (at2.results, at3.results, combined.results) == (4, 6, 10)
    assert {r.player for r in at2.rows} == {"random", "r2"}
    assert {r.player for r in at3.rows} == {"random", "r2", "r3"}
    assert next(r for r in at3.rows if r.player == "r2").games == 6
    # The dashboard: one ladder per seat count beside the combined one.
    from fastapi.testclient import TestClient

    from dashboard.app import create_app
    from dashboard.queries import StoreSource

    client = TestClient(create_app(StoreSource(store), live=None))
    full = client.get("/api/games/sealed_bids/ladder").json()
    three = client.get("/api/games/sealed_bids/ladder?seats=3").json()
    assert (full["matches"], full["seat_counts"], full["seats"]) == (10, [2, 3], None)
    assert (three["matches"], three["seats"]) == (6, 3)
    assert {r["bot"]["id"]: r["rating"] for r in three["rows"]} == {r.player: round(r.rating, 1)
                                                                    for r in at3.rows}
    page = client.get("/games/sealed_bids?seats=3").text
    assert "<b>3 seats</b>" in page and 'href="/games/sealed_bids?seats=2"' in page
    assert client.get("/api/games/sealed_bids/ladder?seats=0").status_code == 422


def test_ladder_cli_per_seat_count_and_combined(arena) -> None: # noqa: F811
    for b in ("random", "r2", "r3"):
        assert arena("bot", "add", b, "--command", "{python} -m bots.serve random", "--agent",
                     "random").returncode == 0
    assert arena("tournament", "create", "sealed_bids", "--bots", "random,r2", "--executor", "inprocess",
                 "--run").returncode == 0
    assert arena("tournament", "create", "sealed_bids", "--bots", "random,r2,r3", "--seats", "3", "--games",
                 "1", "--executor", "inprocess", "--run").returncode == 0
    out = arena("ladder", "sealed_bids", "--refit")
    assert out.returncode == 0
    assert "sealed_bids 2-seat ladder" in out.stdout and "sealed_bids 3-seat" in out.stdout
    out = arena("ladder", "sealed_bids", "--combined")
    assert "sealed_bids ladder" in out.stdout and "2-seat" not in out.stdout and "10 results" in out.stdout
    out = arena("ladder", "sealed_bids", "--seats", "3")
    assert "3-seat" in out.stdout and "2-seat" not in out.stdout and "6 results" in out.stdout
    out = arena("ladder", "sealed_bids", "--seats", "4")
    assert "no rated results of sealed_bids at 4 seats (played at: 2, 3)" in out.stdout.replace("\n", " ")
