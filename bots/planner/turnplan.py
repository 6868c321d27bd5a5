"""The solo planner with a whole-turn search over the map's heights (moves, climbs and digs of one turn).

``PlannerBot`` / ``RoverBot`` pick one dig target and walk to it; the reach of 1 and the stack heights make
most of their walking wasted (a dug neighbour drops out of reach, a climb costs 2). ``TurnPlanBot`` keeps
their free actions (crafting, eating, smelting, farm making, discards) and chooses the costed actions of
the turn by a depth-first search over its own simplified model of the map (steps: move, climb = jump and
move, dig, gather, till a loose dirt, make a farm from a dirt in hand): every face-down card it digs is
gathered at once, so the heights after a dig are known before the card is (a failed dig removes the card
too). A plan scores

    the expected worth of the cards dug: the layer's cards not seen yet (the solo map's decks minus what
      its own digs turned up), each by what the chain needs now; a gold or diamond that the pickaxe in
      hand would destroy counts negative
    - the hunger spent, dearer when hunger is low (it is the budget and the hand limit)
    + ending the turn on a farmland (2 hunger up to the max, and a wheat) or making a farm
    - the walk back to the nearest farm otherwise (the whole game if none can be reached)
    + the best dig target left from the end position (the next turns' work)
    - the chain's cards the hand limit would discard at this hunger.

It re-plans at every costed decision from the view alone (a dig reveals a card and may change the plan).
Since then (branch worldcore3): pillars (jump and place a spare block underfoot) in the search and the walking
costs, expeditions when a full belly finds no work in the turn's reach, a price on ending a turn with less
hunger than the walk back to a farm, and stranded Underground cards. The built-in planner is ``StashBot``
(stash.py, a chest for the stone); figures there.
Branch worldcore4: the inner stacks are dug before the border around them (``RING``: a border Surface card
next to a covered inner stack is worth nothing; dug first, it left the Underground cards two higher, out of
reach for the rest of the game), and logs beyond the next pickaxe's sticks are pillar blocks. 200 seeds
(``scripts/blockcraft_funnel.py``): Underground cards dug 2.53 a game (2.04), furnace 26 (17), World Core 0.
"""
from __future__ import annotations

from typing import Any

from bots.heuristic.blockcraft import _cards
from bots.planner.blockcraft import DIRS, Board
from bots.planner.rover import RoverBot

#: a wheat from the farm, in dig-worth units (a face-down Surface card is worth 3; 3 wheat are a bread)
WHEAT = 1.5
#: hunger price by hunger after the turn: (at least this hunger, price a point)
PRICES = ((8, 0.3), (5, 0.6), (3, 1.2), (-99, 3.0))
#: weight of the best target left within reach of the next turn
POTENTIAL = 1.0
#: worth of a chain card lost to the hand limit
HAND_LOSS = 3.0
#: making a farmland (tilling a loose dirt) while fewer than two exist
FARM_MAKE = 10.0
#: share of the walk back to a farm charged to a plan that ends away from it
HOME = 1.5
#: a plan that ends where no farm can be walked back to
LOST = 15.0
#: the layer decks of the solo map (size A, spec BC-3.4): what a face-down card of each layer can be
DECKS = {"S": {"dirt": 5, "log": 5, "sand": 3, "apple": 2, "raw_meat": 1},
         "U": {"stone": 2, "coal_ore": 1, "iron_ore": 1},
         "D": {"stone": 4, "coal_ore": 1, "iron_ore": 3, "gold_ore": 3, "diamond": 3, "obsidian": 1,
               "ender_pearl": 1}}
