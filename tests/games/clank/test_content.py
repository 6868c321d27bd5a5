"""CK-3: content as data — every effect key resolves and is used; broken files name file and row."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.engine import ContentError, load_data
from referee.games.clank import GAME
from referee.games.clank import catalog as catalog_module
from referee.games.clank.catalog import EFFECT_OPS, ENDGAME_OPS, catalog, load_catalog, used_effect_keys
from referee.games.clank.effects import EFFECTS, ENDGAME


def test_every_effect_key_resolves_and_every_effect_is_used() -> None:
    GAME.validate_content()
    used, end = used_effect_keys()
    assert used <= set(EFFECTS.effects) and end <= set(ENDGAME.effects)
    assert EFFECTS.unused(used) == []
    assert ENDGAME.unused(end) == []
    # the ops the loader accepts (catalog.SCHEMA) are exactly the ops with a function
    assert set(EFFECTS.effects) == EFFECT_OPS and set(ENDGAME.effects) == ENDGAME_OPS


def test_counts_from_the_spec_tables() -> None:
    """CK-3.4 .. CK-3.13 totals."""
    cat = catalog()
    assert len(cat.dungeon_ids) == 100 and cat.dungeon_ids[0] == "d000" and cat.dungeon_ids[-1] == "d099"
    assert [len(cat.reserve_piles[p].ids)
            for p in ("hireling", "pathfinder", "codex", "goblin")] == [15, 15, 12, 1]
    assert len(cat.minor_ids) == 18 and len(cat.major_ids) == 11
    assert len(cat.rooms) == 30 and len(cat.tunnels) == 53 and len(cat.artifacts) == 7
    assert cat.type_of["d041"] == "G01" and cat.type_of["s3-09"] == "S04" and cat.type_of["c11"] == "X03"
    assert cat.card_types["I04"].play == [{"op": "choose", "options": [[{"op": "skill", "n": 3}],
                                                                        [{"op": "swords", "n": 3}]]}]
    # CK-3.13 adjacency: one-way T24 runs R11 -> R16 only
    assert "R16" in [r for r, _ in cat.out_edges["R11"]] and "R11" not in [r for r, _ in cat.out_edges["R16"]]
    assert "R11" in cat.adjacent["R16"]


def _broken(monkeypatch: pytest.MonkeyPatch, name: str, mutate: Any) -> str:
    real = load_data

    def fake(package: str, file: str) -> Any:
        data = real(package, file)
        if file == name:
            data = copy.deepcopy(data)
            mutate(data)
        return data

    monkeypatch.setattr(catalog_module, "load_data", fake)
    with pytest.raises(ContentError) as err:
        load_catalog()
    return str(err.value)


def test_unknown_effect_names_file_and_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(d: dict) -> None:
        d["dungeon"][4]["play"] = [{"op": "draw_then_trsh", "n": 1}]
    msg = _broken(monkeypatch, "cards.toml", mutate)
    assert "cards.toml" in msg and "'I05'" in msg and "draw_then_trsh" in msg


def test_bad_effect_field_names_file_and_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(d: dict) -> None:
        d["minor"][0]["effect"] = [{"op": "gold", "n": "two"}]
    msg = _broken(monkeypatch, "secrets.toml", mutate)
    assert "secrets.toml" in msg and "'MS1'" in msg and "integer" in msg


def test_wrong_count_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(d: dict) -> None:
        d["dungeon"][-1]["copies"] = 2
        d["dungeon"][-1]["last_id"] = "d100"
    msg = _broken(monkeypatch, "cards.toml", mutate)
    assert "cards.toml" in msg and "100 dungeon cards" in msg


def test_dangling_room_names_file_and_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(d: dict) -> None:
        d["tunnel"][0]["b"] = "R99"
    msg = _broken(monkeypatch, "map.toml", mutate)
    assert "map.toml" in msg and "'T1'" in msg and "R99" in msg


def test_missing_field_names_file_and_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(d: dict) -> None:
        del d["artifact"][2]["value"]
    msg = _broken(monkeypatch, "game.toml", mutate)
    assert "game.toml" in msg and "'A12'" in msg and "value" in msg


def test_decision_inside_conditional_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(d: dict) -> None:
        d["dungeon"][10]["play"] = [{"op": "if", "cond": "artifact", "then": [{"op": "trash_opt"}]}]
    msg = _broken(monkeypatch, "cards.toml", mutate)
    assert "'I11'" in msg and "decision" in msg
