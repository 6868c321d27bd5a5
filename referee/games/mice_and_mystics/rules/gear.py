"""MM-5.28-5.32, MM-6.12-6.14: Equip, Share, Level up (the once-per-turn free actions)."""
from __future__ import annotations

from typing import Any

from referee.engine import Frame

from ..actions import Cheese, Equip, EquipDone, Give, LevelUp, ShareDone, Swap, Take, Unequip
from ..catalog import content
from ..model import MMModel, Mouse
from . import board
from .board import AREAS
from .dispatch import RULES
from .search import PACK_LIMIT

C = content()
SLOTS = {"paws": 2, "body": 1, "trinket": 1}
MAX_CHEESE_OFFER = 12  # [design] MM-5.29 cheese amounts offered per share, keeps the list small
LEVEL_COST = 6


def _usage(cards: list[str]) -> dict[str, int]:
    use = {"paws": 0, "body": 0, "trinket": 0}
    for c in cards:
        row = C.cards[c]
        if row.kind == "weapon" or row.slot == "paw":
            use["paws"] += row.paws
        elif row.slot in ("body", "trinket"):
            use[row.slot] += 1
    return use


def fits(cards: list[str]) -> bool:
    """MM-6.12 c two paws, one body, one trinket."""
    use = _usage(cards)
    return all(use[k] <= SLOTS[k] for k in SLOTS)


def may_use(mouse: str, card: str) -> bool:
    """MM-6.12 b class requirements."""
    req = C.cards[card].req
    return not req or any(c in C.heroes[mouse].classes for c in req)


def equippable(card: str) -> bool:
    return C.cards[card].kind in ("weapon", "armour", "trinket")


def equip_moves(st: MMModel, mouse: str, moved: list[str]) -> list[dict[str, Any]]:
    """MM-5.28 equip / unequip / swap; each card moves at most once per Equip."""
    m = st.mice[mouse]
    out: list[dict[str, Any]] = []
    pack_in = [c for c in m.pack if c not in moved and equippable(c) and may_use(mouse, c)]
    for c in pack_in:
        if fits(m.equipped + [c]):
            out.append(Equip.wire(c))
    for c in m.equipped:
        if c not in moved and len(m.pack) < PACK_LIMIT:
            out.append(Unequip.wire(c))
    for x in m.equipped:
        if x in moved:
            continue
        for y in pack_in:
            rest = [c for c in m.equipped if c != x]
            if fits(rest + [y]):
                out.append(Swap.wire(x, y))
    return out


def can_equip(st: MMModel, mouse: str, moved: list[str]) -> bool:
    """Whether ``equip_moves`` would offer anything, without building the list (asked every main phase)."""
    m = st.mice[mouse]
    if len(m.pack) < PACK_LIMIT and any(c not in moved for c in m.equipped):
        return True
    pack_in = [c for c in m.pack if c not in moved and equippable(c) and may_use(mouse, c)]
    if any(fits(m.equipped + [c]) for c in pack_in):
        return True
    return any(fits([c for c in m.equipped if c != x] + [y]) for x in m.equipped if x not in moved
               for y in pack_in)


def equip_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return equip_moves(st, data["mouse"], data["moved"]) + [EquipDone.wire()]


def _equip(st: MMModel) -> tuple[Frame, Mouse]:
    """The open Equip sub-decision and its mouse."""
    frame = st.stack.top()
    assert frame is not None
    return frame, st.mice[frame.data["mouse"]]


def _equipped(st: MMModel, frame: Frame, m: Mouse) -> None:
    """After each move; the Equip ends by itself when nothing is left to move."""
    st.log.public("equip", mouse=m.id, equipped=list(m.equipped), pack=list(m.pack))
    legal = equip_legal(st, frame.data)
    if len(legal) == 1:
        st.stack.pop()
    else:
        st.remember_legal(frame.seat, legal)  # the next decision's list


@RULES.on(Equip)
def equip(st: MMModel, seat: int, a: Equip) -> None:
    frame, m = _equip(st)
    m.pack.remove(a.card)
    m.equipped.append(a.card)
    frame.data["moved"].append(a.card)
    _equipped(st, frame, m)


@RULES.on(Unequip)
def unequip(st: MMModel, seat: int, a: Unequip) -> None:
    frame, m = _equip(st)
    m.equipped.remove(a.card)
    m.pack.append(a.card)
    frame.data["moved"].append(a.card)
    _equipped(st, frame, m)


