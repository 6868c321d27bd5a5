"""More focused rule tests: action abilities, events, boss cards, statuses, monster movement."""
from __future__ import annotations

from referee.engine import PUBLIC
from referee.games.mice_and_mystics.rules import cheese, flow

from .builder import build, start
from .test_rules import four, types


def test_ember_burst_hits_every_monster_in_the_area() -> None:
    """MM-5.38 / a08: 2 magic hits each, each defends separately; the caster rolls nothing."""
    st = build({"side": "2A", "track": ["init:fennimore", "init:skulker", "init:wren", "init:mallow"],
                "monsters": [{"id": "m1", "type": "skulker", "area": "2A-5"},
                             {"id": "m2", "type": "skulker", "area": "2A-5"}],
                "mice": {"fennimore": {"area": "2A-1", "abilities": ["a08"], "cheese": 2},
                         "wren": {"area": "2A-1"}, "mallow": {"area": "2A-1"}, "tock": {"area": "2A-1"}}},
               ["F3", "F4", "F5", "F3"])  # m1 defends [F3, F4], m2 defends [F5, F3]
    start(st, "main:fennimore")
    assert {"type": "ability", "ability": "a08", "area": "2A-5"} in st.legal_actions(0)  # Attuned: cost 2
    st.apply(0, {"type": "ability", "ability": "a08", "area": "2A-5"})
    view = st.observe(PUBLIC)
    assert "m1" not in view["monsters"]  # [F3, F4]: 1 block, 1 wound
    assert view["monsters"]["m2"]["wounds"] == 0  # 2 blocks
    assert view["mice"]["fennimore"]["cheese"] == 0 and view["turn"]["action_taken"]


def test_mend_heals_another_nearby_mouse() -> None:
    """MM-5.24 Mallow's Mend: up to 2 non-poison wounds of another mouse in her or an adjacent area."""
    st = build({"side": "2A", "track": ["init:mallow", "init:corran", "init:wren", "init:tock"],
                "mice": four("2A-7", mallow={"area": "2A-1"},
                             corran={"area": "2A-2", "wounds": 3, "poison": 2})},
               [])
    start(st, "main:mallow")
    assert {"type": "mend", "target": "corran"} in st.legal_actions(0)
    st.apply(0, {"type": "mend", "target": "corran"})
    assert st.observe(PUBLIC)["mice"]["corran"]["wounds"] == 2  # only the normal wound goes


def test_stunned_mouse_may_only_recover() -> None:
    """MM-6.4 stunned: moves, but its only action is recover, which removes it."""
    st = build({"side": "2A",
                "track": ["init:corran", "init:skulker", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "skulker", "area": "2A-2"}],
                "mice": four("2A-7", corran={"area": "2A-1", "statuses": ["stunned"]})}, ["F1"])
    start(st, "turn:corran")
    t = types(st)
    assert "recover" in t and "melee" not in t and "scurry" not in t and "step" in t
    st.apply(0, {"type": "recover"})
    assert st.observe(PUBLIC)["mice"]["corran"]["statuses"] == []


