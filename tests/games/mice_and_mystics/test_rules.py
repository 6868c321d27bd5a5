"""One focused test per tricky rule (the scenario files cover section 10)."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine import ALL, PUBLIC, BadOptions, Rng
from referee.games.mice_and_mystics import GAME
from referee.games.mice_and_mystics.rules import flow

from .builder import build, start


def four(area: str, **extra: dict[str, Any]) -> dict[str, Any]:
    mice: dict[str, Any] = {h: {"area": area} for h in ("corran", "wren", "mallow", "tock")}
    for h, v in extra.items():
        mice[h] = {**mice.get(h, {"area": area}), **v}
    return mice


def types(st: Any) -> list[str]:
    return [a["type"] for a in st.legal_actions(st.pending()[0])]


# -- options and setup (MM-4) ---------------------------------------------------------------------
@pytest.mark.parametrize("opts", [
    {"heroes": ["corran", "corran", "wren", "tock"]},
    {"heroes": ["corran", "wren", "tock", "nobody"]},
    {"assignment": [0, 0, 0, 0]},
    {"heroes": ["corran", "wren", "tock", "pip"], "assignment": [0, 0, 0, 0]},
    {"chapter": 3},
    {"round_limit": 0},
])
def test_bad_options_get_one_clear_error(opts: dict[str, Any]) -> None:
    """MM-4.1 invalid combinations are rejected."""
    with pytest.raises(BadOptions):
        GAME.new_state(2, opts, 0)


def test_hero_draft_round_robin_and_ability_classes() -> None:
    """MM-4.3 seats pick 0,1,2,0; MM-4.4 abilities match the mouse's classes and are unique."""
    st = GAME.new_state(3, {}, 5)
    seats = []
    for hero in ("corran", "wren", "mallow", "fennimore"):
        seats.append(st.pending()[0])
        st.apply(st.pending()[0], {"type": "choose_hero", "hero": hero})
    assert seats == [0, 1, 2, 0]
    legal = st.legal_actions(st.pending()[0])
    assert {a["ability"] for a in legal} == {"a01", "a02", "a03", "a14"}  # corran: warrior or any
    st.apply(0, {"type": "choose_ability", "mouse": "corran", "ability": "a14"})
    assert all(a["ability"] != "a14" for a in st.legal_actions(st.pending()[0]))


def test_setup_places_the_start_room() -> None:
    """MM-4.7 start-room monsters numbered m1.. in listed order; traps; MM-4.8 story board."""
    st = GAME.new_state(1, {"heroes": ["corran", "wren", "mallow", "tock"]}, 3)
    for mouse, ability in (("corran", "a01"), ("wren", "a04"), ("mallow", "a06"), ("tock", "a11")):
        st.apply(0, {"type": "choose_ability", "mouse": mouse, "ability": ability})
    view = st.observe(PUBLIC)
    assert [(k, m["type"], m["area"]) for k, m in view["monsters"].items()] == [
        ("m1", "skulker", "1A-4"), ("m2", "skulker", "1A-4"), ("m3", "skulker", "1A-5"),
        ("m4", "slinger", "1A-7")]
    assert view["traps"] == ["1A-6"] and view["hourglass"] == 1 and view["end_page"] == 6
    assert view["encounter"]["surge"] == ["skulker", "skulker"]
    assert sorted(view["track"]) == sorted(["init:corran", "init:wren", "init:mallow", "init:tock",
                                            "init:skulker", "init:slinger"])
    assert view["search_deck_size"] == 33 and view["round"] == 1


# -- capacity, rescue, reactions ------------------------------------------------------------------
def test_large_monster_fills_its_area() -> None:
    """MM-5.20 a large figure fills a (non-special) area."""
    st = build({"side": "3A",
                "track": ["init:corran", "init:millipede", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "millipede", "area": "3A-3"}], "mice": four("3A-1")},
               ["F3"])
    start(st, "turn:corran")
    assert {"type": "step", "to": "3A-3"} not in st.legal_actions(0)


