"""BC-5.10 place, BC-5.12 dig, BC-5.13 gather, BC-5.19 till."""
from __future__ import annotations

from typing import Any

from ..effects import skill_of
from ..model import BlockcraftModel, Player
from .equipment import wear
from .geometry import attack_range, height, pay, tool_effects

MAX_STACK = 8


def scan(st: BlockcraftModel, p: Player, reach: int) -> list[tuple[int, int, list[dict[str, Any]]]]:
    """Cells at distance <= ``reach`` from P (BC-5.7.3), row-major, with their stacks."""
    assert p.cell is not None
    px, py = p.cell
    hp = height(st, p)
    w, cells = st.w, st.cells
    out = []
    for y in range(max(0, py - reach), min(st.h, py + reach + 1)):
        dy = y - py if y >= py else py - y
        rem = reach - dy
        for x in range(max(0, px - rem), min(w, px + rem + 1)):
            stack = cells[y * w + x]
            dh = hp - len(stack)
            if dy + (x - px if x >= px else px - x) + (dh if dh >= 0 else -dh) <= reach:
                out.append((x, y, stack))
    return out


# ---- BC-5.10 place ---------------------------------------------------------------------------------
def place_ap(st: BlockcraftModel, p: Player) -> int:
    return 0 if (p.places == 0 and skill_of(st, p).first_place_free_ap) else 1


def place_cells(st: BlockcraftModel, p: Player, near: list[Any] | None = None) -> list[tuple[int, int]]:
    """BC-5.10: within range, H < 8, nobody there (own cell only while airborne and alone)."""
    assert p.cell is not None
    if near is None:
        near = scan(st, p, attack_range(st, p))
    taken = {(q.cell[0], q.cell[1]) for q in st.p if q is not p and q.alive and q.cell is not None}
    if not p.airborne:
        taken.add((p.cell[0], p.cell[1]))
    return [(x, y) for x, y, stack in near if len(stack) < MAX_STACK and (x, y) not in taken]


def place_types(st: BlockcraftModel, p: Player, near: list[Any] | None = None) -> list[str]:
    if p.ap < place_ap(st, p) or p.hunger < 1:
        return []
    types = [c for c in sorted(p.hand) if st.cat.cards[c].placeable]
    return types if types and place_cells(st, p, near) else []


def place(st: BlockcraftModel, p: Player, card: str, x: int, y: int) -> None:
    """BC-5.10: the card goes face up on top of [x, y] as a placed block."""
    pay(p, place_ap(st, p), 1)
    p.places += 1
    st.cell(x, y).append({"c": card, "s": "placed", "l": None, "by": None})
    st.mv += 1
    st.log.public("place", seat=p.seat, card=card, cell=[x, y], height=st.H(x, y))


# ---- BC-5.12 dig -----------------------------------------------------------------------------------
def dig_free(st: BlockcraftModel, p: Player) -> bool:
    """BC-6.7 efficiency: one 0-AP dig per efficiency tool per turn."""
    return p.digs_free < sum(1 for _t, e in tool_effects(p) if e.dig_free)


def dig_cells(st: BlockcraftModel, p: Player, near: list[Any] | None = None) -> list[tuple[int, int]]:
    """BC-5.12.1: top face down, placed or farmland; within range; AP (or efficiency) and hunger."""
    if p.hunger < 1 or (p.ap < 1 and not dig_free(st, p)):
        return []
    if near is None:
        near = scan(st, p, attack_range(st, p))
    return [(x, y) for x, y, stack in near if stack and stack[-1]["s"] != "loose"]


def _best_tool(st: BlockcraftModel, p: Player, ttype: str, tier: int = 0) -> int | None:
    """Lowest-tier equipped tool of the type with tier >= ``tier`` (tie: lower slot), BC-5.12.5."""
    best = None
    for i, t in enumerate(p.tools):
        if t is None:
            continue
        c = st.cat.cards[t["card"]]
        if c.tool_type == ttype and c.tier >= tier and (best is None or c.tier < best[0]):
            best = (c.tier, i)
    return None if best is None else best[1]


