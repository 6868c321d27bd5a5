"""JSON API and pages over the in-memory source: lists, pagination, 404s, escaping, organizer token."""
from __future__ import annotations

from urllib.parse import quote

from tests.dashboard.conftest import TOKEN
from tests.dashboard.fixtures import EVIL


def test_pages_render(client):
    for url in ["/", "/games/sealed_bids", "/bots", "/bots/alpha", "/tournaments", "/tournaments/t1",
                "/matches", "/matches/m1", "/matches/live1", "/api/docs"]:
        r = client.get(url)
        assert r.status_code == 200, url
        assert "text/html" in r.headers["content-type"]


def test_openapi_lists_routes(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for p in ["/api/games", "/api/games/{game_id}/ladder", "/api/bots", "/api/tournaments/{tid}",
              "/api/matches/{match_id}/frames", "/api/matches/{match_id}/replay",
              "/api/matches/{match_id}/live"]:
        assert p in paths


def test_ladder_json(client):
    lad = client.get("/api/games/sealed_bids/ladder").json()
    names = {r["bot"]["name"] for r in lad["rows"]}
    assert {"alpha", "beta", "gamma", EVIL} <= names
    top = lad["rows"][0]
    assert top["lo"] <= top["rating"] <= top["hi"]
    assert top["games"] == top["wins"] + top["draws"] + top["losses"]
    assert len(lad["head_to_head"]) == len(lad["rows"])
    assert lad["matches"] == 18


def test_bad_ids_are_404_pages_not_tracebacks(client):
    for url in ["/matches/nope", "/games/nope", "/bots/nobody", "/tournaments/404", "/no/such/page"]:
        r = client.get(url)
        assert r.status_code == 404 and "<!doctype html>" in r.text and "Traceback" not in r.text, url
    for url in ["/api/matches/nope", "/api/games/nope/ladder", "/api/bots/nobody", "/api/tournaments/x",
                "/api/matches/nope/frames", "/api/matches/nope/replay"]:
        r = client.get(url)
        assert r.status_code == 404 and r.json()["detail"], url
    assert client.get("/matches?page=abc").status_code == 400
    assert client.get("/api/matches?per_page=100000").status_code == 422


def test_pagination(client):
    a = client.get("/api/matches?per_page=5&page=1").json()
    b = client.get("/api/matches?per_page=5&page=2").json()
    assert a["total"] == b["total"] > 10 and len(a["items"]) == 5
    assert not {m["id"] for m in a["items"]} & {m["id"] for m in b["items"]}
    page = client.get("/matches?per_page=5&page=2").text
    assert "page 2 of" in page and 'rel="next"' in page


def test_hostile_names_are_escaped(client):
    raw = "<script>alert(1)</script>"
    for url in ["/", "/games/sealed_bids", "/bots", f"/bots/{quote(EVIL, safe='')}", "/tournaments/t1",
                "/matches", "/matches/m3", "/tournaments"]:
        text = client.get(url).text
        assert raw not in text, url
        assert "<b>Cup</b>" not in text, url
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get("/games/sealed_bids").text
    # the JSON island the viewer reads cannot close its <script> element either
    assert "<\\/script>" not in client.get("/matches/m3").text.split('id="viewer-config">')[1].split(
        "</script>")[0]
    assert client.get(f"/api/bots/{quote(EVIL, safe='')}").json()["name"] == EVIL


def test_csp_blocks_inline_script(client):
    csp = client.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp


def test_organizer_token_required_for_changes(client):
    assert client.post("/api/admin/refresh").status_code == 401
    assert client.post("/api/admin/refresh", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/api/admin/refresh", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    for url in ["/api/games", "/api/matches/m1"]:
        assert client.post(url).status_code == 405  # nothing public accepts writes


def test_frames_and_steps(client):
    r = client.get("/api/matches/m1/frames?perspective=all&start=0&limit=500").json()
    assert r["steps"] == len(r["frames"]) and r["frames"][0]["step"] == 0 and r["frames"][-1]["over"]
    chunk = client.get("/api/matches/m1/frames?perspective=public&start=3&limit=2").json()
    assert [f["step"] for f in chunk["frames"]] == [3, 4]
    assert client.get("/api/matches/m1/frames?perspective=9").status_code == 400


def test_glossary_names_the_ids_views_use(client):
    from tests.dashboard.fixtures import available_games

    names = {"clank": ("S01", "Pilfer"), "greyport": ("G01", "Mudgutter Goblin"),
             "dungeon_twister": ("cleric", "Cleric"), "mice_and_mystics": ("g01", "Hazel Blade"),
             "blockcraft": ("h_woodcutter", "Woodcutter")}
    for gid in available_games():
        r = client.get(f"/api/games/{gid}/glossary")
        assert r.status_code == 200 and r.headers["etag"], gid
        key, name = names[gid]
        assert r.json()[key]["name"] == name, gid
    assert client.get("/api/games/sealed_bids/glossary").json() == {}  # no content files: ids stay ids
    assert client.get("/api/games/nope/glossary").status_code == 404