def test_rescue_when_no_monsters() -> None:
    """MM-6.5 d a captured mouse is placed next to a mouse, not into water, and its turn ends."""
    st = build({"side": "2A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-5", corran={"area": None, "captured": True})}, ["F1"])
    start(st, "turn:corran")
    assert st.phase() == "rescue"
    areas = [a["area"] for a in st.legal_actions(0)]
    assert areas == ["2A-3", "2A-5", "2A-7"]  # 2A-4 is water
    st.apply(0, {"type": "rescue", "area": "2A-3"})
    view = st.observe(PUBLIC)
    assert view["mice"]["corran"]["area"] == "2A-3" and not view["mice"]["corran"]["captured"]
    assert view["turn"]["mouse"] == "wren"


def test_reaction_brace_adds_defence_dice() -> None:
    """MM-5.46 Brace: +2 defence dice, paid in cheese, one ability per card turn."""
    st = build({"side": "2A",
                "track": ["init:skulker", "init:corran", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "skulker", "area": "2A-1"}],
                "mice": four("2A-5", corran={"area": "2A-1", "abilities": ["a03"], "cheese": 1})},
               ["F2", "F2", "F4", "F4", "F4", "F4", "F5", "F1"])
    start(st, "card:init:skulker")
    assert st.phase() == "reaction"
    assert st.legal_actions(0) == [{"type": "react_ability", "ability": "a03"}, {"type": "no_reaction"}]
    st.apply(0, {"type": "react_ability", "ability": "a03"})
    view = st.observe(PUBLIC)
    # 2 hits; defence 2 + buckler 1 + brace 2 = 5 dice [F4, F4, F4, F4, F5] -> 1 block -> 1 wound
    assert view["mice"]["corran"]["wounds"] == 1 and view["mice"]["corran"]["cheese"] == 0
    assert view["turn"]["mouse"] == "corran"


def test_pepper_dust_cancels_attack() -> None:
    """MM-5.46 Pepper Dust: no defence roll, no wounds; the trick is discarded."""
    st = build({"side": "2A",
                "track": ["init:skulker", "init:corran", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "skulker", "area": "2A-1"}],
                "mice": four("2A-5", corran={"area": "2A-1", "tricks": ["s25"]})}, ["F2", "F2", "F1"])
    start(st, "card:init:skulker")
    st.apply(0, {"type": "react_trick", "card": "s25"})
    view = st.observe(PUBLIC)
    assert view["mice"]["corran"]["wounds"] == 0 and view["mice"]["corran"]["tricks"] == []
    assert view["search_discard"] == ["s25"]


# -- free actions ---------------------------------------------------------------------------------
def test_equip_swap_and_once_per_turn() -> None:
    """MM-5.28 equip sub-phase, each card moves once; MM-5.17 once per turn."""
    st = build({"side": "2A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-1", corran={"pack": ["s02", "s11"]})}, [])
    start(st, "main:corran")
    st.apply(0, {"type": "equip_begin"})
    legal = st.legal_actions(0)
    assert {"type": "equip", "card": "s11"} in legal
    assert {"type": "equip", "card": "s02"} not in legal  # 2 paws already used
    assert {"type": "swap", "out_card": "g01", "in_card": "s02"} not in legal  # buckler still needs a paw
    st.apply(0, {"type": "equip", "card": "s11"})
    st.apply(0, {"type": "unequip", "card": "g02"})
    st.apply(0, {"type": "swap", "out_card": "g01", "in_card": "s02"})
    view = st.observe(PUBLIC)
    assert view["phase"] == "main"  # nothing left to move: the equip ends by itself
    assert sorted(view["mice"]["corran"]["equipped"]) == ["s02", "s11"]
    assert "equip_begin" not in types(st)


