"""Issue 15 as a spectator: while a paired Dungeon Twister tournament is played, every dashboard route,
JSON API route and replay download, for the twins of unfinished deal groups, shows nothing of their
deals (on SQLite and on PostgreSQL). Once the tournament is over, the key is published and every
seed checks out, and the same detector finds what it looked for (it is not blind)."""
from __future__ import annotations

import threading

from fastapi.testclient import TestClient
from sqlalchemy import select

from arena.scheduling import Dealer
from arena.store import Store, models, ops, queries
from arena.tasks import play_match
from dashboard.app import create_app
from dashboard.queries import StoreSource
from tests.dashboard.spectator import Secrets, audit

BOTS = ("alpha", "beta", "gamma")


def _rows(store: Store, tid: int) -> list[models.Match]:
    with store.read() as s:
        rows = list(s.scalars(select(models.Match).where(models.Match.tournament_id == tid)
                              .order_by(models.Match.number)))
        s.expunge_all()
        return rows


def test_a_spectator_finds_nothing_of_an_unfinished_deal(store: Store) -> None:
    for name in BOTS:  # hosted bots (the referee would sandbox them): their seat orders share deals
        ops.add_bot(store, name, command="{python} -m bots.serve random", agent="random")
    tid = ops.create_tournament(store, ops.TournamentRequest("dungeon_twister", BOTS, games_per_pairing=1,
                                                             executor="inprocess", seed=2024))
    ops.start_tournament(store, tid)
    ordered = _rows(store, tid)
    assert len(ordered) == 6 and len({m.deal for m in ordered}) == 3  # three pairings, two seat orders each
    app = create_app(StoreSource(store), live=None, organizer_token="tok")
    client = TestClient(app)

    played, audited = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def tournament() -> None:  # the tournament runs beside the spectator, one match at a time
        try:
            for m in ordered:
                assert play_match(m.id, store=store, executor_name="inprocess").state == "done"
                played.set()
                assert audited.wait(300)
                audited.clear()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test thread
            failures.append(exc)
            played.set()

    runner = threading.Thread(target=tournament, daemon=True)
    runner.start()
    sealed_seen = 0
    for _ in range(len(ordered)):
        assert played.wait(300)
        played.clear()
        assert not failures, failures
        rows = _rows(store, tid)
        open_deals = {m.deal for m in rows if m.status in (models.QUEUED, models.RUNNING)}
        sealed = [m for m in rows if m.status == models.DONE and m.deal in open_deals]
        twins = [m for m in rows if m.deal in open_deals]
        nxt = next((m for m in rows if m.status == models.QUEUED), None)
        if nxt is not None:  # the next twin is being played while the spectator looks
            assert ops.claim(store, nxt.id, "spectator-test", 600).ok
        try:
            if sealed:
                sealed_seen += 1
                secrets = [Secrets.of(m.id, m.game, m.players, m.options, m.seed) for m in sealed]
                assert all(s.hidden for s in secrets)  # Dungeon Twister deals face-down rooms
                ids = {"match_id": [str(m.id) for m in twins], "tid": [str(tid)],
                       "game_id": ["dungeon_twister"], "bot_id": list(BOTS), "dev_name": ["nobody"]}
                assert client.post("/api/admin/refresh",
                                   headers={"authorization": "Bearer tok"}).status_code == 200
                seen = audit(client, app, ids, secrets)
                for m in sealed:
                    assert seen[f"/api/matches/{m.id}/replay"] == 409
                    assert all(seen[f"/api/matches/{m.id}/frames?perspective={p}&limit=500"] == 409
                               for p in ("public", "all", "0", "1"))
                    detail = client.get(f"/api/matches/{m.id}").json()
                    assert detail["status"] == "done" and detail["sealed"] and detail["seed"] is None
                    assert detail["outcome"] is None and all(s["rank"] is None for s in detail["seats"])
                    assert queries.replay(store, m.id) is None  # the CLI's and every reader's path too
                published = sum(1 for m in rows if m.status == models.DONE and m.deal not in open_deals)
                standings = client.get(f"/api/tournaments/{tid}").json()["standings"]
                assert sum(r["played"] for r in standings) == 2 * published
                assert client.get(f"/api/tournaments/{tid}/deals").status_code == 409
                assert client.get(f"/api/tournaments/{tid}").json()["deal_key"] is None
        finally:
            if nxt is not None:
                assert ops.release(store, nxt.id, "spectator-test", "audited", 0.0)
            audited.set()
    runner.join(60)
    assert not failures, failures
    assert sealed_seen == 3  # after the first half of each deal

    # Over: the key is published, every seed verifies, and the detector sees what it was looking for.
    assert client.post("/api/admin/refresh", headers={"authorization": "Bearer tok"}).status_code == 200
    t = client.get(f"/api/tournaments/{tid}").json()
    assert t["status"] == "done" and t["deal_key"] and all(p["paired"] for p in t["pairings"])
    deals = client.get(f"/api/tournaments/{tid}/deals").json()
    assert deals["verified"] and len(deals["deals"]) == 6
    dealer = Dealer(t["deal_key"], 2024)
    assert all(dealer.seed(m.deal) == m.seed for m in ordered)
    m = ordered[0]
    secret = Secrets.of(m.id, m.game, m.players, m.options, m.seed)
    assert secret.find(client.get(f"/api/matches/{m.id}").text)
    frame0 = client.get(f"/api/matches/{m.id}/frames?perspective=all&limit=1").text
    assert secret.find(frame0.replace(str(m.seed), ""))  # the rooms alone give the deal away
