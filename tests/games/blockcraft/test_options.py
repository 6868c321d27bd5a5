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
    assert st.options["mode"] == "extreme" and st.max_rounds == 30   # BC-4.1: 30 rounds solo
    assert GAME.new_state(2, {"mode": "overlord"}, 3).max_rounds == 40
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
