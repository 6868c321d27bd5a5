"""The example outside game (examples/liars_dice, installed by scripts/test.sh) drawn in a real browser
by its own renderer — a JS file in its package, declared by the game, served at /renderers/liars_dice.js:
seat 0 sees its own dice and hidden ones for the others, spectators see none, the full view all; and the
renderer survives every step of the replay in every perspective."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from bots.builtin import make_bot
from dashboard.app import create_app
from dashboard.source import MemorySource
from referee.engine import get_game, run_match
from tests.dashboard.conftest import LiveServer, browser, page, shot  # noqa: F401 - fixtures
from tests.e2e.test_dashboard_browser import WALK_JS, _wait_step

pytestmark = [pytest.mark.e2e]
MATCH = "liars_dice-1"


@pytest.fixture(scope="module")
def example_server() -> Iterator[LiveServer]:
    game = get_game("liars_dice")  # from its entry point: fails if examples/liars_dice is not installed
    bots = [make_bot("heuristic", "liars_dice", 1), make_bot("random", "liars_dice", 2)]
    result = run_match(game, bots, seed=4, bot_names=["liar", "rnd"], match_id=MATCH)
    src = MemorySource()
    for name in ("liar", "rnd"):
        src.add_bot(name, name)
    src.add_match(MATCH, "liars_dice", ["liar", "rnd"], replay=result.replay, finished="2024-05-03T10:00:00")
    with LiveServer(create_app(src)) as srv:
        yield srv


def faces(pg, seat: int) -> list[str]:
    return [d.get_attribute("data-face") or "" for d in
            pg.locator(f"#v-board svg.ld .ld-seat[data-seat='{seat}'] .ld-die").all()]


def test_its_own_renderer_draws_the_dice(page, example_server) -> None:  # noqa: F811
    page.goto(f"{example_server.url}/matches/{MATCH}")
    _wait_step(page, 0)
    assert page.locator("script[src='/renderers/liars_dice.js']").count() == 1
    assert page.locator("#v-board svg.ld").count() == 1 and page.locator(".generic-view").count() == 0
    page.select_option("#v-perspective", "0")
    page.wait_for_selector("#viewer[data-perspective='0'][data-step='0']")
    mine, theirs = faces(page, 0), faces(page, 1)
    assert len(mine) == 3 and all(f.isdigit() for f in mine), mine
    assert theirs == ["hidden"] * 3, theirs
    page.select_option("#v-perspective", "public")
    page.wait_for_selector("#viewer[data-perspective='public'][data-step='0']")
    assert faces(page, 0) == ["hidden"] * 3 and faces(page, 1) == ["hidden"] * 3
    page.select_option("#v-perspective", "all")
    page.wait_for_selector("#viewer[data-perspective='all'][data-step='0']")
    assert all(f.isdigit() for f in faces(page, 0) + faces(page, 1))
    assert "Round 1" in page.locator("#v-board svg.ld .ld-title").text_content()
    assert not page.errors, page.errors
    shot(page, "game-liars_dice")


def test_its_renderer_survives_every_step_in_every_perspective(
    page, example_server) -> None:  # noqa: F811,E501
    page.goto(f"{example_server.url}/matches/{MATCH}")
    _wait_step(page, 0)
    for p in ["public", "0", "1", "all"]:
        out = page.evaluate(WALK_JS, [p])
        assert out["rendered"] == out["steps"] > 1, (p, out)
        assert not out["count"], (p, out)
    assert not page.errors, page.errors
