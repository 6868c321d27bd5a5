"""One focused test per tricky rule (rule IDs in the names); states come from the scenario builder."""
from __future__ import annotations

from referee.engine import PUBLIC
from referee.games.blockcraft.rules.flow import DECISION_CAP

from .builder import build

END = {"type": "end_action_phase"}


def two(p0: dict, p1: dict | None = None, **kw) -> object:
    return build({"p": {"0": {"cell": [0, 0], **p0}, "1": {"cell": [3, 3], **(p1 or {})}}, **kw})


def test_bc_5_1_rounds_and_day_night_cycle() -> None:
    """BC-5.1 / BC-5.3: rounds counted from the administrator; Day 1-3, Night 4-5."""
    st = two({}, {}, draw_pile=["apple"] * 30)
    seen = set()
    while st.round < 11:
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        st.apply(seat, END if END in legal else legal[0])
        seen.add((st.round, st.day))
    assert sorted(seen) == [(1, True), (2, True), (3, True), (4, False), (5, False), (6, True), (7, True),
                            (8, True), (9, False), (10, False), (11, True)]


def test_bc_5_1_admin_anchor_with_dead_admin() -> None:
    """BC-5.1: rounds stay anchored to the administrator's position after it dies."""
    st = build({"players": 3, "current": 1, "round": 2,
                "p": {"0": {"alive": False}, "1": {"cell": [0, 0]}, "2": {"cell": [4, 4]}}})
    st.apply(1, END)
    assert (st.current, st.round) == (2, 2)
    st.apply(2, END)
    assert (st.current, st.round) == (1, 3)


def test_bc_5_6_4_auto_end_when_nothing_else_is_legal() -> None:
    """BC-5.6.4: with 0 AP and nothing free to do, the action phase ends by itself."""
    st = two({"ap": 1, "hunger": 4}, {})
    st.apply(0, {"type": "dig", "cell": [0, 0]})  # the stone below: fails bare-handed, 0 AP left
    assert st.current == 1


def test_bc_6_12_decision_cap() -> None:
    """BC-6.12: after 200 decisions in a turn only end_action_phase remains."""
    st = two({}, {})
    st.p[0].decisions = DECISION_CAP
    st.forget_legal()
    assert st.legal_actions(0) == [END]


def test_bc_6_4_current_player_death_ends_turn_without_settlement() -> None:
    """BC-5.1 / BC-6.4: a Touch on the m_guardian at stamina 1 kills the attacker by Thorns."""
    st = build({"players": 3, "p": {"0": {"cell": [0, 0], "stamina": 1, "hunger": 5},
                                    "1": {"cell": [1, 0], "character": "m_guardian", "hunger": 1},
                                    "2": {"cell": [4, 4], "hand": {"apple": 1}}}})
    st.apply(0, {"type": "touch", "target": 1, "weapon_slot": None})
    # attacker downed by Thorns: rescue window (seat 1 first, it has no food -> pass only)
    assert st.p[0].downed and st.pending() == [1]
    st.apply(1, {"type": "pass"})
    st.apply(2, {"type": "pass"})
    assert not st.p[0].alive and st.p[1].kills == 1 and st.p[1].kill_xp == 1   # BC-6.4.4 Thorns killer
    assert st.current == 1 and st.p[0].xp == 0                                  # no settlement for seat 0


def test_bc_6_8_tnt_and_ender_pearl() -> None:
    """BC-6.8: TNT hurts everyone on the cell (armoured) and removes the top; the pearl teleports for 1
    damage."""
    st = two({"hand": {"tnt": 1, "ender_pearl": 1}}, {"cell": [1, 0]})
    st.apply(0, {"type": "use", "card_type": "tnt"})
    st.apply(0, {"type": "use_at", "cell": [1, 0]})
    assert st.p[1].stamina == 8 - 3 and st.H(1, 0) == 1 and st.discard_pile[-1] in ("stone", "tnt")
    st.apply(0, {"type": "use", "card_type": "ender_pearl"})
    st.apply(0, {"type": "use_at", "cell": [3, 0]})
    assert st.p[0].cell == [3, 0] and st.p[0].stamina == 7 and st.p[0].ap == 4


