"""scripts/blockcraft_chain.py: the World Core chain analysis reads a game's log correctly."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from referee.engine.events import Event

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "blockcraft_chain.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("blockcraft_chain", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["blockcraft_chain"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_chain_of_reads_crafts_smelts_stone_and_the_end() -> None:
    chain = _script()
    log = [
        Event("craft",
              {"seat": 0, "recipe": "stone_pickaxe", "ingredients": {"stone": 3, "stick": 2}, "qty": 1}),
        Event("smelted", {"seat": 0, "slot": 1, "outputs": ["glass"]}),
        Event("drew", {"seat": 0, "card": "stone", "why": "draw"}, (0,)),
        Event("dig", {"seat": 0, "cell": [1, 1], "card": "stone", "ok": True, "was": "down", "tool": None}),
        Event("dig", {"seat": 0, "cell": [1, 2], "card": "stone", "ok": False, "was": "down"}),
        Event("discard", {"seat": 0, "card": "stone"}),
        Event("game_over", {"reason": "round_limit"}),
    ]
    steps, stone, end = chain.chain_of(log)
    assert steps == {"stone_pickaxe", "glass"}
    assert dict(stone) == {"drawn": 1, "dug": 1, "destroyed": 1, "discarded": 1}
    assert end == "round_limit"


def test_real_games_are_counted_once_each() -> None:
    out = _script().run("heuristic", 3, 0)
    assert sum(out["ends"].values()) == 3
    assert set(out["ends"]) <= {"all_dead", "round_limit", "target_card"}
    assert out["reached"]["crafting_table"] <= 3
