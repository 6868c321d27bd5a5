"""GB-5.5 fights and GB-6.1 targeting (Tank, Ranged, Cleave, Snipe), armour and splash (GB-6.3.1)."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..actions import Reroll, Splash
from ..effects import effect_fn
from ..model import GreyportModel
from .core import C, armour, card_def, fighting, gain_coin, group, group_keys, group_of, loc_has, mdef, push
from .damage import defeat_check, hit
from .dispatch import RULES
from .tasks import task

#: (hero design, item design) -> (cleave, snipe); fight abilities are fixed by the designs
_TARGETING: dict[tuple[str, str | None], tuple[bool, bool]] = {}


def roll(st: GreyportModel, die: str) -> int:
    """GB-3.1: one face of the die, each equally likely (``faces[rng.below(6)]``)."""
    return st.rng.choice(C.dice[die])


def fight_profile(st: GreyportModel, seat: int, entry: dict[str, Any]) -> dict[str, Any]:
    """GB-5.5 / GB-6.5.5: dice, fixed damage and fight abilities of a hero and its item."""
    hero = card_def(st, entry["card"])
    prof: dict[str, Any] = {"dice": list(hero.dice), "fixed": hero.fixed, "magic": hero.type == "M",
                            "cleave": False, "snipe": False, "splash": [], "reroll": [], "bonus": [],
                            "ignore_armour": False, "bounty": False}
    cards = [hero]
    if entry["item"]:
        item = card_def(st, entry["item"])
        prof["dice"] += list(item.dice)
        prof["fixed"] += item.fixed
        cards.append(item)
    for card in cards:
        for a in card.abilities:
            fn = effect_fn(a.key)
            if fn.when == "fight":
                fn(prof, *a.args)
    return prof


def targeting(st: GreyportModel, entry: dict[str, Any]) -> tuple[bool, bool]:
    """(cleave, snipe) of a hero and its item: a function of the two designs, cached."""
    key = (card_def(st, entry["card"]).id, card_def(st, entry["item"]).id if entry["item"] else None)
    flags = _TARGETING.get(key)
    if flags is None:
        prof = fight_profile(st, -1, entry)
        flags = _TARGETING[key] = (bool(prof["cleave"]), bool(prof["snipe"]))
    return flags


def target_sets(st: GreyportModel, entry: dict[str, Any],
                prof: dict[str, Any] | None = None) -> list[list[str]]:
    """GB-6.1.7: the legal target lists of a hero, in the reference order."""
    cleave, snipe = (prof["cleave"], prof["snipe"]) if prof else targeting(st, entry)
    if snipe:
        keys = [k for k in group_keys(st) if group(st, k)]
    elif st.groups[st.defender]:
        keys = [st.defender]
    elif st.loc_group:
        keys = ["loc"]
    else:
        keys = []
    out: list[list[str]] = []
    for key in keys:
        g = group(st, key)
        k = 2 if cleave else 1
        if key == "loc" and loc_has(st, "no_cleave"):
            k = 1
        tags = [mdef(m).tags for m in g]
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


def start_fight(st: GreyportModel, seat: int, hero: str, targets: list[str]) -> None:
    """GB-5.5 steps 1-5: exhaust, build the dice pool, roll, then queue reroll/resolve/splash steps."""
    entry = entry_of(st, seat, hero)
    prof = fight_profile(st, seat, entry)
    entry["exhausted"] = True
    entry["fought"] = True
    key = group_of(st, targets[0])
    pool = list(prof["dice"])
    if prof["magic"] and key == "loc" and loc_has(st, "magic_die"):
        pool.append("Y")
    faces = [roll(st, d) for d in pool]
    st.fight = {"seat": seat, "hero": hero, "targets": list(targets), "group": key, "pool": pool,
                "faces": faces, "fixed": prof["fixed"], "bonus": prof["bonus"], "magic": prof["magic"],
                "ignore_armour": prof["ignore_armour"], "bounty": prof["bounty"]}
    st.log.public("fight", seat=seat, hero=hero, targets=list(targets), dice=pool, faces=list(faces))
    tasks: list[dict[str, Any]] = [{"op": "reroll_window",
                                    "n": n} for n in prof["reroll"]] if pool else []
    tasks.append({"op": "fight_resolve"})
    tasks += [{"op": "splash_window", "n": n} for n in prof["splash"]]
    tasks.append({"op": "fight_end"})
    push(st, tasks)


@task("reroll_window")
def task_reroll_window(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.5 step 5: the fighting seat may reroll up to n dice."""
    st.stack.push("reroll", fighting(st)["seat"], n=t["n"])


@RULES.on(Reroll)
def reroll(st: GreyportModel, seat: int, a: Reroll) -> None:
    """GB-5.5 step 5: reroll the chosen dice ([] keeps all)."""
    st.stack.pop()
    indices = list(a.dice)
    f = fighting(st)
    for i in sorted(indices):
        f["faces"][i] = roll(st, f["pool"][i])
    if indices:
        st.log.public("reroll", seat=f["seat"], dice=sorted(indices), faces=list(f["faces"]))


@task("fight_resolve")
def task_fight_resolve(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.5 steps 6-8: base total (Rusted Luck), per-target amount, then defeat checks."""
    f = fighting(st)
    seat = f["seat"]
    base = sum(f["faces"]) + f["fixed"]
    rusted = sorted(c for c in st.players_[seat].hand
                    if card_def(st, c).effect == "fight_total_minus1")
    if rusted and base > 0:
        st.log.public("reveal", seat=seat, cards=rusted, why="rusted_luck")
        base = max(0, base - len(rusted))
    f["base"] = base
    for m in f["targets"]:
        if group_of(st, m) is None:
            continue
        tags = mdef(m).tags
        bonus = sum(n for tag, n in f["bonus"] if tag in tags)
        arm = 0 if f["ignore_armour"] else armour(st, m, f["magic"])
        hit(st, m, max(0, base + bonus - arm), seat)
    killed = [m for m in f["targets"] if defeat_check(st, m, seat)]
    if killed and f["bounty"]:
        gain_coin(st, seat, "copper")


def splash_targets(st: GreyportModel) -> list[str]:
    fought = fighting(st)["group"]
    return [m for k in group_keys(st) if k != fought for m in group(st, k)]


@task("splash_window")
def task_splash_window(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.5 step 9: one monster outside the fought group, or skip."""
    if splash_targets(st):
        st.stack.push("splash", fighting(st)["seat"], n=t["n"])


@RULES.on(Splash)
def splash(st: GreyportModel, seat: int, a: Splash) -> None:
    """GB-5.5 step 9: splash damage (less armour) onto a monster outside the fought group."""
    n = st.stack.pop().data["n"]
    mid = a.monster
    f = fighting(st)
    hit(st, mid, max(0, n - armour(st, mid, f["magic"])), f["seat"])
    defeat_check(st, mid, f["seat"])


@task("fight_end")
def task_fight_end(st: GreyportModel, t: dict[str, Any]) -> None:
    st.fight = None


def entry_of(st: GreyportModel, seat: int, hero: str) -> dict[str, Any]:
    for e in st.players_[seat].play:
        if e["card"] == hero:
            return e
    raise KeyError(hero)
