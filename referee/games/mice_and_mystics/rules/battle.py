"""MM-5.22, MM-5.33-5.38, MM-6.10: mice attacking monsters, Ember Burst, defeat and the boss's cards."""
from __future__ import annotations

from typing import Any

from ..actions import AttackAbility, AttackTrick, Melee, Ranged, Roll, SecondShot, Skip
from ..catalog import content
from ..model import MMModel
from . import board, cheese, flow
from .board import BLOCK, CHEESE, MELEE_HIT, RANGED_HIT
from .dispatch import RULES
from .hooks import ability_cost, call, monster_mod, mouse_mod, weapon_mod

C = content()


def weapons(st: MMModel, mouse: str, mode: str) -> list[str]:
    return [c for c in st.mice[mouse].equipped if C.cards[c].kind == "weapon" and C.cards[c].mode == mode]


def melee_targets(st: MMModel, mouse: str, weapon: str) -> list[str]:
    """MM-5.35 a same or adjacent area (never across red); Nail Spear also 2 crossings via non-red edges."""
    area = st.mice[mouse].area
    assert area is not None
    g = board.GRAPHS[board.AREAS[area].side]
    near = {area, *g.adj[area]}
    if weapon_mod(st, weapon, "reach", {}) >= 2:
        first_ring = tuple(near)
        for a in first_ring:
            near.update(g.adj[a])
    return [k for k, m in st.monsters.items() if m.area in near]


def ranged_targets(st: MMModel, mouse: str) -> list[str]:
    """MM-5.35 b near monsters first (Sharpshot ignores it), else any monster in LOS."""
    area = st.mice[mouse].area
    assert area is not None
    near = [k for k, m in st.monsters.items() if board.adjacent_or_same(area, m.area)]
    if near and not mouse_mod(st, mouse, "ignore_near", {}):
        return near
    return [k for k, m in st.monsters.items() if board.has_los(st, area, m.area)]


def battle_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for w in weapons(st, mouse, "melee"):
        out += [Melee.wire(t, w) for t in melee_targets(st, mouse, w)]
    ranged = weapons(st, mouse, "ranged")
    if ranged:
        targets = ranged_targets(st, mouse)
        out += [Ranged.wire(t, w) for w in ranged for t in targets]
    return out


def declare(st: MMModel, mouse: str, mode: str, target: str, weapon: str) -> None:
    """MM-5.22 opens the battle-declare sub-phase (MM-5.34)."""
    st.stack.push("battle_declare", st.mice[mouse].seat, mouse=mouse, mode=mode, target=target, weapon=weapon,
                  ability=None, trick=None)


