"""MM-5.39-5.46: automated monster turns (order, movement, targets, attacks) and mouse reactions."""
from __future__ import annotations

from typing import Any

from ..actions import NoReaction, ReactAbility, ReactTrick
from ..catalog import content
from ..model import MMModel
from . import board, cheese
from .board import BLOCK, CHEESE, MELEE_HIT, RANGED_HIT
from .dispatch import RULES
from .hooks import ability_cost, call, monster_mod, mouse_mod

C = content()


def card_row(card: str) -> Any:
    """The boss card row for a boss card, else None."""
    return C.boss_cards.get(card[5:])


def figures_of(st: MMModel, card: str) -> list[str]:
    key = card[5:]
    if key in C.boss_cards:
        return [st.boss["monster"]] if st.boss and st.boss["monster"] in st.monsters else []
    return [k for k, m in st.monsters.items() if m.type == key]


def monster_order(st: MMModel, card: str) -> list[str]:
    """MM-5.39 by (distance to the nearest mouse, number), computed once at the start of the turn."""
    figs = figures_of(st, card)
    return sorted(figs, key=lambda k: (board.dist_to_mice(st, st.monsters[k].area), int(k[1:])))


def run_monster_turn(st: MMModel) -> bool:
    """Each figure: pre-move effect, movement, attack(s); suspends for a reaction decision. True when every
    figure has acted (the card's turn ends), False when suspended or the game is over."""
    t = st.turn
    assert t is not None
    brow = card_row(t["card"])
    while t["i"] < len(t["order"]):
        if st.result is not None:
            return False
        mid = t["order"][t["i"]]
        if mid not in st.monsters:
            t["i"] += 1
            t["stage"] = 0
            t["attacks"] = 0
            continue
        if t["stage"] == 0:
            t["stage"] = 1
            if brow is not None:
                call(brow.effect, st, "pre_move", brow, {"monster": mid})
                if st.result is not None:
                    return False
            move_monster(st, mid, brow)
        n_attacks = 1
        if brow is not None:
            n_attacks = max(1, call(brow.effect, st, "attacks", brow, {}))
        while t["attacks"] < n_attacks and mid in st.monsters:
            t["attacks"] += 1
            if monster_attack(st, mid, brow):
                return False
            if st.result is not None:
                return False
        t["i"] += 1
        t["stage"] = 0
        t["attacks"] = 0
    return True


# -- movement (MM-5.41 / MM-5.42) ---------------------------------------------------------------------
def _passable(st: MMModel, mid: str) -> set[str]:
    mo = st.monsters[mid]
    size = C.monsters[mo.type].size
    out = {a for a in board.graph(st).ids if board.can_accept(st, a, size, ignore=mid)}
    out.add(mo.area)
    return out


def _track_pos(st: MMModel, mouse: str) -> int:
    card = f"init:{mouse}"
    return st.track.index(card) if card in st.track else 999


def move_monster(st: MMModel, mid: str, brow: Any) -> None:
    mo = st.monsters[mid]
    mtype = C.monsters[mo.type]
    if mo.pinned:
        mo.pinned = False
        st.log.public("pin_removed", monster=mid)
        return
    live = [m for m in st.mice.values() if not m.captured and m.area is not None]
    if not live:
        return
    g = board.graph(st)
    if mtype.mode == "ranged":
        if any(board.has_los(st, mo.area, m.at) for m in live):
            return
        mp = board.NUMBER[cheese.roll(st, 1, "monster_move", mid)[0]]
        passable = _passable(st, mid)
        seen = {a for a in passable if any(board.has_los(st, a, m.at) for m in live)}
        _walk(st, mid, seen, mp, stop_on_mouse=False)
        return
    if any(m.area == mo.area for m in live):
        return
    mp = board.NUMBER[cheese.roll(st, 1, "monster_move", mid)[0]]
    if brow is not None:
        mp += call(brow.effect, st, "monster_move", brow, {})
    passable = _passable(st, mid)
    best: tuple[int, int] | None = None
    goal: set[str] = set()
    for m in live:
        area = m.area
        assert area is not None
        gx = {area} if area in passable else {a for a in g.adj[area] if a in passable}
        d = board.bfs_within(st, gx, passable).get(mo.area, 10 ** 6) if gx else 10 ** 6
        key = (d, _track_pos(st, m.id))
        if best is None or key < best:
            best, goal = key, gx
    if best is None or best[0] == 0 or best[0] >= 10 ** 6:
        return
    _walk(st, mid, goal, mp, stop_on_mouse=True)


