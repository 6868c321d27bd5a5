"""Spec section 10: every worked scenario, as data (``scenarios/*.toml``), named by scenario and rule IDs.

A scenario builds a state with ``builder.build`` (or a real ``setup`` when ``real_setup`` is set),
then runs steps. A step may ``do`` an action (checked apply by the pending seat), ``set`` state
fields, ``set_player`` fields, or ``auto = "end_turns"`` (the pending seat plays out its hand and
ends its turn, ``times`` times), and then checks ``expect``: plain keys are dotted paths read by
``builder.read``; ``legal_has``/``legal_lacks`` list actions; ``legal_no_type`` lists action
types; ``legal_of:TYPE`` is the exact ordered list of legal actions of that type;
``legal_no_slot`` lists row slots no action may name; ``events_has`` lists public events (subset
match). Cube conservation is checked after every step.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.games.clank import GAME

from .builder import build, cubes_conserved, read

HERE = Path(__file__).parent / "scenarios"


def _cases() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for sc in data["scenario"]:
            out.append(pytest.param(sc, id=f"{sc['id']}[{','.join(sc['rules'])}]"))
    return out


def _check(st: Any, expect: dict[str, Any], where: str) -> None:
    legal = st.legal_actions(st.pending()[0]) if st.pending() else []
    for key, want in expect.items():
        if key == "legal_has":
            for a in want:
                assert a in legal, f"{where}: {a} should be legal; legal = {legal}"
        elif key == "legal_lacks":
            for a in want:
                assert a not in legal, f"{where}: {a} should not be legal"
        elif key == "legal_no_type":
            present = sorted({a["type"] for a in legal} & set(want))
            assert not present, f"{where}: no {present} action should be listed; legal = {legal}"
        elif key.startswith("legal_of:"):
            got = [a for a in legal if a["type"] == key[9:]]
            assert got == want, f"{where}: {key} is {got}, expected {want}"
        elif key == "legal_no_slot":
            bad = [a for a in legal if a.get("slot") in want]
            assert not bad, f"{where}: actions name emptied slots: {bad}"
        elif key == "events_has":
            events = st.events_for("public")
            for e in want:
                assert any(all(ev.get(k) == v for k, v in e.items()) for ev in events), f"{where}: no event {e}"
        else:
            got = read(st, key)
            assert got == want, f"{where}: {key} is {got!r}, expected {want!r}"


def _auto_end_turn(st: Any) -> None:
    """Play the pending seat's hand (first listed card each time, first option of any decision), end turn."""
    seat = st.active
    while True:
        legal = st.legal_actions(st.pending()[0])
        if st.stack:
            st.apply(st.pending()[0], legal[0])
            continue
        plays = [a for a in legal if a["type"] == "play_card"]
        if plays:
            st.apply(seat, plays[0])
            continue
        st.apply(seat, {"type": "end_turn"})
        return


@pytest.mark.parametrize("sc", _cases())
def test_scenario(sc: dict[str, Any]) -> None:
    setup = dict(sc.get("setup", {}))
    if setup.pop("real_setup", False):
        st = GAME.new_state(setup.get("players", 2), setup.get("options", {}), setup.get("seed", 0))
    else:
        st = build(setup)
    _check(st, sc.get("expect_start", {}), f"{sc['id']} start")
    for i, step in enumerate(sc.get("steps", [])):
        where = f"{sc['id']} step {i + 1}"
        for key, value in step.get("set", {}).items():
            setattr(st, key, value)
        for seat, fields in step.get("set_player", {}).items():
            for key, value in fields.items():
                setattr(st.p[int(seat)], key, value)
        if "do" in step:
            seat = step.get("seat", st.pending()[0])
            st.apply(seat, step["do"])
        for _ in range(step.get("times", 1) if "auto" in step else 0):
            _auto_end_turn(st)
        cubes_conserved(st)
        _check(st, step.get("expect", {}), where)
