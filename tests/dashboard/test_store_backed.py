"""The dashboard over a real SQLite store filled by the tournament code: a sealed-bids round robin,
Clank! and Greyport matches played in-process by ``arena.tasks.play_match`` (claim, play, record,
refit), one running and one queued match. Every page and the frames API are checked against what
``arena.store.queries`` says, and the frames against a re-simulation of the stored replay."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from arena.store import queries as q
from dashboard.app import create_app
from dashboard.live import ReplayFeed
from referee.engine import ALL, PUBLIC, Replay
from referee.engine.replay import states
from tests.dashboard.fixtures import available_games
from tests.dashboard.store_fixture import EVIL, build_store

GAMES = [g for g in ("clank", "greyport") if g in available_games()]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'arena.db'}"
    store, ids = build_store(url, extra_games=GAMES)
    app = create_app(db_url=url, live=ReplayFeed({}), organizer_token="t")
    with TestClient(app) as client:
        yield client, store, ids


@pytest.mark.parametrize("game", ["sealed_bids", *GAMES])
def test_ladder_is_the_store_s_published_fit(stored, game):
    client, store, _ = stored
    want = q.ladder(store, game)
    lad = client.get(f"/api/games/{game}/ladder").json()
    assert lad["matches"] == want.results > 0
    got = {r["bot"]["id"]: (r["rating"], r["lo"], r["hi"], r["games"], r["wins"], r["draws"], r["losses"])
           for r in lad["rows"]}
    published = {r.player: (round(r.rating, 1), round(r.lo, 1), round(r.hi, 1), r.games, r.wins, r.draws,
                            r.losses)
                 for r in want.rows}
    assert {k: got[k] for k in published} == published
    # A bot with stored results the last fit has not seen yet (the fixture renames a seat after the
    # refit) is listed unrated, below every rated bot.
    unrated = [r["bot"]["id"] for r in lad["rows"] if r["bot"]["id"] not in published]
    assert unrated == ([EVIL] if game == "sealed_bids" else [])
    assert [r["bot"]["id"] for r in lad["rows"]][len(published):] == unrated
    assert [r["rank"] for r in lad["rows"]] == list(range(1, len(lad["rows"]) + 1))
    rated = [r["rating"] for r in lad["rows"] if r["rating"] is not None]
    assert rated == sorted(rated, reverse=True)
    assert all(r["rating"] is None and r["lo"] is None for r in lad["rows"][len(published):])
    page = client.get(f"/games/{game}")
    assert page.status_code == 200 and page.text.count("not rated yet") == len(unrated)
    for r in want.rows:
        name = r.player.replace("<", "&lt;").replace(">", "&gt;")
        assert name in page.text or name.split(":", 1)[-1] in page.text, r.player


def test_tournament_progress_standings_and_match_list(stored):
    client, store, ids = stored
    tid = ids["tournament"]
    want = q.tournament(store, tid)
    t = client.get(f"/api/tournaments/{tid}").json()
    assert t["status"] == want.status == "running" and t["game"] == "sealed_bids"
    p = want.progress
    assert t["progress"] == {"total": p.total, "queued": p.queued, "running": p.running, "done": p.done,
                             "failed": p.failed + p.cancelled}
    assert (p.done, p.running, p.queued) == (len(ids["done"]), 1, 1)
    # each finished 2-seat match is one game for each of its two bots
    assert sum(r["played"] for r in t["standings"]) == 2 * p.done
    assert sum(r["points"] for r in t["standings"]) == p.done
    listed = client.get(f"/api/matches?tournament={tid}&per_page=200").json()
    assert listed["total"] == q.matches(store, tournament_id=tid).total == p.total
    statuses = {m["id"]: m["status"] for m in listed["items"]}
    assert statuses[str(ids["running"])] == "running" and statuses[str(ids["queued"])] == "queued"
    page = client.get(f"/tournaments/{tid}").text
    assert "Spring Cup &lt;b&gt;bold&lt;/b&gt;" in page and "<b>bold</b>" not in page
    assert client.get("/tournaments").status_code == 200
    home = client.get("/").text
    assert "Spring Cup &lt;b&gt;bold&lt;/b&gt;" in home


@pytest.mark.parametrize("game", GAMES)
def test_match_page_and_frames_follow_the_stored_replay(stored, game):
    client, store, ids = stored
    mid = ids["games"][game]
    want = q.match(store, mid)
    m = client.get(f"/api/matches/{mid}").json()
    assert m["status"] == "done" and m["seed"] == want.seed and m["has_replay"]
    assert [s["bot"]["id"] for s in m["seats"]] == want.bots
    rep = Replay.from_json(q.replay(store, mid))
    assert json.loads(client.get(f"/api/matches/{mid}/replay").content) == json.loads(rep.dumps())
    assert f'"matchId": "{mid}"' in client.get(f"/matches/{mid}").text
    for perspective, viewer in [("all", ALL), ("public", PUBLIC), ("0", 0)]:
        frames = []
        while True:
            chunk = client.get(
                f"/api/matches/{mid}/frames?perspective={perspective}&start={len(frames)}&limit=500")
            assert chunk.status_code == 200, chunk.text
            data = chunk.json()
            frames += data["frames"]
            if len(frames) >= data["steps"] or not data["frames"]:
                break
        assert data["steps"] == len(rep.actions) + 1 == len(frames)
        assert [f["step"] for f in frames] == list(range(len(frames)))
        for (ply, state), f in zip(states(rep), frames, strict=True):
            assert f["view"] == json.loads(json.dumps(state.observe(viewer))), (perspective, ply)
        assert frames[-1]["over"] and not any(f["over"] for f in frames[:-1])


def test_running_and_queued_matches_publish_nothing_hidden(stored):
    client, _, ids = stored
    for mid in (ids["running"], ids["queued"]):
        m = client.get(f"/api/matches/{mid}").json()
        assert m["seed"] is None and m["outcome"] is None and not m["has_replay"]
        for url in (f"/api/matches/{mid}/replay", f"/api/matches/{mid}/frames?perspective=all"):
            assert client.get(url).status_code == 409, url
        page = client.get(f"/matches/{mid}").text
        assert 'data-mode="live"' in page and 'value="all"' not in page


def test_hostile_bot_name_from_the_store_is_escaped(stored):
    client, _, ids = stored
    page = client.get(f"/matches/{ids['evil_match']}").text
    assert EVIL not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert EVIL not in client.get("/bots").text


def test_unknown_ids_are_404(stored):
    client, _, _ = stored
    for url in ["/api/matches/999999", "/api/matches/abc/frames", "/api/tournaments/999", "/matches/999999",
                "/tournaments/999", "/games/nope"]:
        assert client.get(url).status_code == 404, url
