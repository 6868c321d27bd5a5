"""One focused test per tricky rule (setup flow, hidden information, options, edge cases)."""
from __future__ import annotations

import pytest

from referee.engine import ALL, PUBLIC, BadOptions, IllegalAction, Rng
from referee.games.dungeon_twister import GAME
from referee.games.dungeon_twister.state import DTState

from .builder import L0, build


def _setup_to_play(seed: int = 3) -> DTState:
    st: DTState = GAME.new_state(2, {}, seed)
    rng = Rng(seed)
    while st.phase in ("starters", "placement"):
        for seat in st.pending():
            st.apply(seat, rng.choice(st.legal_actions(seat)))
    return st


def test_options_dt_1_3() -> None:
    with pytest.raises(BadOptions, match="vp_target"):
        GAME.new_state(2, {"vp_target": 4}, 0)
    with pytest.raises(BadOptions, match="fixed_layout"):
        GAME.new_state(2, {"fixed_layout": [["R1", 0]] * 8}, 0)
    with pytest.raises(BadOptions, match="fixed_layout"):
        GAME.new_state(2, {"fixed_layout": [["R9", 0]] + L0[1:]}, 0)
    with pytest.raises(BadOptions):
        GAME.new_state(3, {}, 0)
    st = GAME.new_state(2, {"fixed_layout": L0, "first_seat": 1, "placement_first_seat": 1}, 0)
    assert [s.tile for s in st.slots] == [f"R{i}" for i in range(1, 9)]
    assert st.pending() == [0, 1]


def test_random_draws_dt_4_1_are_seeded() -> None:
    a, b, c = (GAME.new_state(2, {}, s) for s in (7, 7, 8))
    assert a.slots == b.slots
    assert a.digest() == b.digest() != c.digest()
    # The options replace the draws but advance the RNG identically.
    fixed = GAME.new_state(2, {"first_seat": 0}, 7)
    assert fixed.rng.to_json() == a.rng.to_json()


def test_starting_team_is_secret_and_simultaneous_dt_4_3_dt_7_6() -> None:
    st: DTState = GAME.new_state(2, {"placement_first_seat": 0}, 1)
    assert st.pending() == [0, 1]
    assert len(st.legal_actions(0)) == 8
    st.apply(0, {"type": "choose_starter", "character": "thief"})
    assert st.pending() == [0, 1]
    assert {"type": "choose_starter", "character": "thief"} not in st.legal_actions(0)
    assert len(st.legal_actions(1)) == 8          # the other seat's list does not depend on it
    for view in (st.observe(0), st.observe(1), st.observe(PUBLIC)):
        assert "thief" not in str(view["starters_hidden"])
        assert view["starters_hidden"] == [{"handle": "S-blue-D1", "colour": "blue", "square": [0, 1]}]
    assert "thief" not in str(st.events_for(1)) and "thief" not in str(st.events_for(0))
    for k in ("wizard", "goblin", "warrior"):
        st.apply(0, {"type": "choose_starter", "character": k})
    assert st.pending() == [1]


def test_placement_alternates_and_fills_capacities_dt_4_4_dt_4_5() -> None:
    st: DTState = GAME.new_state(2, {"placement_first_seat": 1, "first_seat": 0}, 2)
    rng = Rng(2)
    while st.phase == "starters":
        for seat in st.pending():
            st.apply(seat, rng.choice(st.legal_actions(seat)))
    order = []
    while st.phase == "placement":
        seat = st.pending()[0]
        order.append(seat)
        legal = st.legal_actions(seat)
        assert all(a["token"].startswith("blue." if seat == 0 else "red.") for a in legal)
        st.apply(seat, rng.choice(legal))
    assert order == [1, 0] * 10
    counts = [sum(1 for t in st.tokens.values() if t.where == "hidden" and t.slot == s) for s in range(8)]
    assert counts == [2, 3, 3, 2, 2, 3, 3, 2]
    assert st.phase == "play" and st.active == 0 and st.pending() == [0]
    dots = sorted(t.square for t in st.tokens.values() if t.where == "board" and t.square is not None)
    assert dots == sorted([(0, 1), (0, 3), (0, 6), (0, 8), (21, 1), (21, 3), (21, 6), (21, 8)])


