"""The dashboard in a real browser (Debian's Chromium via Playwright): a ladder, a match of every
game (step, scrub, keyboard, perspective switch, step links), every renderer over every step of a
whole replay in every perspective, a live match, and a 404 page.
Screenshots go to test-artifacts/screenshots/; one per game is copied to docs/screenshots/."""
from __future__ import annotations

import shutil

import pytest

from tests.dashboard.conftest import ROOT, app, browser, page, server, shot, source  # noqa: F401 - fixtures
from tests.dashboard.fixtures import available_games

pytestmark = [pytest.mark.e2e]
GAMES = available_games()


def test_home_and_ladder(page, server):  # noqa: F811
    page.goto(server.url + "/")
    assert page.locator(".game-card").count() >= 1
    page.click("a.game-card[href='/games/sealed_bids']")
    page.wait_for_selector("#ladder")
    rows = page.locator("#ladder tbody tr")
    assert rows.count() == 4
    assert page.locator("#ladder svg.spark").count() == 4
    assert page.locator(".crosstable td.h2h").count() > 0
    # the hostile bot name shows as text, and no script ran
    assert page.get_by_text("<script>alert(1)</script>").first.is_visible()
    assert not page.errors, page.errors
    shot(page, "ladder-sealed_bids")


def _wait_step(page, n: int) -> None:  # noqa: F811
    page.wait_for_selector(f"#v-board[data-step='{n}']", timeout=15000)


def _wait_step_at_least(page, n: int, timeout: float = 15.0) -> int:  # noqa: F811
    """Poll from Python: the page's CSP forbids the string evaluation wait_for_function uses."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        step = int(page.locator("#v-board").get_attribute("data-step") or -1)
        if step >= n:
            return step
        time.sleep(0.05)
    raise AssertionError(f"step never reached {n}")


def test_replay_controls_generic_renderer(page, server):  # noqa: F811
    page.goto(server.url + "/matches/m1")
    _wait_step(page, 0)
    assert page.locator(".generic-view").count() == 1  # the fixture game has no renderer
    page.click("#v-next")
    _wait_step(page, 1)
    page.keyboard.press("ArrowRight")
    _wait_step(page, 2)
    page.keyboard.press("End")
    last = int(page.locator("#v-steps").inner_text())
    _wait_step(page, last)
    page.keyboard.press("Home")
    _wait_step(page, 0)
    page.locator("#v-scrub").fill("5")
    _wait_step(page, 5)
    assert "step=5" in page.url
    # perspective switch keeps the step; a seat sees its hand, the public view does not
    page.select_option("#v-perspective", "0")
    page.wait_for_selector("#viewer[data-perspective='0'][data-step='5']")
    assert "hand" in page.locator("#v-raw").text_content()
    page.select_option("#v-perspective", "public")
    page.wait_for_selector("#viewer[data-perspective='public'][data-step='5']")
    assert '"hand"' not in page.locator("#v-raw").text_content()
    # play advances by itself
    page.select_option("#v-speed", "10")
    page.click("#v-play")
    _wait_step_at_least(page, 8)
    page.click("#v-play")
    # a link to a step opens there
    page.goto(server.url + "/matches/m1?step=3")
    _wait_step(page, 3)
    page.goto(server.url + "/matches/m1#step=7&view=all")
    _wait_step(page, 7)
    assert page.locator("#v-perspective").input_value() == "all"
    assert not page.errors, page.errors
    shot(page, "match-sealed_bids")


def _assert_drawn(page, where: str) -> None:  # noqa: F811
    """The board is a drawing, not the fallback; on failure say why (the page's JS errors first)."""
    warn = page.locator("#v-board .warn")
    shown = warn.first.inner_text() if warn.count() else "no warning shown"
    why = f"{where}: page errors {page.errors}; {shown}"
    assert warn.count() == 0, why
    assert page.locator("#v-board svg.board-svg").count() >= 1, "no drawing at " + why
    assert page.locator("#v-board .generic-view").count() == 0, "fell back to the tree view at " + why


@pytest.mark.parametrize("game", GAMES)
def test_every_game_draws_its_board(page, server, game):  # noqa: F811
    page.goto(f"{server.url}/matches/{game}-1")
    _wait_step(page, 0)
    _assert_drawn(page, "step 0")
    page.keyboard.press("5")  # jump to 50%
    step = str(_wait_step_at_least(page, 1))
    for p in ["public", "0", "all"]:
        page.select_option("#v-perspective", p)
        page.wait_for_selector(f"#viewer[data-perspective='{p}'][data-step='{step}']", timeout=15000)
        _assert_drawn(page, f"step {step}, perspective {p}")
    assert not page.errors, page.errors
    path = shot(page, f"game-{game}")
    docs = ROOT / "docs" / "screenshots"
    docs.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, docs / f"{game}.png")



