"""MM-5.28-5.32, MM-6.12-6.14: Equip, Share, Level up (the once-per-turn free actions)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..catalog import content
from . import board
from .board import AREAS
from .search import PACK_LIMIT

if TYPE_CHECKING:
    from ..model import MMModel

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
            out.append({"type": "equip", "card": c})
    for c in m.equipped:
        if c not in moved and len(m.pack) < PACK_LIMIT:
            out.append({"type": "unequip", "card": c})
    for x in m.equipped:
        if x in moved:
            continue
        for y in pack_in:
            rest = [c for c in m.equipped if c != x]
            if fits(rest + [y]):
                out.append({"type": "swap", "out_card": x, "in_card": y})
    return out


def equip_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return equip_moves(st, data["mouse"], data["moved"]) + [{"type": "equip_done"}]


def equip_apply(st: MMModel, action: dict[str, Any]) -> None:
    frame = st.stack.top()
    assert frame is not None
    mouse = frame.data["mouse"]
    m = st.mice[mouse]
    kind = action["type"]
    if kind == "equip_done":
        st.stack.pop()
        return
    if kind == "equip":
        m.pack.remove(action["card"])
        m.equipped.append(action["card"])
        frame.data["moved"].append(action["card"])
    elif kind == "unequip":
        m.equipped.remove(action["card"])
        m.pack.append(action["card"])
        frame.data["moved"].append(action["card"])
    else:
        m.equipped.remove(action["out_card"])
        m.pack.remove(action["in_card"])
        m.equipped.append(action["in_card"])
        m.pack.append(action["out_card"])
        frame.data["moved"] += [action["out_card"], action["in_card"]]
    st.log.public("equip", mouse=mouse, equipped=list(m.equipped), pack=list(m.pack))
    if not equip_moves(st, mouse, frame.data["moved"]):
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
            out.append({"type": "give", "card": c})
    for c in sorted(set(a.tricks)):
        if c not in moved:
            out.append({"type": "give", "card": c})
    for c in b.pack:
        if c not in moved and len(a.pack) < PACK_LIMIT:
            out.append({"type": "take", "card": c})
    for c in sorted(set(b.tricks)):
        if c not in moved:
            out.append({"type": "take", "card": c})
    if not data["cheese_done"]:
        for who in (a, b):
            for n in range(1, min(who.cheese, MAX_CHEESE_OFFER) + 1):
                out.append({"type": "cheese", "giver": who.id, "n": n})
    out.append({"type": "share_done"})
    return out


def share_apply(st: MMModel, action: dict[str, Any]) -> None:
    frame = st.stack.top()
    assert frame is not None
    data = frame.data
    a, b = st.mice[data["mouse"]], st.mice[data["with"]]
    kind = action["type"]
    if kind == "share_done":
        st.stack.pop()
        return
    if kind in ("give", "take"):
        src, dst = (a, b) if kind == "give" else (b, a)
        card = action["card"]
        if C.cards[card].kind == "trick":
            src.tricks.remove(card)
            dst.tricks.append(card)
            dst.tricks.sort()
        else:
            src.pack.remove(card)
            dst.pack.append(card)
        data["moved"].append(card)
        st.log.public("share_card", giver=src.id, receiver=dst.id, card=card)
    else:
        src = st.mice[action["giver"]]
        dst = b if src is a else a
        src.cheese -= action["n"]
        dst.cheese += action["n"]
        data["cheese_done"] = True
        st.log.public("share_cheese", giver=src.id, receiver=dst.id, n=action["n"])
    if len(share_legal(st, data)) == 1:
        st.stack.pop()


def level_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.32 pay 6 cheese for an unclaimed card of one of the mouse's classes (or "any")."""
    m = st.mice[mouse]
    if m.cheese < LEVEL_COST:
        return []
    classes = C.heroes[mouse].classes
    return [{"type": "level_up", "ability": a} for a in st.ability_pool
            if C.abilities[a].cls == "any" or C.abilities[a].cls in classes]


def level_up(st: MMModel, mouse: str, ability: str) -> None:
    m = st.mice[mouse]
    m.cheese -= LEVEL_COST
    st.ability_pool.remove(ability)
    m.abilities.append(ability)
    st.log.public("level_up", mouse=mouse, ability=ability)
