"""BC-5.16 Touch and dodge, BC-5.17 finisher, BC-6.2 damage, BC-6.3 downed and rescue, BC-6.4 death."""
from __future__ import annotations

from typing import Any

from ..effects import ENCHANT_EFFECTS, skill_of
from ..model import BlockcraftModel, Player
from .endgame import check_end
from .equipment import wear
from .geometry import char_dist, pay


def damage(st: BlockcraftModel, p: Player, amount: int, *, source: int | None, armoured: bool,
           why: str) -> int:
    """BC-6.2: armoured damage is reduced by armour and h_knight (min 0); worn armour loses 1."""
    if armoured:
        red = skill_of(st, p).armour_bonus
        if p.armour is not None:
            red += st.cat.cards[p.armour["card"]].reduction
            wear(st, p, "armour", 0)
        amount = max(0, amount - red)
    p.stamina -= amount
    if amount > 0 and not p.downed:
        p.downed_by = source
    st.log.public("damage", seat=p.seat, amount=amount, why=why, source=source, stamina=p.stamina)
    return amount


def downed_checks(st: BlockcraftModel) -> None:
    """BC-6.3.1 / BC-6.10: newly downed characters get rescue windows in turn order from the current
    player."""
    order = [(st.current + i) % st.players for i in range(st.players)]
    newly = [s for s in order if st.p[s].alive and not st.p[s].downed and st.p[s].stamina <= 0]
    for s in newly:
        p = st.p[s]
        p.downed = True
        p.hunger = min(p.hunger, 3)
        st.log.public("downed", seat=s, hunger=p.hunger)
    for s in reversed(newly):
        st.stack.push("rescue", s, victim=s, asked=[], started=False)


def next_rescuer(st: BlockcraftModel, victim: int, asked: list[int]) -> int | None:
    """BC-6.3.2: the next active rescuer in turn order from the current player (or the next seat)."""
    start = st.current if st.current != victim else (st.current + 1) % st.players
    for i in range(st.players):
        s = (start + i) % st.players
        if s != victim and s not in asked and st.p[s].active:
            return s
    return None


def feed(st: BlockcraftModel, rescuer: int, victim: int, card: str) -> bool:
    """BC-6.3.2-3: a rescuer feeds a food card; revive at full hunger (stamina 4). True if revived."""
    r, v = st.p[rescuer], st.p[victim]
    r.remove(card)
    st.discard_card(card)
    v.hunger = min(v.max_hunger, v.hunger + st.cat.cards[card].food)
    st.log.public("feed", seat=rescuer, victim=victim, card=card, hunger=v.hunger)
    if v.hunger >= v.max_hunger:
        v.downed = False
        v.downed_by = None
        v.stamina = min(4, v.max_stamina)
        st.log.public("revived", seat=victim, stamina=v.stamina)
        return True
    return False


def kill(st: BlockcraftModel, victim: int, killer: int | None, why: str) -> None:
    """BC-6.4: death, loot to the killer's hand (or to the piles), end check."""
    v = st.p[victim]
    if killer is not None and (killer == victim or not st.p[killer].alive):
        killer = None
    v.alive = False
    v.downed = False
    st.death_order.append(victim)
    hidden: dict[str, int] = dict(v.hand)
    for b in v.blocks:
        if b is not None and "chest" in b:
            for card, _fresh in b["chest"]:
                hidden[card] = hidden.get(card, 0) + 1
    public: list[str] = []
    for t in v.tools:
        if t is not None:
            public.append(t["card"])
            st.enchant_discard.extend(t["ench"])
    if v.armour is not None:
        public.append(v.armour["card"])
    for b in v.blocks:
        if b is None:
            continue
        public.append(b["card"])
        batch = b.get("batch")
        if batch:
            public += batch["materials"] + batch["fuels"]
            for out in batch["outputs"]:
                st.supply[out] = st.supply.get(out, 0) + 1
    v.hand, v.tools, v.armour, v.blocks = {}, [None, None], None, [None, None]
    v.cell = None
    v.airborne = False
    n_hidden = sum(hidden.values())
    st.log.public("death", seat=victim, killer=killer, why=why, loot_public=sorted(public),
                  loot_hidden=n_hidden)
    if killer is not None:
        k = st.p[killer]
        for card, n in hidden.items():
            k.add(card, n)
        for card in public:
            k.add(card)
        if hidden:
            st.log.private(killer, "loot", seat=killer, victim=victim, cards=dict(sorted(hidden.items())))
        k.kills += 1
        k.kill_xp += 1
    else:
        for card, n in hidden.items():
            st.discard_card(card, n)
        for card in public:
            st.discard_card(card)
    if victim == st.current and st.phase == "turn":
        # BC-5.1: the current player's turn ends at once; drop its own open sub-phases.
        st.turn_over = True
        st.stack.frames = [f for f in st.stack.frames if f.kind == "rescue"]
    st.stack.frames = [f for f in st.stack.frames if not (f.kind == "rescue" and f.data["victim"] == victim)
                       and not (f.kind == "dodge" and f.seat == victim)]
    check_end(st)


