"""Spec section 10 worked scenarios as data (``scenarios/*.json``), one test per case.

A case has ``given`` (see ``builder.build``) and ``steps``: ``do`` [seat, action] (checked
apply), ``legal`` (``has`` / ``lacks`` / ``only`` of one type), ``expect`` (state facts) and
``edit`` (a test-state edit between steps, as S-22 asks).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.engine import canonical
from referee.games.dungeon_twister.data import DIRS

from .builder import build, place_tokens

HERE = Path(__file__).parent / "scenarios"


def _cases() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text())
        for case in data["cases"]:
            rules = "+".join(case.get("rules", data["rules"]))
            out.append(pytest.param(case, id=f"{data['id']}-{case['name']}[{rules}]"))
    return out


def _keys(actions: list[dict[str, Any]]) -> set[str]:
    return {canonical(a) for a in actions}


def check_expect(st: Any, exp: dict[str, Any]) -> None:
    for tid, fields in exp.get("tokens", {}).items():
        t = st.tokens[tid]
        for field, value in fields.items():
            got = getattr(t, field)
            if field == "square":
                got = list(got) if got is not None else None
            assert got == value, f"{tid}.{field}: {got!r} != {value!r}"
    simple = {"vp": lambda: st.vp, "card_ap": lambda: st.card_ap, "potion_ap": lambda: st.potion_ap,
              "jumps": lambda: st.jumps, "combat_hand": lambda: st.combat_hand, "pending": st.pending,
              "phase": lambda: st.phase, "active": lambda: st.active, "action_hand": lambda: st.action_hand,
              "ports": lambda: {k: st.ports[k] for k in exp["ports"]},
              "orientation": lambda: {k: st.slots[int(k)]["orientation"] for k in exp["orientation"]}}
    for key, get in simple.items():
        if key in exp:
            assert get() == exp[key], f"{key}: {get()!r} != {exp[key]!r}"
    for sq, ids in exp.get("at", {}).items():
        x, y = (int(v) for v in sq.split(","))
        assert sorted(st.at.get((x, y), [])) == sorted(ids), f"at {sq}: {st.at.get((x, y))}"
    for (x, y), side, kind in exp.get("edges", []):
        got = st.board.edge((x, y), DIRS.index(side))
        assert got == kind, f"edge {x},{y} {side}: {got} != {kind}"
    if "sub" in exp:
        view = st.observe(0)["subphase"]
        for key, value in exp["sub"].items():
            assert view[key] == value, f"subphase {key}: {view[key]!r} != {value!r}"
    if "outcome" in exp:
        out = st.outcome()
        assert out is not None
        assert out.ranks == exp["outcome"]["ranks"] and out.scores == exp["outcome"]["scores"]


@pytest.mark.parametrize("case", _cases())
def test_scenario(case: dict[str, Any]) -> None:
    st = build(case["given"])
    for i, step in enumerate(case["steps"]):
        where = f"step {i}: {json.dumps(step)[:120]}"
        if "do" in step:
            seat, action = step["do"]
            assert seat in st.pending(), f"{where}: seat {seat} is not pending ({st.pending()})"
            st.apply(seat, action)
        elif "legal" in step:
            legal = st.legal_actions(step["legal"])
            keys = _keys(legal)
            for a in step.get("has", []):
                assert canonical(a) in keys, f"{where}: missing {a} in {legal}"
            for a in step.get("lacks", []):
                assert canonical(a) not in keys, f"{where}: unexpected {a}"
            if "only" in step:
                kind = step["only"]["type"]
                got = _keys([a for a in legal if a["type"] == kind])
                assert got == _keys(step["only"]["actions"]), f"{where}: {kind} actions {got}"
            if "none_of" in step:
                assert not [a for a in legal if a["type"] in step["none_of"]], f"{where}: {legal}"
            if "chars" in step:  # the acting characters offered (outside end_turn)
                got_chars = sorted({a["character"] for a in legal if "character" in a})
                assert got_chars == step["chars"], f"{where}: {got_chars}"
        elif "expect" in step:
            try:
                check_expect(st, step["expect"])
            except AssertionError as exc:
                raise AssertionError(f"{where}: {exc}") from None
        elif "edit" in step:
            place_tokens(st, step["edit"]["tokens"])
        else:
            raise AssertionError(f"{where}: unknown step")