def test_share_cards_and_cheese() -> None:
    """MM-5.29 share with an adjacent mouse: cards once each, cheese once."""
    st = build({"side": "2A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-7", corran={"area": "2A-1", "pack": ["s18"], "cheese": 2},
                             wren={"area": "2A-2", "tricks": ["s24"]})}, [])
    start(st, "main:corran")
    st.apply(0, {"type": "share_begin", "mouse": "wren"})
    st.apply(0, {"type": "give", "card": "s18"})
    st.apply(0, {"type": "take", "card": "s24"})
    st.apply(0, {"type": "cheese", "giver": "corran", "n": 2})
    view = st.observe(PUBLIC)
    assert view["phase"] == "main"
    assert view["mice"]["wren"]["pack"] == ["s18"] and view["mice"]["corran"]["tricks"] == ["s24"]
    assert view["mice"]["wren"]["cheese"] == 2 and view["mice"]["corran"]["cheese"] == 0
    assert "share_begin" not in types(st)


def test_level_up() -> None:
    """MM-5.32 6 cheese for an unclaimed card of the mouse's classes."""
    st = build({"side": "2A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-1", corran={"cheese": 7, "abilities": ["a01"]})}, [])
    start(st, "main:corran")
    ups = [a["ability"] for a in st.legal_actions(0) if a["type"] == "level_up"]
    assert ups == ["a02", "a03", "a14"]
    st.apply(0, {"type": "level_up", "ability": "a03"})
    view = st.observe(PUBLIC)
    assert view["mice"]["corran"]["abilities"] == ["a01", "a03"] and view["mice"]["corran"]["cheese"] == 1
    assert "a03" not in view["ability_pool"] and "level_up" not in types(st)