#: worth of destroying a gold ore or diamond with a weak pickaxe: while spares are left / the last ones
DESTROY, DESTROY_LAST = -4.0, -8.0
#: dig requirement tier (0 = hand)
NEEDS_TIER = {"stone": 1, "coal_ore": 1, "iron_ore": 2, "gold_ore": 3, "diamond": 3, "obsidian": 4}
#: plan steps that do work (a plan of moves only is a walk)
WORK = ("dig", "gather", "till", "farm")
#: an expedition (away from the farms, toward the work) lasts until hunger is down to the walk home + this
EXPEDITION_MARGIN = 7
EXPEDITIONS = True
#: weight of the best target's nearness during an expedition (0.7 a step: walking toward it pays)
EXPEDITION_PULL = 2.0
#: an Underground card (half of them stone) left where only a pillar reaches it
STRANDED = 3.0
#: hunger to keep on top of the walk back to a farm, and the price of each point short of it
HOME_MARGIN, STRANDED_HUNGER = 2, 4.0
#: logs beyond the next pickaxe's sticks are pillar blocks (``_spares``)
SPARE_LOGS = True
#: share of its worth a border Surface card keeps while an inner stack next to it is covered (``ring``):
#: 0 = dig the inner stacks first (200 seeds: Underground cards dug 2.53 a game against 2.17 at 1)
RING = 0.0
#: one step of a plan: ("move" | "climb", direction) or ("dig" | "gather" | "till" | "farm", (x, y))
Step = tuple[str, Any]