def test_bc_6_7_efficiency_fortune_silk_touch_unbreaking() -> None:
    """BC-6.7: efficiency digs for 0 AP once; fortune draws on gathering an ore it dug."""
    st = two({"tools": [{"card": "stone_pickaxe", "ench": ["e01", "e03"]}]}, {},
             cells={"1,0": ["stone", "coal_ore"]})
    st.apply(0, {"type": "dig", "cell": [1, 0]})
    assert st.p[0].ap == 4 and st.p[0].hunger == 9                 # efficiency
    st.apply(0, {"type": "gather", "cell": [1, 0]})
    assert st.p[0].hand == {"coal_ore": 1, "dirt": 1}              # fortune drew a dirt
    st2 = two({"tools": [{"card": "stone_sword"}, {"card": "stone_pickaxe", "ench": ["e05"]}]}, {},
              cells={"2,0": ["stone", "loose:apple"]})
    assert {"type": "gather", "cell": [2, 0]} in st2.legal_actions(0)   # silk touch: distance 2 <= R
    st3 = two({"hand": {"iron_pickaxe": 1}, "xp": 5, "blocks": [{"card": "enchanting_table"}]}, {},
              enchant_deck=["e07", "e08", "e09"])
    st3.apply(0, {"type": "equip", "card_type": "iron_pickaxe", "replace_slot": None, "enchant": True})
    st3.apply(0, {"type": "enchant_pick", "card": "e07"})
    assert st3.p[0].tools[0]["dur"] == 13 and st3.p[0].tools[0]["max"] == 13   # unbreaking +3
    assert {"type": "enchant_pick", "card": "e08"} not in st3.legal_actions(0)  # no duplicate


def test_bc_6_7_looting_is_private() -> None:
    """BC-6.7 / BC-7.4: looting takes a card; only attacker and victim learn its type."""
    st = build({"players": 3,
                "p": {"0": {"cell": [0, 0], "tools": [{"card": "diamond_sword", "ench": ["e16"]}]},
                                    "1": {"cell": [1, 0], "hunger": 1, "hand": {"diamond": 1}},
                                    "2": {"cell": [4, 4]}}})
    st.apply(0, {"type": "touch", "target": 1, "weapon_slot": 0})
    assert st.p[0].hand == {"diamond": 1} and st.p[1].hand == {}
    assert not any(e.get("card") == "diamond" for e in st.events_for(2))
    assert not any(e.get("card") == "diamond" for e in st.events_for(PUBLIC))
    assert any(e.get("card") == "diamond" for e in st.events_for(1))


def test_bc_5_15_replacing_a_chest_returns_contents() -> None:
    """BC-5.15: a replaced chest's contents go to hand (counted as retrieved this turn)."""
    st = two({"hand": {"torch": 1},
              "blocks": [{"card": "chest", "chest": ["log"]}, {"card": "crafting_table"}]})
    st.apply(0, {"type": "equip", "card_type": "torch", "replace_slot": 0, "enchant": False})
    assert st.p[0].hand == {"log": 1} and st.p[0].retrieved == {"log": 1} and st.supply["chest"] == 5


def test_bc_6_2_4_tools_break() -> None:
    """BC-6.2.4: a tool at 0 durability returns to the supply."""
    st = two({"tools": [{"card": "wooden_pickaxe", "dur": 1, "ench": ["e07"]}]}, {})
    st.apply(0, {"type": "dig", "cell": [0, 0]})
    assert st.p[0].tools[0] is None and st.supply["wooden_pickaxe"] == 7 and st.enchant_discard == ["e07"]


def test_bc_6_6_skills() -> None:
    """BC-6.6: Detonate, Dragon Breath, Decay Aura, Fatigue Beam, Blink, Old Habits, Brew."""
    st = two({"character": "m_crawler"}, {"cell": [1, 0]})
    st.apply(0, {"type": "skill", "skill": "detonate"})
    assert st.p[1].stamina == 8 - 4 and st.p[0].stamina == 1 and st.p[0].detonate_used
    st = two({"character": "b_drake", "cell": [0, 0]}, {"cell": [1, 1]})
    st.apply(0, {"type": "skill", "skill": "dragon_breath"})
    assert st.p[1].stamina == 6 and {"type": "skill", "skill": "dragon_breath"} not in st.legal_actions(0)
    st = two({"character": "b_sentinel"}, {"cell": [1, 0]})
    st.apply(0, {"type": "skill", "skill": "fatigue_beam", "target": 1})
    st.apply(0, END)
    assert st.p[1].ap == 2 and not st.p[1].fatigue                 # BC-5.5: -2 AP, marker removed
    st = two({"character": "m_voidwalker"}, {})
    st.apply(0, {"type": "skill", "skill": "blink"})
    st.apply(0, {"type": "skill_at", "cell": [2, 1]})
    assert st.p[0].cell == [2, 1] and st.p[0].ap == 3
    st = two({"character": "u_villager", "hand": {"planks": 3, "stick": 2}}, {})
    assert {"type": "craft", "recipe": "wooden_pickaxe"} in st.legal_actions(0)
    st = two({"character": "b_witherking"}, {"cell": [1, 0]}, current=1)
    st.apply(1, END)
    assert st.p[1].hunger == 10 - 1 - 1                              # idle, then Decay Aura
    st = two({"character": "m_witch", "stamina": 5, "hand": {"apple": 1}}, {})
    st.apply(0, END)
    assert st.observe(PUBLIC)["pending"][0]["state"] == "END_PHASE"
    st.apply(0, {"type": "brew", "card_type": "apple"})
    assert st.p[0].stamina == 7 and st.current == 1


