"""BC-7: dense no-leak checks (every ply of a few random games), and what each view may show."""
from __future__ import annotations

import json

import pytest

from referee.engine import ALL, PUBLIC, Rng
from referee.games.blockcraft import GAME


@pytest.mark.parametrize(("players", "mode", "rounds"), [(1, "extreme", 4), (3, "boss", 4), (4, "team", 4),
                                                         (4, "overlord", None), (6, "team", None)])
def test_redeterminize_every_ply(players: int, mode: str, rounds: int | None) -> None:
    """BC-7.3: re-drawing hidden things never changes a seat's view, legal list or events, nor the PUBLIC view
    (full-length games reach Night, downed characters, rescue windows and deaths)."""
    st = GAME.new_state(players, {"mode": mode, "max_rounds": rounds}, 17)
    rng = Rng(5)
    changed = nights = 0
    kinds: set[str] = set()
    ply = 0
    while st.pending():
        if ply % 3 == 0:
            public = st.observe(PUBLIC)
            for seat in range(players):
                other = st.redeterminize(seat, Rng(ply * 31 + seat))
                assert other.observe(seat) == st.observe(seat), f"ply {ply}: seat {seat}'s view leaks"
                assert other.legal_actions(seat) == st.legal_actions(seat)
                assert other.observe(PUBLIC) == public
                assert other.pending() == st.pending()
                assert other.events_for(seat) == st.events_for(seat)
                changed += other.digest() != st.digest()
        kinds.update(f.kind for f in st.stack.frames)
        nights += not st.day
        seat = st.pending()[0]
        st.apply(seat, rng.choice(st.legal_actions(seat)))
        ply += 1
    assert changed > 0
    if rounds is None:
        assert nights and "rescue" in kinds, "a full game should reach Night and a rescue window"


def test_views_whitelist() -> None:
    """BC-7.1-7.6: face-down cards show only their layer; hands only to their owner; ALL shows everything."""
    st = GAME.new_state(3, {"mode": "overlord"}, 8)
    for s in range(3):
        st.apply(s, st.legal_actions(s)[0])
    pub = st.observe(PUBLIC)
    downs = [c for stack in pub["map"]["cells"].values() for c in stack]
    assert all(c in ("?S", "?U", "?D") for c in downs)
    assert "private" not in pub and "hidden" not in pub
    mine = st.observe(1)
    assert mine["private"]["hand"] == dict(sorted(st.p[1].hand.items()))
    assert [p["hand_count"] for p in mine["players"]] == [p.hand_size() for p in st.p]
    assert all(p["identity"] is None for p in mine["players"])        # overlord ignores identity faces
    full = st.observe(ALL)
    assert all(c[:2] in ("?S", "?U", "?D") and len(c) > 3 for stack in full["map"]["cells"].values() for c in stack)
    assert full["hidden"]["draw_pile"] == st.draw_pile


def test_draws_are_private_events() -> None:
    """BC-7.2 / BC-7.4: a draw is public as a count, the card only to the drawer."""
    st = GAME.new_state(2, {"mode": "overlord"}, 3)
    pub = st.events_for(PUBLIC)
    assert [e for e in pub if e["type"] == "draw"] and not [e for e in pub if e["type"] == "drew"]
    drew0 = [e for e in st.events_for(0) if e["type"] == "drew"]
    assert len(drew0) == 2 and all(e["seat"] == 0 for e in drew0)


def test_views_are_json_and_stable() -> None:
    st = GAME.new_state(4, {"mode": "team"}, 2)
    for viewer in (0, 1, 2, 3, PUBLIC, ALL):
        v = st.observe(viewer)
        assert json.loads(json.dumps(v)) == v
