"""One focused test per tricky rule (rule IDs in each name and docstring)."""
from __future__ import annotations

import pytest

from referee.engine import BadOptions, IllegalAction, Rng
from referee.games.clank import GAME
from referee.games.clank.info import MAX_DECISIONS_PER_TURN
from referee.games.clank.rules.scoring import breakdown
from referee.games.clank.rules.turn import start_turn

from .builder import build, cubes_conserved


def _end_turns(st, n: int) -> None:
    for _ in range(n):
        if st.over:
            return
        assert st.legal_actions(st.active) == [{"type": "end_turn"}]
        st.apply(st.active, {"type": "end_turn"})


def test_ck_1_options_validated() -> None:
    """CK-1 / CK-5.27: round_limit is an integer >= 1 (capped for the safety limit)."""
    for bad in (0, -3, 101, "40", 2.5, True):
        with pytest.raises(BadOptions):
            GAME.new_state(2, {"round_limit": bad}, 0)
    assert GAME.new_state(2, {"round_limit": 1}, 0).options == {"round_limit": 1}


def test_ck_4_6_artifacts_removed_by_player_count() -> None:
    """CK-4.6: 2p removes 2, 3p removes 1, 4p none; CK-4.5 rage start 2/1/0."""
    for players, removed, rage in ((2, 2, 2), (3, 1, 1), (4, 0, 0)):
        st = GAME.new_state(players, {}, 5)
        assert len(st.removed_artifacts) == removed and len(st.artifacts_at) == 7 - removed
        assert st.rage == rage


def test_rng_pinned_opening() -> None:
    """Determinism: the same seed deals the same opening (pinned)."""
    a = GAME.new_state(2, {}, 1234)
    b = GAME.new_state(2, {}, 1234)
    assert a.digest() == b.digest()
    assert a.row != GAME.new_state(2, {}, 1235).row or a.ddeck != GAME.new_state(2, {}, 1235).ddeck


def test_ck_5_28_one_action_per_card_type() -> None:
    """CK-5.28: identical cards are offered once, by the lowest id."""
    st = build({"player": [{"hand": ["s0-03", "s0-01", "s0-07", "s0-06"]}]})
    assert st.legal_actions(0) == [{"type": "play_card", "card": "s0-01"},
                                   {"type": "play_card", "card": "s0-06"}]


def test_ck_6_1_empty_supply_makes_no_clank() -> None:
    """CK-6.1: with no cubes in the supply, the clank is simply not made."""
    st = build({"player": [{"area": 30, "hand": ["s0-06"]}]})
    st.apply(0, {"type": "play_card", "card": "s0-06"})
    assert st.p[0].area == 30 and st.p[0].supply == 0
    cubes_conserved(st)


def test_ck_6_7_out_players_unaffected() -> None:
    """CK-6.7 / CK-6.6: others_clank skips out players; an escaped player's clank and healing do nothing."""
    st = build({"players": 3, "player": [{"hand": ["d059", "s0-06"]}, {"status": "escaped"}, {}]})
    st.apply(0, {"type": "play_card", "card": "d059"})  # Town Crier: others_clank+1
    assert st.p[1].area == 0 and st.p[2].area == 1
    st.p[0].status = "escaped"
    st.apply(0, {"type": "play_card", "card": "s0-06"})
    assert st.p[0].area == 0


def test_ck_6_6_escaped_player_finishes_turn() -> None:
    """CK-6.6: after escaping, cards and buys still work; move/teleport/take_artifact/buy_market do not."""
    st = build({"boots": 1, "teleports": 1,
                "player": [{"room": "R1", "artifacts": ["A05"], "hand": ["s0-00"]}]})
    st.apply(0, {"type": "move", "to": "R0", "swords": 0})
    legal = st.legal_actions(0)
    assert {a["type"] for a in legal} == {"play_card"}
    st.apply(0, {"type": "play_card", "card": "s0-00"})
    assert st.skill == 1 and st.legal_actions(0) == [{"type": "end_turn"}]