# ---- BC-5.16 Touch --------------------------------------------------------------------------------
def weapon_slots(st: BlockcraftModel, p: Player) -> list[int | None]:
    return [None] + [i for i, t in enumerate(p.tools)
                     if t is not None and st.cat.cards[t["card"]].tool_type in ("sword", "axe")]


def touch_targets(st: BlockcraftModel, p: Player, reach: int) -> list[Player]:
    return [q for q in st.p if q is not p and q.active and char_dist(st, p, q) <= reach]


def start_touch(st: BlockcraftModel, p: Player, target: int, weapon: int | None) -> None:
    """BC-5.16.2-3: pay, mark Touch used, open the target's dodge window (or hit at once)."""
    pay(p, 1, 1)
    p.touched = True
    q = st.p[target]
    tool = p.tools[weapon] if weapon is not None else None
    st.log.public("touch", seat=p.seat, target=target, weapon=tool["card"] if tool is not None else None)
    if can_dodge(st, p, q):
        st.stack.push("dodge", target, attacker=p.seat, weapon=weapon)
    else:
        resolve_hit(st, p, q, weapon)


def can_dodge(st: BlockcraftModel, attacker: Player, target: Player) -> bool:
    """BC-5.16.3: dodge needs hunger >= 2 and a dodgeable Touch (b_warden, u_ashknight)."""
    sk = skill_of(st, attacker)
    return target.hunger >= 2 and not sk.undodgeable and not sk.blocks_dodge(attacker, target)


def resolve_hit(st: BlockcraftModel, p: Player, q: Player, weapon: int | None) -> None:
    """BC-5.16.5 / BC-6.10: damage -> attacker riders -> target riders -> downed checks."""
    cat = st.cat
    tags = cat.characters[q.character].tags if q.character else ()
    raw = cat.characters[p.character].strength if p.character else 0
    effects: list[Any] = []
    tool = p.tools[weapon] if weapon is not None else None
    if tool is not None:
        raw += cat.cards[tool["card"]].dmg
        effects = [ENCHANT_EFFECTS.effects[cat.enchantments[cat.enchant_cards[e]].effect]
                   for e in tool["ench"]]
        raw += sum(e.damage_bonus(tags) for e in effects)
    damage(st, q, raw, source=p.seat, armoured=True, why="touch")
    p.touch_hits += 1
    if weapon is not None and tool is not None:
        wear(st, p, "tool", weapon)
    for e in effects:
        e.on_hit(st, p, q)
    skill_of(st, p).on_touch_hit(st, p, q)
    skill_of(st, q).on_hit_by(st, p, q)
    downed_checks(st)


def finisher(st: BlockcraftModel, p: Player, target: int) -> None:
    """BC-5.17: 2 AP + 1 hunger; the target dies at once, P is the killer."""
    pay(p, 2, 1)
    st.log.public("finisher", seat=p.seat, target=target)
    kill(st, target, p.seat, "finisher")


def finisher_targets(st: BlockcraftModel, p: Player) -> list[Player]:
    reach = skill_of(st, p).finisher_range
    return [q for q in st.p if q is not p and q.active and 1 <= q.stamina <= 3
            and char_dist(st, p, q) <= reach]
