"""The solo planner with excursions: work away from the farm while hunger lasts, then go home and rest.

``PlannerBot`` ends every turn on a farmland, so once the stacks next to its farms are dug it has nothing in
reach and idles at full hunger for the rest of the game. ``RoverBot`` keeps its free actions (crafting,
eating, smelting, farm making) and replaces the costed choice:

- work: commit to the best dig target (value minus 0.7 per AP of walking) and walk there over several
  turns if needed; a committed target is kept until it is done or unreachable (re-picking every step made
  the planner walk back and forth);
- home: once hunger is down to the walk back to the nearest farm plus a margin, walk there and rest until
  hunger is high again, digging what is in reach of the farm meanwhile (a turn that spends AP loses no
  idle hunger, so one dig a turn from the farm costs nothing against idling).
"""
from __future__ import annotations

from typing import Any

from bots.planner.blockcraft import Board, PlannerBot

#: keep-worth of the first two wheat in hand (a stone still needed is 36, a log 16): three are a bread
WHEAT_KEEP = 17.0
#: keep-worth of the log or two sticks that make the next pickaxe's sticks (a stone still needed is 36)
WOOD_KEEP = 34.0
#: rest on a farm until hunger is back to this
REST_UNTIL = 9
#: hunger kept on top of the walk home
MARGIN = 2


class RoverBot(PlannerBot):
    """Solo `extreme` planner that leaves its farm for the work (see the module docstring)."""

    def __init__(self, seed: int = 0, **kw: Any) -> None:
        super().__init__(seed, **kw)
        self.resting = False
        self.goal: tuple[tuple[int, int], tuple[int, int]] | None = None

    def _costed(self, view: dict[str, Any], s: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        me = s["me"]
        hunger, ap = me["hunger"], me["ap"] or 0
        board = Board(view)
        pos = (me["pos"][0], me["pos"][1])
        height = me["height"]
        dist, first_step = self._paths(board, pos, height)
        farms = [c for c in board.cells if board.top(c).startswith("farmland")]
        home = min((f for f in farms if f in dist), key=lambda f: dist[f], default=None)
        reach = max(1, me["range"] or 1)
        targets = self._targets(view, s, board)
        for f in farms:
            targets.pop(f, None)
        end = {"type": "end_action_phase"}
        if ap <= 0:
            return end

        def in_reach(stand: tuple[int, int], h: int, c: tuple[int, int]) -> bool:
            d = abs(c[0] - stand[0]) + abs(c[1] - stand[1]) + abs(h - board.H(c))
            return d < 2 if not board.top(c).startswith("?") else d <= reach

        def act_on(c: tuple[int, int]) -> Any:
            a = {"type": "dig" if board.top(c).startswith("?") else "gather", "cell": list(c)}
            return a if a in legal else None

        # the hand limit at settlement is ceil(hunger / 2): keep the hunger that holds the chain's cards
        reserve = max(MARGIN, min(me["max_hunger"] - 3, 2 * self._precious(view, s) - 1))
        if home is not None:
            if hunger <= dist[home] + reserve:
                self.resting = True
            if hunger >= REST_UNTIL:
                self.resting = False
        else:
            self.resting = False
        if self.resting and home is not None:
            self.goal = None
            if pos != home:
                return self._step(legal, first_step[home], hunger)
            # resting on the farm: one dig in reach (not the farm itself) per turn is free against idling
            if me["turn"]["ap_spent"] == 0 and hunger >= 2:
                here = [(v, c) for c, v in targets.items() if c != pos and in_reach(pos, height, c)]
                if here:
                    a = act_on(max(here)[1])
                    if a is not None:
                        return a
            return end
        if hunger <= 1:
            return end
        # keep the committed goal while it is still a target and reachable
        if self.goal is not None:
            stand, c = self.goal
            if c not in targets or stand not in dist:
                self.goal = None
        if self.goal is None:
            best: tuple[float, tuple[tuple[int, int], tuple[int, int]]] | None = None
            for stand, cost in dist.items():
                h = height if stand == pos else board.H(stand)
                for c, v in targets.items():
                    if not in_reach(stand, h, c):
                        continue
                    score = v - 0.7 * cost - (0.5 if c == stand and board.top(c).startswith("?") else 0.0)
                    if best is None or score > best[0]:
                        best = (score, (stand, c))
            if best is None or best[0] <= 0:
                if home is not None and pos != home:
                    return self._step(legal, first_step[home], hunger)
                return end
            self.goal = best[1]
        stand, c = self.goal
        if stand == pos:
            if not in_reach(pos, height, c):
                self.goal = None
                return end
            a = act_on(c)
            self.goal = None
            return a if a is not None else end
        return self._step(legal, first_step[stand], hunger)

    def _keep(self, view: dict[str, Any], hand: dict[str, int], card: str) -> float:
        # the pearl is the last ingredient and there are three (two in the reserve, reshuffled back after a
        # discard): before the iron pickaxe its hand slot is worth less than the stone and iron still missing
        if card == "ender_pearl" and self._status(view)["tier"] < 3:
            return 20.0 if hand.get(card, 0) == 1 else 2.0
        if card == "wheat":
            return WHEAT_KEEP if hand.get(card, 0) <= 2 else 1.0
        if card in ("log", "stick") and hand.get(card, 0) <= (1 if card == "log" else 2):
            # the sticks of the stone and iron pickaxes (one log makes them): above the ores, which wait
            # for the furnace, and below the stone
            if self._status(view)["tier"] < 3:
                return WOOD_KEEP
        return super()._keep(view, hand, card)