def test_bc_5_18_furnace_with_batch_cannot_be_replaced() -> None:
    st = two({"hand": {"crafting_table": 1}, "blocks": [{"card": "furnace"}, {"card": "chest"}]})
    st.p[0].blocks[0]["batch"] = {"materials": ["sand"], "fuels": ["log"], "outputs": ["glass"]}
    st.forget_legal()
    slots = [a["replace_slot"] for a in st.legal_actions(0) if a["type"] == "equip"]
    assert slots == [1]


def test_bc_8_4_overlord_ranks_by_death_order() -> None:
    st = build({"players": 4, "p": {"0": {"cell": [0, 0]}, "1": {"cell": [1, 0], "stamina": 2},
                                    "2": {"alive": False}, "3": {"alive": False}}})
    st.death_order = [3, 2]
    st.apply(0, {"type": "finisher", "target": 1})
    out = st.outcome()
    assert out is not None and out.ranks == [1, 2, 3, 4] and out.details["reason"] == "last_player"


def test_bc_8_6_round_limit_outcomes() -> None:
    st = build({"players": 3, "round": 40, "current": 2,
                "p": {"0": {"cell": [0, 0], "xp_earned": 5}, "1": {"cell": [1, 0], "xp_earned": 5},
                      "2": {"cell": [4, 4], "xp_earned": 9}}})
    st.apply(2, END)
    out = st.outcome()
    assert out is not None and out.details["reason"] == "round_limit"
    assert out.ranks == [2, 2, 1] and out.details["results"] == {"0": "loss", "1": "loss", "2": "win"}
    solo = build({"players": 1, "mode": "extreme", "round": 35, "p": {"0": {"cell": [0, 0]}}})
    solo.apply(0, END)
    assert solo.outcome() is None and solo.round == 36          # spec 1.1: solo limit 36 (was 30)
    solo.apply(0, END)
    o = solo.outcome()
    assert o is not None and o.team_result == "loss" and o.ranks == [1] and o.details["rounds"] == 36


def test_bc_8_5_world_core_wins_solo() -> None:
    st = build({"players": 1, "mode": "extreme", "round": 12, "p": {"0": {"cell": [0, 0], "xp_earned": 4,
                "hand": {"diamond": 1, "gold_ingot": 2, "glass": 1, "ender_pearl": 1},
                "blocks": [{"card": "crafting_table"}]}}})
    st.apply(0, {"type": "craft", "recipe": "world_core"})
    o = st.outcome()
    assert o is not None and o.team_result == "win" and o.team_score == 10 * (36 - 12 + 1) + 4  # BC-8.7


def test_menu_when_more_than_100_actions() -> None:
    """[design] BC-5.26: a main list longer than 100 becomes a menu of groups."""
    hand = {c: 1 for c in ("wooden_pickaxe", "stone_pickaxe", "iron_pickaxe", "wooden_sword", "stone_sword",
                           "iron_sword", "wooden_axe", "stone_axe", "iron_axe", "wooden_shovel",
                           "stone_shovel", "iron_shovel", "wooden_hoe", "stone_hoe", "iron_hoe", "dirt",
                           "log", "sand", "stone", "planks", "glass", "apple", "bread", "raw_meat", "torch",
                           "chest")}
    st = build({"players": 10, "p": {"0": {"cell": [3, 3], "hunger": 5, "hand": hand,
               "tools": [{"card": "diamond_sword"}, {"card": "iron_axe"}],
               "blocks": [{"card": "crafting_table"}, {"card": "chest"}]},
               **{str(s): {"cell": [3 + (s % 3) - 1, 3 + (s // 3) - 1] if s < 9 else [3, 2]}
                  for s in range(1, 10)}},
               "height": 2})
    legal = st.legal_actions(0)
    assert len(legal) <= 100 and all(a["type"] in ("menu", "end_action_phase") for a in legal)
    st.apply(0, {"type": "menu", "group": "equip"})
    inner = st.legal_actions(0)
    assert inner[-1] == {"type": "cancel"} and all(a["type"] in ("equip", "cancel") for a in inner)
    st.apply(0, {"type": "cancel"})
    assert st.legal_actions(0) == legal