def test_ck_6_6_r0_needs_an_artifact() -> None:
    """CK-6.6 / CK-5.12: neither walking nor teleporting into R0 without an artifact."""
    st = build({"boots": 2, "teleports": 1, "player": [{"room": "R1"}]})
    assert not [a for a in st.legal_actions(0) if a.get("to") == "R0"]


def test_ck_5_25_out_players_cubes_set_aside() -> None:
    """CK-5.25: a drawn cube of an out player goes to its removed pile, no damage."""
    st = build({"bag_black": 0, "black_aside": 24, "row": ["d000", "d001", "d002", "d003", "d004", None],
                "ddeck": ["d071"], "player": [{}, {"status": "escaped", "area": 2}]})
    st.apply(0, {"type": "end_turn"})
    assert st.p[1].removed == 2 and st.p[1].damage == 0 and st.p[1].bag == 0
    cubes_conserved(st)


def test_ck_6_8_first_knockout_in_draw_order_takes_countdown() -> None:
    """CK-6.8: two knockouts in one attack: the first cube drawn decides the countdown owner."""
    st = build({"players": 3, "bag_black": 0, "black_aside": 24, "rage": 6,
                "row": ["d000", "d001", "d002", "d003", "d004", None], "ddeck": ["d071"],
                "player": [{}, {"damage": 9, "area": 1}, {"damage": 9, "area": 1}]})
    st.apply(0, {"type": "end_turn"})
    attack = next(e for e in st.events_for("public") if e["type"] == "dragon_attack")
    assert len(attack["knocked_out"]) == 2
    assert st.cd_owner == attack["knocked_out"][0]


def test_ck_6_13_dungeon_deck_rebuilt_from_discard() -> None:
    """CK-6.13: an empty dungeon deck is rebuilt from the shuffled dungeon discard."""
    st = build({"skill": 3, "row": ["d089", "d001", "d002", "d003", "d004", "d005"], "ddeck": []})
    st.apply(0, {"type": "use_device", "slot": 0})
    st.apply(0, {"type": "end_turn"})
    assert st.row[0] == "d089" and st.ddiscard == [] and st.ddeck == []


def test_ck_6_13_empty_slot_stays_empty() -> None:
    """CK-6.13: with deck and discard both empty the slot stays empty and nothing attacks."""
    st = build({"row": [None, "d001", "d002", "d003", "d004", "d005"], "ddeck": []})
    st.apply(0, {"type": "end_turn"})
    assert st.row[0] is None and st.bag_black == 24


def test_ck_5_27_round_limit_dragon_countdown() -> None:
    """CK-5.27 / CK-8.6: the neutral dragon pawn takes the track after the last round; game over 4 rounds
    later."""
    st = build({"options": {"round_limit": 2}})
    _end_turns(st, 4)  # rounds 1-2
    assert st.cd_owner == "dragon" and st.cd_space == 1 and st.round == 3
    _end_turns(st, 20)
    assert st.over and st.end_reason == "round_limit" and st.round == 6
    assert all(p.status == "knocked_out" for p in st.p)
    assert st.outcome().ranks == [1, 1] and st.outcome().scores == [0.0, 0.0]


def test_ck_5_20_discard_then_draw() -> None:
    """CK-5.20 / CK-6.10: discard a Trip (its clank never resolves) and draw 2; skipped on an empty hand."""
    st = build({"player": [{"hand": ["d021", "s0-06"], "deck": ["s0-00", "s0-01", "s0-02"]}]})
    st.apply(0, {"type": "play_card", "card": "d021"})
    assert st.legal_actions(0) == [{"type": "discard", "card": "s0-06"}, {"type": "decline"}]
    st.apply(0, {"type": "discard", "card": "s0-06"})
    assert sorted(st.p[0].hand) == ["s0-00", "s0-01"] and st.p[0].area == 0 and st.skill == 1
    st2 = build({"player": [{"hand": ["d021"]}]})
    st2.apply(0, {"type": "play_card", "card": "d021"})
    assert not st2.stack and st2.skill == 1


