"""CK-7: views are whitelists; nothing hidden leaks through views, events or redeterminize."""
from __future__ import annotations

import json

from referee.engine import ALL, PUBLIC, Rng
from referee.games.clank import GAME


def _walk(players: int, seed: int, plies: int):
    st = GAME.new_state(players, {}, seed)
    rng = Rng(seed)
    for ply in range(plies):
        if st.over:
            break
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.below(len(legal))])
        if ply % 15 == 0:
            yield st


def test_no_hidden_id_in_public_or_other_seat_views() -> None:
    """CK-7.1 / CK-7.4: hand, deck, dungeon-deck and face-down token ids never reach other viewers."""
    for st in _walk(3, 7, 600):
        face_down = {t for ts in st.minor.values()
                     for t in ts} | set(st.major.values()) | set(st.minor_aside) \
            | set(st.major_aside)
        public = json.dumps(st.observe(PUBLIC)) + json.dumps(st.events_for(PUBLIC))
        for token in face_down:
            assert f'"{token}"' not in public
        for c in st.ddeck:
            # the opening row's set-aside dragon cards are public by CK-7.1; everything else is not
            if f'"{c}"' in public:
                assert any(e["type"] == "opening_set_aside" and e["card"] == c for e in st.events_for(PUBLIC))
        for seat in range(st.players):
            mine = json.dumps(st.observe(seat)) + json.dumps(st.events_for(seat))
            for other in range(st.players):
                if other == seat:
                    continue
                for c in st.p[other].hand + st.p[other].deck:
                    # a card id becomes public once it was ever in a public zone (played/discarded)
                    if f'"{c}"' in mine:
                        assert f'"{c}"' in public


def test_seat_view_has_private_part_and_all_has_hidden() -> None:
    """CK-7.2 / CK-7.6: own hand and deck composition; ALL shows hands, decks and secrets."""
    st = GAME.new_state(2, {}, 11)
    v0 = st.observe(0)
    assert sorted(c["id"] for c in v0["private"]["hand"]) == sorted(st.p[0].hand)
    assert sum(v0["private"]["deck_composition"].values()) == len(st.p[0].deck)
    assert v0["players"][1]["hand_count"] == 5 and "hidden" not in v0
    assert st.observe(PUBLIC)["private"] is None
    everything = st.observe(ALL)
    assert [c["id"] for c in everything["hidden"]["decks"][1]] == st.p[1].deck
    assert len(everything["hidden"]["minor_set_aside"]) == 2 and len(
        everything["hidden"]["major_set_aside"]) == 4


def test_view_carries_what_a_renderer_needs() -> None:
    """README "View format": map, pawns, row, market, rage track."""
    v = GAME.new_state(4, {}, 2).observe(PUBLIC)
    assert len(v["static"]["rooms"]) == 30 and len(v["static"]["tunnels"]) == 53
    assert [p["room"] for p in v["players"]] == ["R0"] * 4
    assert len(v["row"]) == 6 and all(r["name"] for r in v["row"])
    assert v["market"]["crowns"] == [10, 9, 8]
    assert v["rage"] == {"index": 0, "cubes": 2}
    assert v["static"]["constants"]["rage_track"] == [2, 2, 3, 3, 4, 4, 5]


def test_private_draw_events() -> None:
    """CK-7.1: draws are public as counts; the cards go only to the drawer."""
    st = GAME.new_state(2, {}, 4)
    pub = [e for e in st.events_for(PUBLIC) if e["type"] in ("draw", "drew")]
    assert pub and all(e["type"] == "draw" and "cards" not in e for e in pub)
    mine = [e for e in st.events_for(1) if e["type"] == "drew"]
    assert mine and all(e["seat"] == 1 for e in mine)


def test_redeterminize_redraws_hidden_only() -> None:
    """CK-7.3: other hands, deck orders, the dungeon deck and face-down secrets are re-drawn."""
    st = GAME.new_state(3, {}, 9)
    other = st.redeterminize(0, Rng(1))
    assert other.observe(0) == st.observe(0) and other.observe(PUBLIC) == st.observe(PUBLIC)
    assert other.p[0].hand == st.p[0].hand
    assert other.ddeck != st.ddeck and sorted(other.ddeck) == sorted(st.ddeck)
    assert sorted(other.p[1].hand + other.p[1].deck) == sorted(st.p[1].hand + st.p[1].deck)
    assert other.rng.to_json() != st.rng.to_json()
    moved = [r for r in st.minor if other.minor[r] != st.minor[r]]
    assert moved