# The pieces' colours by seat (Dungeon Twister: data.COLOURS; Clank!: game.toml `colours`), as the
# renderers draw them.
PIECE_COLOURS = {"dungeon_twister": ["#3e63dd", "#e5484d"], "clank": ["#e5484d", "#f5a524"]}


@pytest.mark.parametrize("game", sorted(PIECE_COLOURS))
def test_seat_chips_take_the_colour_of_their_pieces(page, server, game):  # noqa: F811
    page.goto(f"{server.url}/matches/{game}-1")
    _wait_step(page, 0)
    got = page.evaluate("""() => [...document.querySelectorAll('.seat-chip')].map(
        (e) => getComputedStyle(e).getPropertyValue('--seat').trim().toLowerCase())""")
    assert got[:2] == PIECE_COLOURS[game], got

# Runs inside the match page: fetch every frame of one perspective in chunks, hand each view to the
# game's renderer (detached: no layout needed to find exceptions) and collect what throws.
WALK_JS = """async ([perspective]) => {
  const cfg = JSON.parse(document.getElementById("viewer-config").textContent);
  const render = Arena.renderers[cfg.game];
  if (!render) return {steps: 0, rendered: 0, errors: [{step: -1, message: "no renderer for " + cfg.game}]};
  const g = await fetch("/api/games/" + encodeURIComponent(cfg.game) + "/glossary");
  const glossary = g.ok ? await g.json() : {};
  const ctx = {seats: cfg.seats, players: cfg.players, perspective, game: cfg.game, glossary};
  const errors = [];
  // A drawing that says "undefined" or "NaN" read a field the view does not have (the view format moved).
  const bad = (node) => {
    if (/\\bundefined\\b|\\bNaN\\b/.test(node.textContent)) {
      return "text: " + node.textContent.match(/.{0,40}(undefined|NaN).{0,20}/)[0];
    }
    for (const el of node.querySelectorAll("*")) {
      for (const a of el.attributes) {
        if (/undefined|NaN/.test(a.value)) return el.tagName + " " + a.name + "=" + a.value.slice(0, 80);
      }
    }
    return null;
  };
  let start = 0, steps = 1, rendered = 0;
  while (start < steps) {
    const url = "/api/matches/" + encodeURIComponent(cfg.matchId) + "/frames?perspective=" + perspective +
                "&start=" + start + "&limit=500";
    const r = await fetch(url, {headers: {Accept: "application/json"}});
    if (!r.ok) { errors.push({step: start, message: "frames API answered " + r.status}); break; }
    const data = await r.json();
    steps = data.steps;
    for (const f of data.frames) {
      try {
        const node = render(f.view, ctx);
        if (!(node instanceof Node)) errors.push({step: f.step, message: "the renderer returned no node"});
        else { const why = bad(node); if (why) errors.push({step: f.step, message: "drew " + why}); }
      } catch (e) {
        const stack = String(e && e.stack || "").split("\\n").slice(0, 4).join(" | ");
        errors.push({step: f.step, message: String(e), stack});
      }
      rendered++;
    }
    if (!data.frames.length) break;
    start += data.frames.length;
  }
  return {steps, rendered, errors: errors.slice(0, 5), count: errors.length};
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_renderer_survives_every_step_in_every_perspective(page, server, source, game):  # noqa: F811
    """Walk one whole replay per game, every step, from each seat, the public and the full view."""
    players = source.replay(f"{game}-1").players
    page.goto(f"{server.url}/matches/{game}-1")
    _wait_step(page, 0)
    failures = {}
    for p in ["public", *map(str, range(players)), "all"]:
        out = page.evaluate(WALK_JS, [p])
        assert out["rendered"] == out["steps"] > 1, (p, out)
        if out["count"]:
            failures[p] = out
    assert not failures, f"{game}: renderer exceptions {failures}"
    assert not page.errors, page.errors


def test_follow_a_live_match(page, server):  # noqa: F811
    page.goto(server.url + "/matches/live1")
    page.wait_for_selector("#viewer[data-mode='live']")
    options = page.locator("#v-perspective option").all_inner_texts()
    assert options == ["Public"]
    _wait_step_at_least(page, 1)
    assert '"hand"' not in page.locator("#v-raw").text_content()
    # who decided is shown (what they decided is not: the public view)
    assert "made a decision" in page.locator("#v-action").text_content()
    page.wait_for_selector("#viewer[data-live-ended='true']", timeout=30000)
    assert int(page.locator("#v-board").get_attribute("data-step")) > 3
    assert not page.errors, page.errors
    shot(page, "live-sealed_bids")


def test_404_page(page, server):  # noqa: F811
    resp = page.goto(server.url + "/matches/does-not-exist")
    assert resp.status == 404
    assert page.locator(".error-code").inner_text() == "404"