def test_ck_5_21_trash_and_conditional_lapse() -> None:
    """CK-5.21 / CK-6.9: trashing a card from the play area lapses its pending conditional."""
    st = build({"skill": 2, "row": ["d099", "d001", "d002", "d003", "d004", "d005"],
                "player": [{"hand": ["d049"], "deck": ["s0-00"]}]})
    st.apply(0, {"type": "play_card", "card": "d049"})
    assert len(st.conds) == 1
    st.apply(0, {"type": "use_device", "slot": 0})
    assert {"type": "trash", "zone": "play", "card": "d049"} in st.legal_actions(0)
    st.apply(0, {"type": "trash", "zone": "play", "card": "d049"})
    assert st.conds == [] and st.trashed == ["d049"] and st.p[0].play == []


def test_ck_5_22_secret_from_adjacent_with_clank() -> None:
    """CK-5.22: Bold Prospector: make 2 clank, then take a secret from an adjacent room without entering."""
    st = build({"player": [{"room": "R1", "hand": ["d065"]}], "minor": {"R2": ["n00", "n01"]}})
    st.apply(0, {"type": "play_card", "card": "d065"})
    assert st.legal_actions(0) == [{"type": "secret_from", "room": "R2"}, {"type": "decline"}]
    st.apply(0, {"type": "secret_from", "room": "R2"})
    assert st.p[0].area == 2 and st.p[0].gold == 2 and st.p[0].room == "R1" and len(st.minor["R2"]) == 1


def test_ck_5_19_choose_and_ck_5_15_potion() -> None:
    """CK-5.19: choose(A OR B); CK-5.15: a potion is kept, then used once."""
    st = build({"player": [{"hand": ["d012"], "tokens": ["n13"]}]})
    st.apply(0, {"type": "play_card", "card": "d012"})
    assert st.legal_actions(0) == [{"type": "choose", "option": 0}, {"type": "choose", "option": 1}]
    st.apply(0, {"type": "choose", "option": 1})
    assert st.swords == 3 and st.skill == 0
    st.apply(0, {"type": "use_token", "token": "n13"})
    assert st.swords == 5 and st.p[0].tokens == [] and st.tokens_gone == ["n13"]


def test_ck_5_18_idol_and_major() -> None:
    """CK-5.18: an idol or a major secret is taken on entry; one token per entry."""
    st = build({"boots": 2, "player": [{"room": "R7"}], "major": {"R3": "j03"}})
    st.apply(0, {"type": "move", "to": "R11", "swords": 0})
    st.apply(0, {"type": "take_token", "kind": "idol"})
    assert st.p[0].idols == ["idol1"] and st.idols_at["R11"] == ["idol2", "idol3"]
    st.apply(0, {"type": "move", "to": "R7", "swords": 0})
    assert not st.stack


def test_ck_8_4_ranking_ties() -> None:
    """CK-8.4: points, then best artifact; remaining ties share; ineligible last with 0."""
    st = build({"players": 4, "over": True, "end_reason": "all_out", "player": [
        {"status": "escaped", "mastery": "mastery0", "artifacts": ["A05"], "gold": 10},   # 35, best 5
        {"status": "escaped", "mastery": "mastery1", "artifacts": ["A12"], "gold": 3},    # 35, best 12
        {"status": "knocked_out", "artifacts": ["A20"], "room": "R25"},                  # ineligible
        {"status": "knocked_out", "room": "R3"},                                          # ineligible
    ]})
    out = st.outcome()
    assert out.scores == [35.0, 35.0, 0.0, 0.0]
    assert out.ranks == [2, 1, 3, 3]
    assert out.details["raw_points"][2] == 20


def test_ck_8_3_card_points_and_bonuses() -> None:
    """CK-8.3: printed VP, Jeweler per gem, Archivist per codex, Oath with mastery."""
    st = build({"over": True, "end_reason": "all_out", "player": [
        {"status": "escaped", "mastery": "mastery0", "artifacts": ["A05"],
         "deck": ["d057", "d041", "d045", "d058", "c00", "c01", "d040"]}]})
    b = breakdown(st, st.p[0])
    assert b["cards"] == 4 + 5 + 7 + 7 and b["card_bonus"] == 2 + 4 + 8


