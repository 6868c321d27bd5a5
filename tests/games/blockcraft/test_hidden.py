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
    assert all(c[:2] in ("?S", "?U", "?D") and len(c) > 3 for stack in full["map"]["cells"].values()
               for c in stack)
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


# ---- BC-7.1 / BC-7.3: a card chosen for an action stays hidden until the action commits (issue 17) ----
def _committed_only(st: object, before: int, secret: set[str]) -> list[str]:
    """Card ids among ``secret`` that any event since ``before`` shows to seat 1 or a spectator."""
    seen = json.dumps(st.events_for(PUBLIC, before) + st.events_for(1, before))
    return sorted(c for c in secret if f'"{c}"' in seen)


def _pending_public(st: object) -> list[dict]:
    return [st.observe(PUBLIC)["pending"], st.observe(1)["pending"]]


def test_bc_7_3_place_and_use_choices_are_public_only_when_committed() -> None:
    """BC-7.1 / BC-7.3: opening `place` or `use` and cancelling reveals nothing of the hand (the chosen card
    is logged when `place_at` / `use_at` commits the action)."""
    from .builder import build

    st = build({"p": {"0": {"cell": [0, 0], "hand": {"glass": 1, "tnt": 1}}, "1": {"cell": [3, 3]}},
                "cells": {"1,0": 2}})
    for action, secret in (({"type": "place", "card_type": "glass"}, "glass"),
                           ({"type": "use", "card_type": "tnt"}, "tnt")):
        before = len(st.log)
        st.apply(0, action)
        assert all("card" not in p[0] for p in _pending_public(st)), "the chosen card shows in a public view"
        assert st.observe(0)["pending"][0]["card"] == secret            # its owner still sees it
        st.apply(0, {"type": "cancel"})
        assert _committed_only(st, before, {secret}) == [], f"cancelled {action['type']} revealed {secret}"
    before = len(st.log)
    st.apply(0, {"type": "place", "card_type": "glass"})
    st.apply(0, {"type": "place_at", "cell": [1, 0]})
    assert _committed_only(st, before, {"glass"}) == ["glass"]          # committed: public (BC-7.1)


def test_bc_7_3_a_smelt_batch_is_public_only_when_confirmed() -> None:
    """BC-7.1 / BC-5.18: the batch being built is private until `smelt_confirm`; `cancel` reveals nothing."""
    from .builder import build

    st = build({"p": {"0": {"cell": [0, 0], "hand": {"iron_ore": 1, "coal_ore": 1},
                            "blocks": [{"card": "furnace"}]}, "1": {"cell": [3, 3]}}})
    before = len(st.log)
    st.apply(0, {"type": "smelt", "furnace_slot": 0})
    st.apply(0, {"type": "smelt_material", "card_type": "iron_ore"})
    st.apply(0, {"type": "smelt_fuel", "card_type": "coal_ore"})
    for pend in _pending_public(st):
        assert "materials" not in pend[0] and "fuels" not in pend[0]
    assert st.observe(0)["pending"][0]["materials"] == ["iron_ore"]
    st.apply(0, {"type": "cancel"})
    assert _committed_only(st, before, {"iron_ore", "coal_ore"}) == []
    st.apply(0, {"type": "smelt", "furnace_slot": 0})
    st.apply(0, {"type": "smelt_material", "card_type": "iron_ore"})
    st.apply(0, {"type": "smelt_fuel", "card_type": "coal_ore"})
    st.apply(0, {"type": "smelt_confirm"})
    assert _committed_only(st, before, {"iron_ore", "coal_ore"}) == ["coal_ore", "iron_ore"]


def test_bc_7_3_redeterminize_redraws_a_chosen_card() -> None:
    """DESIGN redeterminize: the card in an open place choice is hidden from seat 1, so seat 1's copies
    re-draw it (always a placeable card, BC-5.10) instead of repeating the truth."""
    from .builder import build

    st = build({"p": {"0": {"cell": [0, 0], "hand": {"dirt": 1, "apple": 2}}, "1": {"cell": [3, 3]}},
                "draw_pile": ["dirt", "log", "sand", "stone", "apple"] * 4})
    st.apply(0, {"type": "place", "card_type": "dirt"})
    seen = set()
    for k in range(40):
        cp = st.redeterminize(1, Rng(k))
        card = cp.stack.top().data["card"]
        assert cp.cat.cards[card].placeable
        assert cp.observe(1) == st.observe(1)
        seen.add(card)
    assert len(seen) > 1, "seat 1's copies always hold the true chosen card"
