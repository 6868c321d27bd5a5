"""BC-10 worked scenarios T1-T18, data-driven: one test per scenario case, named by scenario and rule IDs."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .builder import build, run_steps

HERE = Path(__file__).parent / "scenarios"


def _cases() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        rules = "+".join(data["rules"])
        for case in data["cases"]:
            out.append(pytest.param(data["id"], case, id=f"{data['id']}-{case['name']}-{rules}"))
    return out


@pytest.mark.parametrize(("sid", "case"), _cases())
def test_scenario(sid: str, case: dict[str, Any]) -> None:
    st = build(case["state"])
    run_steps(st, case["steps"], f"{sid}/{case['name']}")


def test_every_spec_scenario_has_a_file() -> None:
    """The spec's T1-T18 each have a file; other files (``i17_*``) hold scenarios of later rule fixes."""
    ids = {json.loads(p.read_text(encoding="utf-8"))["id"] for p in HERE.glob("*.json")}
    assert {i for i in ids if i.startswith("T")} == {f"T{i}" for i in range(1, 19)}
