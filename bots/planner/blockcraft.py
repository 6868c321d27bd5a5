"""A planner for solo Blockcraft `extreme` (issue 17, point 9): the World Core chain, from the view alone.

It reads only ``request.view`` / ``request.legal`` and the game's public content files. Every action-phase
decision re-plans from scratch:

1. free actions first, in a fixed order: craft the World Core, eat what fits, gather loose cards in reach,
   equip table / furnace / a better pickaxe, craft the next tool of the chain (planks and sticks only when
   the tool can be made at once: a log is one card for four planks), smelt a batch the fuel in hand pays;
2. then one costed action: a step of the shortest path (moves 1, jump-and-climb 2) to the best dig target,
   value minus path cost, such that the character can stand on a farmland again before the turn ends.
   Hunger is the whole budget and sets the hand limit, and the draws feed about 0.7 hunger a round while a
   turn costs at least 1 (idling too), so farming decides survival: the bot keeps up to two farmlands on
   the map (it tills a dirt it digs, or makes one from a dirt in hand: jump, place it underfoot, dig it
   loose, till it). Beyond the turn's first action it spends only above the hunger whose hand limit keeps
   the cards the chain needs.

Deep cards are dug blind: gold and diamond need an iron pickaxe and are destroyed by a weaker one, so the
Deep layer is touched before the iron pickaxe only for the stone and iron still missing, and only late
(each round waited draws one more reserve card, which may be that stone or iron).

``peek`` (offline analysis only, scripts/blockcraft_chain.py --oracle): a function giving the true
face-down card of a cell, to measure how much the blind Deep digs cost. A match never passes it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bots.heuristic.blockcraft import PICK_TIER, _cards, _characters  # the card tables, read once
from bots.sdk import Bot, DecisionRequest

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
#: dig requirement tier of a raw card (0 = hand; -1 = a shovel; 9 = never worth it)
REQ = {"dirt": 0, "log": 0, "sand": 0, "apple": 0, "raw_meat": 0, "ender_pearl": 0, "tnt": 0, "gravel": -1,
       "stone": 1, "coal_ore": 1, "iron_ore": 2, "gold_ore": 3, "diamond": 3, "obsidian": 4}
#: a Deep dig before the iron pickaxe waits for this round (more reserve cards drawn first)
DEEP_ROUND = 14

#: (x, y, level) -> the true face-down card there, or None (offline oracle only)
Peek = Callable[[int, int, int], "str | None"]


class Board:
    """The map part of a view: heights and top cards by cell."""

    def __init__(self, view: dict[str, Any]) -> None:
        m = view["map"]
        self.w, self.h = m["w"], m["h"]
        self.cells: dict[tuple[int, int], list[str]] = {
            (x, y): m["cells"][f"{x},{y}"] for y in range(self.h) for x in range(self.w)}

    def H(self, c: tuple[int, int]) -> int:
        return len(self.cells[c])

    def top(self, c: tuple[int, int]) -> str:
        """The top card as the view shows it ("?S", "loose:log", ...), "" for bare ground."""
        st = self.cells[c]
        return st[-1] if st else ""

    def near(self, c: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
        x, y = c
        return [(d, (x + dx, y + dy)) for d, (dx, dy) in DIRS.items() if (x + dx, y + dy) in self.cells]


class PlannerBot(Bot):
    """Solo `extreme` planner (any seat count works, but it plays for the World Core only)."""

    #: added to twice the max hunger when choosing among the dealt characters
    CHARACTER_BONUS = {"h_farmer": 3, "m_ember": 3, "h_smith": 2, "m_mite": 3, "h_explorer": 2,
                       "h_woodcutter": 1}

    def __init__(self, seed: int = 0, peek: Peek | None = None) -> None:
        super().__init__(seed)
        self.peek = peek
        self.jump_dir: str | None = None
        self.smelt_plan: tuple[list[str], list[str]] | None = None
        #: making farmland from a dirt in hand: jump, place it under us, dig it loose, till it
        self.farm_step: str | None = None
        self.plan: tuple[tuple[int, int], tuple[int, int]] | None = None

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        legal = request.legal
        if len(legal) == 1:
            return 0
        view = request.view
        pending = view["pending"][0] if view["pending"] else {"state": ""}
        handler = getattr(self, "_" + str(pending["state"]).lower(), None)
        choice = handler(view, legal, pending) if handler is not None else None
        if choice is None:
            return 0
        return choice if isinstance(choice, int) else legal.index(choice) if choice in legal else 0

    # -- setup ------------------------------------------------------------------------------------
    def _choose_character(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        # hunger is the budget and the hand limit; smelting heat and stone digging are the chain's knots
        bonus = self.CHARACTER_BONUS
        chars = _characters()
        return max(legal, key=lambda a: 2 * chars[a["character"]]["hun"] + bonus.get(a["character"], 0))

    def _choose_start(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        # a border cell next to an inner (taller) stack: inner stacks hold the Underground cards
        board = Board(view)
        for a in legal:
            c = (a["cell"][0], a["cell"][1])
            if any(board.H(n) > board.H(c) for _d, n in board.near(c)):
                return a
        return legal[0]

    # -- reactions --------------------------------------------------------------------------------
    def _discard(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        hand = dict(view["private"]["hand"])
        return min(legal, key=lambda a: self._keep(view, hand, a["card_type"]))

    def _rescue(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        return {"type": "pass"}

    def _dodge(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        return {"type": "take_hit"}

    def _end_phase(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        return {"type": "end_turn"}

    def _enchant_pick(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        return {"type": "enchant_done"}

    def _place_target(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        me = view["players"][view["seat"]]
        a = {"type": "place_at", "cell": list(me["pos"])}
        if self.farm_step == "place_at" and a in legal:
            self.farm_step = "dig"
            return a
        self.farm_step = None
        return {"type": "cancel"}

    def _cancel(self, *_: Any) -> Any:
        return {"type": "cancel"}

    _use_target = _cancel
    _skill_target = _cancel
    _menu = _cancel

    def _jump_followup(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        if self.farm_step == "place":
            self.farm_step = "place_at"
            a = {"type": "place", "card_type": "dirt"}
            if a in legal:
                return a
            self.farm_step = None
        d, self.jump_dir = self.jump_dir, None
        if d is not None and {"type": "move", "dir": d} in legal:
            return {"type": "move", "dir": d}
        return {"type": "land"}

    # -- what the chain still needs -------------------------------------------------------------
    @staticmethod
    def _tier(me: dict[str, Any]) -> int:
        return max([PICK_TIER.get(t["card"], 0) for t in me["tools"]] + [0])

    def _status(self, view: dict[str, Any]) -> dict[str, Any]:
        me = view["players"][view["seat"]]
        hand = view["private"]["hand"]
        blocks = {b["card"] for b in me["blocks"]}
        tier = max(self._tier(me), max([PICK_TIER[c] for c in hand if c in PICK_TIER] + [0]))
        batch: dict[str, int] = {}
        for b in me["furnace_batches"]:
            for c in b.get("materials", []):
                out = _cards()[c].get("smelt_to", c)
                batch[out] = batch.get(out, 0) + 1
        table = "crafting_table" in blocks or hand.get("crafting_table", 0) > 0
        furnace = "furnace" in blocks or hand.get("furnace", 0) > 0
        stone_need = (3 if tier < 2 else 0) + (0 if furnace else 4)
        ingots = hand.get("iron_ingot", 0) + batch.get("iron_ingot", 0)
        iron_need = 0 if tier >= 3 else max(0, 3 - ingots)
        gold = hand.get("gold_ingot", 0) + batch.get("gold_ingot", 0)
        glass = hand.get("glass", 0) + batch.get("glass", 0)
        hoe = me["character"] == "h_farmer" or any(t["card"].endswith("_hoe") for t in me["tools"]) \
            or hand.get("wooden_hoe", 0) > 0
        return {"me": me, "hand": hand, "tier": tier, "table": table, "furnace": furnace, "hoe": hoe,
                "furnace_on": "furnace" in blocks, "stone_need": stone_need, "iron_need": iron_need,
                "gold_need": max(0, 2 - gold), "glass_need": 0 if glass else 1,
                "diamond_need": 0 if hand.get("diamond") else 1,
                "pearl_need": 0 if hand.get("ender_pearl") else 1}

    def _keep(self, view: dict[str, Any], hand: dict[str, int], card: str) -> float:
        """How much a card in hand is worth keeping (settlement discards the lowest first)."""
        s = self._status(view)
        n = hand.get(card, 0)
        food = _cards()[card].get("food", 0)
        if card == "dirt" and n == 1 and s["hoe"]:
            return 14.0   # the farmland to be (placed under our feet, dug loose, tilled)
        if food:
            return 12 + food - n
        need = {"diamond": 40 if s["diamond_need"] or n == 1 else 2, "ender_pearl": s["pearl_need"] or n == 1,
                "gold_ingot": 38, "glass": 36 if n <= 1 else 2, "gold_ore": 37 if n <= s["gold_need"] else 3,
                "iron_ingot": 35 if s["tier"] < 3 else 1,
                "iron_ore": (30 if s["tier"] >= 2 else 26) if n <= s["iron_need"] else 2,
                "stone": 36 if n <= s["stone_need"] else 1,   # the scarcest card of the chain (8 in the game)
                "sand": 20 if n <= s["glass_need"] else 1,
                "crafting_table": 45, "furnace": 45, "wooden_pickaxe": 44, "stone_pickaxe": 44,
                "iron_pickaxe": 44, "coal_ore": 18 if n <= 2 else 4, "charcoal": 17,
                "log": 16 if n <= 2 else 5,
                "stick": 15 if n <= 4 else 3, "planks": 14 if n <= 4 else 3, "wheat": 10}
        v = need.get(card, 0)
        # the wooden tools wait for wood: a log (4 planks) and two sticks make the next tool
        if card == "log" and n <= 2 and (s["tier"] < 1 or not s["hoe"]):
            v = 32
        if card == "stick" and n <= 2 and s["tier"] < 3:
            v = 31
        if card == "ender_pearl":
            return 39 if v else 2
        return float(v or 0)

    # -- the action phase ---------------------------------------------------------------------
    def _action(self, view: dict[str, Any], legal: list[dict[str, Any]], _p: Any) -> Any:
        board = Board(view)
        me = view["players"][view["seat"]]
        pos = (me["pos"][0], me["pos"][1])
        farms = sum(1 for c in board.cells if board.top(c).startswith("farmland"))
        free = self.free_action(view, legal)
        if free is not None:
            return free
        s = self._status(view)
        if self.farm_step == "dig":
            self.farm_step = None
            a = {"type": "dig", "cell": list(pos)}
            if a in legal and board.top(pos) == "placed:dirt":
                return a
        tills = [a for a in legal if a["type"] == "till"]
        if not board.top(pos).startswith("farmland") and s["hoe"] and not tills and s["hand"].get("dirt") \
                and me["ap"] == 4 and me["hunger"] >= 6 and {"type": "jump"} in legal and board.H(pos) < 7 \
                and self._far_from_farms(board, pos, me["height"]) \
                and (self._work_here(view, s, board, pos, me["height"] + 1)
                     or not self._targets(view, s, board)):
            # a farm where the work is: jump, place the dirt under us, dig it loose, till it (4 AP)
            self.farm_step = "place"
            return {"type": "jump"}
        if farms < 2 and s["hoe"]:
            # farmland under our feet (or next to us, same height): the food that makes the chain affordable;
            # two farms let the work move without losing a turn's refill
            for a in sorted(tills, key=lambda a: (a["cell"][0], a["cell"][1]) != pos):
                c = (a["cell"][0], a["cell"][1])
                if c == pos or (abs(c[0] - pos[0]) + abs(c[1] - pos[1]) == 1 and board.H(c) == me["height"]):
                    return a
        return self._costed(view, s, legal)

    def free_action(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The next action that costs no hunger (craft, eat, gather, equip, smelt), or None."""
        by: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by.setdefault(a["type"], []).append(a)
        s = self._status(view)
        me, hand = s["me"], s["hand"]
        cards = _cards()
        board = Board(view)
        farm = sum(1 for c in board.cells if board.top(c).startswith("farmland")) >= 2
        if {"type": "craft", "recipe": "world_core"} in legal:
            return {"type": "craft", "recipe": "world_core"}
        # eat what fits (hunger is the budget and the hand limit); raw meat waits for the furnace
        hunger, max_h = me["hunger"], me["max_hunger"]
        foods = [a for a in by.get("use", []) if cards[a["card_type"]].get("food")]
        for a in sorted(foods, key=lambda a: -cards[a["card_type"]]["food"]):
            f = cards[a["card_type"]]["food"]
            if a["card_type"] == "raw_meat" and s["furnace_on"] and hunger > 3:
                continue
            if hunger + f <= max_h or hunger <= 2:
                return a
        # a loose dirt stays on the map until there is a farm: it is the farmland to be
        gathers = [a for a in by.get("gather", [])
                   if not (not farm and s["hoe"] and self._card_at(view, a["cell"]) == "dirt")]
        if gathers:
            return max(gathers, key=lambda a: self._keep(view, hand, self._card_at(view, a["cell"])))
        e = self._equip(s, by.get("equip", []))
        if e is not None:
            return e
        c = self._craft(s, {a["recipe"] for a in by.get("craft", [])})
        if c is not None:
            return {"type": "craft", "recipe": c}
        if by.get("smelt"):
            plan = self._smelt_batch(s)
            if plan is not None:
                self.smelt_plan = plan
                return by["smelt"][0]
        return None

    @staticmethod
    def _card_at(view: dict[str, Any], cell: list[int]) -> str:
        st = view["map"]["cells"][f"{cell[0]},{cell[1]}"]
        return st[-1].partition(":")[2] if st else ""

    def _equip(self, s: dict[str, Any], equips: list[dict[str, Any]]) -> Any:
        me = s["me"]
        have = self._tier(me)
        for a in equips:
            c = a["card_type"]
            if a["enchant"]:
                continue
            if c in ("crafting_table", "furnace") and a["replace_slot"] is None:
                return a
            if c == "wooden_hoe" and a["replace_slot"] is None:
                return a
            if c in PICK_TIER and PICK_TIER[c] > have:
                if a["replace_slot"] is None:
                    return a
                old = next(t["card"] for t in me["tools"] if t["slot"] == a["replace_slot"])
                if old in PICK_TIER or (old.endswith("_hoe") and not any(
                        t["card"] in PICK_TIER for t in me["tools"])):
                    return a
        return None

    def _craft(self, s: dict[str, Any], avail: set[str]) -> str | None:
        hand, tier = s["hand"], s["tier"]
        goals: list[tuple[str, dict[str, int]]] = []
        if not s["table"]:
            goals.append(("crafting_table", {"planks": 4}))
        elif tier < 1:
            if not s["hoe"]:
                goals.append(("wooden_hoe", {"planks": 2, "stick": 2}))
            goals.append(("wooden_pickaxe", {"planks": 3, "stick": 2}))
        else:
            if not s["hoe"]:   # a wooden hoe lasts 4 tills: farms move with the work
                goals.append(("wooden_hoe", {"planks": 2, "stick": 2}))
            if tier < 2:
                goals.append(("stone_pickaxe", {"stone": 3, "stick": 2}))
            if not s["furnace"] and (tier >= 2 or hand.get("stone", 0) >= 7):
                goals.append(("furnace", {"stone": 4}))
            if tier < 3:
                goals.append(("iron_pickaxe", {"iron_ingot": 3, "stick": 2}))
        if hand.get("wheat", 0) >= 3 and "bread" in avail:
            return "bread"
        for goal, need in goals:
            if goal in avail:
                return goal
            if not all(hand.get(k, 0) >= n for k, n in need.items() if k not in ("stick", "planks")):
                continue
            short = max(0, need.get("stick", 0) - hand.get("stick", 0))
            planks = need.get("planks", 0) + (2 if short else 0)
            if hand.get("planks", 0) + 4 * hand.get("log", 0) < planks:
                continue
            if short and hand.get("planks", 0) >= 2 and "stick" in avail:
                return "stick"
            if hand.get("planks", 0) < planks and "planks" in avail:
                return "planks"
        return None

    def _smelt_batch(self, s: dict[str, Any]) -> tuple[list[str], list[str]] | None:
        """Materials and fuels for one batch the hand can pay (heat > specific heat), or None."""
        hand = dict(s["hand"])
        cards = _cards()
        me = s["me"]
        bonus = 3 if me["character"] == "m_ember" else 0
        strict = me["character"] != "h_smith"
        wanted: list[str] = []
        wanted += ["gold_ore"] * min(hand.get("gold_ore", 0), 2)
        if s["tier"] < 3:
            wanted += ["iron_ore"] * min(hand.get("iron_ore", 0), s["iron_need"])
        if s["glass_need"] and hand.get("sand"):
            wanted.append("sand")
        wanted += ["raw_meat"] * hand.get("raw_meat", 0)
        # iron waits until the three ores are in hand (one batch, one AP), unless meat or gold goes too
        if not wanted:
            return None
        # fuels, best first; keep one log for planks while a wooden tool is still to make
        spare = dict(hand)
        for c in wanted:
            spare[c] -= 1
        if s["tier"] < 3:
            spare["log"] = max(0, spare.get("log", 0) - 1)
        fuels: list[str] = []
        for f in ("coal_ore", "charcoal", "log", "planks", "stick"):
            fuels += [f] * max(0, spare.get(f, 0))
        while wanted:
            sh = sum(cards[c]["sh"] for c in wanted)
            used: list[str] = []
            heat = bonus
            for f in fuels:
                if heat > sh or (not strict and heat >= sh):
                    break
                used.append(f)
                heat += cards[f]["fuel"]
            if used and (heat > sh or (not strict and heat >= sh)):
                return wanted, used
            wanted.pop()   # the least important material (meat last in, first out)
        return None

    def _smelt_build(self, view: dict[str, Any], legal: list[dict[str, Any]], pending: dict[str, Any]) -> Any:
        plan = self.smelt_plan
        if plan is None:
            return {"type": "cancel"}
        mats, fuels = list(pending.get("materials", [])), list(pending.get("fuels", []))
        for c in plan[0]:
            if mats.count(c) < plan[0].count(c):
                a = {"type": "smelt_material", "card_type": c}
                return a if a in legal else {"type": "cancel"}
        for c in plan[1]:
            if fuels.count(c) < plan[1].count(c):
                a = {"type": "smelt_fuel", "card_type": c}
                return a if a in legal else {"type": "cancel"}
        self.smelt_plan = None
        return {"type": "smelt_confirm"} if {"type": "smelt_confirm"} in legal else {"type": "cancel"}

    # -- costed actions: where to dig next ---------------------------------------------------
    def _dig_value(self, view: dict[str, Any], s: dict[str, Any], cell: tuple[int, int], text: str) -> float:
        """Worth of digging a face-down top card (0: leave it)."""
        tier = s["tier"]
        layer = text[1]
        if self.peek is not None:
            card = self.peek(cell[0], cell[1], len(view["map"]["cells"][f"{cell[0]},{cell[1]}"]))
            if card is not None:
                req = REQ.get(card, 0)
                if req > tier:
                    return 0.0
                base = {"S": 3.0, "U": 3.0, "D": 4.0}[layer]
                return base + self._keep(view, s["hand"], card) / 20
        if layer == "S":
            return 3.0
        if layer == "U":
            # two of the four Underground cards are stone, the chain's scarcest card (iron is lost to a
            # wooden pickaxe, 1 in 4)
            return 3.5 if tier >= 2 else 3.5 if tier == 1 and s["stone_need"] > 0 else 0.0
        if tier >= 3:
            return 4.0 + (1.0 if s["gold_need"] or s["diamond_need"] else 0.0)
        if tier == 2 and (s["stone_need"] or s["iron_need"] > s["hand"].get("iron_ore", 0)) \
                and view["round"] >= DEEP_ROUND:
            return 1.0
        return 0.0

    def _targets(self, view: dict[str, Any], s: dict[str, Any], board: Board) -> dict[tuple[int, int], float]:
        out = {}
        for c, st in board.cells.items():
            if not st:
                continue
            top = st[-1]
            if top.startswith("?"):
                v = self._dig_value(view, s, c, top)
            elif top.startswith("loose:"):
                v = 1.0   # a loose card blocks its stack; gathering it is free once in reach
            else:
                v = 0.0
            if v > 0:
                out[c] = v
        return out

    @staticmethod
    def _paths(board: Board, start: tuple[int, int], height: int, max_rise: int = 1
               ) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], tuple[str, bool] | None]]:
        """Dijkstra over standing cells: move 1, jump-and-climb 2 (a rise of 2, with a pillar placed first
        where ``max_rise`` allows it, 4), never a fall of 3 or more. Returns the cost of each reachable
        cell and the first step there (direction, needs a jump)."""
        dist = {start: 0}
        first: dict[tuple[int, int], tuple[str, bool] | None] = {start: None}
        frontier = [(0, start)]
        while frontier:
            frontier.sort()
            cost, cur = frontier.pop(0)
            if cost > dist[cur]:
                continue
            h_cur = height if cur == start else board.H(cur)
            for d_name, n in board.near(cur):
                rise = board.H(n) - h_cur
                if rise > max_rise or -rise >= 3:
                    continue
                step = 1 if rise <= 0 else 2 if rise == 1 else 4
                if cost + step < dist.get(n, 99):
                    dist[n] = cost + step
                    first[n] = first[cur] or (d_name, rise > 0)
                    frontier.append((cost + step, n))
        return dist, first

    def _step(self, legal: list[dict[str, Any]], step: tuple[str, bool] | None, hunger: int) -> Any:
        if step is None:
            return {"type": "end_action_phase"}
        d_name, climb = step
        if climb:
            if {"type": "jump"} in legal and hunger >= 2:
                self.jump_dir = d_name
                return {"type": "jump"}
            return {"type": "end_action_phase"}
        a = {"type": "move", "dir": d_name}
        return a if a in legal else {"type": "end_action_phase"}

    def _costed(self, view: dict[str, Any], s: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        me = s["me"]
        hunger, ap = me["hunger"], me["ap"] or 0
        first = me["turn"]["ap_spent"] == 0
        board = Board(view)
        pos = (me["pos"][0], me["pos"][1])
        height = me["height"]
        dist, first_step = self._paths(board, pos, height)
        farms = [c for c in board.cells if board.top(c).startswith("farmland")]
        near = min((f for f in farms if f in dist), key=lambda f: dist[f], default=None)
        go_farm = self._step(legal, first_step[near], hunger) if near is not None and near != pos \
            else {"type": "end_action_phase"}
        # keep the hunger the hand limit needs at settlement (ceil(hunger / 2) cards survive); the turn's
        # first action is free of that rule (idling costs the same hunger), and a farm refills 2 a turn
        keep = 2 * self._precious(view, s) - 1
        reserve = min(me["max_hunger"] - (4 if farms else 3), max(2 if farms else 4, keep))
        allowed = min(ap, max(hunger - reserve, 1 if first and hunger >= 2 else 0))
        if first:
            self.plan = None
        targets = self._targets(view, s, board)
        for f in farms:
            targets.pop(f, None)
        reach = max(1, me["range"] or 1)
        back: dict[tuple[tuple[int, int], int], int] = {}
        best: tuple[float, Any] | None = None
        for stand, cost in dist.items():
            h_cur = height if stand == pos else board.H(stand)
            for c, v in targets.items():
                d = abs(c[0] - stand[0]) + abs(c[1] - stand[1]) + abs(h_cur - board.H(c))
                loose = not board.top(c).startswith("?")
                if not ((loose and d < 2) or (not loose and d <= reach)):
                    continue
                spend = cost + (0 if loose else 1)
                if farms and self.plan != (stand, c):
                    # on a farmland again before the turn ends (it pays at the start of the next one)
                    lowered = h_cur - (1 if c == stand else 0)
                    key = (stand, lowered)
                    if key not in back:
                        paths = self._paths(board, stand, lowered)[0]
                        back[key] = min([paths[f] for f in farms if f in paths] + [99])
                    spend += back[key]
                if spend > (ap if self.plan == (stand, c) else allowed):
                    continue
                # digging under one's own feet lowers the stand: neighbours at this height first
                score = v - 0.7 * cost - (0.5 if c == stand and not loose else 0.0) \
                    + (5.0 if self.plan == (stand, c) else 0.0)
                if best is None or score > best[0]:
                    best = (score, (stand, c, loose))
        if (best is None or best[0] <= 0) and not board.top(pos).startswith("farmland") and near is None \
                and hunger >= 5:
            # no farm to go back to and nothing in this turn's budget: walk toward the work (idling costs
            # hunger too, and the work is where the next farm is made)
            walk = [(v - 0.7 * cost, stand) for stand, cost in dist.items() if stand != pos
                    for c, v in targets.items()
                    if abs(c[0] - stand[0]) + abs(c[1] - stand[1]) + abs(board.H(stand) - board.H(c))
                    <= reach]
            if walk:
                return self._step(legal, first_step[max(walk)[1]], hunger)
        if best is None or best[0] <= 0:
            return go_farm
        stand, cell, loose = best[1]
        self.plan = (stand, cell)   # an excursion, once started, is finished even below the reserve
        if stand == pos:
            a = {"type": "gather" if loose else "dig", "cell": list(cell)}
            return a if a in legal else go_farm
        return self._step(legal, first_step[stand], hunger)

    def _far_from_farms(self, board: Board, pos: tuple[int, int], height: int) -> bool:
        """No farmland within one step of walking (a new one is worth its 4 AP)."""
        dist = self._paths(board, pos, height)[0]
        return all(dist.get(c, 99) > 1 for c in board.cells if board.top(c).startswith("farmland"))

    def _work_here(self, view: dict[str, Any], s: dict[str, Any], board: Board, pos: tuple[int, int],
                   height: int) -> bool:
        """Is there a dig target in reach of a character standing at ``pos`` at ``height``?"""
        for c, _v in self._targets(view, s, board).items():
            if c != pos and abs(c[0] - pos[0]) + abs(c[1] - pos[1]) + abs(height - board.H(c)) <= 1:
                return True
        return False

    def _precious(self, view: dict[str, Any], s: dict[str, Any]) -> int:
        """Cards the hand should keep through settlement (the hand limit is ceil(hunger / 2))."""
        hand = s["hand"]
        n = 0
        for c in hand:
            seen: dict[str, int] = {}
            for k in range(1, hand[c] + 1):
                seen[c] = k
                if self._keep(view, seen, c) >= 15:
                    n += 1
        return n
