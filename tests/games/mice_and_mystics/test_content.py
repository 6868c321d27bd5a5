"""MM-3: content as data: every file loads, counts and references hold, effect keys resolve and are used,
and a broken file gives a clear error naming the file and the row."""
from __future__ import annotations

import copy

import pytest

from referee.engine import ContentError
from referee.games.mice_and_mystics.catalog import build_content, content, load_raw, used_effects
from referee.games.mice_and_mystics.effects import EFFECTS, checked_content


def test_counts_of_this_edition() -> None:
    """MM-3.0 component counts."""
    c = content()
    assert len(c.heroes) == 6 and len(c.abilities) == 14
    assert sum(x.deck == "search" for x in c.cards.values()) == 33
    assert sum(x.deck == "gear" for x in c.cards.values()) == 9
    assert len(c.encounters) == 12 and len(c.monsters) == 6 and len(c.boss_cards) == 4
    assert sum(m.supply for m in c.monsters.values()) == 22
    assert {s.tile for s in c.sides.values()} == {"T1", "T2", "T3", "T4"} and len(c.sides) == 6


def test_die_faces() -> None:
    """MM-3.1 numbers 1,2,3,2,3,1 and bursts on F2, F5, F6."""
    faces = list(content().faces.values())
    assert [f.number for f in faces] == [1, 2, 3, 2, 3, 1]
    assert [f.id for f in faces if f.burst] == ["F2", "F5", "F6"]


def test_every_effect_key_resolves_and_every_effect_is_used() -> None:
    used = used_effects(content())
    keys = {k for rows in used.values() for ks in rows.values() for k in ks}
    for name, rows in used.items():
        EFFECTS.check(name, rows)
    assert EFFECTS.unused(keys) == []


@pytest.mark.parametrize(("file", "key", "row", "field", "value", "message"), [
    ("cards.toml", "card", 18, "effect", "heal_everything", "row 's10': unknown effect 'heal_everything'"),
    ("heroes.toml", "hero", 0, "gear", ["g01", "g99"],
     "row 'corran': field 'gear' names unknown gear card 'g99'"),
    ("encounters.toml", "encounter", 2, "p1", ["beetle", "dragon"], "row 'E03': field 'p1' names unknown"),
    ("tiles.toml", "edge", 0, "b", "9Z-9", "row '1A:1-2': field 'b' names unknown area '9Z-9'"),
    ("abilities.toml", "ability", 3, "cost", "two", "row 'a04': field 'cost' has the wrong type"),
])
def test_broken_content_names_file_and_row(file: str, key: str, row: int, field: str, value: object,
                                           message: str) -> None:
    raw = copy.deepcopy(load_raw())
    raw[file][key][row][field] = value
    with pytest.raises(ContentError) as err:
        checked_content(raw)
    assert file in str(err.value) and message in str(err.value)


def test_wrong_count_is_an_error() -> None:
    raw = copy.deepcopy(load_raw())
    raw["cards.toml"]["card"].pop()
    with pytest.raises(ContentError, match="cards.toml: expected 33 search cards, found 32"):
        build_content(raw)


def test_room_placements_are_checked() -> None:
    raw = copy.deepcopy(load_raw())
    raw["chapters.toml"]["room"][0]["monsters"][0] = ["skulker", "2A-1"]
    with pytest.raises(ContentError, match="chapters.toml: row '1:1A': bad monster placement"):
        build_content(raw)