def test_events_resolve_at_once() -> None:
    """MM-6.17 Cat's Shadow (2 cheese to the wheel), Rude Awakening (surprise skulker), Loose Floorboard."""
    st = build({"side": "2A", "side_searched": ["2A"], "search_deck": ["s27", "s29", "s30"], "wheel": 1,
                "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-7", corran={"area": "2A-1"})}, ["F1", "F2"])
    start(st, "turn:corran")
    st.apply(0, {"type": "search"})
    view = st.observe(PUBLIC)
    assert view["wheel"] == 3 and view["search_discard"] == ["s27"]
    cheese.place_figures(st, ["skulker"], surprise=True)
    assert st.surprise == ["init:skulker"]
    st2 = build({"side": "2A", "side_searched": ["2A"], "search_deck": ["s30"],
                 "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                 "mice": four("2A-7", corran={"area": "2A-1"})}, ["F1", "F2"])
    start(st2, "turn:corran")
    st2.apply(0, {"type": "search"})
    assert st2.mice["corran"].wounds == 1 and st2.mice["corran"].cheese == 1


def test_boss_cards_join_the_track_on_first_entry() -> None:
    """MM-5.8 / MM-6.9 entering 3B places Gristle with 2 random cards; the track is rebuilt with them."""
    st = build({"chapter": 2, "side": "4B", "sides_entered": ["4A", "4B"], "end_page": 9,
                "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("4B-6", corran={"area": "4B-7"})}, [])
    start(st, "main:corran")
    st.apply(0, {"type": "explore", "area": "4B-7"})
    view = st.observe(PUBLIC)
    boss = view["boss"]
    assert list(boss) == ["m1"] and boss["m1"]["set_aside_count"] == 2 and len(boss["m1"]["cards"]) == 2
    assert {f"init:{c}" for c in boss["m1"]["cards"]} <= set(view["track"])
    assert view["monsters"]["m1"]["area"] == "3B-4" and view["encounter"]["surge"] == ["skulker", "skulker",
                                                                                       "slinger"]
    assert len(view["track"]) == 4 + 2 + 2  # mice, skulker + slinger, two boss cards


def test_sealed_hatch_and_one_way_exits() -> None:
    """MM-6.11 the flip area 4B-1 cannot be used to explore."""
    st = build({"chapter": 2, "side": "4B", "end_page": 9,
                "track": ["init:corran", "init:wren", "init:mallow",
                                                                     "init:tock"],
                "mice": four("4B-1")}, [])
    start(st, "main:corran")
    assert "explore" not in types(st)


def test_ranged_monster_moves_only_without_los() -> None:
    """MM-5.42 a slinger with no mouse in LOS rolls and moves until it sees one."""
    st = build({"side": "1A",
                "track": ["init:slinger", "init:corran", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "slinger", "area": "1A-7"}], "mice": four("1A-1")},
               ["F5", "F3", "F3", "F3", "F1"])
    start(st, "card:init:slinger")
    # 1A-7 has no LOS to 1A-1; 1A-5 (across red) and 1A-6 both see it: lowest ordinal; then it attacks
    assert st.monsters["m1"].area == "1A-5"


def test_pinned_monster_skips_its_movement() -> None:
    """MM-6.4 pinned: the next movement is skipped and the pin removed."""
    st = build({"side": "1A",
                "track": ["init:skulker", "init:corran", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "skulker", "area": "1A-4", "pinned": True}],
                "mice": four("1A-1")}, ["F1"])
    start(st, "card:init:skulker")
    assert st.monsters["m1"].area == "1A-4" and not st.monsters["m1"].pinned


def test_requirements_and_slots() -> None:
    """MM-6.12 b a class-restricted card can be carried but not equipped by other classes."""
    st = build({"side": "2A", "track": ["init:wren", "init:corran", "init:mallow", "init:tock"],
                "mice": four("2A-1", wren={"pack": ["s02", "s15"]})}, [])
    start(st, "main:wren")
    st.apply(0, {"type": "equip_begin"})
    legal = st.legal_actions(0)
    assert {"type": "equip", "card": "s15"} in legal and not any(a.get("card") == "s02" for a in legal)


def test_surprise_cards_go_to_the_bottom_and_count_as_acted() -> None:
    """MM-5.9 after its surprise turn a card joins the bottom of the track and does not act again."""
    st = build({"side": "2A", "track": ["init:corran", "init:wren", "init:mallow", "init:tock"],
                "mice": four("2A-1")}, ["F4"] * 20)
    st.surprise = ["init:beetle"]
    cheese.new_monster(st, "beetle", "2A-7")
    flow.advance(st)
    assert st.track[-1] == "init:beetle" and "init:beetle" in st.acted


def test_nail_spear_reach() -> None:
    """s03 Reach: also monsters exactly 2 crossings away through non-red edges (MM-5.35 a)."""
    st = build({"side": "2A",
                "track": ["init:corran", "init:skulker", "init:wren", "init:mallow", "init:tock"],
                "monsters": [{"id": "m1", "type": "skulker", "area": "2A-4"},
                             {"id": "m2", "type": "skulker", "area": "2A-7"}],
                "mice": four("2A-7", corran={"area": "2A-1", "equipped": ["s03"]},
                             wren={"area": "2A-6"}, mallow={"area": "2A-6"}, tock={"area": "2A-6"})}, [])
    start(st, "main:corran")
    targets = [a["target"] for a in st.legal_actions(0) if a["type"] == "melee"]
    assert targets == ["m1"]  # 2A-1 -> 2A-2 -> 2A-4; 2A-7 is 3 crossings away