def test_hook_and_twine_crosses_red() -> None:
    """MM-6.16 step_hook crosses one red edge for 1 MP, once per turn."""
    st = build({"side": "1A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("1A-1", corran={"area": "1A-5", "pack": ["s21"]})}, ["F1"])
    start(st, "turn:corran")
    assert {"type": "step_hook", "to": "1A-7"} in st.legal_actions(0)
    st.apply(0, {"type": "step_hook", "to": "1A-7"})
    view = st.observe(PUBLIC)
    assert view["mice"]["corran"]["area"] == "1A-7" and view["turn"]["mp_left"] == 3
    assert "step_hook" not in types(st)


def test_dash_and_slip_past() -> None:
    """a12 Dash adds 3 MP; one ability per card turn (MM-5.31)."""
    st = build({"side": "2A", "track": ["init:wren", "init:corran", "init:mallow", "init:tock"],
                "mice": four("2A-1", wren={"abilities": ["a12", "a13"], "cheese": 2})}, ["F1"])
    start(st, "turn:wren")
    assert st.observe(PUBLIC)["turn"]["mp_left"] == 5
    st.apply(0, {"type": "ability", "ability": "a12"})
    assert st.observe(PUBLIC)["turn"]["mp_left"] == 8
    assert not any(a["type"] == "ability" for a in st.legal_actions(0))


def test_map_scrap_choice_goes_to_bottom() -> None:
    """MM-6.15 / MM-7.3 Map Scrap: choose 1 of 2, the other is known at the bottom."""
    st = build({"side": "1A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "party_stash": ["s31"], "next_monster": 5,
                "blue_deck": ["E04", "E01", "E02", "E03", "E05", "E06"],
                "mice": four("1A-1", corran={"area": "1A-7"})}, [])
    start(st, "main:corran")
    st.apply(0, {"type": "explore", "area": "1A-7"})
    assert st.phase() == "map_scrap"
    st.apply(0, {"type": "use_map_scrap"})
    assert st.legal_actions(0) == [{"type": "choose_encounter", "card": "E04"},
                                   {"type": "choose_encounter", "card": "E01"}]
    st.apply(0, {"type": "choose_encounter", "card": "E01"})
    view = st.observe(PUBLIC)
    assert view["encounter"]["current"] == "E01" and view["known_bottom"]["blue"] == "E04"
    assert "s31" not in view["party_stash"] and view["encounter_deck_sizes"]["blue"] == 5


# -- flow -----------------------------------------------------------------------------------------
def test_explore_starts_a_new_round_without_time_is_short() -> None:
    """MM-5.3 a full reshuffle finishes the turn, then a new round; no time-is-short cheese."""
    st = build({"side": "1A", "track": ["init:wren", "init:mallow", "init:tock", "init:corran"],
                "acted": ["init:wren", "init:mallow", "init:tock"], "wheel": 2, "next_monster": 5,
                "blue_deck": ["E05", "E01", "E02", "E03", "E04", "E06"],
                "mice": four("1A-1", corran={"area": "1A-7"})}, ["F4"] * 60)
    start(st, "main:corran")
    st.apply(0, {"type": "explore", "area": "1A-7"})
    st.apply(0, {"type": "end_turn"})
    view = st.observe(PUBLIC)
    assert view["round"] == 2
    assert not any(e["type"] == "time_is_short" for e in st.log.since(PUBLIC))


def test_round_limit_loses() -> None:
    """MM-8.2 round round_limit + 1 would begin: the mice lose."""
    st = build({"side": "2A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-1")}, ["F1"])
    st.options = {**st.options, "round_limit": 1}
    st.acted = ["init:corran", "init:wren", "init:mallow"]
    start(st, "turn:tock")
    st.apply(0, {"type": "end_turn"})
    assert st.result == {"win": False, "reason": "round_limit"}
    assert st.pending() == []


def test_all_captured_loses() -> None:
    """MM-6.5 c (2) no non-captured mouse remains."""
    st = build({"side": "2A", "track": ["init:wren", "init:corran", "init:mallow", "init:tock"],
                "mice": four("2A-1", wren={"area": "2A-6"},
                             corran={"area": None, "captured": True}, mallow={"area": None, "captured": True},
                             tock={"area": None, "captured": True})}, ["F1"])
    start(st, "turn:wren")
    st.apply(0, {"type": "end_turn"})
    assert st.result == {"win": False, "reason": "all_captured"}


# -- views and hidden information (MM-7) -----------------------------------------------------------
def test_views_hide_deck_orders_and_all_reveals_them() -> None:
    st = GAME.new_state(2, {"chapter": 2}, 9)
    while st.phase() in ("draft_hero", "choose_ability"):
        seat = st.pending()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    seat_view = st.observe(0)
    assert seat_view == st.observe(1) | {"log": seat_view["log"]}
    assert "hidden" not in seat_view and "search_deck" not in seat_view
    full = st.observe(ALL)
    assert sorted(full["hidden"]["search_deck"]) == sorted(f"s{i:02d}" for i in range(1, 34))
    other = st.redeterminize(0, Rng(1))
    assert other.observe(0) == st.observe(0)
    assert other.search_deck != st.search_deck


def test_same_seed_same_game() -> None:
    """MM-3.1a deterministic replays: same seed and moves, same digest."""
    from referee.engine.runner import random_playout
    a = GAME.new_state(3, {"chapter": 1}, 42)
    b = GAME.new_state(3, {"chapter": 1}, 42)
    random_playout(a, Rng(7))
    random_playout(b, Rng(7))
    assert a.digest() == b.digest()


def test_outcome_scores() -> None:
    """MM-8.4 win score: 100 + 10 x pages left + 5 x never captured + min(10, cheese)."""
    st = build({"side": "3A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "hourglass": 3, "mice": four("3A-1", corran={"area": "3A-7", "cheese": 4})}, [])
    start(st, "main:corran")
    st.apply(0, {"type": "explore", "area": "3A-7"})
    out = st.outcome()
    assert out is not None and out.team_result == "win" and out.team_score == 100 + 30 + 20 + 4
    assert out.details["reason"] == "escaped"


def test_flow_helpers() -> None:
    assert flow.is_mouse_card("init:pip") and not flow.is_mouse_card("init:skulker")
