"""BC-5.14 craft (2x2 / 3x3), BC-5.18 smelting and furnace completion."""
from __future__ import annotations

from typing import Any

from ..actions import Cancel, SmeltConfirm, SmeltFuel, SmeltMaterial
from ..effects import skill_of
from ..model import BlockcraftModel, Player
from .endgame import finish
from .geometry import has_block, pay


def craftable(st: BlockcraftModel, p: Player) -> list[str]:
    """BC-5.14: recipes whose ingredients are in hand, grid allowed, supply sufficient."""
    hand = p.hand
    if not hand:
        return []
    table = has_block(p, "crafting_table") or (skill_of(st, p).old_habits and not p.villager_used)
    supply = st.supply
    out = []
    for rid, big, qty, ing in _recipes(st):
        if big and not table:
            continue
        if supply.get(rid, 0) < qty:
            continue
        for k, n in ing:
            if hand.get(k, 0) < n:
                break
        else:
            out.append(rid)
    return out


_RECIPES: list[tuple[str, bool, int, tuple[tuple[str, int], ...]]] = []


def _recipes(st: BlockcraftModel) -> list[tuple[str, bool, int, tuple[tuple[str, int], ...]]]:
    """(id, needs a 3x3 grid, output quantity, ingredients) per recipe, in catalogue order."""
    if not _RECIPES:
        _RECIPES.extend((rid, c.grid == "3x3", c.out_qty, tuple((c.ingredients or {}).items()))
                        for rid, c in st.cat.recipes.items())
    return _RECIPES


def craft(st: BlockcraftModel, p: Player, rid: str) -> None:
    """BC-5.14: ingredients leave the hand (raw -> discard, processed -> supply); outputs to hand."""
    c = st.cat.recipes[rid]
    if c.grid == "3x3" and not has_block(p, "crafting_table"):
        p.villager_used = True   # u_villager Old Habits
    for k, n in (c.ingredients or {}).items():
        p.remove(k, n)
        st.discard_card(k, n)
    st.supply[rid] -= c.out_qty
    p.add(rid, c.out_qty)
    st.log.public("craft", seat=p.seat, recipe=rid, ingredients=dict(sorted((c.ingredients or {}).items())),
                  qty=c.out_qty)
    if rid == "world_core":
        finish(st, "target_card", winner=p.seat)


# ---- BC-5.18 smelting ------------------------------------------------------------------------------
def furnace_slots(st: BlockcraftModel, p: Player) -> list[int]:
    """BC-5.18.1: furnaces without a batch, AP >= 1, a smeltable card and a separate fuel card in hand."""
    if p.ap < 1:
        return []
    slots = [i for i,
             b in enumerate(p.blocks) if b is not None and b["card"] == "furnace" and b["batch"] is None]
    if not slots:
        return []
    cards = st.cat.cards
    mats = [k for k in p.hand if cards[k].smelt_to]
    fuels = [k for k in p.hand if cards[k].fuel > 0]
    ok = any(m != f or p.hand[m] >= 2 for m in mats for f in fuels)
    return slots if ok else []


def open_smelt(st: BlockcraftModel, p: Player, slot: int) -> None:
    st.stack.push("smelt", p.seat, slot=slot, materials=[], fuels=[])


def smelt_options(st: BlockcraftModel, p: Player, data: dict[str, Any]) -> list[dict[str, Any]]:
    """BC-5.18.2-3: builder actions (confirm when the heat inequality and the supply allow)."""
    cards = st.cat.cards
    out: list[dict[str, Any]] = []
    for k in sorted(p.hand):
        if cards[k].smelt_to:
            out.append(SmeltMaterial.wire(k))
    for k in sorted(p.hand):
        if cards[k].fuel > 0:
            out.append(SmeltFuel.wire(k))
    if smelt_ok(st, p, data):
        out.append(SmeltConfirm.wire())
    out.append(Cancel.wire())
    return out


def smelt_ok(st: BlockcraftModel, p: Player, data: dict[str, Any]) -> bool:
    mats, fuels = data["materials"], data["fuels"]
    if not mats or not fuels or p.ap < 1:
        return False
    cards = st.cat.cards
    sk = skill_of(st, p)
    heat = sum(cards[f].fuel for f in fuels) + sk.heat_bonus
    sh = sum(cards[m].sh for m in mats)
    if not (heat >= sh if sk.heat_at_least else heat > sh):
        return False
    need: dict[str, int] = {}
    for m in mats:
        out = cards[m].smelt_to
        assert out is not None
        need[out] = need.get(out, 0) + 1
    return all(st.supply.get(k, 0) >= n for k, n in need.items())


def smelt_add(st: BlockcraftModel, p: Player, card: str, row: str) -> None:
    data = st.stack.frames[-1].data
    p.remove(card)
    data[row].append(card)
    # BC-7.3: the batch stays private until `smelt_confirm` logs it publicly (BC-7.1).
    st.log.private(p.seat, "smelt_add", seat=p.seat, card=card, row=row)


def smelt_cancel(st: BlockcraftModel, p: Player) -> None:
    frame = st.stack.pop()
    for k in frame.data["materials"] + frame.data["fuels"]:
        p.add(k)
    st.log.public("smelt_cancel", seat=p.seat)


def smelt_confirm(st: BlockcraftModel, p: Player) -> None:
    """BC-5.18.4: 1 AP; the batch sits on the furnace and its outputs are reserved from the supply."""
    frame = st.stack.pop()
    pay(p, 1, 0)
    mats, fuels = frame.data["materials"], frame.data["fuels"]
    outs = []
    for m in mats:
        out = st.cat.cards[m].smelt_to
        assert out is not None
        st.supply[out] -= 1
        outs.append(out)
    furnace = p.blocks[frame.data["slot"]]
    assert furnace is not None
    furnace["batch"] = {"materials": sorted(mats), "fuels": sorted(fuels), "outputs": sorted(outs)}
    st.log.public("smelt", seat=p.seat, slot=frame.data["slot"], materials=sorted(mats), fuels=sorted(fuels),
                  outputs=sorted(outs))


def complete_furnaces(st: BlockcraftModel, p: Player) -> None:
    """BC-5.18.5: at the start of the action phase, outputs go to hand, batch cards are discarded."""
    for i, b in enumerate(p.blocks):
        if b is None or b.get("batch") is None:
            continue
        batch = b["batch"]
        for k in batch["outputs"]:
            p.add(k)
        for k in batch["materials"] + batch["fuels"]:
            st.discard_card(k)
        b["batch"] = None
        st.log.public("smelted", seat=p.seat, slot=i, outputs=batch["outputs"])
