"""Heuristic bot for Mice and Mystics (spec section 11): clear the side, then go; heal the endangered.

It sees only what a remote bot sees (``request.view``, ``request.legal``); it reads the public card
and hero tables from the game's content files (printed on the cards, MM-7.1), never engine code.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from bots.sdk.bot import Bot
from referee.engine.agent import DecisionRequest
from referee.engine.rng import Rng

CONTENT = Path(__file__).resolve().parents[2] / "referee" / "games" / "mice_and_mystics" / "content"


def _load(name: str, key: str) -> dict[str, dict[str, Any]]:
    with open(CONTENT / name, "rb") as fh:
        return {row["id"]: row for row in tomllib.load(fh)[key]}


CARDS = _load("cards.toml", "card")
HEROES = _load("heroes.toml", "hero")
MONSTERS = _load("monsters.toml", "monster")
LEVEL_PREFERENCE = ["a01", "a04", "a06", "a14", "a03", "a11", "a05", "a09", "a08", "a12", "a13", "a02", "a07",
                    "a10"]
INF = 10 ** 6


class Graph:
    """The current side from the view's ``board`` (mouse step costs, adjacency, LOS)."""

    def __init__(self, view: dict[str, Any]) -> None:
        side = view["board"]["sides"][view["current_side"]]
        self.areas = {a["id"]: a for a in side["areas"]}
        self.cost: dict[str, dict[str, int]] = {a: {} for a in self.areas}
        self.adj: dict[str, set[str]] = {a: set() for a in self.areas}
        for e in side["edges"]:
            for x, y in ((e["a"], e["b"]), (e["b"], e["a"])):
                if e["kind"] == "red":
                    continue
                self.adj[x].add(y)
                self.cost[x][y] = 1 if e["kind"] == "open" or e["toward"] == y else 3
        self.nolos = {tuple(p) for p in side["no_los"]} | {(p[1], p[0]) for p in side["no_los"]}

    def los(self, a: str, b: str) -> bool:
        return (a, b) not in self.nolos

    def to_goal(self, goal: set[str], traps: set[str]) -> dict[str, int]:
        """Cost from every area to the goal set (water and traps penalised)."""
        dist = {a: (0 if a in goal else INF) for a in self.areas}
        changed = True
        while changed:
            changed = False
            for a in self.areas:
                for b, c in self.cost[a].items():
                    pen = c + (12 if self.areas[b]["water"] else 0) + (5 if b in traps else 0)
                    if dist[b] + pen < dist[a]:
                        dist[a] = dist[b] + pen
                        changed = True
        return dist