class TurnPlanBot(RoverBot):
    """Solo `extreme` planner that searches the moves and digs of a whole turn (module docstring)."""

    def __init__(self, seed: int = 0, **kw: Any) -> None:
        super().__init__(seed, **kw)
        #: cards seen coming out of each layer (own digs), for the odds of the next face-down card
        self.revealed: dict[str, dict[str, int]] = {k: {} for k in DECKS}
        self.last_dig: tuple[tuple[int, int], str, int, int] | None = None
        #: a pillar under way: the block to place underfoot after the jump
        self.pillar: str | None = None
        #: walking costs may climb two with a pillar (a spare block in hand)
        self.pillar_ok = False
        #: walking to far work, the farms forgotten (see EXPEDITION_END)
        self.expedition = False

    def act(self, request: Any) -> int | dict[str, Any]:
        self._note_reveal(request.view)
        choice = super().act(request)
        legal = request.legal
        a = legal[choice] if isinstance(choice, int) else choice
        view = request.view
        if isinstance(a, dict) and a.get("type") == "dig":
            c = (a["cell"][0], a["cell"][1])
            stack = view["map"]["cells"][f"{c[0]},{c[1]}"]
            if stack and stack[-1].startswith("?"):
                self.last_dig = (c, stack[-1][1], len(stack), len(view.get("discard_pile", [])))
        return choice

    def _note_reveal(self, view: dict[str, Any]) -> None:
        """What the last dig turned up: the loose card on the stack, or the discard pile's new top."""
        if self.last_dig is None or "map" not in view:
            return
        (x, y), layer, height, discards = self.last_dig
        self.last_dig = None
        stack = view["map"]["cells"][f"{x},{y}"]
        card = None
        if len(stack) == height and stack[-1].startswith("loose:"):
            card = stack[-1][6:]
        elif len(stack) == height - 1 and len(view.get("discard_pile", [])) > discards:
            card = view["discard_pile"][-1]
        if card is not None:
            seen = self.revealed[layer]
            seen[card] = seen.get(card, 0) + 1

    def _card_worth(self, s: dict[str, Any], card: str, layer: str) -> float:
        """Worth of digging one ``card`` now (negative: a needed card destroyed by a weak pickaxe)."""
        hand, tier = s["hand"], s["tier"]
        left = DECKS["D"].get(card, 0) - self.revealed["D"].get(card, 0)
        if NEEDS_TIER.get(card, 0) > tier:
            if card == "gold_ore":
                return DESTROY_LAST if left <= s["gold_need"] else DESTROY
            if card == "diamond":
                return DESTROY_LAST if left <= s["diamond_need"] else DESTROY
            if card == "iron_ore":
                return -2.0
            return 0.0
        if card == "log":
            wood = 4 * hand.get("log", 0) + hand.get("planks", 0) + hand.get("stick", 0) // 2
            short = not s["table"] or s["tier"] < 1 or not s["hoe"] or (s["tier"] < 3 and wood < 2)
            return 9.0 if short else 2.0
        if card == "dirt":
            return 5.0 if not hand.get("dirt") else 1.0
        if card == "sand":
            return 4.0 if s["glass_need"] and not hand.get("sand") else 0.5
        if card in ("apple", "raw_meat"):
            return 3.0
        if card == "stone":
            return 9.0 if s["stone_need"] > hand.get("stone", 0) else 1.0
        if card == "coal_ore":
            return 3.0 if hand.get("coal_ore", 0) < 2 else 1.0
        if card == "iron_ore":
            return 7.0 if s["iron_need"] > hand.get("iron_ore", 0) else 1.0
        if card == "gold_ore":
            return 14.0 if s["gold_need"] > hand.get("gold_ore", 0) else 1.0
        if card == "diamond":
            return 16.0 if s["diamond_need"] else 1.0
        if card == "ender_pearl":
            return 5.0 if s["pearl_need"] else 0.5
        return 0.0

    def _dig_value(self, view: dict[str, Any], s: dict[str, Any], cell: tuple[int, int], text: str) -> float:
        # the expected worth of the face-down card: the layer's cards not seen yet, each by what it does now
        layer = text[1]
        if self.peek is not None:   # offline oracle (scripts/blockcraft_funnel.py --oracle): the true card
            card = self.peek(cell[0], cell[1], len(view["map"]["cells"][f"{cell[0]},{cell[1]}"]))
            if card is not None:
                return self._card_worth(s, card, layer)
        left = {c: n - self.revealed[layer].get(c, 0) for c, n in DECKS[layer].items()}
        total = sum(max(0, n) for n in left.values())
        if total <= 0:
            return 0.0
        return sum(max(0, n) * self._card_worth(s, c, layer) for c, n in left.items()) / total

    def _costed(self, view: dict[str, Any], s: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        me = s["me"]
        end = {"type": "end_action_phase"}
        if not me["ap"]:
            return end
        plan = self.plan_turn(view, s)
        board = Board(view)
        pos = (me["pos"][0], me["pos"][1])
        dist = self._paths(board, pos, me["height"])[0]
        home = min([dist[c] for c in board.cells if board.top(c).startswith("farmland") and c in dist] + [99])
        if self.expedition and (me["hunger"] <= min(home, 8) + EXPEDITION_MARGIN or home == 0 and
                                me["hunger"] < me["max_hunger"] - 1):
            self.expedition = False
            plan = self.plan_turn(view, s)
        elif EXPEDITIONS and not self.expedition and me["hunger"] >= me["max_hunger"] - 1 \
                and me["turn"]["ap_spent"] == 0 \
                and not any(k in WORK for k, _ in plan):
            # a full belly gains nothing on the farm and no work is in this turn's reach: walk to the work
            # over several turns, until hunger is down to the walk home plus a margin
            self.expedition = True
            plan = self.plan_turn(view, s)
        if not plan:
            return end
        kind, arg = plan[0]
        if kind == "farm":
            self.farm_step = "place"
            return {"type": "jump"} if {"type": "jump"} in legal else end
        if kind == "pillar":
            self.pillar = arg
            return {"type": "jump"} if {"type": "jump"} in legal else end
        if kind == "move":
            a: dict[str, Any] = {"type": "move", "dir": arg}
        elif kind == "climb":
            self.jump_dir = arg
            a = {"type": "jump"}
        else:
            a = {"type": kind, "cell": list(arg)}
        return a if a in legal else end

    def _spares(self, view: dict[str, Any], s: dict[str, Any]) -> list[str]:
        """Placeable cards in hand the chain does not need (keep-worth under 15): blocks for pillars."""
        out = []
        hand = s["hand"]
        for c, n in sorted(hand.items()):
            if not _cards()[c].get("placeable"):
                continue
            out += [c for k in range(1, n + 1) if self._keep(view, {c: k}, c) < 15]
        if SPARE_LOGS:
            # wood beyond the next pickaxe's sticks (two sticks in hand, or one log kept for them) is a step
            # up to a plateau: the Underground cards under the inner stacks are the stone the chain lacks
            logs = hand.get("log", 0) - (0 if hand.get("stick", 0) >= 2 or s["tier"] >= 3 else 1)
            out += ["log"] * max(0, logs - out.count("log"))
        return out

    def _paths(self, board: Board, start: tuple[int, int], height: int, max_rise: int = 1  # type: ignore[override]
               ) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], tuple[str, bool] | None]]:
        """The planner's walking costs, plus a stack two higher for 4 AP (pillar, then climb) while a
        spare block is in hand; a pillar first step is reported as a climb (the turn search plans it)."""
        return super()._paths(board, start, height, 2 if self.pillar_ok else max_rise)

    def _jump_followup(self, view: dict[str, Any], legal: list[dict[str, Any]], pending: Any) -> Any:
        if self.pillar is not None:
            a = {"type": "place", "card_type": self.pillar}
            if a in legal:
                return a
            self.pillar = None
        return super()._jump_followup(view, legal, pending)

    def _place_target(self, view: dict[str, Any], legal: list[dict[str, Any]], pending: Any) -> Any:
        if self.pillar is not None:
            self.pillar = None
            me = view["players"][view["seat"]]
            a = {"type": "place_at", "cell": list(me["pos"])}
            return a if a in legal else {"type": "cancel"}
        return super()._place_target(view, legal, pending)

    def _action(self, view: dict[str, Any], legal: list[dict[str, Any]], pending: Any) -> Any:
        # no farm at all: make one from a dirt in hand at once (jump, place it underfoot, dig it loose, till
        # it: 4 AP, 4 hunger), whatever the work nearby; without it the bot starves
        board = Board(view)
        me = view["players"][view["seat"]]
        s = self._status(view)
        pos = (me["pos"][0], me["pos"][1])
        if self.farm_step is None and s["hoe"] and s["hand"].get("dirt") and me["ap"] == 4 \
                and me["hunger"] >= 4 and {"type": "jump"} in legal and board.H(pos) < 7 \
                and not any(board.top(c).startswith("farmland") for c in board.cells) \
                and self.free_action(view, legal) is None:
            self.farm_step = "place"
            return {"type": "jump"}
        till = {"type": "till", "cell": list(pos)}
        if board.top(pos) == "loose:dirt" and till in legal and self.free_action(view, legal) is None:
            return till   # the last step of a farm made from a dirt in hand
        return super()._action(view, legal, pending)

    def free_action(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        # a loose dirt is the next farmland (tilled once the hoe exists): leave it on the map until two farms
        board = Board(view)
        me = view["players"][view["seat"]]
        if sum(1 for c in board.cells if board.top(c).startswith("farmland")) < 2:
            legal = [a for a in legal
                     if not (a["type"] == "gather" and self._card_at(view, a["cell"]) == "dirt")]
        elif self.farm_step is not None or me["turn"]["ap_spent"] >= 3 and me["ap"]:
            # a farm made from a dirt in hand: the dirt dug loose underfoot is tilled, not gathered
            legal = [a for a in legal if not (a["type"] == "gather" and a["cell"] == me["pos"]
                                              and self._card_at(view, a["cell"]) == "dirt")]
        return super().free_action(view, legal)

    def plan_turn(self, view: dict[str, Any], s: dict[str, Any]) -> list[Step]:
        """The best sequence of costed steps for the AP left this turn (empty: end the action phase)."""
        me = s["me"]
        board = Board(view)
        reach = me["range"] if me["range"] is not None else 1
        stacks = {c: tuple(st) for c, st in board.cells.items()}
        worth: dict[tuple[int, int, int], float] = {}

        def ring(c: tuple[int, int], stack: tuple[str, ...]) -> bool:
            """A border Surface card next to a still covered inner stack: digging it first leaves that stack's
            Underground cards on a plateau two higher (out of reach without a pillar)."""
            return "?U" not in stack and any(
                stacks[m] and stacks[m][-1] == "?S" and "?U" in stacks[m] and len(stacks[m]) == len(stack) + 1
                for _d, m in board.near(c))

        def value(c: tuple[int, int], stack: tuple[str, ...]) -> float:
            """Worth of the top card of ``stack`` at ``c`` (digging it, or gathering a loose one)."""
            if not stack:
                return 0.0
            key = (c[0], c[1], len(stack))
            if key not in worth:
                top = stack[-1]
                if top.startswith("?"):
                    worth[key] = self._dig_value(view, s, c, top)
                    if top == "?S" and ring(c, stack):
                        worth[key] *= RING
                elif top == "loose:dirt" and len(farms) < 2:
                    worth[key] = 0.0   # the next farmland: tilled, not gathered
                elif top.startswith("loose:"):
                    worth[key] = 1.0 + self._keep(view, s["hand"], top[6:]) / 20
                else:
                    worth[key] = 0.0
            return worth[key]

        # wheat is kept for bread but is no chain card: losing one to the hand limit costs little
        precious = self._precious(view, s) - min(2, s["hand"].get("wheat", 0))
        hunger0 = me["hunger"]
        spent0 = me["turn"]["ap_spent"]
        farms = {c for c, st in stacks.items() if st and st[-1].startswith("farmland")}

        max_h = me["max_hunger"]
        reach_board = max(1, reach)
        potentials: dict[tuple[tuple[int, int], int], float] = {}
        homes: dict[tuple[tuple[int, int], int], int] = {}

        def way_home(pos: tuple[int, int], h: int) -> int:
            """AP of the walk from ``pos`` back to the nearest farm (99: none reachable)."""
            if (pos, h) not in homes:
                dist = self._paths(board, pos, h)[0]
                homes[pos, h] = min([dist[f] for f in farms if f in dist] + [99])
            return homes[pos, h]

        def potential(pos: tuple[int, int], h: int) -> float:
            """The best target for the next turns from ``pos``: worth minus 0.7 a step of the walk there."""
            if (pos, h) not in potentials:
                dist = self._paths(board, pos, h)[0]
                best = 0.0
                for stand, cost in dist.items():
                    hs = h if stand == pos else board.H(stand)
                    for c, stack in stacks.items():
                        v = value(c, stack)
                        if v <= 0 or c in farms:
                            continue
                        d = abs(c[0] - stand[0]) + abs(c[1] - stand[1]) + abs(hs - len(stack))
                        if d <= reach_board:
                            best = max(best, v - 0.7 * cost)
                potentials[pos, h] = best
            return potentials[pos, h]

        def score(pos: tuple[int, int], h: int, st: dict[tuple[int, int], tuple[str, ...]], hunger: int,
                  gained: float, acted: bool) -> float:
            end_hunger = hunger - (0 if acted or spent0 else 1)
            price = next(p for floor, p in PRICES if end_hunger >= floor)
            out = gained - price * (hunger0 - end_hunger)
            if end_hunger <= 0:
                out -= 20.0   # starvation costs stamina
            out -= HAND_LOSS * max(0, precious - (end_hunger + 1) // 2)
            if farms and not (st[pos] and st[pos][-1].startswith("farmland")):
                # hunger short of the walk back to a farm: the next turns starve
                out -= STRANDED_HUNGER * max(0, min(way_home(pos, h), 8) + HOME_MARGIN - end_hunger)
            if self.expedition:
                return out + EXPEDITION_PULL * potential(pos, h)
            if st[pos] and st[pos][-1].startswith("farmland"):   # 2 hunger (to the max), a wheat next turn
                out += price * min(2, max_h - end_hunger) + WHEAT
            elif farms:   # the walk back is owed (a farm out of reach is the food lost)
                home = way_home(pos, h)
                out -= HOME * price * home if home < 99 else LOST
            return out + POTENTIAL * potential(pos, h) - STRANDED * stranded(st, pos)

        def stranded(st: dict[tuple[int, int], tuple[str, ...]], pos: tuple[int, int]) -> int:
            """Underground cards on plateaus that only a pillar reaches: a group of stacks joined by steps of
            at most one whose every outside neighbour is two or more lower (and the bot is not on it)."""
            n = 0
            seen: set[tuple[int, int]] = set()
            for c0 in st:
                if c0 in seen or "?U" not in st[c0]:
                    continue
                group, todo, open_ = {c0}, [c0], False
                while todo:
                    c = todo.pop()
                    hc = len(st[c])
                    for _d, m in board.near(c):
                        hm = len(st[m])
                        if m in group:
                            continue
                        if abs(hm - hc) <= 1 and hm >= 2:
                            group.add(m)
                            todo.append(m)
                        elif hm >= hc - 1:
                            open_ = True
                seen |= group
                if not open_ and pos not in group:
                    n += sum(1 for c in group for k in st[c] if k == "?U")
            return n

        best: list[Any] = [None, []]
        seen: dict[tuple[Any, ...], float] = {}

        def rec(pos: tuple[int, int], h: int, st: dict[tuple[int, int], tuple[str, ...]], ap: int,
                hunger: int, gained: float, plan: list[Step]) -> None:
            sc = score(pos, h, st, hunger, gained, bool(plan))
            if best[0] is None or sc > best[0]:
                best[0], best[1] = sc, list(plan)
            if ap <= 0 or hunger <= 1:
                return
            key = (pos, h, ap, hunger, tuple(sorted((c, len(v)) for c, v in st.items() if v != stacks[c])))
            if seen.get(key, -1e9) >= gained:
                return
            seen[key] = gained
            x, y = pos
            # digs and gathers in reach (a dig is gathered at once: the stack drops by one)
            for c in [pos] + [(x + dx, y + dy) for dx, dy in DIRS.values()]:
                stack = st.get(c)
                if not stack:
                    continue
                top = stack[-1]
                d = abs(c[0] - x) + abs(c[1] - y) + abs(h - len(stack))
                if top.startswith("?") and d <= reach:
                    cost = 1
                elif top.startswith("loose:") and d < 2:
                    cost = 0
                else:
                    continue
                v = value(c, stack)
                if v <= 0 or c in farms:
                    continue
                st2 = dict(st)
                st2[c] = stack[:-1]
                rec(pos, h - 1 if c == pos else h, st2, ap - cost, hunger - cost, gained + v,
                    plan + [("dig" if cost else "gather", c)])
            # tilling a loose dirt in reach: a farm here (the food that pays for the work)
            if hoe and len(farms_now(st)) < 2:
                for c in [pos] + [(x + dx, y + dy) for dx, dy in DIRS.values()]:
                    stack = st.get(c)
                    if not stack or stack[-1] != "loose:dirt":
                        continue
                    if abs(c[0] - x) + abs(c[1] - y) + abs(h - len(stack)) <= reach:
                        st2 = dict(st)
                        st2[c] = stack[:-1] + ("farmland:dirt",)
                        rec(pos, h, st2, ap - 1, hunger - 1, gained + FARM_MAKE, plan + [("till", c)])
            # a farm from a dirt in hand under our feet: jump, place it, dig it loose, till it (4 AP)
            if hoe and ap >= 4 and hunger >= 5 and hand_dirt > sum(1 for k, _ in plan if k == "farm") \
                    and not (st[pos] and st[pos][-1].startswith("farmland")) and h < 7 and not plan:
                st2 = dict(st)
                st2[pos] = st[pos] + ("farmland:dirt",)
                new = FARM_MAKE if len(farms_now(st)) < 2 else FARM_MAKE / 2
                rec(pos, h + 1, st2, ap - 4, hunger - 4, gained + new, plan + [("farm", pos)])
            # a pillar: jump and place a spare block underfoot (2 AP): the way up to a stack two higher
            used = sum(1 for k, _ in plan if k == "pillar")
            if used < len(spares) and reach >= 1 and ap >= 2 and hunger >= 3 and h < 7 \
                    and not (st[pos] and st[pos][-1].startswith("farmland")):
                st2 = dict(st)
                st2[pos] = st[pos] + ("placed:" + spares[used],)
                rec(pos, h + 1, st2, ap - 2, hunger - 2, gained, plan + [("pillar", spares[used])])
            # walking: a move down or level, a climb of one (jump + move, 2 AP); no fall of 3 or more
            for name, (dx, dy) in DIRS.items():
                n = (x + dx, y + dy)
                if n not in st:
                    continue
                hn = len(st[n])
                if hn <= h and h - hn < 3:
                    rec(n, hn, st, ap - 1, hunger - 1, gained, plan + [("move", name)])
                elif hn == h + 1 and ap >= 2 and hunger >= 3:
                    rec(n, hn, st, ap - 2, hunger - 2, gained, plan + [("climb", name)])

        hoe = bool(s["hoe"]) and any(t["card"].endswith("_hoe") for t in me["tools"]) \
            or me["character"] == "h_farmer"

        def farms_now(st: dict[tuple[int, int], tuple[str, ...]]) -> set[tuple[int, int]]:
            return {c for c, v in st.items() if v and v[-1].startswith("farmland")}

        hand_dirt = s["hand"].get("dirt", 0)
        spares = self._spares(view, s)
        self.pillar_ok = bool(spares) and reach >= 1
        pos = (me["pos"][0], me["pos"][1])
        rec(pos, me["height"], stacks, me["ap"] or 0, hunger0, 0.0, [])
        return best[1]