def test_ck_8_6_random_games_terminate_within_limits() -> None:
    """CK-8.6: random play ends by round limit + 4 with few decisions per turn."""
    for seed in range(3):
        st = GAME.new_state(4, {"round_limit": 10}, seed)
        rng = Rng(seed)
        per_turn = 0
        worst = 0
        while not st.over:
            seat = st.pending()[0]
            legal = st.legal_actions(seat)
            before = (st.active, st.round)
            st.apply(seat, legal[rng.below(len(legal))])
            per_turn = per_turn + 1 if (st.active, st.round) == before else 0
            worst = max(worst, per_turn)
            cubes_conserved(st)
        assert st.round <= 14 and worst < MAX_DECISIONS_PER_TURN


def test_illegal_messages_reveal_nothing() -> None:
    """CK-7: an illegal play of another seat's card names no card."""
    st = GAME.new_state(2, {}, 3)
    other = st.p[1].hand[0]
    with pytest.raises(IllegalAction) as err:
        st.apply(0, {"type": "play_card", "card": other})
    assert other not in str(err.value)


def test_ck_5_1_out_seats_are_skipped_and_ck_5_2_turn_draw() -> None:
    """CK-5.1: an out seat that does not own the countdown is skipped; CK-5.2: a turn starts by drawing
    to 5."""
    st = build({"players": 3, "cd_owner": 2, "cd_space": 1, "player": [
        {}, {"status": "knocked_out"}, {"status": "escaped"}]})
    st.p[0].deck = ["s0-00", "s0-01", "s0-02", "s0-03", "s0-04", "s0-05", "s0-06"]
    st.apply(0, {"type": "end_turn"})  # draws 5 at the end of the turn (CK-5.24 step 3)
    # seat 1 skipped, seat 2 runs a countdown step, back to seat 0 in round 2
    assert st.active == 0 and st.round == 2 and st.cd_space == 2 and len(st.p[0].hand) == 5
    st.p[0].hand = st.p[0].hand[:2]
    start_turn(st, 0)
    assert len(st.p[0].hand) == 4  # only 2 cards were left in the deck


def test_ck_5_23_room_effects_every_entry_and_ck_6_4_heal() -> None:
    """CK-5.23: gold/clank rooms on every entry; CK-6.4: healing returns cubes, never below 0 damage."""
    st = build({"boots": 3, "player": [{"room": "R20", "damage": 2}]})
    st.apply(0, {"type": "move", "to": "R21", "swords": 0})
    assert st.p[0].gold == 2 and st.p[0].area == 1
    st.apply(0, {"type": "move", "to": "R20", "swords": 0})
    st.exhausted = False  # R20 is a crystal cave
    st.apply(0, {"type": "move", "to": "R21", "swords": 0})
    assert st.p[0].gold == 4 and st.p[0].area == 2
    st.p[0].hand = ["d052"]
    st.apply(0, {"type": "play_card", "card": "d052"})  # Hedge Priest: heal+1
    assert st.p[0].damage == 1 and st.skill == 1
    cubes_conserved(st)


def test_ck_6_11_trash_from_discard_leaves_the_game() -> None:
    """CK-6.11: a trashed starting card is gone publicly and no longer owned."""
    st = build({"skill": 2, "row": ["d099", "d001", "d002", "d003", "d004", "d005"],
                "player": [{"discard": ["s0-06"]}]})
    st.apply(0, {"type": "use_device", "slot": 0})
    st.apply(0, {"type": "trash", "zone": "discard", "card": "s0-06"})
    assert st.trashed == ["s0-06"] and "s0-06" not in st.p[0].owned()
    assert st.observe("public")["trashed"] == [{"id": "s0-06", "type": "S02"}]


def test_every_scenario_ends_with_every_cube_somewhere() -> None:
    """CK-3.1: the 30 cubes of each player and the 24 black cubes are conserved through every
    section-10 scenario (the scenarios themselves are run by tests/games/test_scenarios.py)."""
    from pathlib import Path

    from referee.engine import scenarios

    files = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
    assert len(files) >= 30
    for path in files:
        cubes_conserved(scenarios.run(scenarios.load(path)))
