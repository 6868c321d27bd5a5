"""Spec section 10 worked scenarios as data files (scenarios/*.toml), named by scenario and rule IDs."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from .scenario_runner import run

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


def _load(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


CASES = [pytest.param(_load(p), id=f"{_load(p)['id']}[{','.join(_load(p)['rules'])}]") for p in FILES]


@pytest.mark.parametrize("scenario", CASES)
def test_scenario(scenario: dict[str, Any]) -> None:
    st = run(scenario)
    if "expect_score" in scenario:
        out = st.outcome()
        assert out is not None and out.team_score == scenario["expect_score"]


def test_every_section_10_scenario_has_a_file() -> None:
    ids = {_load(p)["id"] for p in FILES}
    assert {f"T{i}" for i in range(1, 20)} <= ids
