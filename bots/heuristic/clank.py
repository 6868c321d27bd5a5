"""Heuristic bot for Clank! (spec section 11), from the view alone.

It sees only ``request.view`` / ``request.legal`` (never the engine's state). The map comes from the
view's ``static`` part; card effects come from the game's public content file (printed card text is
public knowledge). Plan: play the whole hand first (draws, then clank removal, Trip last), then walk
a Dijkstra path to the best artifact whose round trip looks affordable, take it, and head home;
spend Skill on Boots/Skill cards early and VP late, Swords on monsters with gold rewards or the
Goblin, gold on crowns when standing in a market.
"""
from __future__ import annotations

import heapq
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from bots.sdk import Bot, DecisionRequest

CONTENT = Path(__file__).resolve().parents[2] / "referee" / "games" / "clank" / "content"
#: value of one unit of each resource when judging a card to buy
WEIGHT = {"boots": 1.6, "skill": 1.0, "swords": 0.8, "draw": 1.3, "teleport": 1.5, "gold": 0.35, "heal": 0.4,
          "clank": -0.45, "others_clank": 0.1, "all_clank": -0.2}


@lru_cache(maxsize=1)
def _cards() -> dict[str, dict[str, Any]]:
    data = tomllib.loads((CONTENT / "cards.toml").read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for section in ("starting", "reserve", "dungeon"):
        for row in data[section]:
            out[row["type"]] = row
    return out


def _fx_value(atoms: list[dict[str, Any]]) -> float:
    v = 0.0
    for a in atoms:
        op = a["op"]
        if op == "choose":
            v += max(_fx_value(o) for o in a["options"])
        elif op == "if":
            v += 0.5 * _fx_value(a["then"])
        elif op == "flag" or op in ("discard_draw",):
            v += 0.5
        elif op in ("trash_opt", "adj_secret"):
            v += 0.6
        elif op in WEIGHT:
            v += WEIGHT[op] * a.get("n", 1)
    return v


def card_value(ctype: str, late: bool) -> float:
    """How much a card adds to a deck (per play), plus VP late in the game."""
    row = _cards()[ctype]
    v = _fx_value(row.get("play", [])) + 0.3 * _fx_value(row.get("acquire", []))
    if late:
        v += 0.6 * row.get("vp", 0)
    return v


class HeuristicBot(Bot):
    """Greedy section-11 player: play everything, go for an artifact, come back alive."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._graph_key: int | None = None
        self._edges: dict[str, list[dict[str, Any]]] = {}

    # -- map --------------------------------------------------------------------------------------
    def _load_map(self, view: dict[str, Any]) -> None:
        tunnels = view["static"]["tunnels"]
        if self._graph_key == id(tunnels):
            return
        edges: dict[str, list[dict[str, Any]]] = {}
        for t in tunnels:
            edges.setdefault(t["a"], []).append({**t, "to": t["b"]})
            if not t.get("one_way"):
                edges.setdefault(t["b"], []).append({**t, "to": t["a"]})
        self._edges = edges
        self._graph_key = id(tunnels)

    def _dijkstra(self, start: str, has_key: bool, swords: int) -> tuple[dict[str, float], dict[str, str]]:
        dist = {start: 0.0}
        prev: dict[str, str] = {}
        heap = [(0.0, start)]
        while heap:
            d, room = heapq.heappop(heap)
            if d > dist.get(room, 1e9):
                continue
            for e in self._edges.get(room, []):
                if e.get("locked") and not has_key:
                    continue
                cost = e["boots"] + 1.2 * e.get("monsters", 0)
                nd = d + cost
                if nd < dist.get(e["to"], 1e9):
                    dist[e["to"]] = nd
                    prev[e["to"]] = room
                    heapq.heappush(heap, (nd, e["to"]))
        return dist, prev

    def _path(self, start: str, goal: str, has_key: bool) -> list[str]:
        dist, prev = self._dijkstra(start, has_key, 0)
        if goal not in dist:
            return []
        path = [goal]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return path[::-1]

    def _goal(self, view: dict[str, Any], me: dict[str, Any]) -> str | None:
        has_key = any(i.startswith("key") for i in me["market_items"])
        if me["artifacts"]:
            return "R0"
        dist_here, _ = self._dijkstra(me["room"], has_key, 0)
        home, _ = self._dijkstra("R0", has_key, 0)
        best, best_u = None, -1e9
        hurry = view["countdown"]["owner"] is not None or view["rage"]["index"] >= 4
        k = 5.0 if hurry else 3.2
        for room, info in view["rooms"].items():
            art = info.get("artifact")
            if not art or room not in dist_here:
                continue
            value = view["static"]["artifacts"][art]["value"]
            u = value - k * (dist_here[room] + home.get(room, 50))
            if u > best_u:
                best, best_u = room, u
        return best

    # -- decisions --------------------------------------------------------------------------------
    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        view, legal = request.view, request.legal
        if len(legal) == 1:
            return 0
        self._load_map(view)
        kinds = {a["type"] for a in legal}
        if view["phase"] == "pending":
            return self._decide(view, legal, kinds)
        return self._main(view, legal, kinds)

    def _decide(self, view: dict[str, Any], legal: list[dict[str, Any]], kinds: set[str]) -> int:
        me = view["players"][view["seat"]]
        if "take_token" in kinds:
            return 0  # spec 11: always take_token
        if "choose" in kinds:
            opts = view["private"]["decision"].get("options") or [[], []]
            vals = [_fx_value(o) for o in opts]
            # Swords matter more when a monster tunnel or a gold monster is near; keep it simple
            return 0 if vals[0] >= vals[1] else 1
        if "discard" in kinds:
            for i, a in enumerate(legal):
                if a["type"] == "discard" and self._type_of(view, a["card"]) == "S02":
                    return i
            return len(legal) - 1
        if "trash" in kinds:
            for want in ("S02", "S01"):
                for i, a in enumerate(legal):
                    if a["type"] == "trash" and self._type_of(view, a["card"]) == want:
                        return i
            return len(legal) - 1
        if "secret_from" in kinds:
            if me["damage"] >= 7 and view["private"]["decision"].get("clank", 0) > 0:
                return len(legal) - 1
            return 0
        return 0

    @staticmethod
    def _type_of(view: dict[str, Any], card: str) -> str:
        me = view["players"][view["seat"]]
        for zone in (view["private"]["hand"], me["play"], me["discard"]):
            for c in zone:
                if c["id"] == card:
                    return c["type"]
        return ""

    def _main(self, view: dict[str, Any], legal: list[dict[str, Any]], kinds: set[str]) -> int:
        me = view["players"][view["seat"]]
        turn = view["turn"]
        by_type: dict[str, list[int]] = {}
        for i, a in enumerate(legal):
            by_type.setdefault(a["type"], []).append(i)
        # 1. play the hand: draws first, clank removal next, Trip last
        if "play_card" in by_type:
            hand_types = {c["id"]: c["type"] for c in view["private"]["hand"]}

            def play_key(i: int) -> float:
                row = _cards().get(hand_types.get(legal[i]["card"], ""), {})
                ops = [a["op"] for a in row.get("play", [])]
                if "draw" in ops:
                    return 0
                if any(a["op"] == "clank" and a["n"] < 0 for a in row.get("play", [])):
                    return 1
                if "discard_draw" in ops:
                    return 2
                if any(a["op"] == "clank" and a["n"] > 0 for a in row.get("play", [])):
                    return 9
                return 5
            return min(by_type["play_card"], key=play_key)
        if me["status"] == "in_dungeon":
            choice = self._movement(view, me, turn, legal, by_type)
            if choice is not None:
                return choice
        # potions: heal when hurt, clank removal when our cubes wait in the clank area
        for i in by_type.get("use_token", []):
            ttype = next((t["type"] for t in me["tokens"] if t["id"] == legal[i]["token"]), "")
            if ttype in ("MS3", "JS3") and me["damage"] >= 5:
                return i
            if ttype == "MS5" and me["clank_area"] > 0:
                return i
        # market: a crown with spare gold
        for i in by_type.get("buy_market", []):
            if legal[i]["item"] == "crown" or (legal[i]["item"] == "backpack" and not me["artifacts"]):
                return i
        # buy cards
        buy = self._best_buy(view, legal, by_type, me)
        if buy is not None:
            return buy
        # swords: monsters with rewards, then the Goblin
        best, best_v = None, 0.0
        for i in by_type.get("defeat", []):
            row = view["row"][legal[i]["slot"]]
            v = _fx_value(_cards()[row["type"]].get("defeat", [])) + 0.5
            if v > best_v:
                best, best_v = i, v
        if best is not None:
            return best
        if "defeat_goblin" in by_type:
            return by_type["defeat_goblin"][0]
        return by_type["end_turn"][0] if "end_turn" in by_type else 0

    def _movement(self, view: dict[str, Any], me: dict[str, Any], turn: dict[str, Any],
                  legal: list[dict[str, Any]], by_type: dict[str, list[int]]) -> int | None:
        if "take_artifact" in by_type and (not me["artifacts"] or len(me["artifacts"]) < 2):
            return by_type["take_artifact"][0]
        goal = self._goal(view, me)
        if goal is None or goal == me["room"]:
            return None
        has_key = any(i.startswith("key") for i in me["market_items"])
        path = self._path(me["room"], goal, has_key)
        if len(path) < 2:
            return None
        nxt = path[1]
        moves = [i for i in by_type.get("move", []) if legal[i]["to"] == nxt]
        if moves:
            # spend as many Swords as offered (least damage), unless damage is very low and Swords scarce
            i = max(moves, key=lambda j: legal[j]["swords"])
            edge = next(e for e in self._edges[me["room"]] if e["to"] == nxt)
            dmg = edge.get("monsters", 0) - legal[i]["swords"]
            if me["damage"] + dmg <= 6 or me["artifacts"]:
                return i
        tele = [i for i in by_type.get("teleport", []) if legal[i]["to"] == nxt]
        if tele:
            return tele[0]
        # boots potions to keep walking
        for i in by_type.get("use_token", []):
            ttype = next((t["type"] for t in me["tokens"] if t["id"] == legal[i]["token"]), "")
            if ttype in ("MS7", "JS6", "MS6"):
                return i
        return None

    def _best_buy(self, view: dict[str, Any], legal: list[dict[str, Any]], by_type: dict[str, list[int]],
                  me: dict[str, Any]) -> int | None:
        late = view["round"] >= 12 or bool(me["artifacts"]) or view["countdown"]["owner"] is not None
        best, best_v = None, 0.9
        for i in by_type.get("acquire", []):
            row = view["row"][legal[i]["slot"]]
            if row["kind"] == "gem" and not late:
                continue
            v = card_value(row["type"], late) / max(1, row["cost"]) * 3
            if v > best_v:
                best, best_v = i, v
        reserve_type = {"hireling": "X01", "pathfinder": "X02", "codex": "X03"}
        for i in by_type.get("acquire_reserve", []):
            pile = legal[i]["pile"]
            if pile == "codex" and not late:
                continue
            ct = reserve_type[pile]
            v = card_value(ct, late) / _cards()[ct]["cost"] * 3
            if v > best_v:
                best, best_v = i, v
        for i in by_type.get("use_device", []):
            row = view["row"][legal[i]["slot"]]
            use = _cards()[row["type"]].get("use", [])
            ops = {a["op"] for a in use}
            if ("boots" in ops or "teleport" in ops) and me["status"] != "escaped":
                v = _fx_value(use) / row["cost"] * 3
                if v > best_v:
                    best, best_v = i, v
        return best
