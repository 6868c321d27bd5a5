"""The hot pages (ladder page and JSON): pre-rendered bytes, ETag/304, gzip, security headers, and a
store version read at most once a second however many requests arrive."""
from __future__ import annotations

import gzip
import time

import pytest
from fastapi.testclient import TestClient

from dashboard.app import create_app
from dashboard.fastpath import Payload
from tests.dashboard.fixtures import build_source

HOT = ["/api/games/sealed_bids/ladder", "/games/sealed_bids"]


class CountingSource:
    """A source that counts its version reads (everything else is the wrapped source's)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.version_reads = 0

    def version(self) -> str:
        self.version_reads += 1
        return self.inner.version()

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


@pytest.fixture(scope="module")
def counted():
    src = CountingSource(build_source(extra_games=False))
    app = create_app(src)
    with TestClient(app) as c:
        yield c, src, app


@pytest.mark.parametrize("url", HOT)
def test_hot_pages_are_prerendered_payloads_with_validation(counted, url):
    client, _, app = counted
    first = client.get(url)
    assert first.status_code == 200
    kind = "ladder-json" if url.startswith("/api") else "ladder-html"
    cached = app.state.dashboard.cache.peek((kind, "sealed_bids"))
    assert isinstance(cached, Payload) and cached.body == first.content
    again = client.get(url, headers={"Accept-Encoding": "identity"})
    assert again.content == first.content and again.headers["etag"] == first.headers["etag"]
    for r in (first, again):
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["cache-control"] == "no-cache"
    not_modified = client.get(url, headers={"If-None-Match": first.headers["etag"]})
    assert not_modified.status_code == 304 and not_modified.content == b""
    zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert zipped.content == first.content  # httpx decodes
    if len(cached.body) > 1400:  # small bodies go as they are
        assert zipped.headers["content-encoding"] == "gzip" and gzip.decompress(cached.gzipped) == cached.body
    else:
        assert "content-encoding" not in zipped.headers and cached.gzipped is None
    head = client.head(url)
    assert head.status_code == 200 and head.content == b""
    with_query = client.get(url + "?x=1")  # not the fast path, same answer
    assert with_query.status_code == 200 and with_query.content == first.content


def test_version_is_read_at_most_once_a_second(counted):
    client, src, _ = counted
    for url in HOT:
        client.get(url)
    time.sleep(1.1)  # let a stale check happen once, then hammer
    before = src.version_reads
    t0 = time.monotonic()
    for _ in range(200):
        for url in HOT:
            assert client.get(url).status_code == 200
    elapsed = time.monotonic() - t0
    time.sleep(0.2)  # a background re-read started by the last request may still be finishing
    assert src.version_reads - before <= int(elapsed) + 2, (src.version_reads - before, elapsed)


def test_a_new_version_is_served_within_a_second_or_so(counted):
    client, src, _ = counted
    before = client.get("/api/games/sealed_bids/ladder").json()["matches"]
    from tests.dashboard.fixtures import play

    res = play("sealed_bids", 2, 4242, ["alpha", "beta"])
    src.inner.add_match("m-new", "sealed_bids", ["alpha", "beta"], replay=res.replay, tournament_id="t1",
                        finished="2024-05-03T10:00:00")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if client.get("/api/games/sealed_bids/ladder").json()["matches"] == before + 1:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the ladder never showed the new match")
    assert client.get("/games/sealed_bids").status_code == 200


def test_unknown_game_is_still_a_404(counted):
    client, _, _ = counted
    assert client.get("/api/games/nope/ladder").status_code == 404
    assert client.get("/games/nope").status_code == 404
