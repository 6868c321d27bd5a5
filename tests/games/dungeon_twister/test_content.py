"""DT-3 content: loads, counts, effect keys, clear errors, and the L0 facts of section 10."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine import ContentError
from referee.games.dungeon_twister import data
from referee.games.dungeon_twister.effects import ABILITIES, OBJECT_EFFECTS, check_content, validate_effects
from referee.games.dungeon_twister.geometry import GEAR, TRAP

from .builder import build


def test_content_counts_dt_3_1() -> None:
    c = data.content()
    assert len(c.characters) == 8 and len(c.objects) == 6 and len(c.rooms) == 8
    assert sorted(c.cards["combat"].values) == [0, 1, 2, 2, 3, 3, 4, 5, 6]
    assert sorted(c.cards["action"].values) == [2, 3, 4, 5]
    assert len(c.cards["jump"].values) == 3
    assert [s.capacity for s in c.slots] == [2, 3, 3, 2, 2, 3, 3, 2]
    assert c.characters["goblin"].exit_vp == 2 and c.characters["thief"].speed == 5
    assert c.pair_of["R1"] == "R2" and c.pair_of["R8"] == "R7"


def test_every_effect_key_resolves_and_every_effect_is_used() -> None:
    c = data.content()
    validate_effects()
    abilities = {a for r in c.characters.values() for a in r.abilities}
    effects = {r.effect for r in c.objects.values()}
    assert ABILITIES.unused(abilities) == []
    assert OBJECT_EFFECTS.unused(effects) == []


def _broken(monkeypatch: pytest.MonkeyPatch, name: str, mutate: Any) -> str:
    real = data.load_data

    def fake(pkg: str, fname: str) -> Any:
        out = real(pkg, fname)
        if fname == name:
            mutate(out)
        return out
    monkeypatch.setattr(data, "load_data", fake)
    data.content.cache_clear()
    try:
        with pytest.raises(ContentError) as info:
            check_content(data.content())   # the content, then the effect keys it names
    finally:
        monkeypatch.setattr(data, "load_data", real)
        data.content.cache_clear()
    return str(info.value)


def test_broken_content_names_file_and_row(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _broken(monkeypatch, "rooms.json", lambda d: d["rooms"][2]["traps"].append([7, 1]))
    assert "rooms.json" in msg and "'R3'" in msg and "outside" in msg
    msg = _broken(monkeypatch, "characters.toml", lambda d: d["characters"][3].update(speed="fast"))
    assert "characters.toml" in msg and "'thief'" in msg and "speed" in msg
    msg = _broken(monkeypatch, "characters.toml", lambda d: d["characters"][0].update(abilities=["healz"]))
    assert "characters.toml" in msg and "'cleric'" in msg and "healz" in msg
    msg = _broken(monkeypatch, "objects.toml", lambda d: d["objects"].pop())
    assert "objects.toml" in msg and "6 object kinds" in msg
    msg = _broken(monkeypatch, "rooms.json", lambda d: d["rooms"][1].update(arrow="cw"))
    assert "rooms.json" in msg and "'R2'" in msg


def test_l0_derived_facts_dt_3_4() -> None:
    """Section 10 'Derived facts used below', read off our geometry."""
    st = build({})
    board = st.board
    assert board is not None
    gears = sorted(sq for sq, k in board.kind.items() if k == GEAR)
    traps = sorted(sq for sq, k in board.kind.items() if k == TRAP)
    assert gears == sorted([(3, 2), (9, 1), (12, 2), (18, 2), (3, 7), (8, 7), (14, 7), (17, 8)])
    assert traps == sorted([(2, 1), (4, 3), (11, 1), (13, 1), (14, 3), (19, 3), (3, 8), (12, 6), (14, 8),
                            (19, 6)])
    assert board.port_squares == {
        "R2-P1": ((7, 0), (7, 1)), "R2-P2": ((9, 3), (9, 4)), "R4-P1": ((17, 2), (18, 2)),
        "R5-P1": ((3, 7), (4, 7)), "R6-P1": ((6, 6), (6, 7)), "R6-P2": ((10, 6), (10, 7)),
        "R8-P1": ((18, 6), (18, 7))}
