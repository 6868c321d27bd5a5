"""The scenario builder builds stacks the way setup deals them (BC-3.16, BC-4.3): level 1 from the Deep
deck, levels 2..H-1 Underground, the top Surface; height 0 is bare ground."""
from __future__ import annotations

from referee.games.blockcraft import GAME

from .builder import _stack, build


def layers(stack: list[dict]) -> list[str | None]:
    return [c["l"] for c in stack]


def test_bc_3_16_integer_stacks_have_the_setup_layers() -> None:
    assert _stack(0) == []
    assert layers(_stack(1)) == ["D"]
    assert layers(_stack(2)) == ["D", "S"]
    assert layers(_stack(4)) == ["D", "U", "U", "S"]
    assert all(c["s"] == "down" for c in _stack(4))


def test_bc_4_3_list_stacks_tag_face_down_cards_by_level() -> None:
    stack = _stack(["gold_ore", "iron_ore", "coal_ore", "dirt"])
    assert layers(stack) == ["D", "U", "U", "S"]
    assert [c["c"] for c in stack] == ["gold_ore", "iron_ore", "coal_ore", "dirt"]
    mixed = _stack(["diamond", "loose:coal_ore"])
    assert layers(mixed) == ["D", None] and mixed[1]["s"] == "loose"
    assert layers(_stack(["down:stone@U", "apple"])) == ["U", "S"]   # an explicit layer wins


def test_bc_4_3_builder_matches_a_real_setup() -> None:
    st = GAME.new_state(2, {"mode": "overlord"}, 5)
    for stack in st.cells:
        assert layers(stack) == layers(_stack(len(stack)))


def test_builder_height_zero_cell_is_bare_ground() -> None:
    st = build({"cells": {"1,0": 0}, "p": {"0": {"cell": [0, 0]}, "1": {"cell": [3, 3]}}})
    assert st.H(1, 0) == 0 and st.cell(1, 0) == []
