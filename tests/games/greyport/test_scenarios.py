"""GB section 10 worked scenarios, data-driven: each ``scenarios/*.toml`` builds a small state, applies
actions, and checks exact results. Test ids name the scenario and its rule IDs."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.engine import IllegalAction

from .builder import build, probe

HERE = Path(__file__).parent / "scenarios"


def _load() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*.toml")):
        spec = tomllib.loads(path.read_text())
        for case in spec.get("case", [spec]):
            merged = {**spec, **case} if case is not spec else spec
            cid = f"{merged['id']}-{'-'.join(merged['rules'])}"
            out.append(pytest.param(merged, id=cid))
    return out


def _check(st: Any, expect: dict[str, Any], where: str) -> None:
    for path, want in expect.items():
        got = probe(st, path)
        assert got == want, f"{where}: {path}: expected {want!r}, got {got!r}"


@pytest.mark.parametrize("spec", _load())
def test_scenario(spec: dict[str, Any]) -> None:
    st, rng = build(spec)
    for i, step in enumerate(spec.get("step", [])):
        where = f"{spec['id']} step {i + 1}"
        if "action" in step:
            seat = step.get("seat", st.pending()[0] if st.pending() else -1)
            if step.get("illegal"):
                with pytest.raises(IllegalAction):
                    st.apply(seat, step["action"])
            else:
                st.apply(seat, step["action"])
        if "expect" in step:
            _check(st, step["expect"], where)
        for a in step.get("legal_has", []):
            assert a in probe(st, "legal"), f"{where}: {a} should be legal"
        for a in step.get("legal_not", []):
            assert a not in probe(st, "legal"), f"{where}: {a} should not be legal"
    _check(st, spec.get("expect", {}), f"{spec['id']} final")
    assert not rng.forced_dice, f"{spec['id']}: scripted dice left unused: {rng.forced_dice}"
