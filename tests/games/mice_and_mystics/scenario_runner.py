"""Run a data-driven scenario: build, start, apply steps, check legal lists and view fields."""
from __future__ import annotations

from typing import Any

from referee.engine import PUBLIC, canonical
from referee.games.mice_and_mystics.state import MMState

from .builder import build, start


def lookup(view: dict[str, Any], path: str) -> Any:
    cur: Any = view
    for part in path.split("."):
        if isinstance(cur, list):
            cur = cur[int(part)]
        else:
            cur = cur[part]
    return cur


def matches(action: dict[str, Any], pattern: dict[str, Any]) -> bool:
    return all(action.get(k) == v for k, v in pattern.items())


def check(st: MMState, where: str, exp: dict[str, Any]) -> None:
    view = st.observe(PUBLIC)
    seat_legal = st.legal_actions(st.pending()[0]) if st.pending() else []
    for path, want in exp.get("view", {}).items():
        got = lookup(view, path)
        want = None if want == "__none__" else want
        assert got == want, f"{where}: {path} = {got!r}, expected {want!r}"
    for pat in exp.get("legal_has", []):
        assert any(matches(a, pat) for a in seat_legal), f"{where}: {pat} not legal; legal = {seat_legal}"
    for pat in exp.get("legal_lacks", []):
        assert not any(matches(a, pat) for a in seat_legal), f"{where}: {pat} is legal but must not be"
    if "legal_types" in exp:
        assert sorted({a["type"] for a in seat_legal}) == sorted(exp["legal_types"]), \
            f"{where}: legal types {sorted({a['type'] for a in seat_legal})}"
    if "log_has" in exp:
        kinds = [e["type"] for e in st.log.since(PUBLIC)]
        for k in exp["log_has"]:
            assert k in kinds, f"{where}: no {k!r} event"
    if "dice_left" in exp:
        assert len(st.rng.faces) == exp["dice_left"], f"{where}: {len(st.rng.faces)} scripted dice left"  # type: ignore[attr-defined]


def run(sc: dict[str, Any]) -> MMState:
    st = build(sc["setup"], sc.get("dice", []))
    start(st, sc["start"])
    check(st, f"{sc['id']} start", sc.get("expect_start", {}))
    for i, step in enumerate(sc.get("steps", [])):
        where = f"{sc['id']} step {i + 1} {step.get('action')}"
        if "action" in step:
            seat = st.pending()[0]
            legal = st.legal_actions(seat)
            want = canonical(step["action"])
            assert any(canonical(a) == want for a in legal), f"{where}: not legal; legal = {legal}"
            st.apply(seat, step["action"])
        check(st, where, step.get("expect", {}))
    check(st, f"{sc['id']} end", sc.get("expect_end", {}))
    return st