def _walk(st: MMModel, mid: str, goal: set[str], mp: int, stop_on_mouse: bool) -> None:
    """MM-5.41 step 7: step to the passable neighbour nearest the goal while it gets closer."""
    mo = st.monsters[mid]
    g = board.graph(st)
    path = []
    for _ in range(mp):
        if mo.area in goal or not goal:
            break
        passable = _passable(st, mid)
        dist = board.bfs_within(st, goal & passable, passable)
        here = dist.get(mo.area, 10 ** 6)
        cands = [n for n in g.all_nbrs[mo.area] if n in passable and n != mo.area]
        if not cands:
            break
        nxt = min(cands, key=lambda n: (dist.get(n, 10 ** 6), board.ordinal(n)))
        if dist.get(nxt, 10 ** 6) >= here:
            break
        mo.area = nxt
        path.append(nxt)
        if stop_on_mouse and board.mice_in(st, nxt):
            break
    if path:
        st.log.public("monster_move", monster=mid, path=path)


# -- attacks (MM-5.43-5.46) ---------------------------------------------------------------------------
def in_range(st: MMModel, mid: str) -> list[str]:
    mo = st.monsters[mid]
    live = [m.id for m in st.mice.values() if not m.captured and m.area is not None]
    near = [x for x in live if board.adjacent_or_same(mo.area, st.mice[x].at)]
    if C.monsters[mo.type].mode == "melee" or near:
        return near
    return [x for x in live if board.has_los(st, mo.area, st.mice[x].at)]


def choose_target(st: MMModel, mid: str) -> str | None:
    """MM-5.44 Taunt, not yet attacked, nearest, then highest on the track."""
    t = st.turn
    assert t is not None
    cands = in_range(st, mid)
    if not cands:
        return None
    mo = st.monsters[mid]
    if C.monsters[mo.type].mode == "melee":
        taunting = [x for x in cands if st.mice[x].taunt]
        if taunting:
            cands = taunting
    fresh = [x for x in cands if x not in t["attacked"]]
    pool = fresh or cands
    dist = board.graph(st).dist[mo.area]
    target = min(pool, key=lambda x: (dist.get(st.mice[x].at, 10 ** 6), _track_pos(st, x)))
    t["attacked"].append(target)
    return target


def battle_of(st: MMModel, mid: str, brow: Any) -> int:
    mo = st.monsters[mid]
    base = brow.battle if brow is not None else C.monsters[mo.type].battle
    return base + monster_mod(st, mid, "attack_dice", {})


def monster_attack(st: MMModel, mid: str, brow: Any) -> bool:
    """MM-5.45 steps 1-4; True when suspended for a reaction (MM-5.46)."""
    target = choose_target(st, mid)
    if target is None:
        return False
    mo = st.monsters[mid]
    mode = C.monsters[mo.type].mode
    faces = cheese.roll(st, battle_of(st, mid, brow), "monster_attack", mid)
    hits = sum(1 for f in faces if f in (MELEE_HIT if mode == "melee" else RANGED_HIT))
    st.log.public("monster_attack", monster=mid, target=target, hits=hits)
    for f in faces:
        if f in CHEESE:
            cheese.add_wheel(st, 1, "monster_attack")
            if st.result is not None:
                return False
    if hits == 0:
        return False
    if mode == "ranged":
        hits = max(0, hits - mouse_mod(st, target, "deflect", {}))
    if hits == 0:
        return False
    ctx = {"monster": mid, "mouse": target, "hits": hits, "brace": 0,
           "card": brow.id if brow is not None else None}
    if reaction_options(st, target):
        st.stack.push("reaction", st.mice[target].seat, **ctx)
        return True
    finish_attack(st, ctx)
    return False


