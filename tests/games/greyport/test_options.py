"""GB-4.1 options: defaults, validation with one clear message, cross-field checks."""
from __future__ import annotations

import pytest

from referee.engine import BadOptions
from referee.games.greyport import GAME


def test_defaults() -> None:
    assert GAME.options.defaults() == {
        "chapter": "CH1", "characters": None, "first_player": None, "starting_hp": 10,
        "wounded_warrior": "off", "extra_factions": 0, "random_locations": False, "open_hands": False,
        "silence": False, "rest_healing": 2, "round_limit": 25}


@pytest.mark.parametrize(("players", "opts", "message"), [
    (2, {"chapter": "CH3"}, "chapter"),
    (2, {"starting_hp": 7}, "starting_hp"),
    (2, {"characters": ["WAR"]}, "lists 1 characters for 2 seats"),
    (2, {"characters": ["WAR", "WAR"]}, "must not repeat"),
    (2, {"characters": ["WAR", "ELF"]}, "unknown code"),
    (2, {"characters": "WAR,ROG"}, "characters"),
    (2, {"first_player": 2}, "seats are 0..1"),
    (2, {"first_player": True}, "first_player"),
    (3, {"wounded_warrior": 3}, "seats are 0..2"),
    (3, {"wounded_warrior": "everyone"}, "wounded_warrior"),
    (2, {"extra_factions": 3}, "extra_factions"),
    (2, {"rest_healing": 4}, "rest_healing"),
    (2, {"round_limit": 4}, "round_limit"),
    (2, {"open_hands": "yes"}, "open_hands"),
])
def test_bad_options_one_clear_error(players: int, opts: dict, message: str) -> None:
    with pytest.raises(BadOptions) as exc:
        GAME.new_state(players, opts, 0)
    assert message in str(exc.value)


def test_fixed_characters_first_player_and_wounded() -> None:
    st = GAME.new_state(3, {"characters": ["PYR", "LGT", "CHR"], "first_player": 2, "wounded_warrior": 1,
                            "starting_hp": 8}, 5)
    view = st.observe(0)
    assert [p["character"] for p in view["players"]] == ["PYR", "LGT", "CHR"]
    assert view["defending_seat"] == 2
    assert [p["hp"] for p in view["players"]] == [8, 3, 8]
    assert all(p["max_hp"] == 8 for p in view["players"])


def test_silence_forces_hidden_hands() -> None:
    st = GAME.new_state(2, {"characters": ["WAR", "ROG"], "open_hands": True, "silence": True}, 1)
    assert "hand" not in st.observe(0)["players"][1]
    st2 = GAME.new_state(2, {"characters": ["WAR", "ROG"], "open_hands": True}, 1)
    assert st2.observe(0)["players"][1]["hand"] == st2.observe(1)["players"][1]["hand"]
