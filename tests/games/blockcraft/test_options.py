"""BC-4.1 options and BC-1.1 seat counts: one clear error each; variants per seat count."""
from __future__ import annotations

import pytest

from referee.engine import BadOptions
from referee.games.blockcraft import GAME
from referee.games.blockcraft.options import variants


@pytest.mark.parametrize(("players", "options", "words"), [
    (5, {"mode": "team"}, "team"),                                   # BC-1.1: 3, 4, 6, 9 only
    (1, {"mode": "overlord"}, "overlord"),
    (1, {"mode": "boss"}, "boss"),
    (2, {"mode": "chaos"}, "mode"),
    (3, {"mode": "extreme", "max_rounds": 0}, "max_rounds"),
    (3, {"mode": "extreme", "max_rounds": 101}, "max_rounds"),
    (3, {"mode": "extreme", "admin_seat": 3}, "admin_seat"),
    (4, {"mode": "team", "team_factions": ["human", "human"]}, "team_factions"),
    (4, {"mode": "team", "team_factions": ["human", "elf"]}, "team_factions"),
    (3, {"mode": "team", "team_factions": ["human", "undead"]}, "team_factions"),
    (6, {"mode": "team", "team_split": "four"}, "team_split"),
])
def test_bad_options_get_one_clear_error(players: int, options: dict, words: str) -> None:
    with pytest.raises(BadOptions) as exc:
        GAME.new_state(players, options, 0)
    assert words in str(exc.value)


def test_defaults_and_solo() -> None:
    st = GAME.new_state(1, None, 3)
    assert st.options["mode"] == "extreme" and st.max_rounds == 36   # BC-4.1 (spec 1.1): 36 rounds solo
    assert GAME.new_state(2, {"mode": "overlord"}, 3).max_rounds == 40
    assert GAME.new_state(2, {"mode": "extreme"}, 3).max_rounds == 40
    assert GAME.new_state(2, {"mode": "overlord", "max_rounds": 7}, 3).max_rounds == 7


def test_variants_are_exactly_the_valid_modes() -> None:
    modes = {n: [v["mode"] for v in variants(n)] for n in range(1, 11)}
    assert modes[1] == ["extreme"]
    assert modes[2] == ["boss", "overlord", "extreme"]
    assert modes[5] == ["boss", "overlord", "extreme"]
    assert modes[6] == ["boss", "team", "team", "overlord", "extreme"]
    assert modes[9] == ["boss", "team", "overlord", "extreme"]
    for n in range(1, 11):
        for v in GAME.variants(n):
            GAME.new_state(n, v, 0)


def test_bc_8_6_solo_game_ends_after_round_36() -> None:
    """BC-4.1 / BC-8.6 (spec 1.1): a solo game that never crafts the World Core ends after round 36."""
    from referee.engine import Rng

    st = GAME.new_state(1, None, 4)
    rng = Rng(1)
    while st.pending():
        legal = st.legal_actions(0)
        safe = [a for a in legal if a["type"] in ("choose_character", "choose_start", "end_action_phase",
                                                  "discard", "use", "land", "cancel", "pass", "end_turn")]
        st.apply(0, rng.choice(safe or legal))
    out = st.outcome()
    assert out is not None and out.details["reason"] in ("round_limit", "all_dead")
    if out.details["reason"] == "round_limit":
        assert out.details["rounds"] == 36


@pytest.mark.parametrize(("players", "mode"),
                         [(1, "extreme"), (2, "overlord"), (4, "overlord"), (10, "overlord")])
def test_default_mode_depends_on_the_seat_count(players: int, mode: str) -> None:
    """[design] issue 17: with no `mode` given, the game picks the mode that separates bots at that seat
    count: solo `extreme` (the only solo mode), `overlord` from 2 seats (a 2-seat `extreme` game nearly
    always ends with every seat dead, ranking everyone 1). An explicit mode always wins."""
    assert GAME.options.validate({})["mode"] is None
    st = GAME.new_state(players, {}, 3)
    assert st.mode == mode and st.options["mode"] == mode and st.observe(0)["mode"] == mode
    assert GAME.new_state(2, {"mode": "extreme"}, 3).mode == "extreme"