def reaction_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    m = st.mice[mouse]
    out: list[dict[str, Any]] = []
    if mouse not in st.ability_used:
        for a in m.abilities:
            row = C.abilities[a]
            if row.timing == "reaction" and ability_cost(st, mouse, a) <= m.cheese:
                out.append(ReactAbility.wire(a))
    for c in sorted(set(m.tricks)):
        if C.cards[c].effect == "pepper_dust":
            out.append(ReactTrick.wire(c))
    return out


def reaction_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return reaction_options(st, data["mouse"]) + [NoReaction.wire()]


# MM-5.46 at most one reaction per attack; then the attack finishes and the monster turn resumes.
@RULES.on(ReactAbility)
def react_ability(st: MMModel, seat: int, a: ReactAbility) -> None:
    """MM-5.46 Brace or Improvised Shield."""
    ctx = dict(st.stack.pop().data)
    mouse = ctx["mouse"]
    row = C.abilities[a.ability]
    st.mice[mouse].cheese -= ability_cost(st, mouse, a.ability)
    st.ability_used.append(mouse)
    st.log.public("reaction", mouse=mouse, ability=a.ability)
    ctx["brace"] += call(row.effect, st, "defence_dice", row, {})
    ctx["hits"] = max(0, ctx["hits"] - call(row.effect, st, "cancel_hits", row, {}))
    finish_attack(st, ctx)


@RULES.on(ReactTrick)
def react_trick(st: MMModel, seat: int, a: ReactTrick) -> None:
    """MM-5.46 Pepper Dust."""
    ctx = dict(st.stack.pop().data)
    mouse = ctx["mouse"]
    st.mice[mouse].tricks.remove(a.card)
    st.search_discard.append(a.card)
    st.log.public("reaction", mouse=mouse, card=a.card)
    if call(C.cards[a.card].effect, st, "cancel_attack", C.cards[a.card], {}):
        ctx["hits"] = 0
    finish_attack(st, ctx)


@RULES.on(NoReaction)
def no_reaction(st: MMModel, seat: int, a: NoReaction) -> None:
    finish_attack(st, dict(st.stack.pop().data))


def defence_dice(st: MMModel, mouse: str, brace: int) -> int:
    """MM-5.40 defence + armour + Stalwart + Glamour Ward + Brace."""
    m = st.mice[mouse]
    n = C.heroes[mouse].defence + sum(C.cards[c].defence for c in m.equipped)
    n += mouse_mod(st, mouse, "defence_dice", {})
    if any(x.ward and not x.captured and x.area == m.area for x in st.mice.values()):
        n += 1
    return n + brace


def finish_attack(st: MMModel, ctx: dict[str, Any]) -> None:
    """MM-5.45 steps 5-8: defence roll (F1: mouse cheese), wounds (Venom: poison), capture, Web/Snap."""
    if ctx["hits"] <= 0:
        return
    mouse = ctx["mouse"]
    faces = cheese.roll(st, defence_dice(st, mouse, ctx["brace"]), "mouse_defence", mouse)
    blocks = sum(1 for f in faces if f in BLOCK)
    cheese.gain_cheese(st, mouse, sum(1 for f in faces if f in CHEESE), "defence_roll")
    wounds = max(0, ctx["hits"] - blocks)
    mid = ctx["monster"]
    if not wounds or mid not in st.monsters:
        return
    poison = monster_mod(st, mid, "poison", {}) > 0
    if cheese.wound_mouse(st, mouse, wounds, poison, "monster_attack"):
        return
    monster_mod(st, mid, "after_wound", {"mouse": mouse})
    if ctx["card"]:
        row = C.boss_cards[ctx["card"]]
        call(row.effect, st, "after_wound", row, {"mouse": mouse})