def test_face_down_tokens_hidden_even_from_owner_dt_7_2() -> None:
    st = _setup_to_play()
    for viewer in (0, 1, PUBLIC):
        view = st.observe(viewer)
        for slot in view["slots"]:
            assert "tile" not in slot
            for tok in slot["tokens"]:
                assert set(tok) == {"handle", "colour"}
        assert "first_seat" not in view and "hands_full" not in view
    assert "hand" not in st.observe(PUBLIC)
    full = st.observe(ALL)
    assert all("tile" in s for s in full["slots"])


def test_redeterminize_permutes_only_unknowns() -> None:
    st = _setup_to_play()
    other = st.redeterminize(0, Rng(5))
    assert other.observe(0) == st.observe(0) and other.legal_actions(0) == st.legal_actions(0)
    mine = {t.id: (t.slot, t.handle) for t in st.tokens.values() if t.colour == 0 and t.where == "hidden"}
    assert {t.id: (t.slot, t.handle) for t in other.tokens.values()
            if t.colour == 0 and t.where == "hidden"} == mine
    assert other.digest() != st.digest()


def test_illegal_action_changes_nothing_and_leaks_nothing() -> None:
    st = _setup_to_play()
    before = st.digest()
    with pytest.raises(IllegalAction) as info:
        st.apply(st.pending()[0], {"type": "play_action_card", "value": 5})
    assert "hand" not in str(info.value)
    assert st.digest() == before


def test_exit_blocked_by_healthy_enemy_on_his_line_dt_6_9_4() -> None:
    st = build({"ap": 2,
                "tokens": [{"id": "blue.goblin", "square": [20, 2]}, {"id": "red.troll", "square": [21, 2]}]})
    st.apply(0, {"type": "move", "character": "blue.goblin"})
    assert {"type": "step", "dir": "E"} not in st.legal_actions(0)


def test_exit_over_wounded_enemy_and_attack_onto_line_dt_6_6_5() -> None:
    st = build({"ap": 3, "tokens": [{"id": "blue.goblin", "square": [20, 2]},
                                    {"id": "red.troll", "square": [21, 2], "wounded": True},
                                    {"id": "red.thief", "square": [21, 1]}]})
    assert {"type": "attack", "character": "blue.goblin", "target": "red.troll"} in st.legal_actions(0)
    st.apply(0, {"type": "move", "character": "blue.goblin"})
    st.apply(0, {"type": "step", "dir": "E"})
    assert st.vp == [2, 0] and st.tokens["blue.goblin"].where == "removed"


def test_wall_walk_exit_needs_empty_line_square_dt_5_9_4() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.wall_walker", "square": [20, 4]}]})
    # (20,4)-(21,4): R4's east side at row 4 is a wall.
    assert {"type": "wall_walk", "character": "blue.wall_walker", "dir": "E"} in st.legal_actions(0)
    st.apply(0, {"type": "wall_walk", "character": "blue.wall_walker", "dir": "E"})
    assert st.vp == [1, 0]


def test_drop_rules_dt_5_5_7() -> None:
    # A Rope may be dropped on a trap with two connected floor anchors; never on a starting line.
    st = build({"ap": 2, "tokens": [{"id": "blue.thief", "square": [13, 2], "carrying": "blue.rope"},
                                    {"id": "blue.warrior", "square": [1, 2], "carrying": "blue.sword"}]})
    st.apply(0, {"type": "move", "character": "blue.thief"})
    st.apply(0, {"type": "step", "dir": "N"})          # onto the trap (13,1)
    assert {"type": "drop"} in st.legal_actions(0)
    st.apply(0, {"type": "drop"})
    assert st.tokens["blue.rope"].square == (13, 1)
    assert {"type": "pick_up", "token": "blue.rope"} not in st.legal_actions(0)   # not the one just dropped
    st.apply(0, {"type": "end_move"})
    st.apply(0, {"type": "move", "character": "blue.warrior"})
    st.apply(0, {"type": "step", "dir": "W"})          # onto Blue's own line
    assert {"type": "drop"} not in st.legal_actions(0)


