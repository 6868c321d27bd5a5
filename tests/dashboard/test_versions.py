"""Developer and version pages over a real store (issue 20): status and reason, which version played each
match, time per decision and faults per match, the submissions feed; nothing of a sealed match."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from arena.store import queries as q
from dashboard.app import create_app
from dashboard.live import ReplayFeed
from tests.dashboard.versions_fixture import EVIL_REASON, V1, V2, V3, build_versions_store


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('versions') / 'arena.db'}"
    store, ids = build_versions_store(url)
    with TestClient(create_app(db_url=url, live=ReplayFeed({}), organizer_token="t")) as client:
        yield client, store, ids


def test_the_submissions_feed_is_newest_first_with_statuses(stored) -> None:
    client, _, _ = stored
    feed = client.get("/api/submissions").json()
    assert [(v["name"], v["status"]) for v in feed] == [(V3, "active"), (V2, "suspended"), (V1, "retired")]
    assert feed[0]["developer"] == "ada" and feed[0]["family"] == "ada/bidder" and feed[0]["version"] == 3
    home = client.get("/").text
    assert 'id="submissions"' in home and "ada/bidder<span class=\"version-tag\">@3</span>" in home
    assert "superseded by v2" in home


def test_the_developer_page_lists_every_version_with_its_status(stored) -> None:
    client, _, _ = stored
    dev = client.get("/api/developers/ada").json()
    assert [(v["version"], v["status"]) for v in dev["versions"]] == [(3, "active"), (2, "suspended"),
                                                                      (1, "retired")]
    page = client.get("/developers/ada")
    assert page.status_code == 200 and page.text.count('href="/bots/ada%2Fbidder%40') == 3
    assert client.get("/developers/nobody").status_code == 404
    assert client.get("/api/developers/nobody").status_code == 404


def test_a_suspended_version_shows_why_and_its_faults_per_match(stored) -> None:
    client, store, _ = stored
    bot = client.get(f"/api/bots/{V2}").json()
    assert bot["version"]["status"] == "suspended"
    assert bot["version"]["reason"].startswith("crashed in 3 consecutive matches; last: the bot exited with "
                                               "code 1")
    assert [v["name"] for v in bot["other_versions"]] == [V3, V1]
    rows = bot["matches_health"]
    assert len(rows) >= 3 and all(r["crashes"] == 1 and r["forfeit_reason"] for r in rows[:3])
    page = client.get("/bots/ada%2Fbidder%402").text
    assert "suspended" in page and "crashed in 3 consecutive matches" in page
    assert EVIL_REASON not in page and "&lt;img src=x onerror=alert(1)&gt;" in page  # escaped, not markup
    for r in rows:
        assert f'href="/matches/{r["match_id"]}"' in page


def test_a_version_page_shows_time_per_decision_but_nothing_of_a_sealed_match(stored) -> None:
    client, store, ids = stored
    sealed = ids["sealed"]
    assert q.match(store, sealed).sealed
    seated = q.match(store, sealed).bots
    for name in set(seated):
        bot = client.get(f"/api/bots/{name}").json()
        assert str(sealed) not in [r["match_id"] for r in bot["matches_health"]]
        assert bot["matches_health"], name
        assert any(r["decisions"] > 0 for r in bot["matches_health"])  # (a match its opponent crashed at
        # once may end before it decided anything)
        page = client.get(f"/bots/{name.replace('/', '%2F').replace('@', '%40')}").text
        assert f'<a href="/matches/{sealed}">{sealed}</a></td><td>sealed_bids' not in page
    # every match row names the version that played it
    matches = client.get("/api/matches?game=sealed_bids&per_page=200").json()["items"]
    assert {s["name"] for m in matches for s in m["seats"]} >= {V2, V3}
