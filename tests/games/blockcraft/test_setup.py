"""BC-4 setup: map layers, piles, identities, character deals, start cells, first turn."""
from __future__ import annotations

from collections import Counter

import pytest

from referee.engine import PUBLIC
from referee.games.blockcraft import GAME


@pytest.mark.parametrize(("players", "size", "w"),
                         [(1, "A", 4), (2, "A", 4), (4, "B", 5), (7, "C", 6), (8, "D", 7)])
def test_map_layers_by_size(players: int, size: str, w: int) -> None:
    """BC-4.3 / BC-3.4: stacks dealt from D (bottom), U (middle) and S (top) decks; heights from the
    template."""
    st = GAME.new_state(players, {"mode": "extreme"}, 5)
    assert st.size.id == size and st.w == w
    cat = st.cat
    for layer in ("S", "U", "D"):
        dealt = Counter(c["c"] for stack in st.cells for c in stack if c["l"] == layer)
        assert dealt == Counter(cat.layer_deck(st.size, layer))
    for y in range(st.h):
        for x in range(st.w):
            stack = st.cell(x, y)
            assert len(stack) == st.size.height_at(x, y)
            assert stack[0]["l"] == "D" and stack[-1]["l"] == "S" and all(c["s"] == "down" for c in stack)


def test_piles_supply_and_hands() -> None:
    """BC-4.7-BC-4.10: supply (world_core only in extreme), draw pile 30 - 2 per seat, enchantments
    shuffled."""
    st = GAME.new_state(3, {"mode": "overlord"}, 9)
    assert "world_core" not in st.supply and st.supply["planks"] == 40
    assert len(st.draw_pile) == 30 - 6 and all(p.hand_size() == 2 for p in st.p)
    assert sorted(st.enchant_deck) == [f"e{i:02d}" for i in range(1, 17)]
    assert GAME.new_state(3, {"mode": "extreme"}, 9).supply["world_core"] == 1


def test_team_setup_two_factions() -> None:
    """T14 setup: 3 human + 3 undead identities, face up; 2 characters of the own faction each."""
    st = GAME.new_state(6, {"mode": "team", "team_split": "two_factions",
                            "team_factions": ["human", "undead"]}, 4)
    assert Counter(p.identity for p in st.p) == {"human": 3, "undead": 3}
    view = st.observe(PUBLIC)
    assert [p["identity"] for p in view["players"]] == [p.identity for p in st.p]
    for p in st.p:
        assert len(p.options) == 2
        assert all(st.cat.characters[c].faction == p.identity for c in p.options)
    assert st.pending() == list(range(6))   # simultaneous choice


def test_boss_setup_and_boss_stats() -> None:
    """BC-4.4-BC-4.6: the BOSS card is public, the BOSS chooses among 3 BOSS cards; stamina + 4 x (N - 2)."""
    st = GAME.new_state(4, {"mode": "boss"}, 2)
    boss = st.boss_seat
    assert boss is not None and st.p[boss].identity == "boss"
    assert all(st.cat.characters[c].faction == "boss" for c in st.p[boss].options)
    assert all(len(p.options) == 3 for p in st.p)
    pub = st.observe(PUBLIC)["players"]
    assert [p["identity"] for p in pub] == [("boss" if s == boss else None) for s in range(4)]
    for s in range(4):
        st.apply(s, st.legal_actions(s)[0])
    c = st.cat.characters[st.p[boss].character]
    assert st.p[boss].max_stamina == c.sta + 8
    # BC-4.11: the BOSS starts on a highest cell, others on border cells
    while st.phase == "choose_start":
        seat = st.pending()[0]
        cells = [a["cell"] for a in st.legal_actions(seat)]
        if seat == boss:
            assert cells == [[2, 2]]
        else:
            assert all(x in (0, 4) or y in (0, 4) for x, y in cells)
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.phase == "turn" and st.current == 0 and st.round == 1 and st.p[0].ap == (5 if boss == 0 else 4)


def test_nine_players_get_two_characters() -> None:
    """BC-4.5: K = min(3, floor(24 / N))."""
    st = GAME.new_state(9, {"mode": "overlord"}, 1)
    assert all(len(p.options) == 2 for p in st.p)
    assert len({c for p in st.p for c in p.options}) == 18


def test_choice_is_secret_until_all_chose() -> None:
    st = GAME.new_state(2, {"mode": "overlord"}, 1)
    st.apply(0, st.legal_actions(0)[0])
    assert st.observe(1)["players"][0]["character"] is None
    assert st.observe(PUBLIC)["players"][0]["chosen"] is True
    st.apply(1, st.legal_actions(1)[0])
    assert st.observe(1)["players"][0]["character"] == st.p[0].character