def declare_options(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    """MM-5.34 one attack ability, Feint once, then roll."""
    mouse = data["mouse"]
    m = st.mice[mouse]
    out: list[dict[str, Any]] = []
    if data["ability"] is None and mouse not in st.ability_used:
        for a in m.abilities:
            row = C.abilities[a]
            if row.timing == "attack" and row.mode == data["mode"] and ability_cost(st, mouse, a) <= m.cheese:
                out.append(AttackAbility.wire(a))
    if data["trick"] is None:
        for c in sorted(set(m.tricks)):
            if C.cards[c].effect == "feint":
                out.append(AttackTrick.wire(c))
    out.append(Roll.wire())
    return out


def _declared(st: MMModel) -> dict[str, Any]:
    """The open battle-declare sub-decision's data."""
    frame = st.stack.top()
    assert frame is not None
    return frame.data


@RULES.on(AttackAbility)
def attack_ability(st: MMModel, seat: int, a: AttackAbility) -> None:
    data = _declared(st)
    mouse = data["mouse"]
    st.mice[mouse].cheese -= ability_cost(st, mouse, a.ability)
    st.ability_used.append(mouse)
    data["ability"] = a.ability
    st.log.public("ability", mouse=mouse, ability=a.ability)


@RULES.on(AttackTrick)
def attack_trick(st: MMModel, seat: int, a: AttackTrick) -> None:
    data = _declared(st)
    mouse = data["mouse"]
    st.mice[mouse].tricks.remove(a.card)
    st.search_discard.append(a.card)
    data["trick"] = a.card
    st.log.public("trick", mouse=mouse, card=a.card)


@RULES.on(Roll)
def roll_attack(st: MMModel, seat: int, a: Roll) -> None:
    data = st.stack.pop().data
    resolve_attack(st, data["mouse"], data["mode"], data["target"], data["weapon"], data["ability"],
                   data["trick"])


def attack_dice(st: MMModel, mouse: str, target: str, weapon: str, ability: str | None) -> int:
    """MM-5.33 base (battle or lore) + weapon bonus + Copper Ring + Power Strike + Backstab."""
    hero = C.heroes[mouse]
    ctx = {"mouse": mouse, "target": target}
    base = hero.lore if weapon_mod(st, weapon, "dice_base_lore", ctx) else hero.battle
    n = base + C.cards[weapon].dice + weapon_mod(st, weapon, "attack_dice", ctx) + mouse_mod(st, mouse,
                                                                                               "attack_dice",
                                                                                             ctx)
    if ability is not None:
        n += call(C.abilities[ability].effect, st, "attack_dice", C.abilities[ability], ctx)
    return max(0, n)


def resolve_attack(st: MMModel, mouse: str, mode: str, target: str, weapon: str, ability: str | None,
                   trick: str | None) -> None:
    """MM-5.36 roll, hits, cheese; defence only after >= 1 hit; wounds; defeat; after-effects."""
    n = attack_dice(st, mouse, target, weapon, ability)
    faces = cheese.roll(st, n, "attack", mouse)
    hitset = MELEE_HIT if mode == "melee" else RANGED_HIT
    hits = sum(1 for f in faces if f in hitset)
    cheese.gain_cheese(st, mouse, sum(1 for f in faces if f in CHEESE), "attack_roll")
    penalty = call("feint", st, "defence_penalty", C.cards[trick], {}) if trick else 0
    wounds = 0
    if hits:
        wounds = defend_and_wound(st, mouse, target, hits, C.cards[weapon].type, penalty)
        if st.result is not None:
            return
    st.log.public("attack", mouse=mouse, target=target, weapon=weapon, hits=hits, wounds=wounds)
    ctx = {"mouse": mouse, "target": target, "wounds": wounds}
    weapon_mod(st, weapon, "after_attack", ctx)
    if ability is not None:
        row = C.abilities[ability]
        call(row.effect, st, "after_attack", row, ctx)
        if call(row.effect, st, "second_shot", row, ctx) and ranged_targets(st, mouse):
            st.stack.push("second_shot", st.mice[mouse].seat, mouse=mouse, weapon=weapon)


def second_shot_options(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [SecondShot.wire(t) for t in ranged_targets(st, data["mouse"])] + [Skip.wire()]


@RULES.on(SecondShot)
def second_shot(st: MMModel, seat: int, a: SecondShot) -> None:
    data = st.stack.pop().data
    resolve_attack(st, data["mouse"], "ranged", a.target, data["weapon"], None, None)


@RULES.on(Skip)
def skip(st: MMModel, seat: int, a: Skip) -> None:
    st.stack.pop()


def defend_and_wound(st: MMModel, mouse: str | None, target: str, hits: int, atype: str, penalty: int) -> int:
    """MM-5.36 steps 3-5: defence roll (monster F1 -> wheel at once), wounds, defeat. Returns wounds."""
    mo = st.monsters[target]
    base = receiving_defence(st) if C.monsters[mo.type].boss else C.monsters[mo.type].defence
    n = max(0, base + monster_mod(st, target, "defence_dice", {"attack_type": atype}) - penalty)
    faces = cheese.roll(st, n, "monster_defence", target)
    blocks = sum(1 for f in faces if f in BLOCK)
    cheese.wheel_faces(st, faces, "monster_defence")
    if st.result is not None:
        return 0  # MM-6.18 a the game ended before the wounds
    wounds = max(0, hits - blocks)
    if wounds:
        st.credit(mouse, "wounds_dealt", wounds)
        wound_monster(st, mouse, target, wounds)
    return wounds


def receiving_order(st: MMModel) -> list[str]:
    """MM-6.10 b the boss's unfilled drawn cards in track order, then surprise-row order."""
    boss = st.boss
    assert boss is not None
    cards = [c for c in boss["order"] if boss["cards"][c] < C.boss_cards[c].life]

    def pos(c: str) -> int:
        k = f"init:{c}"
        if k in st.track:
            return st.track.index(k)
        if k in st.surprise:
            return 1000 + st.surprise.index(k)
        return 2000
    return sorted(cards, key=pos)


def receiving_defence(st: MMModel) -> int:
    order = receiving_order(st)
    return C.boss_cards[order[0]].defence if order else 0


def wound_monster(st: MMModel, mouse: str | None, target: str, wounds: int) -> None:
    """MM-5.36 step 4-5 / MM-6.10 c wounds; the boss's go onto its receiving card, excess to the next."""
    mo = st.monsters[target]
    if C.monsters[mo.type].boss:
        boss = st.boss
        assert boss is not None
        left = wounds
        for c in receiving_order(st):
            if left <= 0:
                break
            room = C.boss_cards[c].life - boss["cards"][c]
            k = min(room, left)
            boss["cards"][c] += k
            left -= k
            st.log.public("boss_wounded", card=c, wounds=boss["cards"][c])
            if boss["cards"][c] >= C.boss_cards[c].life:
                flow.remove_card(st, f"init:{c}")
        if not receiving_order(st):
            defeat(st, mouse, target)
        return
    mo.wounds += wounds
    st.log.public("monster_wounded", monster=target, wounds=mo.wounds)
    if mo.wounds >= C.monsters[mo.type].life:
        defeat(st, mouse, target)


def defeat(st: MMModel, mouse: str | None, target: str) -> None:
    """MM-5.37 the figure returns to the supply; the last of its type takes its card off the track."""
    mo = st.monsters.pop(target)
    st.supply[mo.type] += 1
    st.defeated_total += 1
    st.credit(mouse, "monsters_defeated")
    st.log.public("monster_defeated", monster=target, monster_type=mo.type, by=mouse)
    if C.monsters[mo.type].boss:
        cheese.finish(st, True, "boss_defeated")  # MM-8.1 chapter 2
        return
    if not any(m.type == mo.type for m in st.monsters.values()):
        flow.remove_card(st, f"init:{mo.type}")


def ember_burst(st: MMModel, mouse: str, area: str, hits: int) -> None:
    """MM-5.38 each monster in the area, in number order: 2 magic hits, then defence, wounds, defeat."""
    for mid in sorted(board.monsters_in(st, area), key=lambda k: int(k[1:])):
        if st.result is not None:
            return
        if mid in st.monsters:
            defend_and_wound(st, mouse, mid, hits, "magic", 0)
