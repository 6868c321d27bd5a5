"""One focused test per tricky rule (beyond the section-10 scenarios)."""
from __future__ import annotations

from typing import Any

from referee.engine import PUBLIC, Rng
from referee.games.greyport import GAME
from referee.games.greyport.rules.core import attack_value, draw, gain_curse

from .builder import build


def spec(players: int = 2, **setup: Any) -> dict[str, Any]:
    return {"players": players, "setup": setup, "rng": setup.pop("rng", {}),
            "options": setup.pop("options", {})}


def test_gb_5_4_6_shake_off_uses_the_hero_play() -> None:
    st, _ = build(spec(seats=[{"hand": ["K1#1", "S11#1"]}], characters=["WAR", "ROG"],
                       location={"id": "L1", "group": ["G01#1"]}))
    st.apply(0, {"type": "shake_off", "card": "K1#1"})
    assert st.removed == ["K1#1"] and st.players_[0].heroes_played == 1
    assert not [a for a in st.legal_actions(0) if a["type"] in ("play_hero", "shake_off")]


def test_gb_6_5_3_echo_readies_host_and_item_reapplies() -> None:
    st, _ = build(spec(seats=[{"group": ["D01#1", "D01#2"], "play": [{"card": "S13#1", "item": "I22#1"}]}],
                       location={"id": "L1", "group": ["G01#1"]},
                       rng={"dice": [["Y", 1], ["W", 1], ["Y", 1], ["W", 1]]}))
    st.apply(0, {"type": "fight", "hero": "S13#1", "targets": ["D01#1"]})
    assert {"type": "use_ability", "card": "I22#1", "ability": "echo"} in st.legal_actions(0)
    st.apply(0, {"type": "use_ability", "card": "I22#1", "ability": "echo"})
    st.apply(0, {"type": "fight", "hero": "S13#1", "targets": ["D01#1"]})
    assert st.dmg["D01#1"] == 4
    assert not [a for a in st.legal_actions(0) if a["type"] == "use_ability"]  # once per round


def test_gb_6_1_4_l3_no_cleave_on_location_group() -> None:
    st, _ = build(spec(seats=[{"play": [{"card": "H08#1"}]}],
                       location={"id": "L3", "group": ["G01#1", "G01#2"]}))
    assert [a["targets"] for a in st.legal_actions(0) if a["type"] == "fight"] == [["G01#1"], ["G01#2"]]


def test_gb_6_4_commander_and_location_modifiers() -> None:
    st, _ = build(spec(seats=[{"group": ["G08#1", "G01#1"]}], location={"id": "L7", "group": ["C03#1"]}))
    assert attack_value(st, "G01#1", 0) == 2 and attack_value(st, "G08#1", 0) == 3
    assert attack_value(st, "C03#1", "loc") == 3


def test_gb_6_12_solo_hero_limit_two_and_marker_returns() -> None:
    st = GAME.new_state(1, {"characters": ["WAR"]}, 3)
    assert st.players_[0].hero_limit == 2 and st.defender == 0


def test_gb_6_4_explosive_damages_the_defeating_seat() -> None:
    st, _ = build(spec(seats=[{"hp": 9, "group": ["G05#1"], "play": [{"card": "H06#1", "item": "I02#1"}]}],
                       location={"id": "L1", "group": ["G01#1"]}))
    st.apply(0, {"type": "fight", "hero": "H06#1", "targets": ["G05#1"]})
    assert st.players_[0].hp == 7 and st.monster_discard == ["G05#1"]


def test_gb_3_4_bounty_gains_copper_on_a_kill() -> None:
    st, _ = build(spec(seats=[{"group": ["G01#1", "G01#2"], "play": [{"card": "S13#1", "item": "I24#1"}]}],
                       location={"id": "L1", "group": ["G01#3"]}, rng={"dice": [["Y", 4], ["W", 6]]}))
    st.apply(0, {"type": "fight", "hero": "S13#1", "targets": ["G01#1"]})
    assert st.players_[0].coins["copper"] == 1


def test_gb_6_8_1_empty_curse_deck_loses_hp_and_bad_omen_on_draw() -> None:
    st, _ = build(spec(seats=[{"hp": 5, "deck": ["K3#2"]}], location={"id": "L1", "group": ["G01#1"]}))
    gain_curse(st, 0)
    assert st.players_[0].hp == 4
    draw(st, 0, 1)
    assert st.players_[0].hp == 3
    assert any(e.kind == "reveal" and e.data["cards"] == ["K3#2"] for e in st.log.entries)


def test_gb_5_6_7_round_limit_loses() -> None:
    st, _ = build(spec(options={"round_limit": 5}, encounter_round=5, phase="pass_marker",
                       tasks=["pass_marker"], location={"id": "L1", "group": ["G01#1"]}))
    assert st.result == "loss" and st.loss_reason == "round_limit" and st.pending() == []
    assert st.outcome().team_result == "loss"


def test_gb_5_8_4_ch2_third_destruction_loses_before_distribution() -> None:
    st, _ = build({"players": 2, "options": {"chapter": "CH2"}, "rng": {},
                   "setup": {"enc_index": 2, "phase": "monster_damage", "tasks": ["location_damage"],
                             "destroyed": 2, "seats": [{"hp": 10}, {"hp": 10}],
                             "location": {"id": "L6", "hp": 1, "group": ["D01#1", "D01#2"]}}})
    assert [p.hp for p in st.players_] == [7, 7]  # the E2-3 penalty resolved first
    assert st.result == "loss" and st.loss_reason == "locations_destroyed"


def test_gb_5_3_5_hidden_hand_is_always_asked_but_open_hands_auto_pass() -> None:
    base = dict(characters=["WAR", "ROG"], priority=1,
                seats=[{"group": ["G01#1"]},
                       {"hand": ["S21#1"], "hero_zone": "return_zone", "heroes_played": 1}],
                location={"id": "L1", "group": ["G01#2"]})
    st, _ = build(spec(**base))
    assert st.pending() == [1] and st.legal_actions(1) == [{"type": "pass"}]
    st2, _ = build(spec(options={"open_hands": True}, **base))
    assert st2.pending() == [0]


def test_gb_7_no_leak_views_and_redeterminize() -> None:
    for seed in range(4):
        st = GAME.new_state(3, {}, seed)
        rng = Rng(seed)
        for _ in range(150):
            if not st.pending():
                break
            seat = st.pending()[0]
            for viewer in range(3):
                other = st.redeterminize(viewer, Rng(f"{seed}:{viewer}"))
                assert other.observe(viewer) == st.observe(viewer)
                assert other.observe(PUBLIC) == st.observe(PUBLIC)
                if viewer != seat:
                    assert "legal_actions" not in st.observe(viewer)
                    assert "hand" not in st.observe(viewer)["players"][seat]
            legal = st.legal_actions(seat)
            st.apply(seat, legal[rng.below(len(legal))])


def test_gb_8_5_outcome_score_and_figures() -> None:
    st, _ = build(spec(options={"round_limit": 5}, encounter_round=5, phase="pass_marker",
                       tasks=["pass_marker"], location={"id": "L1", "group": ["G01#1"]}))
    out = st.outcome()
    assert out.team_score == 30  # hp part only: floor(30 * 20 / (2 * 10))
    assert set(out.details["seats"][0]) >= {"damage_dealt", "monsters_defeated", "shields_spent", "taunts",
                                            "hp_end"}