def test_fireball_kills_everyone_on_the_square_dt_5_10_1() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.wizard", "square": [5, 8], "carrying": "blue.fireball_wand"},
                                    {"id": "red.warrior", "square": [9, 8], "carrying": "red.goblin"}]})
    st.apply(0, {"type": "fireball", "character": "blue.wizard", "dir": "E"})
    assert st.tokens["red.warrior"].where == st.tokens["red.goblin"].where == "removed"
    assert st.vp == [2, 0]


def test_group_combat_loss_drops_objects_dt_6_3_1() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.troll", "square": [9, 6]},
                                    {"id": "red.warrior", "square": [10, 6], "carrying": "red.sword"}]})
    st.apply(0, {"type": "attack", "character": "blue.troll", "target": "red.warrior"})
    # Sword defends for nothing
    assert st.observe(0)["subphase"]["base_totals"] == {"attack": 4, "defence": 3}
    st.apply(1, {"type": "combat_card", "value": 0})
    st.apply(0, {"type": "combat_card", "value": 0})
    assert st.tokens["red.warrior"].wounded and st.tokens["red.sword"].square == (10, 6)
    assert st.tokens["red.warrior"].carrying is None


def test_safety_limit_ends_in_a_ranked_draw_dt_8_3() -> None:
    st = build({"options": {"max_turns": 2}})
    st.apply(0, {"type": "play_action_card", "value": 2})
    st.apply(0, {"type": "end_turn"})
    st.apply(1, {"type": "play_action_card", "value": 2})
    st.apply(1, {"type": "end_turn"})
    out = st.outcome()
    assert st.pending() == [] and out is not None
    assert out.ranks == [1, 1] and out.reason == "safety_limit"


def test_phase_two_ends_automatically_dt_5_3_4() -> None:
    st = build({"tokens": [{"id": "blue.thief", "square": [6, 8]}]})
    st.apply(0, {"type": "play_action_card", "value": 2})
    st.apply(0, {"type": "move", "character": "blue.thief"})
    st.apply(0, {"type": "end_move"})
    st.apply(0, {"type": "move", "character": "blue.thief"})
    st.apply(0, {"type": "end_move"})
    assert st.active == 1 and st.pending() == [1]


def test_snapshot_round_trip_mid_move() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.thief", "square": [6, 8]}]})
    st.apply(0, {"type": "move", "character": "blue.thief"})
    st.apply(0, {"type": "step", "dir": "E"})
    copy = GAME.restore(st.snapshot())
    assert copy.digest() == st.digest() and copy.legal_actions(0) == st.legal_actions(0)


def test_wounded_use_no_ability_dt_5_9_6() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.thief", "square": [17, 2], "wounded": True},
                                    {"id": "blue.wizard", "square": [5, 8], "wounded": True,
                                     "carrying": "blue.fireball_wand"},
                                    {"id": "red.warrior", "square": [9, 8]}]})
    assert st.legal_actions(0) == [{"type": "end_turn"}]


def test_rope_carried_and_lying_dt_6_2_2_dt_6_2_4() -> None:
    st = build({"ap": 3, "tokens": [{"id": "blue.warrior", "square": [13, 2], "carrying": "blue.rope"},
                                    {"id": "blue.troll", "square": [14, 1]}]})
    st.apply(0, {"type": "move", "character": "blue.warrior"})
    st.apply(0, {"type": "step", "dir": "N"})                       # carried Rope: onto the trap (13,1)
    assert {"type": "end_move"} in st.legal_actions(0)
    st.apply(0, {"type": "drop"})                                   # Rope now lies on the trap
    assert {"type": "end_move"} not in st.legal_actions(0)          # only a Thief / Rope carrier may stop
    st.apply(0, {"type": "step", "dir": "S"})
    st.apply(0, {"type": "end_move"})
    st.apply(0, {"type": "move", "character": "blue.troll"})
    st.apply(0, {"type": "step", "dir": "W"})                       # anyone crosses a trap with a lying Rope
    assert {"type": "end_move"} not in st.legal_actions(0)
    assert st.tokens["blue.troll"].square == (13, 1)


