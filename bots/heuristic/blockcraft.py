"""Heuristic bot for Blockcraft (spec section 11), from the view alone.

It sees only ``request.view`` / ``request.legal`` / ``request.events`` (never the engine's state).
Card statistics (food values, recipes) come from the game's public content files: printed cards are
public knowledge. Plan: eat before hunger runs low, spend at least 1 AP a turn (idling costs the same
hunger), climb the tech path (planks -> crafting table -> sticks -> pickaxes -> furnace -> iron), gather
every loose card in reach, finish off any enemy at stamina <= 3, Touch enemies that cannot dodge,
never rescue an enemy, and in `extreme` aim at the World Core.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from bots.sdk import Bot, DecisionRequest
from referee.engine.rng import Rng

CONTENT = Path(__file__).resolve().parents[2] / "referee" / "games" / "blockcraft" / "content"
#: value of keeping a card (discard the lowest first)
KEEP = {"world_core": 100, "diamond": 30, "gold_ingot": 28, "ender_pearl": 24, "glass": 22, "iron_ingot": 26,
        "gold_ore": 25, "iron_ore": 20, "golden_apple": 19, "cooked_meat": 18, "bread": 18, "coal_ore": 15,
        "charcoal": 14, "raw_meat": 12, "apple": 12, "sand": 11, "stick": 10, "planks": 10, "log": 9,
        "stone": 8, "wheat": 6, "tnt": 3, "obsidian": 2, "dirt": 1, "gravel": 0}
CRAFT_ORDER = ["world_core", "crafting_table", "stick", "wooden_pickaxe", "stone_pickaxe", "iron_pickaxe",
               "furnace", "stone_sword", "iron_sword", "iron_armour", "diamond_armour", "torch", "bread",
               "golden_apple", "planks"]
PICK_TIER = {"wooden_pickaxe": 1, "stone_pickaxe": 2, "iron_pickaxe": 3, "diamond_pickaxe": 4}


@lru_cache(maxsize=1)
def _cards() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in ("raw_cards.toml", "processed.toml"):
        for row in tomllib.loads((CONTENT / name).read_text(encoding="utf-8"))["card"]:
            out[row["id"]] = row
    return out


@lru_cache(maxsize=1)
def _recipes() -> dict[str, dict[str, int]]:
    return {k: dict(v["ingredients"]) for k, v in _cards().items() if v.get("ingredients")}


@lru_cache(maxsize=1)
def _characters() -> dict[str, dict[str, Any]]:
    rows = tomllib.loads((CONTENT / "characters.toml").read_text(encoding="utf-8"))["character"]
    return {r["id"]: r for r in rows}


def _decode(text: str) -> dict[str, Any]:
    """A compact map card ("?S", "loose:coal_ore", ...) as {"face", "layer", "card", "state"}."""
    if text.startswith("?"):
        return {"face": "down", "layer": text[1], "card": None, "state": "down"}
    state, _, card = text.partition(":")
    return {"face": "up", "layer": None, "card": card, "state": state}


#: Actions that cost hunger (and AP): in ``frugal`` mode at most one of them a turn in ``overlord``.
COSTLY = frozenset({"dig", "move", "jump", "touch", "place", "till"})


class HeuristicBot(Bot):
    """Section-11 baseline: survive, tech up, gather, finish weakened enemies."""

    #: [overlord] Hunger is the clock: among heuristic bots nearly every game ends in starvation and the
    #: finishers it invites, and a turn with no action costs 1 hunger anyway (BC-5.24), so the first
    #: costed action of a turn is free and every further one shortens the game. ``frugal`` takes at most
    #: one a turn (finishers, eating, gathering, crafting and equipping stay as they are). Off by default
    #: (the heuristic others play against); the search bot plays its own seat frugal. Against three plain
    #: heuristic seats a frugal one won 46 of 80 four-seat games (deals 20-39, every seat), a plain one 18.
    frugal = False

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)
        self.no_smelt_round = -1
        self.jump_dir: str | None = None
        self.home: list[int] | None = None  # extreme: the farmland we return to

    # -- entry point -------------------------------------------------------------------------
    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        legal = request.legal
        if len(legal) == 1:
            return 0
        view = request.view
        pending = view["pending"][0] if view["pending"] else {"state": ""}
        state = pending["state"]
        me = view["seat"]
        handler = getattr(self, f"_{state.lower()}", None)
        if handler is None:
            return 0
        choice = handler(view, me, legal, pending)
        return choice if choice is not None else 0

    # -- helpers -------------------------------------------------------------------------------
    @staticmethod
    def _find(legal: list[dict[str, Any]], **match: Any) -> dict[str, Any] | None:
        for a in legal:
            if all(a.get(k) == v for k, v in match.items()):
                return a
        return None

    @staticmethod
    def _enemy(view: dict[str, Any], me: int, other: int) -> bool:
        mode = view["mode"]
        if mode in ("overlord", "extreme"):
            return other != me
        players = view["players"]
        return players[other]["side"] != players[me]["side"]

    # -- setup decisions -------------------------------------------------------------------------
    def _choose_character(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        chars = _characters()
        bonus = {"m_mite": 6, "m_ember": 3, "h_smith": 3, "h_farmer": 3,
                 "h_miner": 2} if view["mode"] == "extreme" \
            else {"m_slime": 3, "h_knight": 3, "u_shambler": 2, "u_tidecorpse": 2, "b_warden": 2}

        def score(a: dict[str, Any]) -> float:
            c = chars[a["character"]]
            return c["sta"] + c["hun"] + 1.5 * c["strength"] + bonus.get(c["id"], 0)
        return max(legal, key=score)

    def _choose_start(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        others = [p["pos"] for p in view["players"] if p["pos"] is not None and p["seat"] != me]
        if not others:
            return legal[0]
        return max(legal,
                   key=lambda a: min(abs(a["cell"][0] - o[0]) + abs(a["cell"][1] - o[1]) for o in others))

    # -- reactions ---------------------------------------------------------------------------------
    def _dodge(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]],
               pending: dict[str, Any]) -> Any:
        mine = view["players"][me]
        att = view["players"][pending["attacker"]]
        dmg = _characters()[att["character"]]["strength"] + max(
            [_cards()[t["card"]].get("dmg", 0) for t in att["tools"]] + [0])
        if mine["armour"]:
            dmg -= _cards()[mine["armour"]["card"]].get("reduction", 0)
        if mine["hunger"] >= 6 or mine["stamina"] - dmg <= 3:
            return {"type": "dodge"}
        return {"type": "take_hit"}

    def _rescue(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]],
                pending: dict[str, Any]) -> Any:
        if self._enemy(view, me, pending["victim"]):
            return {"type": "pass"}
        feeds = [a for a in legal if a["type"] == "feed"]
        if not feeds:
            return {"type": "pass"}
        return max(feeds, key=lambda a: _cards()[a["card_type"]].get("food", 0))

    def _discard(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        hand = view["private"]["hand"]
        need = self._needs(view, me)

        extreme = view["mode"] == "extreme"
        # stones the chain still needs (stone pickaxe 3, furnace 4), counting the ones already held
        stones = self._stone_need(view, me) + hand.get("stone", 0) if extreme else 0

        def value(a: dict[str, Any]) -> float:
            c = a["card_type"]
            v = KEEP.get(c, 5) + (20 if c in need else 0) + min(hand.get(c, 0), 3) * -0.5
            if extreme and c == "wheat":
                v += 15   # 3 wheat = bread (5 hunger)
            if c == "stone" and hand.get("stone", 0) <= stones:
                v += 30   # stone comes mostly from draws; a discarded one rarely comes back
            return v
        return min(legal, key=value)

    def _end_phase(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        brews = [a for a in legal if a["type"] == "brew"]
        mine = view["players"][me]
        if brews and mine["stamina"] <= mine["max_stamina"] - 2:
            return min(brews, key=lambda a: KEEP.get(a["card_type"], 5))
        return {"type": "end_turn"}

    def _jump_followup(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        if self.jump_dir is not None:
            move = self._find(legal, type="move", dir=self.jump_dir)
            self.jump_dir = None
            if move is not None:
                return move
        gathers = [a for a in legal if a["type"] == "gather"]
        if gathers:
            return max(gathers, key=lambda a: KEEP.get(self._top(view, a["cell"]), 1))
        if view["players"][me]["hunger"] < 5:
            return {"type": "land"}
        d = self._dig_choice(view, me, [a for a in legal if a["type"] == "dig"])
        if d is not None:
            return d
        moves = [a for a in legal if a["type"] == "move"]
        if moves:
            x, y = view["players"][me]["pos"]
            dirs = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
            return max(moves, key=lambda a: len(
                view["map"]["cells"][f"{x + dirs[a['dir']][0]},{y + dirs[a['dir']][1]}"]))
        return {"type": "land"}

    def _place_target(self, *_: Any) -> Any:
        return {"type": "cancel"}

    _use_target = _place_target
    _skill_target = _place_target
    _menu = _place_target

    def _enchant_pick(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        return legal[0]

    def _smelt_build(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]],
                     pending: dict[str, Any]) -> Any:
        confirm = self._find(legal, type="smelt_confirm")
        mats = pending["materials"]
        want = self._smelt_wants(view, me)
        if not mats:
            for c in want:
                a = self._find(legal, type="smelt_material", card_type=c)
                if a:
                    return a
        elif len(mats) < 3 and confirm is None:
            for c in want:
                if c in ("iron_ore", "gold_ore") and mats.count(c) < 3:
                    a = self._find(legal, type="smelt_material", card_type=c)
                    if a and not pending["fuels"]:
                        return a
        if confirm is not None:
            return confirm
        for fuel in ("coal_ore", "charcoal", "log", "planks", "stick"):
            a = self._find(legal, type="smelt_fuel", card_type=fuel)
            if a:
                return a
        self.no_smelt_round = view["round"]
        return {"type": "cancel"}

    # -- what we want ---------------------------------------------------------------------------------
    def _tier(self, mine: dict[str, Any]) -> int:
        return max([PICK_TIER.get(t["card"], 0) for t in mine["tools"]] + [0])

    def _needs(self, view: dict[str, Any], me: int) -> set[str]:
        mine = view["players"][me]
        tier = self._tier(mine)
        blocks = {b["card"] for b in mine["blocks"]}
        need = {"apple", "raw_meat", "cooked_meat", "bread"}
        if "crafting_table" not in blocks:
            need |= {"log", "planks", "crafting_table"}
        if tier < 3:
            need |= {"log", "planks", "stick", "stone", "iron_ore", "iron_ingot", "coal_ore"}
        if "furnace" not in blocks:
            need |= {"stone", "furnace"}
        if view["mode"] == "extreme":
            need |= {"diamond", "gold_ore", "gold_ingot", "sand", "glass", "ender_pearl", "coal_ore", "stick"}
        return need

    def _smelt_wants(self, view: dict[str, Any], me: int) -> list[str]:
        hand = view["private"]["hand"]
        out = []
        for c in ("iron_ore", "gold_ore", "sand", "raw_meat"):
            if hand.get(c):
                out.append(c)
        return out

    # -- the action phase ----------------------------------------------------------------------------
    def _action(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]], _p: Any) -> Any:
        if view["mode"] == "extreme":
            return self._solo_action(view, me, legal)
        a = self._main_action(view, me, legal)
        if (self.frugal and view["mode"] == "overlord" and isinstance(a, dict) and a.get("type") in COSTLY
                and view["players"][me]["turn"]["ap_spent"] > 0):
            return {"type": "end_action_phase"}
        return a

    def _main_action(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        mine = view["players"][me]
        view["private"]["hand"]
        hunger, max_h = mine["hunger"], mine["max_hunger"]
        cards = _cards()
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        # 1. finish an enemy
        for a in by_type.get("finisher", []):
            if self._enemy(view, me, a["target"]):
                return a
        # 2. the world core
        core = self._find(legal, type="craft", recipe="world_core")
        if core:
            return core
        # 3. eat (no overflow); golden apple heals
        foods = [a for a in by_type.get("use", []) if cards[a["card_type"]]["kind"] == "food"]
        fits = [a for a in foods if hunger + cards[a["card_type"]]["food"] <= max_h]
        if fits and (hunger <= max_h - 2):
            return max(fits, key=lambda a: cards[a["card_type"]]["food"])
        # 4. gather loose cards in reach
        gathers = by_type.get("gather", [])
        if gathers:
            return max(gathers, key=lambda a: KEEP.get(self._top(view, a["cell"]), 1))
        # 5. equip into free slots (tools/armour/blocks that help)
        for a in by_type.get("equip", []):
            if (a["replace_slot"] is None and not a["enchant"]
                    and self._worth_equipping(view, me, a["card_type"])):
                return a
        for a in by_type.get("equip", []):
            if a["replace_slot"] is not None and not a["enchant"] and self._upgrade(view, me, a):
                return a
        # 6. craft along the tech path
        c = self._craft_choice(view, me, by_type.get("craft", []))
        if c is not None:
            return c
        # 7. smelt when a furnace is free
        if by_type.get("smelt") and self.no_smelt_round != view["round"] and self._smelt_wants(view, me):
            return by_type["smelt"][0]
        # 8. Touch an enemy that cannot cheaply dodge
        if hunger >= 4:
            touches = [a for a in by_type.get("touch", []) if self._enemy(view, me, a["target"])]
            if touches:
                best = max(touches, key=lambda a: self._touch_value(view, me, a))
                if self._touch_value(view, me, best) > 0:
                    return best
        # 9. dig: at least one action a turn, more while hunger allows
        budget = 1 if mine["turn"]["ap_spent"] == 0 else 0
        if view["mode"] == "extreme":
            reserve = 3
        else:
            reserve = 6
        if budget or hunger > reserve:
            d = self._dig_choice(view, me, by_type.get("dig", []))
            if d is not None:
                return d
        # 10. move toward a weakened enemy or somewhere diggable
        if budget or (hunger > reserve + 1 and view["mode"] != "extreme"):
            m = self._move_choice(view, me, by_type.get("move", []))
            if m is not None:
                return m
            if budget and by_type.get("jump") and hunger > 2:
                return {"type": "jump"}
        return {"type": "end_action_phase"}

    def _top(self, view: dict[str, Any], cell: list[int]) -> str:
        stack = view["map"]["cells"][f"{cell[0]},{cell[1]}"]
        return (_decode(stack[-1])["card"] or "?") if stack else "?"

    def _worth_equipping(self, view: dict[str, Any], me: int, card: str) -> bool:
        mine = view["players"][me]
        c = _cards()[card]
        if c["kind"] == "tool":
            have = {_cards()[t["card"]]["tool_type"] for t in mine["tools"]}
            return c["tool_type"] in ("pickaxe",
                                      "sword") and c["tool_type"] not in have or c["tool_type"] == "pickaxe"
        if c["kind"] == "armour":
            return True
        return card in ("crafting_table", "furnace",
                        "torch") and card not in {b["card"] for b in mine["blocks"]}

    def _upgrade(self, view: dict[str, Any], me: int, a: dict[str, Any]) -> bool:
        mine = view["players"][me]
        card = a["card_type"]
        if card in PICK_TIER:
            for t in mine["tools"]:
                if t["slot"] == a["replace_slot"]:
                    return t["card"] in PICK_TIER and PICK_TIER[t["card"]] < PICK_TIER[card]
        if card == "furnace":
            blocks = {b["slot"]: b["card"] for b in mine["blocks"]}
            have_table = "crafting_table" in blocks.values()
            return (have_table and self._tier(mine) >= 1
                    and blocks.get(a["replace_slot"]) not in ("crafting_table",))
        return False

    def _craft_choice(self, view: dict[str, Any], me: int, crafts: list[dict[str, Any]]) -> Any:
        if not crafts:
            return None
        mine = view["players"][me]
        hand = view["private"]["hand"]
        blocks = {b["card"] for b in mine["blocks"]}
        tier = self._tier(mine)
        tools = {t["card"] for t in mine["tools"]}
        avail = {a["recipe"]: a for a in crafts}

        def has(card: str) -> bool:
            return hand.get(card, 0) > 0

        for r in CRAFT_ORDER:
            if r not in avail:
                continue
            if r == "crafting_table" and ("crafting_table" in blocks or has("crafting_table")):
                continue
            if r == "furnace" and ("furnace" in blocks or has("furnace") or tier < 1):
                continue
            if r == "stick" and (hand.get("stick", 0) >= 2 or "crafting_table" not in blocks or tier >= 3
                                 or (tier < 1 and hand.get("planks", 0) < 5)):
                continue
            if r == "wooden_pickaxe" and (tier >= 1 or has("wooden_pickaxe")):
                continue
            if r == "stone_pickaxe" and (tier >= 2 or has("stone_pickaxe")):
                continue
            if r == "iron_pickaxe" and (tier >= 3 or has("iron_pickaxe")):
                continue
            if r in ("stone_sword",
                     "iron_sword") and (view["mode"] == "extreme" or any("sword" in t for t in tools)
                                                        or tier < 2):
                continue
            if r in ("iron_armour", "diamond_armour") and (view["mode"] == "extreme" or mine["armour"]):
                continue
            if r == "torch" and ("torch" in blocks or len(blocks) >= 2 or view["mode"] == "extreme"):
                continue
            if r == "golden_apple" and view["mode"] == "extreme":
                continue
            if r == "planks":
                want = 0
                if "crafting_table" not in blocks and not has("crafting_table"):
                    want += 4
                if tier < 1 and not has("wooden_pickaxe"):
                    want += 3 + (2 if hand.get("stick", 0) < 2 else 0)
                elif tier < 3 and hand.get("stick", 0) < 2:
                    want += 2
                if hand.get("planks", 0) >= want:
                    continue
            return avail[r]
        return None

    def _touch_value(self, view: dict[str, Any], me: int, a: dict[str, Any]) -> float:
        target = view["players"][a["target"]]
        mine = view["players"][me]
        dmg = _characters()[mine["character"]]["strength"]
        if a["weapon_slot"] is not None:
            for t in mine["tools"]:
                if t["slot"] == a["weapon_slot"]:
                    dmg += _cards()[t["card"]].get("dmg", 0)
        cheap_dodge = target["hunger"] >= 2
        value = dmg * (0.4 if cheap_dodge else 1.0) + (3 if target["stamina"] - dmg <= 3 else 0)
        return value - 1.5

    def _dig_choice(self, view: dict[str, Any], me: int, digs: list[dict[str, Any]]) -> Any:
        if not digs:
            return None
        mine = view["players"][me]
        tier = self._tier(mine)
        cells = view["map"]["cells"]
        best, best_v = None, -1e9
        for a in digs:
            x, y = a["cell"]
            stack = cells[f"{x},{y}"]
            top = _decode(stack[-1])
            if top["face"] == "up":
                v = -2.0  # placed blocks: only as a last resort
            else:
                layer = top["layer"]
                # Deep cards hold gold and diamonds (pickaxe 3): digging them earlier destroys them.
                v = {"S": 3.0,
                     "U": 3.0 if tier >= 2 else (1.0 if tier == 1 else -1.0),
                     "D": 5.0 if tier >= 3 else (0.5 if tier == 2 else -5.0)}[layer]
            if [x, y] == mine["pos"]:
                v -= 1
                # digging down: never into a pit we cannot jump out of
                if not any(0 <= x + dx < view["map"]["w"] and 0 <= y + dy < view["map"]["h"]
                           and len(cells[f"{x + dx},{y + dy}"]) <= len(stack)
                           for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))):
                    v -= 6
            if len(stack) <= 1:
                v -= 3
            if v > best_v:
                best, best_v = a, v
        return best if best_v > -1.5 else None

    def _dig_spots(self, view: dict[str, Any], me: int, x: int, y: int, h: int) -> int:
        """How many worthwhile dig targets a character standing at (x, y, h) would reach (range 1)."""
        mine = view["players"][me]
        tier = self._tier(mine)
        cells = view["map"]["cells"]
        n = 0
        for dx, dy in ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < view["map"]["w"] and 0 <= ny < view["map"]["h"]):
                continue
            stack = cells[f"{nx},{ny}"]
            if not stack or abs(dx) + abs(dy) + abs(h - len(stack)) > max(1, mine["range"] or 1):
                continue
            top = _decode(stack[-1])
            if top["face"] == "down" and (top["layer"] == "S" or (top["layer"] == "U" and tier >= 1)
                                          or (top["layer"] == "D" and tier >= 3)):
                n += 1
        return n

    def _move_choice(self, view: dict[str, Any], me: int, moves: list[dict[str, Any]]) -> Any:
        if not moves:
            return None
        if view["mode"] == "extreme":
            mine = view["players"][me]
            x, y = mine["pos"]
            dirs = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

            def spots(a: dict[str, Any]) -> int:
                nx, ny = x + dirs[a["dir"]][0], y + dirs[a["dir"]][1]
                nh = len(view["map"]["cells"][f"{nx},{ny}"])
                return self._dig_spots(view, me, nx, ny, nh) if mine["height"] - nh < 3 else 0
            best = max(moves, key=spots)
            return best if spots(best) > 0 and mine["hunger"] >= 6 else None
        mine = view["players"][me]
        x, y = mine["pos"]
        h = mine["height"]
        cells = view["map"]["cells"]
        dirs = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
        targets = [p for p in view["players"] if p["seat"] != me and p["status"] == "alive" and p["pos"]
                   and self._enemy(view, me, p["seat"]) and p["stamina"] <= 3]

        def score(a: dict[str, Any]) -> float:
            dx, dy = dirs[a["dir"]]
            nx, ny = x + dx, y + dy
            stack = cells[f"{nx},{ny}"]
            nh = len(stack)
            s = 0.0
            if h - nh >= 3:
                s -= 10
            if stack and stack[-1].startswith("?"):
                s += 1
            for t in targets:
                s += 3 - 0.8 * (abs(t["pos"][0] - nx) + abs(t["pos"][1] - ny))
            return s
        best = max(moves, key=score)
        return best if score(best) > 0.5 else None

    # -- extreme: a small planner over positions ---------------------------------------------------
    def _stone_need(self, view: dict[str, Any], me: int) -> int:
        mine = view["players"][me]
        hand = view["private"]["hand"]
        blocks = {b["card"] for b in mine["blocks"]}
        need = 0
        if self._tier(mine) < 2 and not hand.get("stone_pickaxe") and not hand.get("iron_pickaxe"):
            need += 3
        if "furnace" not in blocks and not hand.get("furnace"):
            need += 4
        return max(0, need - hand.get("stone", 0))

    def _target_value(self, view: dict[str, Any], me: int, text: str) -> float:
        top = _decode(text)
        if top["face"] != "down":
            return 0.0
        tier = self._tier(view["players"][me])
        layer = top["layer"]
        if layer == "S":
            return 3.0
        if layer == "U":
            return 3.0 if tier >= 1 else 0.0
        if tier >= 3:
            return 6.0
        return 1.0 if tier == 2 and self._stone_need(view, me) > 0 else 0.0

    def _plan_move(self, view: dict[str, Any], me: int) -> tuple[str, bool] | None:
        """BFS over standing cells (move: 1, jump+move: 2); the first step toward the nearest cell from
        which a worthwhile face-down card is within reach. Returns (dir, needs_jump)."""
        mine = view["players"][me]
        w, h = view["map"]["w"], view["map"]["h"]
        cells = view["map"]["cells"]
        H = {(x, y): len(cells[f"{x},{y}"]) for y in range(h) for x in range(w)}
        reach = max(1, mine["range"] or 1)
        dirs = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

        def good(x: int, y: int) -> float:
            best = 0.0
            for (cx, cy), hh in H.items():
                d = abs(cx - x) + abs(cy - y) + abs(H[(x, y)] - hh)
                if d <= reach and hh > 0:
                    best = max(best, self._target_value(view, me, cells[f"{cx},{cy}"][-1]))
            return best
        start = (mine["pos"][0], mine["pos"][1])
        frontier: list[tuple[int, tuple[int, int], tuple[str, bool] | None]] = [(0, start, None)]
        seen = {start: 0}
        best_goal: tuple[int, tuple[str, bool]] | None = None
        while frontier:
            frontier.sort(key=lambda t: t[0])
            cost, (x, y), first = frontier.pop(0)
            if first is not None and good(x, y) > 0:
                best_goal = (cost, first)
                break
            for d, (dx, dy) in dirs.items():
                nx, ny = x + dx, y + dy
                if (nx, ny) not in H:
                    continue
                rise = H[(nx, ny)] - H[(x, y)]
                if rise > 1 or H[(x, y)] - H[(nx, ny)] >= 3:
                    continue
                step = 1 if rise <= 0 else 2
                nc = cost + step
                if seen.get((nx, ny), 99) <= nc:
                    continue
                seen[(nx, ny)] = nc
                frontier.append((nc, (nx, ny), first if first is not None else (d, rise > 0)))
        return best_goal[1] if best_goal else None

    def _extreme_action(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        mine = view["players"][me]
        hunger, max_h = mine["hunger"], mine["max_hunger"]
        cards = _cards()
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        core = self._find(legal, type="craft", recipe="world_core")
        if core:
            return core
        foods = [a for a in by_type.get("use", []) if cards[a["card_type"]]["kind"] == "food"]
        fits = [a for a in foods if hunger + cards[a["card_type"]]["food"] <= max_h]
        if fits and hunger <= max_h - 2:
            return max(fits, key=lambda a: cards[a["card_type"]]["food"])
        gathers = by_type.get("gather", [])
        if gathers:
            return max(gathers, key=lambda a: KEEP.get(self._top(view, a["cell"]), 1))
        for a in by_type.get("equip", []):
            if not a["enchant"] and a["replace_slot"] is None and a["card_type"] in (
                    "crafting_table", "furnace", *PICK_TIER):
                if a["card_type"] in PICK_TIER and self._tier(mine) >= PICK_TIER[a["card_type"]]:
                    continue
                return a
        for a in by_type.get("equip", []):
            if not a["enchant"] and a["replace_slot"] is not None and self._upgrade(view, me, a):
                return a
        c = self._craft_choice(view, me, by_type.get("craft", []))
        if c is not None:
            return c
        if by_type.get("smelt") and self.no_smelt_round != view["round"] and self._smelt_wants(view, me):
            return by_type["smelt"][0]
        # hunger is the real budget: one action a turn is free (idling costs the same), more only when fed
        first = mine["turn"]["ap_spent"] == 0
        if not ((first and hunger >= 2) or hunger >= 7):
            return {"type": "end_action_phase"}
        digs = by_type.get("dig", [])
        cells = view["map"]["cells"]
        scored = [(self._target_value(view, me, cells[f"{a['cell'][0]},{a['cell'][1]}"][-1]),
                   a) for a in digs]
        scored = [t for t in scored if t[0] > 0]
        if scored:
            # prefer a neighbour over the own cell (digging down can trap), then value
            pos = mine["pos"]
            return max(scored, key=lambda t: (t[0], t[1]["cell"] != pos))[1]
        step = self._plan_move(view, me)
        if step is not None:
            d, needs_jump = step
            if needs_jump:
                if self._find(legal, type="jump") and hunger >= 7:
                    self.jump_dir = d
                    return {"type": "jump"}
            else:
                move = self._find(legal, type="move", dir=d)
                if move is not None:
                    return move
        return {"type": "end_action_phase"}

    # -- extreme: the World Core plan ----------------------------------------------------------------
    # [issue 17] Hunger is both the action budget and the hand limit (ceil(hunger / 2) cards survive a
    # settlement), so the plan keeps cards compact (logs, not planks: planks are crafted when a recipe can
    # use them at once), farms (a farmland under the character at the start of its turn gives 2 hunger and
    # wheat -> bread) and keeps hunger high. Tech: crafting table, wooden pickaxe + hoe, farmland, stone
    # pickaxe, furnace, iron pickaxe, then gold, diamond, glass, pearl.
    def _goal_recipes(self, view: dict[str, Any], me: int) -> list[str]:
        """The next tools/blocks to craft, in order."""
        mine = view["players"][me]
        hand = view["private"]["hand"]
        blocks = {b["card"] for b in mine["blocks"]}
        tools = {t["card"] for t in mine["tools"]}
        tier = self._tier(mine)
        farmer = mine["character"] == "h_farmer"
        out: list[str] = []
        if "crafting_table" not in blocks and not hand.get("crafting_table"):
            return ["crafting_table"]
        if not farmer and self.home is None and not any(t.endswith("_hoe") for t in tools) \
                and not hand.get("wooden_hoe"):
            out.append("wooden_hoe")
        if tier < 1 and not hand.get("wooden_pickaxe"):
            out.append("wooden_pickaxe")
        if tier < 2 and not hand.get("stone_pickaxe"):
            out.append("stone_pickaxe")
        if "furnace" not in blocks and not hand.get("furnace"):
            out.append("furnace")
        if tier < 3 and not hand.get("iron_pickaxe"):
            out.append("iron_pickaxe")
        return out

    def _solo_craft(self, view: dict[str, Any], me: int, crafts: list[dict[str, Any]]) -> Any:
        avail = {a["recipe"]: a for a in crafts}
        if "world_core" in avail:
            return avail["world_core"]
        hand = view["private"]["hand"]
        recipes = _recipes()
        if hand.get("wheat", 0) >= 3 and "bread" in avail:
            return avail["bread"]
        for goal in self._goal_recipes(view, me):
            if goal in avail:
                return avail[goal]
            need = recipes.get(goal, {})
            # sticks from planks, planks from logs, only when the whole recipe can be made now (logs are
            # compact: 1 card for 4 planks)
            if not all(hand.get(k, 0) >= n for k, n in need.items() if k not in ("stick", "planks")):
                continue
            short = max(0, need.get("stick", 0) - hand.get("stick", 0))
            planks = need.get("planks", 0) + 2 * -(-short // 4)
            if hand.get("planks", 0) + 4 * hand.get("log", 0) < planks:
                continue
            if short and hand.get("planks", 0) >= 2 and "stick" in avail:
                return avail["stick"]
            if hand.get("planks", 0) < planks and "planks" in avail:
                return avail["planks"]
        if hand.get("wheat", 0) >= 3 and "bread" in avail:
            return avail["bread"]
        return None

    def _solo_dig_value(self, view: dict[str, Any], me: int, cell: list[int]) -> float:
        mine = view["players"][me]
        cells = view["map"]["cells"]
        stack = cells[f"{cell[0]},{cell[1]}"]
        if not stack:
            return 0.0
        top = _decode(stack[-1])
        if top["face"] != "down":
            return 0.0
        if self.home is not None and list(cell) == list(self.home):
            return 0.0
        tier = self._tier(mine)
        layer = top["layer"]
        if layer == "S":
            v = 3.0
        elif layer == "U":
            v = 3.0 if tier >= 1 else 0.0
        elif tier >= 3:
            v = 6.0
        elif tier >= 1 and self._stone_need(view, me) > 0 and view["round"] >= 8:
            v = 1.0
        else:
            v = 0.0
        if v and list(cell) == list(mine["pos"]):
            v -= 0.5 if len(stack) > 1 else 2.0
        return v

    def _solo_action(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        mine = view["players"][me]
        hunger, max_h = mine["hunger"], mine["max_hunger"]
        cards = _cards()
        cells = view["map"]["cells"]
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        if self.home is not None:
            stack = cells[f"{self.home[0]},{self.home[1]}"]
            if not stack or not stack[-1].startswith("farmland"):
                self.home = None
        core = self._find(legal, type="craft", recipe="world_core")
        if core:
            return core
        # eat: never overflow; keep hunger high (it is also the hand limit)
        foods = [a for a in by_type.get("use", []) if cards[a["card_type"]]["kind"] == "food"]
        fits = [a for a in foods if hunger + cards[a["card_type"]]["food"] <= max_h]
        if fits:
            return max(fits, key=lambda a: cards[a["card_type"]]["food"])
        farmer = mine["character"] == "h_farmer"
        can_till = farmer or any(t["card"].endswith("_hoe") for t in mine["tools"])
        # farmland: till a loose dirt next to us at our height, then stand on it
        if self.home is None and can_till:
            for a in by_type.get("till", []):
                x, y = a["cell"]
                if abs(x - mine["pos"][0]) + abs(y - mine["pos"][1]) == 1 \
                        and len(cells[f"{x},{y}"]) <= mine["height"] \
                        and mine["height"] - len(cells[f"{x},{y}"]) < 3:
                    self.home = [x, y]
                    return a
        gathers = [a for a in by_type.get("gather", [])
                   if not (self.home is None and can_till and self._top(view, a["cell"]) == "dirt")]
        if gathers:
            return max(gathers, key=lambda a: KEEP.get(self._top(view, a["cell"]), 1))
        for a in by_type.get("equip", []):
            if a["enchant"]:
                continue
            c = a["card_type"]
            if a["replace_slot"] is None and (c in ("crafting_table", "furnace") or
                                              (c in PICK_TIER and PICK_TIER[c] > self._tier(mine)) or
                                              (c == "wooden_hoe" and self.home is None)):
                return a
            if a["replace_slot"] is not None and c in PICK_TIER and PICK_TIER[c] > self._tier(mine):
                old = next(t["card"] for t in mine["tools"] if t["slot"] == a["replace_slot"])
                if old in PICK_TIER or (old.endswith("_hoe") and (self.home is not None or farmer)):
                    return a
        c = self._solo_craft(view, me, by_type.get("craft", []))
        if c is not None:
            return c
        if by_type.get("smelt") and self.no_smelt_round != view["round"] and self._smelt_wants(view, me):
            return by_type["smelt"][0]
        first = mine["turn"]["ap_spent"] == 0
        home_here = self.home is not None and list(mine["pos"]) == list(self.home)
        reserve = 4 if self.home is not None else 6
        if first and hunger >= 1 or hunger >= reserve:
            digs = [(self._solo_dig_value(view, me, a["cell"]), a) for a in by_type.get("dig", [])]
            digs = [t for t in digs if t[0] > 0]
            if digs:
                return max(digs, key=lambda t: t[0])[1]
        # go home before the turn ends (farmland works at the start of the turn)
        if self.home is not None and not home_here:
            hx, hy = self.home
            x, y = mine["pos"]
            dirs = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
            for a in by_type.get("move", []):
                dx, dy = dirs[a["dir"]]
                if abs(hx - x - dx) + abs(hy - y - dy) < abs(hx - x) + abs(hy - y):
                    return a
            if by_type.get("jump") and hunger >= 2:
                for d, (dx, dy) in dirs.items():
                    if abs(hx - x - dx) + abs(hy - y - dy) < abs(hx - x) + abs(hy - y) and \
                            len(cells[f"{x + dx},{y + dy}"]) <= mine["height"] + 1:
                        self.jump_dir = d
                        return {"type": "jump"}
        if (first and hunger >= 2 or hunger >= 7) and (not home_here or hunger >= max_h - 2):
            step = self._plan_move(view, me)
            if step is not None:
                d, needs_jump = step
                if needs_jump:
                    if self._find(legal, type="jump") and hunger >= 6:
                        self.jump_dir = d
                        return {"type": "jump"}
                else:
                    move = self._find(legal, type="move", dir=d)
                    if move is not None:
                        return move
        return {"type": "end_action_phase"}
