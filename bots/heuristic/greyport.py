"""Heuristic bot for The Battle for Greyport (spec section 11), from the view alone.

It sees only ``request.view`` / ``request.legal`` (never the engine's state); card numbers come from
the game's public content files (printed card text is public knowledge). Greedy, no look-ahead:
attach items, take the marker taunt that saves or protects the location, fight the set that kills
the most dangerous monsters, spend shields, recruit the strongest card.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from bots.sdk import Bot, DecisionRequest

CONTENT = Path(__file__).resolve().parents[2] / "referee" / "games" / "greyport" / "content"
MEAN = {"Y": 2.5, "W": 3.5, "G": 6.0}
TIER = {"copper": 0, "silver": 1, "gold": 2}
CHAR_PREF = ("WAR", "ROG", "LGT", "CHR", "PYR")


@lru_cache(maxsize=1)
def _data() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    def load(name: str) -> dict[str, Any]:
        return tomllib.loads((CONTENT / name).read_text())
    cards: dict[str, dict[str, Any]] = {}
    chars = load("characters.toml")
    for r in chars["player_hero"]:
        cards[r["id"]] = {**r, "kind": "player_hero"}
    cd = load("cards.toml")
    for r in cd["starting"]:
        cards[r["id"]] = {**r, "cost": "start"}
    for r in cd["heroes"]:
        cards[r["id"]] = {**r, "kind": "hero"}
    for r in cd["items"]:
        cards[r["id"]] = {**r, "kind": "item"}
    for r in load("curses.toml")["curses"]:
        cards[r["id"]] = {**r, "kind": "curse", "type": "", "dice": [], "fixed": 0, "abilities": []}
    mons: dict[str, dict[str, Any]] = {}
    md = load("monsters.toml")
    for r in md["monsters"] + md["tokens"] + md["bosses"]:
        mons[r["id"]] = r
    return cards, mons


def _design(cid: str) -> str:
    return cid.split("#", 1)[0]


class HeuristicBot(Bot):
    games = ("greyport",)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.cards, self.mons = _data()

    # -- helpers over the view ----------------------------------------------------------------------
    def card(self, view: dict[str, Any], cid: str) -> dict[str, Any]:
        if cid.startswith("PH"):
            p = view["players"][int(cid[2:])]
            return self.cards[p["hero_card"]]
        return self.cards[_design(cid)]

    def power(self, c: dict[str, Any]) -> float:
        abil = " ".join(c.get("abilities", []))
        bonus = 1.5 * ("cleave" in abil) + 1.0 * ("snipe" in abil) + 1.0 * ("taunt" in abil) + \
            1.0 * ("shield" in abil) + 0.8 * ("draw" in abil) + 0.8 * ("splash" in abil) + \
            0.5 * ("reroll" in abil)
        return sum(MEAN[d] for d in c.get("dice", [])) + c.get("fixed", 0) + bonus

    def monster(self, view: dict[str, Any], mid: str) -> dict[str, Any]:
        return self.mons[_design(mid)]

    def mhp(self, view: dict[str, Any], mid: str) -> int:
        m = self.monster(view, mid)
        if isinstance(m["hp"], list):
            for b in view["bosses"]:
                if b["id"] == mid:
                    return int(b["hp"])
            return int(m["hp"][len(view["players"]) - 1])
        return int(m["hp"])

    def groups(self, view: dict[str, Any]) -> dict[Any, list[dict[str, Any]]]:
        out: dict[Any, list[dict[str, Any]]] = {p["seat"]: p["group"] for p in view["players"]}
        out["loc"] = view["location"]["group"] if view["location"] else []
        return out

    def where(self, view: dict[str, Any], mid: str) -> Any:
        for k, g in self.groups(view).items():
            if any(m["id"] == mid for m in g):
                return k
        return None

    def damage_on(self, view: dict[str, Any], mid: str) -> int:
        for g in self.groups(view).values():
            for m in g:
                if m["id"] == mid:
                    return int(m["damage"])
        return 0

    def threat(self, view: dict[str, Any], mid: str) -> float:
        m = self.monster(view, mid)
        abil = " ".join(m.get("abilities", []))
        v = m["damage"] + 1.5 * ("slash" in abil) + 1.5 * ("cursed" in abil) + 2 * ("maim" in abil) + \
            1.0 * ("commander" in abil) + 1.0 * ("summoner" in abil or "spawner" in abil)
        return v + (3 if isinstance(m["hp"], list) else 0)

    def entry(self, view: dict[str, Any], seat: int, hero: str) -> dict[str, Any] | None:
        for e in view["players"][seat]["play"]:
            if e["card"] == hero:
                return e
        return None

    def expected(self, view: dict[str, Any], seat: int, hero: str) -> tuple[float, dict[str, Any]]:
        e = self.entry(view, seat, hero)
        h = self.card(view, hero)
        parts = [h] + ([self.card(view, e["item"])] if e and e["item"] else [])
        total = sum(self.power_raw(c) for c in parts)
        rusted = sum(1 for c in view["players"][seat].get("hand", []) if _design(c) == "K2")
        abil = " ".join(a for c in parts for a in c.get("abilities", []))
        return max(0.0, total - rusted), {"abil": abil, "magic": h["type"] == "M"}

    @staticmethod
    def power_raw(c: dict[str, Any]) -> float:
        return sum(MEAN[d] for d in c.get("dice", [])) + c.get("fixed", 0)

    def armour(self, view: dict[str, Any], mid: str, magic: bool) -> int:
        m = self.monster(view, mid)
        a = m["armour"]
        loc = view["location"]
        if loc and loc["status"] != "destroyed" and loc["ability"] == "armour_plus1" \
                and self.where(view, mid) == "loc":
            a += 1
        if magic and "spellward" in m.get("abilities", []):
            a += 2
        return a

    # -- decisions -----------------------------------------------------------------------------------
    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        legal = request.legal
        if len(legal) == 1:
            return 0
        view = request.view
        me = request.seat
        kind = view["pending"]["kind"]
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return 0
        choice = handler(view, me, legal)
        return choice if isinstance(choice, int) else legal.index(choice)

    def _choose_character(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> int:
        offered = [a["character"] for a in legal]
        for c in CHAR_PREF:
            if c in offered:
                return offered.index(c)
        return 0

    def _choose_wounded(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> int:
        return (view["defending_seat"] - 1) % len(view["players"])

    def _fight_value(self, view: dict[str, Any], me: int, a: dict[str, Any]) -> float:
        exp, info = self.expected(view, me, a["hero"])
        value = 0.0
        active = view["defending_seat"]
        for mid in a["targets"]:
            m = self.monster(view, mid)
            bonus = 0
            abil = info["abil"]
            if "bonus_vs(ranged" in abil and "ranged" in m["tags"]:
                bonus += 2
            if "bonus_vs(tank" in abil and "tank" in m["tags"]:
                bonus += 2
            armour = 0 if "ignore_armour" in abil else self.armour(view, mid, info["magic"])
            amount = exp + bonus - armour
            left = self.mhp(view, mid) - self.damage_on(view, mid)
            where = self.where(view, mid)
            w = 1.5 if where == active else 1.0
            if amount >= left:
                value += w * (4 + 2 * self.threat(view, mid))
            elif amount > 0:
                value += w * 0.6 * self.threat(view, mid) * amount / max(1, left)
        return value

    def _main_action(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        defender = view["defending_seat"] == me
        groups = self.groups(view)
        loc = view["location"]
        # 1. items onto my unfought heroes
        if "play_item" in by_type:
            return max(by_type["play_item"], key=lambda a: self.power(self.card(view, a["card"])))
        # 2. round abilities that ready a hero
        for a in by_type.get("use_ability", []):
            if a["ability"] in ("rewind", "echo"):
                return a
        # 3. marker taunt: save the location (last monster) or protect it when in danger
        if defender and "marker_taunt" in by_type and loc and loc["status"] == "standing":
            opts = [a for a in by_type["marker_taunt"] if self.where(view, a["monster"]) == "loc"]
            lg = groups["loc"]
            danger = sum(self.monster(view, m["id"])["damage"] for m in lg) * 2 >= loc["hp"]
            if opts and (len(lg) == 1 or danger):
                return max(opts, key=lambda a: self.threat(view, a["monster"]))
        # 4. the best killing fight
        fights = [a for a in by_type.get("fight", []) if a["targets"]]
        if fights:
            best = max(fights, key=lambda a: self._fight_value(view, me, a))
            if self._fight_value(view, me, best) > 0:
                return best
        elif by_type.get("fight"):
            return by_type["fight"][0]
        # 5. play a hero when it can matter
        heroes = by_type.get("play_hero", [])
        if heroes and any(groups.values()):
            best = max(heroes, key=lambda a: self.power(self.card(view, a["card"])))
            if defender or best["card"].startswith("PH") or self._worth_playing(view, me, best["card"]):
                return best
        # 6. curses out instead of a useless hero play
        if by_type.get("shake_off"):
            return by_type["shake_off"][0]
        # 7. marker taunt of a ferocious / heavy monster as a last resort when my group is empty
        if defender and "marker_taunt" in by_type and not groups[me] and loc and loc["status"] == "standing":
            opts = [a for a in by_type["marker_taunt"] if self.where(view, a["monster"]) == "loc"]
            if opts:
                return max(opts, key=lambda a: self.threat(view, a["monster"]))
        return by_type["pass"][0]

    def _worth_playing(self, view: dict[str, Any], me: int, cid: str) -> bool:
        c = self.card(view, cid)
        hand = view["players"][me].get("hand", [])
        item = max((self.power_raw(self.cards[_design(h)]) for h in hand
                    if self.cards[_design(h)]["kind"] == "item"
                    and self.cards[_design(h)]["type"] == c["type"]),
                   default=0.0)
        exp = self.power_raw(c) + item
        active = view["defending_seat"]
        target = self.groups(view)[active] or self.groups(view)["loc"]
        if "taunt" in " ".join(c.get("abilities", [])) and self.groups(view)["loc"]:
            return True
        return any(exp >= self.mhp(view, m["id"]) - m["damage"] for m in target)

    def _forced_taunt(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        return min(legal, key=lambda a: self.threat(view, a["monster"]))

    def _taunt(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        loc = view["location"]
        lg = self.groups(view)["loc"]
        opts = [a for a in legal if a["type"] == "taunt" and self.where(view, a["monster"]) == "loc"]
        if opts and loc and loc["status"] == "standing":
            danger = sum(self.monster(view, m["id"])["damage"] for m in lg) * 2 >= loc["hp"]
            if len(lg) <= 2 or danger:
                return max(opts, key=lambda a: self.threat(view, a["monster"]))
        return legal[-1]

    def _choose_player(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        effect = view["pending"].get("effect")
        players = view["players"]
        seats = [a["seat"] for a in legal]
        if effect == "heal":
            return seats.index(min(seats, key=lambda s: players[s]["hp"] - players[s]["max_hp"]))
        if effect == "rally":
            return seats.index(max(seats, key=lambda s: players[s]["hand_size"]))
        d = view["defending_seat"]
        return seats.index(d) if d in seats else 0

    def _retire(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        for a in legal:
            if a["type"] == "retire" and self.cards[_design(a["card"])]["kind"] == "curse":
                return a
        skip = [a for a in legal if a["type"] == "retire_skip"]
        if skip:
            return skip[0]
        return min(legal, key=lambda a: self.power(self.cards[_design(a["card"])]))

    _retire_curse = _retire

    def _reroll(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        f = view["fight"]
        low = [i for i, (d, v) in enumerate(zip(f["dice"], f["faces"], strict=True)) if v < MEAN[d]]
        low.sort(key=lambda i: f["faces"][i] - MEAN[f["dice"][i]])
        n = max(len(a["dice"]) for a in legal)
        want = sorted(low[:n])
        for a in legal:
            if a["dice"] == want:
                return a
        return 0

    def _splash(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        n = view["pending"].get("n", 1)
        best, score = legal[-1], 0.0
        for a in legal:
            if a["type"] != "splash":
                continue
            amount = n - self.monster(view, a["monster"])["armour"]
            if amount <= 0:
                continue
            left = self.mhp(view, a["monster"]) - self.damage_on(view, a["monster"])
            s = (10 if amount >= left else 1) + self.threat(view, a["monster"])
            if s > score:
                best, score = a, s
        return best

    def _ready(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        return max(legal, key=lambda a: self.power(self.card(view, a["hero"])))

    def _shield(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        return max(legal, key=lambda a: a["count"])   # shields expire at Cleanup anyway

    def _discard_choice(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        return min(legal, key=lambda a: self._keep_value(a["card"]))

    def _keep_value(self, cid: str) -> float:
        c = self.cards[_design(cid)]
        return -10.0 if c["kind"] == "curse" else self.power(c)

    def _take_monster(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        return min(legal, key=lambda a: self.threat(view, a["monster"]))

    def _reward_take(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        takes = [a for a in legal if a["type"] == "reward_take"]
        return max(takes, key=lambda a: self.power(self.cards[_design(a["card"])])) if takes else legal[-1]

    def _reward_strike(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        def score(a: dict[str, Any]) -> float:
            left = self.mhp(view, a["monster"]) - self.damage_on(view, a["monster"])
            amount = 6 - self.monster(view, a["monster"])["armour"]
            return (10 if amount >= left else 0) + self.threat(view, a["monster"])
        return max(legal, key=score)

    def _recruit(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        my_type = self.card(view, f"PH{me}")["type"]

        def score(a: dict[str, Any]) -> float:
            c = self.cards[_design(a["card"])]
            same_type = 1.5 if c["type"] == my_type else 0
            return self.power(c) + 2 * TIER[c["cost"]] + same_type - 0.1 * TIER[a["coin"]]
        return max(legal, key=score)

    def _discard(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> Any:
        for a in legal:
            if a["type"] == "discard" and self.cards[_design(a["card"])]["kind"] == "curse":
                return a
        done = [a for a in legal if a["type"] == "discard_done"]
        if done:
            return done[0]
        return min((a for a in legal if a["type"] == "discard"), key=lambda a: self._keep_value(a["card"]))

    def _ambush(self, view: dict[str, Any], me: int, legal: list[dict[str, Any]]) -> int:
        return 0
