"""GB-5.5 fights and GB-6.1 targeting (Tank, Ranged, Cleave, Snipe), armour and splash (GB-6.3.1)."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from .core import C, CoreMixin, Key

#: (hero design, item design) -> (cleave, snipe); fight abilities are fixed by the designs
_TARGETING: dict[tuple[str, str | None], tuple[bool, bool]] = {}


class FightMixin(CoreMixin):
    def fight_profile(self, seat: int, entry: dict[str, Any]) -> dict[str, Any]:
        """GB-5.5 / GB-6.5.5: dice, fixed damage and fight abilities of a hero and its item."""
        hero = self.card_def(entry["card"])
        prof: dict[str, Any] = {"dice": list(hero.dice), "fixed": hero.fixed, "magic": hero.type == "M",
                                "cleave": False, "snipe": False, "splash": [], "reroll": [], "bonus": [],
                                "ignore_armour": False, "bounty": False}
        cards = [hero]
        if entry["item"]:
            item = self.card_def(entry["item"])
            prof["dice"] += list(item.dice)
            prof["fixed"] += item.fixed
            cards.append(item)
        for card in cards:
            for a in card.abilities:
                fn = self.effect_fn(a.key)
                if fn.when == "fight":
                    fn(prof, *a.args)
        return prof

    def targeting(self, entry: dict[str, Any]) -> tuple[bool, bool]:
        """(cleave, snipe) of a hero and its item: a function of the two designs, cached."""
        key = (self.card_def(entry["card"]).id, self.card_def(entry["item"]).id if entry["item"] else None)
        flags = _TARGETING.get(key)
        if flags is None:
            prof = self.fight_profile(-1, entry)
            flags = _TARGETING[key] = (bool(prof["cleave"]), bool(prof["snipe"]))
        return flags

    def target_sets(self, entry: dict[str, Any], prof: dict[str, Any] | None = None) -> list[list[str]]:
        """GB-6.1.7: the legal target lists of a hero, in the reference order."""
        cleave, snipe = (prof["cleave"], prof["snipe"]) if prof else self.targeting(entry)
        if snipe:
            keys = [k for k in self.group_keys() if self.group(k)]
        elif self.groups[self.defender]:
            keys = [self.defender]
        elif self.loc_group:
            keys = ["loc"]
        else:
            keys = []
        out: list[list[str]] = []
        for key in keys:
            g = self.group(key)
            k = 2 if cleave else 1
            if key == "loc" and self.loc_has("no_cleave"):
                k = 1
            tags = [self.mdef(m).tags for m in g]
            tanks = {i for i, t in enumerate(tags) if "tank" in t}
            nonranged = {i for i, t in enumerate(tags) if "ranged" not in t}
            # single targets (the common case), the same tests as below for a set of one
            for i, m in enumerate(g):
                if snipe or ((i in tanks or not tanks) and ("ranged" not in tags[i] or nonranged <= {i})):
                    out.append([m])
            for size in range(2, k + 1):
                for combo in combinations(range(len(g)), size):
                    if not snipe:
                        s = set(combo)
                        if any(i not in tanks for i in s) and not tanks <= s:
                            continue
                        if any("ranged" in tags[i] for i in s) and not nonranged <= s:
                            continue
                    out.append([g[i] for i in combo])
        return out

    def start_fight(self, seat: int, hero: str, targets: list[str]) -> None:
        """GB-5.5 steps 1-5: exhaust, build the dice pool, roll, then queue reroll/resolve/splash steps."""
        entry = self.entry_of(seat, hero)
        prof = self.fight_profile(seat, entry)
        entry["exhausted"] = True
        entry["fought"] = True
        key = self.where(targets[0])
        pool = list(prof["dice"])
        if prof["magic"] and key == "loc" and self.loc_has("magic_die"):
            pool.append("Y")
        faces = [self.roll(d) for d in pool]
        self.fight = {"seat": seat, "hero": hero, "targets": list(targets), "group": key, "pool": pool,
                      "faces": faces, "fixed": prof["fixed"], "bonus": prof["bonus"], "magic": prof["magic"],
                      "ignore_armour": prof["ignore_armour"], "bounty": prof["bounty"]}
        self.log.public("fight", seat=seat, hero=hero, targets=list(targets), dice=pool, faces=list(faces))
        tasks: list[dict[str, Any]] = [{"op": "reroll_window",
                                        "n": n} for n in prof["reroll"]] if pool else []
        tasks.append({"op": "fight_resolve"})
        tasks += [{"op": "splash_window", "n": n} for n in prof["splash"]]
        tasks.append({"op": "fight_end"})
        self.push(tasks)

    def roll(self, die: str) -> int:
        """GB-3.1: faces[rng.below(6)]."""
        return C.dice[die][self.rng.below(6)]

    def _t_reroll_window(self, t: dict[str, Any]) -> None:
        """GB-5.5 step 5: the fighting seat may reroll up to n dice."""
        self.stack.push("reroll", self.fighting()["seat"], n=t["n"])

    def reroll_dice(self, indices: list[int]) -> None:
        f = self.fighting()
        for i in sorted(indices):
            f["faces"][i] = self.roll(f["pool"][i])
        if indices:
            self.log.public("reroll", seat=f["seat"], dice=sorted(indices), faces=list(f["faces"]))

    def _t_fight_resolve(self, t: dict[str, Any]) -> None:
        """GB-5.5 steps 6-8: base total (Rusted Luck), per-target amount, then defeat checks."""
        f = self.fighting()
        seat = f["seat"]
        base = sum(f["faces"]) + f["fixed"]
        rusted = sorted(c for c in self.players_[seat].hand
                        if self.card_def(c).effect == "fight_total_minus1")
        if rusted and base > 0:
            self.log.public("reveal", seat=seat, cards=rusted, why="rusted_luck")
            base = max(0, base - len(rusted))
        f["base"] = base
        for m in f["targets"]:
            if self.where(m) is None:
                continue
            tags = self.mdef(m).tags
            bonus = sum(n for tag, n in f["bonus"] if tag in tags)
            armour = 0 if f["ignore_armour"] else self.armour(m, f["magic"])
            self.hit(m, max(0, base + bonus - armour), seat)
        killed = [m for m in f["targets"] if self.defeat_check(m, seat)]
        if killed and f["bounty"]:
            self.gain_coin(seat, "copper")

    def splash_targets(self) -> list[str]:
        fought = self.fighting()["group"]
        return [m for k in self.group_keys() if k != fought for m in self.group(k)]

    def _t_splash_window(self, t: dict[str, Any]) -> None:
        """GB-5.5 step 9: one monster outside the fought group, or skip."""
        if self.splash_targets():
            self.stack.push("splash", self.fighting()["seat"], n=t["n"])

    def splash(self, mid: str, n: int) -> None:
        f = self.fighting()
        self.hit(mid, max(0, n - self.armour(mid, f["magic"])), f["seat"])
        self.defeat_check(mid, f["seat"])

    def _t_fight_end(self, t: dict[str, Any]) -> None:
        self.fight = None

    def entry_of(self, seat: int, hero: str) -> dict[str, Any]:
        for e in self.players_[seat].play:
            if e["card"] == hero:
                return e
        raise KeyError(hero)

    def entry_with_item(self, seat: int, item: str) -> dict[str, Any] | None:
        for e in self.players_[seat].play:
            if e["item"] == item:
                return e
        return None

    def exhausted_heroes(self, exclude: str | None = None) -> list[str]:
        return [e["card"] for s in self.seats_from(self.defender) for e in self.players_[s].play
                if e["exhausted"] and e["card"] != exclude]

    def group_key_name(self, key: Key) -> str:
        return "location" if key == "loc" else f"seat {key}"
