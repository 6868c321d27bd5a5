"""The planner's chest (bots/planner/stash.py) and pillars (bots/planner/turnplan.py), issue 17 point 9."""
from __future__ import annotations

import copy
from typing import Any

from bots.builtin import make_bot
from bots.planner.blockcraft import Board
from bots.planner.stash import StashBot
from bots.planner.turnplan import TurnPlanBot
from bots.sdk import Bot, DecisionRequest
from referee.engine import run_match
from referee.games.blockcraft import GAME


def _first_action_view(seed: int = 3) -> dict[str, Any]:
    """A real solo view at the first action decision (the fields a planner reads), to patch."""
    seen: list[dict[str, Any]] = []
    inner = StashBot(seed)

    class Grab(Bot):
        def act(self, request: DecisionRequest) -> Any:
            if not seen and request.view.get("pending") and request.view["pending"][0]["state"] == "ACTION":
                seen.append(copy.deepcopy(request.view))
            return inner.act(request)

    run_match(GAME, [Grab(0)], seed=seed, options={"mode": "extreme", "max_rounds": 1})
    return seen[0]


def _with(view: dict[str, Any], hand: dict[str, int], chest: dict[str, int],
          tools: list[str]) -> dict[str, Any]:
    v = copy.deepcopy(view)
    me = v["players"][v["seat"]]
    me["tools"] = [{"slot": i, "card": t, "durability": 3, "max": 4, "enchantments": []}
                   for i, t in enumerate(tools)]
    me["blocks"] = [{"slot": 0, "card": "crafting_table"}, {"slot": 1, "card": "chest"}]
    v["private"]["hand"] = dict(hand)
    v["private"]["chest"] = dict(chest)
    return v


def test_stash_is_the_builtin_planner() -> None:
    bot = make_bot("planner", "blockcraft", 1)
    assert isinstance(bot, StashBot) and isinstance(bot, TurnPlanBot)


def test_stash_keeps_stone_in_the_chest_until_a_recipe_is_ready() -> None:
    base = _first_action_view()
    bot = StashBot(0)
    store = {"type": "store", "card_type": "stone", "chest_slot": 1}
    take = {"type": "retrieve", "card_type": "stone", "chest_slot": 1}
    store_iron = {"type": "store", "card_type": "iron_ore", "chest_slot": 1}
    legal = [store, take, store_iron, {"type": "end_action_phase"}]
    # one stone and no recipe: into the chest (the hand limit never discards it there)
    v = _with(base, {"stone": 1, "stick": 2}, {}, ["wooden_pickaxe"])
    assert bot.free_action(v, legal) == store
    # hand and chest make the stone pickaxe's three, the sticks are in hand: out it comes
    v = _with(base, {"stone": 2, "stick": 2}, {"stone": 1}, ["wooden_pickaxe"])
    assert bot.free_action(v, legal) == take
    # the same without wood for the sticks: the stone stays put
    v = _with(base, {"stone": 1}, {"stone": 2}, ["wooden_pickaxe"])
    assert bot.free_action(v, [take, {"type": "end_action_phase"}]) is None
    # past the stone pickaxe the furnace needs 4: an iron ore does not take the two places its stone needs
    v = _with(base, {"iron_ore": 1}, {"stone": 2}, ["stone_pickaxe"])
    assert bot.free_action(v, [take, store_iron, {"type": "end_action_phase"}]) is None
    v = _with(base, {"iron_ore": 1}, {"stone": 2}, ["stone_pickaxe"])
    v["private"]["hand"]["stone"] = 1   # 3 of 4 known: one place is spare
    assert bot.free_action(v, [store_iron, {"type": "end_action_phase"}]) == store_iron


def test_a_pillar_block_lets_the_walk_climb_two() -> None:
    view = {"map": {"w": 3, "h": 1, "cells": {"0,0": ["?D"], "1,0": ["?D", "?U", "?S"], "2,0": ["?D", "?S"]}}}
    board = Board(view)
    bot = TurnPlanBot(0)
    assert bot._paths(board, (0, 0), 1)[0].get((1, 0)) is None   # two higher: no way up without a block
    bot.pillar_ok = True
    dist = bot._paths(board, (0, 0), 1)[0]
    assert dist[(1, 0)] == 4 and dist[(2, 0)] == 5   # jump + place, jump + move; then one step down


def test_turn_search_builds_a_pillar_to_reach_a_needed_stack() -> None:
    base = _first_action_view()
    v = copy.deepcopy(base)
    me = v["players"][v["seat"]]
    # a 2x1 map: we stand on a lone Deep card, the Underground cards (half of them stone) two above us
    v["map"] = {"w": 2, "h": 1, "cells": {"0,0": ["?D"], "1,0": ["?D", "?U", "?U"]}}
    me["pos"], me["height"], me["ap"], me["hunger"], me["range"] = [0, 0], 1, 4, 10, 1
    me["tools"] = [{"slot": 0, "card": "wooden_pickaxe", "durability": 3, "max": 4, "enchantments": []}]
    me["turn"] = {**me["turn"], "ap_spent": 0}
    v["private"]["hand"] = {"planks": 1}
    bot = TurnPlanBot(0)
    # the way up starts with a pillar of the spare planks (2 AP), then the climb (2 AP) next to the stack
    assert bot.plan_turn(v, bot._status(v))[0] == ("pillar", "planks")
    v["private"]["hand"] = {}
    assert all(k != "pillar" for k, _ in TurnPlanBot(0).plan_turn(v, bot._status(v)))