def test_pick_up_wounded_friend_on_trap_dt_6_2_7() -> None:
    st = build({"ap": 1, "tokens": [{"id": "blue.goblin", "square": [13, 1], "wounded": True},
                                    {"id": "blue.rope", "square": [13, 1]},
                                    {"id": "blue.thief", "square": [13, 0]}]})
    st.apply(0, {"type": "move", "character": "blue.thief"})
    st.apply(0, {"type": "step", "dir": "S"})
    assert {"type": "pick_up", "token": "blue.rope"} not in st.legal_actions(0)   # would leave the friend
    st.apply(0, {"type": "pick_up", "token": "blue.goblin"})
    assert st.tokens["blue.rope"].square == (13, 1) and st.tokens["blue.thief"].carrying == "blue.goblin"


def test_carried_wounded_cannot_be_attacked_or_healed_dt_6_4_4() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.cleric", "square": [8, 8]},
                                    {"id": "blue.warrior", "square": [9, 8], "carrying": "blue.goblin"},
                                    {"id": "red.troll", "square": [7, 8]}]})
    legal = st.legal_actions(0)
    assert not [a for a in legal if a.get("target") == "blue.goblin"]


def test_heal_an_enemy_dt_6_9_5() -> None:
    st = build({"ap": 2, "tokens": [{"id": "blue.cleric", "square": [8, 8]},
                                    {"id": "red.troll", "square": [9, 8], "wounded": True}]})
    st.apply(0, {"type": "heal", "character": "blue.cleric", "target": "red.troll"})
    assert not st.tokens["red.troll"].wounded and st.tokens["red.troll"].blocked
    st.apply(0, {"type": "end_turn"})
    assert not st.tokens["red.troll"].blocked


def test_card_views_dt_7_4_and_colours_dt_1_1() -> None:
    st = build({"ap": 2,
                "tokens": [{"id": "blue.troll", "square": [9, 6]}, {"id": "red.warrior", "square": [10, 6]}]})
    st.apply(0, {"type": "attack", "character": "blue.troll", "target": "red.warrior"})
    st.apply(1, {"type": "combat_card", "value": 3})
    v0, v1, pub = st.observe(0), st.observe(1), st.observe(PUBLIC)
    assert v0["colour"] == "blue" and v1["colour"] == "red"
    assert v1["subphase"]["my_card"] == 3 and v0["subphase"]["my_card"] is None
    assert v0["subphase"]["submitted"] == [False, True] and "cards" not in v0["subphase"]
    assert "my_card" not in pub["subphase"] and "hand" not in pub
    assert v0["hand"]["combat"] == [0, 1, 2, 2, 3, 3, 4, 5, 6]
    assert v0["hands"][1] == {"action_count": 4, "action_top": None, "combat_count": 9, "jump": 3}
    st.apply(0, {"type": "combat_card", "value": 0})
    assert st.observe(0)["hands"][1]["combat_count"] == 8


def test_post_game_release_and_stats_dt_7_9_dt_8_5() -> None:
    st = build({"ap": 2, "options": {"max_turns": 2}, "face_down": [7],
                "tokens": [{"id": "blue.goblin", "square": [20, 2]}]})
    st.apply(0, {"type": "move", "character": "blue.goblin"})
    st.apply(0, {"type": "step", "dir": "E"})
    st.apply(0, {"type": "end_turn"})
    st.apply(1, {"type": "play_action_card", "value": 2})
    st.apply(1, {"type": "end_turn"})
    view = st.observe(PUBLIC)
    assert view["slots"][7]["tile"] == "R8" and "hands_full" in view
    out = st.outcome()
    assert out is not None and out.details["stats"][0]["vp_exits"] == 2 and out.scores == [2.0, 0.0]