def dig(st: BlockcraftModel, p: Player, x: int, y: int) -> None:
    """BC-5.12.2-6: pay, reveal, check the requirement, then fail (discard) or pass (loose + wear)."""
    free = dig_free(st, p)
    if free:
        p.digs_free += 1
        pay(p, 0, 1)
    else:
        pay(p, 1, 1)
    stack = st.cell(x, y)
    st.mv += 1
    top = stack[-1]
    card = st.cat.cards[top["c"]]
    was = top["s"]
    if was == "down":
        st.log.public("reveal", cell=[x, y], card=card.id, layer=top["l"])
    req = card.dig_req or "hand"
    if card.id in skill_of(st, p).dig_as_hand:
        req = "hand"
    slot: int | None = None
    if req == "hand":
        ok = True
    elif req == "shovel":
        slot = _best_tool(st, p, "shovel")
        ok = slot is not None
    else:
        slot = _best_tool(st, p, "pickaxe", card.req_tier)
        ok = slot is not None
    sk = skill_of(st, p)
    if sk.timber and not free and not p.timber_used and card.id == "log":
        p.timber_used = True
        p.ap += 1
        p.ap_spent -= 1
        st.log.public("timber", seat=p.seat)
    if not ok:
        stack.pop()
        st.discard_card(card.id)
        st.log.public("dig", seat=p.seat, cell=[x, y], card=card.id, ok=False, was=was)
        return
    refund = False
    if req == "hand" and card.pref_tool is not None:
        slot = _best_tool(st, p, card.pref_tool)
        refund = slot is not None
    used = p.tools[slot] if slot is not None else None
    tool_uid = used["uid"] if used is not None else None
    tool_card = used["card"] if used is not None else None
    top["s"] = "loose"
    top["l"] = None
    top["by"] = [p.seat, tool_uid]
    top["t"] = tool_card
    if refund:
        p.hunger = min(p.max_hunger, p.hunger + 1)
    st.log.public("dig", seat=p.seat, cell=[x, y], card=card.id, ok=True, was=was, tool=tool_card)
    if slot is not None:
        wear(st, p, "tool", slot)


# ---- BC-5.13 gather --------------------------------------------------------------------------------
def gather_cells(st: BlockcraftModel, p: Player) -> list[tuple[int, int]]:
    """BC-5.13: a loose top card at distance < 2 (silk_touch: <= R)."""
    reach = 1
    if any(e.gather_reach for _t, e in tool_effects(p)):
        reach = max(1, attack_range(st, p))
    return [(x, y) for x, y, stack in scan(st, p, reach) if stack and stack[-1]["s"] == "loose"]


def gather(st: BlockcraftModel, p: Player, x: int, y: int) -> None:
    """BC-5.13: the loose card goes to hand; ores count for XP; fortune draws 1."""
    top = st.cell(x, y).pop()
    st.mv += 1
    card = st.cat.cards[top["c"]]
    p.add(card.id)
    st.log.public("gather", seat=p.seat, cell=[x, y], card=card.id)
    if card.ore:
        p.ores_gathered += 1
        by = top.get("by")
        if by and by[0] == p.seat and by[1] is not None:
            for t, e in tool_effects(p):
                if e.fortune and t["uid"] == by[1]:
                    st.draw(p.seat, "fortune")
                    break


# ---- BC-5.19 till ----------------------------------------------------------------------------------
def till_cells(st: BlockcraftModel, p: Player, near: list[Any] | None = None) -> list[tuple[int, int]]:
    """BC-5.19: a hoe (h_farmer: none), a loose dirt in range, AP and hunger."""
    if p.ap < 1 or p.hunger < 1:
        return []
    if not skill_of(st, p).hoe_free and _best_tool(st, p, "hoe") is None:
        return []
    if near is None:
        near = scan(st, p, attack_range(st, p))
    return [(x, y) for x, y,
            stack in near if stack and stack[-1]["s"] == "loose" and stack[-1]["c"] == "dirt"]


def till(st: BlockcraftModel, p: Player, x: int, y: int) -> None:
    """BC-5.19: the loose dirt becomes farmland; the lowest-tier hoe loses 1 durability."""
    pay(p, 1, 1)
    top = st.cell(x, y)[-1]
    st.mv += 1
    top["s"] = "farmland"
    top["by"] = None
    top.pop("t", None)
    st.log.public("till", seat=p.seat, cell=[x, y])
    if not skill_of(st, p).hoe_free:
        slot = _best_tool(st, p, "hoe")
        if slot is not None:
            wear(st, p, "tool", slot)
