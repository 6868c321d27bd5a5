"""Every game's worked scenarios (``tests/games/<id>/scenarios/*.json`` in the ``arena-scenario/1``
format), run by the engine's one scenario runner (``referee.engine.scenarios``), one test per file,
named by scenario and rule IDs."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.engine import scenarios

HERE = Path(__file__).parent


def _files() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*/scenarios/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != scenarios.FORMAT:
            continue  # a game whose scenarios are not converted yet
        out.append(pytest.param(path, id=f"{data['game']}-{data['id']}[{','.join(data.get('rules', []))}]"))
    return out


@pytest.mark.parametrize("path", _files())
def test_scenario(path: Path) -> None:
    scenarios.run(scenarios.load(path))


def test_mice_and_mystics_has_every_section_10_scenario() -> None:
    ids = {json.loads(p.read_text())["id"] for p in (HERE / "mice_and_mystics" / "scenarios").glob("*.json")}
    assert {f"T{i}" for i in range(1, 20)} <= ids


def test_dungeon_twister_has_every_section_10_scenario() -> None:
    files = (HERE / "dungeon_twister" / "scenarios").glob("*.json")
    ids = {json.loads(p.read_text())["id"][:4] for p in files}
    assert {f"S-{i:02d}" for i in range(1, 23)} <= ids


def test_blockcraft_has_every_section_10_scenario() -> None:
    """BC-10's T1-T18 each have at least one file; ``I17-*`` files hold scenarios of later rule fixes."""
    files = (HERE / "blockcraft" / "scenarios").glob("*.json")
    ids = {json.loads(p.read_text())["id"].split("/")[0] for p in files}
    assert {i for i in ids if i.startswith("T")} == {f"T{i}" for i in range(1, 19)}
    assert "I17-cap" in ids


def test_greyport_has_every_section_10_scenario() -> None:
    """GB-10's S01-S18 each have at least one case; S19 holds the issue-17 Bad Omen and Dread cases."""
    ids = {json.loads(p.read_text())["id"][:3] for p in (HERE / "greyport" / "scenarios").glob("*.json")}
    assert {f"S{i:02d}" for i in range(1, 20)} <= ids
