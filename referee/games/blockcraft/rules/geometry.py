"""BC-5.7 geometry: heights, distances, attack range; BC-5.6.3 paying costs."""
from __future__ import annotations

from typing import Any

from ..catalog import catalog
from ..effects import ENCHANT_EFFECTS, skill_of
from ..model import BlockcraftModel, Player

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def height(st: BlockcraftModel, p: Player) -> int:
    """BC-5.7.1: h(P) = H(cell), or the airborne height fixed at the jump."""
    if p.airborne:
        return p.air_h
    assert p.cell is not None
    return st.H(p.cell[0], p.cell[1])


def char_dist(st: BlockcraftModel, p: Player, q: Player) -> int:
    """BC-5.7.2: orthogonal steps plus height difference between two characters."""
    assert p.cell is not None and q.cell is not None
    return abs(p.cell[0] - q.cell[0]) + abs(p.cell[1] - q.cell[1]) + abs(height(st, p) - height(st, q))


def cell_dist(st: BlockcraftModel, p: Player, x: int, y: int) -> int:
    """BC-5.7.3: distance from P to the top surface of the stack on [x, y]."""
    assert p.cell is not None
    return abs(p.cell[0] - x) + abs(p.cell[1] - y) + abs(height(st, p) - st.H(x, y))


def has_block(p: Player, card: str) -> bool:
    return any(b is not None and b["card"] == card for b in p.blocks)


def attack_range(st: BlockcraftModel, p: Player) -> int:
    """BC-5.7.5: max(1, best tool range) + u_archer; Night -1 unless a torch; min 0; b_warden cap 1."""
    cards = st.cat.cards
    r = max([1] + [cards[t["card"]].range for t in p.tools if t is not None])
    sk = skill_of(st, p)
    r += sk.range_bonus
    if not st.day and not has_block(p, "torch"):
        r -= 1
    r = max(0, r)
    if sk.range_cap is not None:
        r = min(r, sk.range_cap)
    return r


def pay(p: Player, ap: int, hunger: int) -> None:
    """BC-5.6.3: pay AP and hunger when an action is committed; hunger never below 0."""
    p.ap -= ap
    p.ap_spent += ap
    p.hunger = max(0, p.hunger - hunger)


def tool_effects(p: Player) -> list[tuple[dict[str, Any], Any]]:
    """(tool slot, enchantment effect class) for every enchantment on an equipped tool."""
    cat = catalog()
    out = []
    for t in p.tools:
        if t is None:
            continue
        for e in t["ench"]:
            out.append((t, ENCHANT_EFFECTS.effects[cat.enchantments[cat.enchant_cards[e]].effect]))
    return out


def occupied(st: BlockcraftModel, x: int, y: int, but: Player | None = None) -> bool:
    """BC-5.7.6: whether a character (other than ``but``) stands on [x, y]."""
    for q in st.p:
        if q is not but and q.alive and q.cell is not None and q.cell[0] == x and q.cell[1] == y:
            return True
    return False
