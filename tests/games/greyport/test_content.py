"""GB-3 content as data: every effect key resolves and is used; broken files fail naming file and row."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.engine import ContentError, load_data
from referee.games.greyport import GAME
from referee.games.greyport.catalog import FILES, PKG, build_content, load_content
from referee.games.greyport.effects import REGISTRY, check_content


def raw() -> dict[str, Any]:
    return {name: load_data(PKG, name) for name in FILES}


def test_content_loads_with_spec_counts() -> None:
    GAME.validate_content()
    c = load_content()
    assert sum(c.cards[d].count for d in c.hero_designs) == 50
    assert sum(c.cards[d].count for d in c.item_designs) == 48
    assert sum(c.cards[d].count for d in c.curse_designs) == 20
    assert sum(c.monsters[t].count for t in c.token_designs) == 21
    assert {f: sum(c.monsters[m].count for m in ids) for f, ids in c.factions.items()} == \
        {"GOB": 20, "COR": 20, "DRK": 20}
    assert c.monsters["B1"].hp_for(4) == 30 and c.monsters["B3"].hp_for(1) == 22
    assert c.encounters["E1-1"].location_threat[3] == 5  # S01: 4 players, location threat 5


def test_every_effect_key_resolves_and_every_registered_effect_is_used() -> None:
    c = load_content()
    assert all(k in REGISTRY.effects for k in c.keys_used)
    assert REGISTRY.unused(c.keys_used) == []


@pytest.mark.parametrize(("file", "mutate", "message"), [
    ("cards.toml", lambda d: d["heroes"][3].__setitem__("abilities", ["play:shieldd(1)"]),
     "cards.toml: row 'H04': unknown effect 'play:shieldd'"),
    ("cards.toml", lambda d: d["heroes"].pop(), "expected 50 hero cards"),
    ("cards.toml", lambda d: d["items"][0].__setitem__("cost", "platinum"),
     "cards.toml: row 'I01': field 'cost'"),
    ("cards.toml", lambda d: d["items"][0].__setitem__("dice", ["R"]),
     "cards.toml: row 'I01': field 'dice' names unknown die"),
    ("monsters.toml", lambda d: d["monsters"][6].__setitem__("abilities", ["ambush:token_front(T09)"]),
     "monsters.toml: row 'G07': ability 'ambush:token_front(T09)' names unknown token 'T09'"),
    ("monsters.toml", lambda d: d["monsters"][0].__setitem__("count", 5),
     "faction 'GOB': expected 20 monster cards"),
    ("monsters.toml", lambda d: d["monsters"][0].__setitem__("speed", 5),
     "monsters.toml: row 'G01': unknown field"),
    ("chapters.toml", lambda d: d["encounters"][0].__setitem__("location", "L9"),
     "chapters.toml: row 'E1-1': field 'location' names unknown location 'L9'"),
    ("locations.toml", lambda d: d["locations"][0].__setitem__("reward", "each_gain_platinum"),
     "locations.toml: row 'L1': unknown effect 'reward:each_gain_platinum'"),
    ("curses.toml", lambda d: d["curses"][0].__setitem__("count", "four"),
     "curses.toml: row 'K1': field 'count'"),
])
def test_broken_content_names_file_and_row(file: str, mutate: Any, message: str) -> None:
    data = copy.deepcopy(raw())
    mutate(data[file])
    with pytest.raises(ContentError) as exc:
        check_content(build_content(data))   # the tables, then the effect keys they name
    assert message in str(exc.value)
    assert f"greyport/content/{file}" in str(exc.value)
