"""Issue 20's dashboard pages in a real browser (Debian's Chromium via Playwright): from the home page's
submissions feed to a suspended version (its reason, its faults per match, a link to a match it played),
to its developer's page and another version; no script errors, hostile strings shown as text."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from dashboard.app import create_app
from dashboard.live import ReplayFeed
from tests.dashboard.conftest import LiveServer, browser, page, shot  # noqa: F401 - fixtures
from tests.dashboard.versions_fixture import EVIL_REASON, V3, build_versions_store

pytestmark = [pytest.mark.e2e]


@pytest.fixture(scope="module")
def versions_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('versions') / 'arena.db'}"
    build_versions_store(url)
    with LiveServer(create_app(db_url=url, live=ReplayFeed({}), organizer_token="t")) as srv:
        yield srv


def test_from_the_submissions_feed_to_a_suspended_version_and_its_developer(page, versions_server) -> None:  # noqa: F811
    page.goto(versions_server.url + "/")
    feed = page.locator("#submissions + table.versions tbody tr")
    assert feed.count() == 3
    assert "suspended" in feed.nth(1).inner_text().lower()  # (badges are upper-cased by CSS)
    feed.nth(1).locator("a.bot").click()
    page.wait_for_selector("#version-status")
    assert "suspended" in page.locator("#version-status").inner_text().lower()
    assert "crashed in 3 consecutive matches" in page.locator("#version-status").inner_text()
    assert page.get_by_text(EVIL_REASON.strip(" ()"), exact=False).first.is_visible()  # text, not an image
    rows = page.locator("#match-health tbody tr")
    assert rows.count() >= 3 and "yes" in rows.first.inner_text()
    shot(page, "version-suspended")
    href = rows.first.locator("a").get_attribute("href")
    page.click(f"#match-health a[href='{href}']")
    page.wait_for_selector(".seat-list")
    assert "bidder@2" in page.locator(".seat-list").inner_text()  # the match names the version that played
    page.go_back()
    page.click("a[href='/developers/ada']")
    page.wait_for_selector("table.versions")
    assert page.locator("table.versions tbody tr").count() == 3
    page.click(f"table.versions a[href='/bots/{V3.replace('/', '%2F').replace('@', '%40')}']")
    page.wait_for_selector("#version-status")
    assert "active" in page.locator("#version-status").inner_text().lower()
    assert not page.errors, page.errors
    shot(page, "developer-version")