@RULES.on(Swap)
def swap(st: MMModel, seat: int, a: Swap) -> None:
    frame, m = _equip(st)
    m.equipped.remove(a.out_card)
    m.pack.remove(a.in_card)
    m.equipped.append(a.in_card)
    m.pack.append(a.out_card)
    frame.data["moved"] += [a.out_card, a.in_card]
    _equipped(st, frame, m)


@RULES.on(EquipDone)
def equip_done(st: MMModel, seat: int, a: EquipDone) -> None:
    st.stack.pop()


def share_partners(st: MMModel, mouse: str) -> list[str]:
    """MM-5.29 a non-captured mouse in the same or an adjacent area, neither in water, something to share."""
    m = st.mice[mouse]
    out = []
    for x in st.mice.values():
        if x.id == mouse or x.captured or x.area is None or AREAS[x.area].water:
            continue
        if not board.adjacent_or_same(m.at, x.area):
            continue
        if m.pack or m.tricks or x.pack or x.tricks or m.cheese or x.cheese:
            out.append(x.id)
    return out


def share_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    a, b = st.mice[data["mouse"]], st.mice[data["with"]]
    moved = data["moved"]
    out: list[dict[str, Any]] = []
    for c in a.pack:
        if c not in moved and len(b.pack) < PACK_LIMIT:
            out.append(Give.wire(c))
    for c in sorted(set(a.tricks)):
        if c not in moved:
            out.append(Give.wire(c))
    for c in b.pack:
        if c not in moved and len(a.pack) < PACK_LIMIT:
            out.append(Take.wire(c))
    for c in sorted(set(b.tricks)):
        if c not in moved:
            out.append(Take.wire(c))
    if not data["cheese_done"]:
        for who in (a, b):
            for n in range(1, min(who.cheese, MAX_CHEESE_OFFER) + 1):
                out.append(Cheese.wire(who.id, n))
    out.append(ShareDone.wire())
    return out


def _share(st: MMModel) -> tuple[Frame, Mouse, Mouse]:
    """The open Share, the sharing mouse and its partner."""
    frame = st.stack.top()
    assert frame is not None
    return frame, st.mice[frame.data["mouse"]], st.mice[frame.data["with"]]


def _share_card(st: MMModel, frame: Frame, src: Mouse, dst: Mouse, card: str) -> None:
    if C.cards[card].kind == "trick":
        src.tricks.remove(card)
        dst.tricks.append(card)
        dst.tricks.sort()
    else:
        src.pack.remove(card)
        dst.pack.append(card)
    frame.data["moved"].append(card)
    st.log.public("share_card", giver=src.id, receiver=dst.id, card=card)
    _shared(st, frame)


def _shared(st: MMModel, frame: Frame) -> None:
    """The Share ends by itself when nothing is left to move."""
    legal = share_legal(st, frame.data)
    if len(legal) == 1:
        st.stack.pop()
    else:
        st.remember_legal(frame.seat, legal)  # the next decision's list


@RULES.on(Give)
def give(st: MMModel, seat: int, a: Give) -> None:
    frame, me, partner = _share(st)
    _share_card(st, frame, me, partner, a.card)


@RULES.on(Take)
def take(st: MMModel, seat: int, a: Take) -> None:
    frame, me, partner = _share(st)
    _share_card(st, frame, partner, me, a.card)


@RULES.on(Cheese)
def share_cheese(st: MMModel, seat: int, a: Cheese) -> None:
    frame, me, partner = _share(st)
    src = st.mice[a.giver]
    dst = partner if src is me else me
    src.cheese -= a.n
    dst.cheese += a.n
    frame.data["cheese_done"] = True
    st.log.public("share_cheese", giver=src.id, receiver=dst.id, n=a.n)
    _shared(st, frame)


@RULES.on(ShareDone)
def share_done(st: MMModel, seat: int, a: ShareDone) -> None:
    st.stack.pop()


def level_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.32 pay 6 cheese for an unclaimed card of one of the mouse's classes (or "any")."""
    m = st.mice[mouse]
    if m.cheese < LEVEL_COST:
        return []
    classes = C.heroes[mouse].classes
    return [LevelUp.wire(a) for a in st.ability_pool
            if C.abilities[a].cls == "any" or C.abilities[a].cls in classes]


def level_up(st: MMModel, mouse: str, ability: str) -> None:
    m = st.mice[mouse]
    m.cheese -= LEVEL_COST
    st.ability_pool.remove(ability)
    m.abilities.append(ability)
    st.log.public("level_up", mouse=mouse, ability=ability)
