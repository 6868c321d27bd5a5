"""BC-3 content: every table transcribed with its counts; effect keys resolve; broken files name file
and row."""
from __future__ import annotations

import copy

import pytest

from referee.engine import ContentError
from referee.games.blockcraft import GAME
from referee.games.blockcraft.catalog import build_catalog, catalog, read_files
from referee.games.blockcraft.effects import ENCHANT_EFFECTS, SKILLS, USE_EFFECTS, check_effect_keys


def test_content_loads_with_spec_counts() -> None:
    GAME.validate_content()
    cat = catalog()
    assert sum(c.box for c in cat.cards.values() if c.raw) == 162          # BC-3.1
    assert sum(c.supply for c in cat.cards.values() if not c.raw) == 238   # BC-3.1
    assert len(cat.enchant_cards) == 16 and len(cat.characters) == 28      # BC-3.13, BC-3.14
    assert sum(i.copies for i in cat.identities.values()) == 10           # BC-3.15
    assert [s.cards for s in cat.sizes.values()] == [36, 60, 92, 132]      # BC-3.16
    assert len(cat.reserve_deck()) == 30                                    # BC-3.5
    assert cat.cards["iron_pickaxe"].ingredients == {"iron_ingot": 3, "stick": 2}   # BC-3.7
    assert cat.cards["world_core"].ingredients == {"diamond": 1, "gold_ingot": 2, "glass": 1,
                                                   "ender_pearl": 1}
    assert cat.characters["b_warden"].strength == 6 and cat.characters["u_rider"].hun == 8


def test_every_effect_key_resolves_and_every_effect_is_used() -> None:
    cat = catalog()
    used_use = {c.use_effect for c in cat.cards.values() if c.use_effect}
    used_ench = {e.effect for e in cat.enchantments.values()}
    used_skill = {c.skill for c in cat.characters.values()}
    for key in used_use:
        USE_EFFECTS.resolve(key)
    for key in used_ench:
        ENCHANT_EFFECTS.resolve(key)
    for key in used_skill:
        SKILLS.resolve(key)
    assert USE_EFFECTS.unused(used_use) == []
    assert ENCHANT_EFFECTS.unused(used_ench) == []
    assert SKILLS.unused(used_skill) == []


def _broken(file: str, mutate) -> str:
    files = copy.deepcopy(read_files())
    mutate(files[file])
    with pytest.raises(ContentError) as exc:
        check_effect_keys(build_catalog(files))   # effect keys: checked against the registries
    return str(exc.value)


def test_unknown_effect_key_names_file_and_row() -> None:
    def bad(d):
        d["character"][0]["skill"] = "prospectr"
    msg = _broken("characters.toml", bad)
    assert "characters.toml" in msg and "'h_miner'" in msg and "prospectr" in msg


def test_dangling_reference_names_file_and_row() -> None:
    def bad(d):
        d["card"][0]["ingredients"] = {"lgo": 1}
    msg = _broken("processed.toml", bad)
    assert "processed.toml" in msg and "'planks'" in msg and "lgo" in msg


def test_wrong_count_names_file_and_row() -> None:
    def bad(d):
        d["card"][0]["box"] = 20
    msg = _broken("raw_cards.toml", bad)
    assert "raw_cards.toml" in msg and "162" in msg


def test_layer_deck_mismatch_names_size() -> None:
    def bad(d):
        d["layer_deck"][0]["S"] = [6, 8, 11, 15]
    msg = _broken("maps.toml", bad)
    assert "maps.toml" in msg and "'A'" in msg and "layer S" in msg


def test_wrong_field_type_names_row() -> None:
    def bad(d):
        d["enchantment"][1]["cost"] = "three"
    msg = _broken("enchantments.toml", bad)
    assert "enchantments.toml" in msg and "'fortune'" in msg and "cost" in msg
