"""The turn planner with a chest: the stone the furnace needs kept out of the hand limit.

The World Core needs 7 of the game's 8 stones at once (3 for the stone pickaxe, 4 for the furnace), and the
hand limit is ceil(hunger / 2): a hungry turn discards stone (``scripts/blockcraft_chain.py``, 200 seeds:
351 stones discarded against 410 dug). A chest (6 planks, BC-3.9) holds 4 cards that never count toward the
limit, and the second block slot is free until the furnace. ``StashBot``:

- crafts the chest once the wooden pickaxe exists and a stone or iron ore is in hand, with the wood for
  the next pickaxe's sticks spared;
- stores stone (then iron ore, which waits for the furnace) at the end of every free-action run;
- takes the stones out when the hand plus the chest make the next stone recipe (3 for the pickaxe, 4 for the
  furnace), and equips the furnace over the chest (its contents come back to the hand).

Measured at commit 00472e2 (``scripts/blockcraft_funnel.py --games 200``, seeds 0-199; the turn planner
before this branch in brackets): stone pickaxe 168 (85), furnace 17 (2), iron ingot 6 (0), iron pickaxe 1
(0), World Core 0 (0); Deep cards dug 3.9 (1.2) a game; seeds 1000-1199: stone pickaxe 166 (87), furnace
11 (1). The wall is now the Deep layer: the furnace's 4 stones need most of its 16 cards, and the bot digs
about 4 a game (one a turn between two farm visits on stacks above the holes it leaves).

What it spends its turns on, the approaches tried after it and why the World Core stays out of reach
(issue 17, point 9): ``docs/blockcraft-solo.md``.
"""
from __future__ import annotations

from typing import Any

from bots.heuristic.blockcraft import _cards
from bots.planner.turnplan import TurnPlanBot

#: cards worth a chest place, best first
STASH = ("stone", "iron_ore")
#: planks a chest costs
CHEST_PLANKS = 6


class StashBot(TurnPlanBot):
    """``TurnPlanBot`` that keeps its stone and iron ore in a chest (module docstring)."""

    #: the Explorer's free first move saves about a hunger a turn; the Mite's hand-dug stone only matters
    #: before the wooden pickaxe (round 5); 200 seeds, furnaces by character: h_farmer 8 of 34, h_explorer
    #: 4 of 18, m_mite 0 of 22, m_ember 0 of 15 (4 dead: max hunger 9)
    CHARACTER_BONUS = {"h_farmer": 5, "h_explorer": 4, "h_smith": 2, "m_ember": 1}

    @staticmethod
    def _chest(view: dict[str, Any]) -> dict[str, int]:
        return dict(view["private"].get("chest", {}))

    def _status(self, view: dict[str, Any]) -> dict[str, Any]:
        s = super()._status(view)
        s["chest"] = self._chest(view)
        s["has_chest"] = any(b["card"] == "chest" for b in s["me"]["blocks"])
        return s

    def _card_worth(self, s: dict[str, Any], card: str, layer: str) -> float:
        # a stone or iron ore in the chest is one the hand need not find again
        chest = s.get("chest", {})
        if card in STASH and chest.get(card):
            hand = dict(s["hand"])
            hand[card] = hand.get(card, 0) + chest[card]
            s = {**s, "hand": hand}
        return super()._card_worth(s, card, layer)

    def free_action(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        s = self._status(view)
        hand, chest = s["hand"], s["chest"]
        stone = hand.get("stone", 0) + chest.get("stone", 0)
        wants = 3 if s["tier"] < 2 else 4 if not s["furnace"] else 99
        wood = hand.get("stick", 0) >= 2 or hand.get("planks", 0) >= 2 or hand.get("log", 0) >= 1
        if chest.get("stone") and stone >= wants and (wood or wants == 4):
            for a in legal:
                if a["type"] == "retrieve" and a["card_type"] == "stone":
                    return a
        free = super().free_action(view, legal)
        if free is not None:
            return free
        chest_craft = self._chest_step(s, legal)
        if chest_craft is not None:
            return chest_craft
        if s["has_chest"] and sum(chest.values()) < 4:
            # the furnace's stone has first call on the places; iron ore takes only the spare ones
            missing = max(0, 4 - stone) if not s["furnace"] else 0
            for card in STASH:
                if card == "stone" and stone >= wants:
                    continue   # a recipe is ready: keep it in hand
                if card == "iron_ore" and 4 - sum(chest.values()) <= missing:
                    continue
                for a in legal:
                    if a["type"] == "store" and a["card_type"] == card:
                        return a
        return None

    def _action(self, view: dict[str, Any], legal: list[dict[str, Any]], pending: Any) -> Any:
        a = super()._action(view, legal, pending)
        if a == {"type": "end_action_phase"}:
            return self._eat_before_settling(view, legal) or a
        return a

    def _eat_before_settling(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        """A food the coming settlement would discard, eaten instead (part of it past the max is lost, all
        of it would be). The settlement keeps ceil(hunger / 2) cards, the lowest keep-worth going first."""
        hunger = view["players"][view["seat"]]["hunger"]
        hand = dict(view["private"]["hand"])
        over = sum(hand.values()) - (hunger + 1) // 2
        doomed: set[str] = set()
        for _ in range(max(0, over)):
            card = min((c for c, n in hand.items() if n), key=lambda c: self._keep(view, hand, c))
            doomed.add(card)
            hand[card] -= 1
        foods = [a for a in legal if a["type"] == "use" and a["card_type"] in doomed
                 and _cards()[a["card_type"]].get("food")]
        return max(foods, key=lambda a: _cards()[a["card_type"]]["food"]) if foods else None

    def _chest_step(self, s: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The next step toward an equipped chest (planks, craft, equip), or None."""
        me, hand = s["me"], s["hand"]
        if s["has_chest"] or s["furnace"] or s["tier"] < 1 or not s["table"] or len(me["blocks"]) >= 2:
            return None
        if hand.get("chest"):
            for a in legal:
                if a["type"] == "equip" and a["card_type"] == "chest" and a["replace_slot"] is None:
                    return a
            return None
        if not any(hand.get(c) for c in STASH):
            return None
        # spare the two planks the next pickaxe's sticks need (unless the sticks are in hand)
        keep = 2 if s["tier"] < 3 and hand.get("stick", 0) < 2 else 0
        planks = hand.get("planks", 0)
        if planks >= CHEST_PLANKS + keep:
            return next((a for a in legal if a == {"type": "craft", "recipe": "chest"}), None)
        if planks + 4 * hand.get("log", 0) >= CHEST_PLANKS + keep:
            return next((a for a in legal if a == {"type": "craft", "recipe": "planks"}), None)
        return None

    def _equip(self, s: dict[str, Any], equips: list[dict[str, Any]]) -> Any:
        a = super()._equip(s, equips)
        if a is not None:
            return a
        # the furnace over the chest (the base equips block equipment into a free slot only)
        chest_slot = next((b["slot"] for b in s["me"]["blocks"] if b["card"] == "chest"), None)
        for a in equips:
            if a["card_type"] == "furnace" and a["replace_slot"] == chest_slot and chest_slot is not None:
                return a
        return None