class HeuristicBot(Bot):
    """Greedy team play: attack what can be hit, approach monsters, then run for the exit."""

    games = ("mice_and_mystics",)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        view, legal = request.view, request.legal
        handler = getattr(self, f"_{view['phase']}", None)
        choice = handler(view, legal) if handler is not None else None
        if choice is None:
            return 0
        return choice

    # -- sub-decisions -----------------------------------------------------------------------
    def _draft_hero(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        order = ["corran", "mallow", "wren", "pip", "tock", "fennimore"]
        return min(legal, key=lambda a: order.index(a["hero"]))

    def _choose_ability(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        return min(legal, key=lambda a: LEVEL_PREFERENCE.index(a["ability"]))

    def _battle_declare(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        target = view["monsters"].get(view["decision"]["target"], {})
        for a in legal:
            if a["type"] == "attack_ability":
                return a
            if a["type"] == "attack_trick" and target.get("type") in ("beetle", "millipede", "gristle"):
                return a
        return next(a for a in legal if a["type"] == "roll")

    def _second_shot(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        shots = [a for a in legal if a["type"] == "second_shot"]
        return min(shots, key=lambda a: self._hp(view, a["target"])) if shots else legal[-1]

    def _reaction(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        mouse = view["mice"][view["decision"]["mouse"]]
        danger = mouse["wounds"] + view["decision"]["hits"] >= mouse["life"] - 1
        for a in legal:
            if a["type"] == "react_ability":
                return a
            if a["type"] == "react_trick" and danger:
                return a
        return next(a for a in legal if a["type"] == "no_reaction")

    def _search_result(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        mid = view["decision"]["mouse"]
        card = CARDS[view["decision"]["card"]]
        if len(view["mice"][mid]["pack"]) < 3 and self._useful(mid, card["id"]):
            return {"type": "keep"}
        return {"type": "discard_for_cheese"}

    def _pack_overflow(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        mid = view["decision"]["mouse"]
        return min(legal, key=lambda a: self._useful(mid, a["card"]))

    def _trap_stat(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        hero = HEROES[view["decision"]["mouse"]]
        return {"type": "trap_stat", "stat": "lore" if hero["lore"] > hero["move"] else "move"}

    def _equip(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        mid = view["decision"]["mouse"]
        m = view["mice"][mid]
        for a in legal:
            if a["type"] == "equip" and CARDS[a["card"]]["kind"] in ("armour", "trinket") and \
                    CARDS[a["card"]]["effect"] != "move_mod" or a["type"] == "equip" and \
                    CARDS[a["card"]]["amount"] > 0:
                return a
        for a in legal:
            if a["type"] == "swap":
                out, inn = CARDS[a["out_card"]], CARDS[a["in_card"]]
                if out["kind"] == inn["kind"] == "weapon" and out["mode"] == inn["mode"] and \
                        self._weapon_dice(mid, inn) > self._weapon_dice(mid, out):
                    return a
        del m
        return {"type": "equip_done"}

    def _share(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        return {"type": "share_done"}

    def _rescue(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        return legal[0]

    def _map_scrap(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        return {"type": "decline"}

    def _choose_encounter(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        return legal[0]

    # -- the main phase ------------------------------------------------------------------------
    def _main(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        turn = view["turn"]
        me = turn["mouse"]
        m = view["mice"][me]
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        heal = self._heal(view, by_type)
        if heal is not None:
            return heal
        if "level_up" in by_type:
            return min(by_type["level_up"], key=lambda a: LEVEL_PREFERENCE.index(a["ability"]))
        if "equip_begin" in by_type and any(self._useful(me, c) >= 2 for c in m["pack"]):
            return by_type["equip_begin"][0]
        if "recover" in by_type:
            return by_type["recover"][0]
        monsters = view["monsters"]
        if not turn["action_taken"]:
            if "explore" in by_type:
                return by_type["explore"][0]
            burst = [a for a in by_type.get("ability", []) if a["ability"] == "a08"]
            for a in burst:
                if sum(1 for x in monsters.values() if x["area"] == a["area"]) >= 2:
                    return a
            attacks = by_type.get("melee", []) + by_type.get("ranged", [])
            if attacks:
                return max(attacks, key=lambda a: self._attack_value(view, me, a))
            if "mend" in by_type:
                return max(by_type["mend"], key=lambda a: view["mice"][a["target"]]["wounds"])
        step = self._best_step(view, me, by_type, monsters)
        if step is not None:
            return step
        if not turn["action_taken"]:
            if not monsters and "search" in by_type and view["end_page"] - view["hourglass"] >= 3 and \
                    not self._exit_reachable(view, me):
                return by_type["search"][0]
            if "scurry" in by_type and (monsters or not self._at_exit(view, me)):
                return by_type["scurry"][0]
            if "search" in by_type and not monsters:
                return by_type["search"][0]
        if "stand_up" in by_type:
            return by_type["stand_up"][0]
        return by_type["end_turn"][0]

    # -- helpers ----------------------------------------------------------------------------------
    def _hp(self, view: dict[str, Any], mid: str) -> int:
        mo = view["monsters"].get(mid)
        if mo is None:
            return INF
        if view["boss"] and mid in view["boss"]:
            return sum(5 - w for w in view["boss"][mid]["cards"].values())
        return mo["life"] - mo["wounds"]

    def _weapon_dice(self, mid: str, card: dict[str, Any]) -> int:
        hero = HEROES[mid]
        return (hero["lore"] if card["effect"] == "lore_dice" else hero["battle"]) + card["dice"]

    def _useful(self, mid: str, cid: str) -> int:
        card = CARDS[cid]
        if card["kind"] == "item":
            return 3
        if card["req"] and not any(c in HEROES[mid]["classes"] for c in card["req"]):
            return 0
        if card["kind"] in ("armour", "trinket"):
            return 2
        return 1 + card["dice"]

    def _attack_value(self, view: dict[str, Any], me: str, a: dict[str, Any]) -> float:
        card = CARDS[a["weapon"]]
        dice = self._weapon_dice(me, card)
        p = 0.5 if a["type"] == "melee" else 1 / 3
        mo = view["monsters"][a["target"]]
        hp = self._hp(view, a["target"])
        exp = dice * p
        value = exp - 0.3 * hp + (1.0 if exp >= hp else 0.0)
        if MONSTERS[mo["type"]]["mode"] == "ranged":
            value += 0.5
        if MONSTERS[mo["type"]]["boss"]:
            value += 0.3 * hp + 2.0  # chapter 2 is won by the boss alone: ignore its big life pool
        return value

    def _heal(self, view: dict[str, Any], by_type: dict[str, list[dict[str, Any]]]) -> Any:
        def need(target: str | None) -> bool:
            if target is None:
                return False
            t = view["mice"][target]
            return t["wounds"] - t["poison"] >= 2 and t["wounds"] >= t["life"] - 3
        for kind in ("use_item", "use_party", "ability"):
            for a in by_type.get(kind, []):
                card = a.get("card") or a.get("ability")
                if card in ("s18", "s19", "s32", "a06") and need(a.get("target")):
                    return a
                if card == "a14" and need(view["turn"]["mouse"]):
                    return a
                if card in ("s20", "a07") and a.get("target") and (view["mice"][a["target"]]["poison"] or
                                                                   view["mice"][a["target"]]["statuses"]):
                    return a
                if card == "s33" and view["wheel"] >= 4:
                    return a
        return None

    def _exit_areas(self, view: dict[str, Any]) -> set[str]:
        side = view["current_side"]
        return {e["area"] for e in view["board"]["exits"] if e["area"].startswith(side + "-")}

    def _at_exit(self, view: dict[str, Any], me: str) -> bool:
        return view["mice"][me]["area"] in self._exit_areas(view)

    def _exit_reachable(self, view: dict[str, Any], me: str) -> bool:
        g = Graph(view)
        d = g.to_goal(self._exit_areas(view), set(view["traps"]))
        return d.get(view["mice"][me]["area"], INF) <= view["turn"]["mp_left"]

    def _best_step(self, view: dict[str, Any], me: str, by_type: dict[str, list[dict[str, Any]]],
                   monsters: dict[str, Any]) -> Any:
        moves = by_type.get("step", []) + by_type.get("leave_water", [])
        if not moves:
            return None
        g = Graph(view)
        m = view["mice"][me]
        if monsters:
            melee = any(CARDS[c]["kind"] == "weapon" and CARDS[c]["mode"] == "melee" for c in m["equipped"])
            goal: set[str] = set()
            for mo in monsters.values():
                goal.add(mo["area"])
                goal |= g.adj[mo["area"]]
                if not melee:
                    goal |= {a for a in g.areas if g.los(a, mo["area"])}
            if view["turn"]["action_taken"]:
                return None
        else:
            goal = self._exit_areas(view)
        dist = g.to_goal(goal, set(view["traps"]))
        here = dist.get(m["area"], INF)
        best = min(moves, key=lambda a: (dist.get(a["to"], INF), a.get("hook", False)))
        if dist.get(best["to"], INF) < here \
                or (g.areas[m["area"]]["water"] and best["type"] == "leave_water"):
            return best
        return None
