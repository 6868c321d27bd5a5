"""BC-5.15 equip, BC-5.20 enchant, BC-5.21 chest, BC-6.2.4 durability and breaking."""
from __future__ import annotations

from typing import Any

from ..actions import Equip, Retrieve, Store
from ..effects import ENCHANT_EFFECTS, skill_of
from ..model import BlockcraftModel, Player
from .geometry import has_block, pay

GROUP = {"tool": "tool", "armour": "armour", "block_equipment": "block"}


def wear(st: BlockcraftModel, p: Player, group: str, slot: int) -> None:
    """BC-6.2.4: lose 1 durability; at 0 the card breaks (supply) and its enchantments are discarded."""
    item = p.armour if group == "armour" else p.tools[slot]
    if item is None:
        return
    item["dur"] -= 1
    if item["dur"] > 0:
        return
    st.supply[item["card"]] = st.supply.get(item["card"], 0) + 1
    st.enchant_discard.extend(item.get("ench", []))
    if group == "armour":
        p.armour = None
    else:
        p.tools[slot] = None
    st.log.public("broken", seat=p.seat, card=item["card"])


def slots_of(p: Player, group: str) -> list[dict[str, Any] | None]:
    if group == "tool":
        return p.tools
    if group == "block":
        return p.blocks
    return [p.armour]


def equip_actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
    """BC-5.15: one action per (card type, slot choice, enchant flag)."""
    out = []
    can_enchant = (has_block(p, "enchanting_table") and p.ap >= 2
                   and bool(st.enchant_deck or st.enchant_discard))
    for card in sorted(p.hand):
        c = st.cat.cards[card]
        group = GROUP.get(c.kind)
        if group is None:
            continue
        slots = slots_of(p, group)
        choices: list[int | None]
        if any(s is None for s in slots):
            choices = [None]
        else:
            choices = [i for i, s in enumerate(slots)
                       if not (s is not None and s.get("batch") is not None)]
        for slot in choices:
            out.append(Equip.wire(card, slot, False))
            if group == "tool" and can_enchant:
                out.append(Equip.wire(card, slot, True))
    return out


def equip(st: BlockcraftModel, p: Player, card: str, slot: int | None, enchant: bool) -> None:
    """BC-5.15: move the card to its slot (replacing sends the old card to the supply)."""
    c = st.cat.cards[card]
    group = GROUP[c.kind]
    slots = slots_of(p, group)
    if slot is None:
        slot = next(i for i, s in enumerate(slots) if s is None)
    old = slots[slot]
    p.remove(card)
    item: dict[str, Any] = {"card": card}
    if group in ("tool", "armour"):
        item.update(dur=c.durability, max=c.durability)
    if group == "tool":
        item.update(ench=[], uid=st.uid())
    if card == "chest":
        item["chest"] = []
    if card == "furnace":
        item["batch"] = None
    if group == "armour":
        p.armour = item
    else:
        slots[slot] = item
    st.log.public("equip", seat=p.seat, card=card, slot=slot, replaced=old["card"] if old else None,
                  enchant=enchant)
    if old is not None:
        st.supply[old["card"]] = st.supply.get(old["card"], 0) + 1
        st.enchant_discard.extend(old.get("ench", []))
        for stored, _fresh in old.get("chest", []):
            p.add(stored)
            p.retrieved[stored] = p.retrieved.get(stored, 0) + 1
        if old.get("chest"):
            st.log.public("chest_emptied", seat=p.seat, count=len(old["chest"]))
    if enchant:
        start_enchant(st, p, slot)


def start_enchant(st: BlockcraftModel, p: Player, slot: int) -> None:
    """BC-5.20 steps 1-3: pay 2 AP, refill the deck from the discard if short, reveal the top 3."""
    pay(p, 2, 0)
    if len(st.enchant_deck) < 3 and st.enchant_discard:
        st.enchant_deck += st.rng.shuffled(st.enchant_discard)
        st.enchant_discard = []
        st.log.public("enchant_reshuffle", size=len(st.enchant_deck))
    revealed = st.enchant_deck[:3]
    del st.enchant_deck[:3]
    st.log.public("enchant_reveal", seat=p.seat, cards=list(revealed))
    st.stack.push("enchant", p.seat, slot=slot, revealed=revealed, picked=[])
    if not enchant_picks(st, p, st.stack.frames[-1].data):
        finish_enchant(st, p)


def enchant_cost(st: BlockcraftModel, p: Player, ench_id: str) -> int:
    return max(0, st.cat.enchantments[ench_id].cost - skill_of(st, p).enchant_discount)


def enchant_picks(st: BlockcraftModel, p: Player, data: dict[str, Any]) -> list[str]:
    """BC-5.20.4-5: legal picks (applies, affordable, < 2 on the tool, no duplicate, not exclusive)."""
    tool = p.tools[data["slot"]]
    if tool is None or len(tool["ench"]) >= 2:
        return []
    cat = st.cat
    ttype = cat.cards[tool["card"]].tool_type
    on = {cat.enchant_cards[e] for e in tool["ench"]}
    out = []
    for e in data["revealed"]:
        if e in data["picked"]:
            continue
        eid = cat.enchant_cards[e]
        ench = cat.enchantments[eid]
        if ttype not in ench.applies_to or eid in on or any(x in on for x in ench.exclusive_with):
            continue
        if p.xp < enchant_cost(st, p, eid):
            continue
        out.append(e)
    return out


def pick_enchant(st: BlockcraftModel, p: Player, card: str) -> None:
    """BC-5.20.4: pay XP, attach the card (unbreaking adds durability at once)."""
    frame = st.stack.frames[-1]
    data = frame.data
    tool = p.tools[data["slot"]]
    assert tool is not None
    eid = st.cat.enchant_cards[card]
    p.xp -= enchant_cost(st, p, eid)
    data["picked"].append(card)
    tool["ench"].append(card)
    extra = ENCHANT_EFFECTS.effects[st.cat.enchantments[eid].effect].extra_durability
    tool["dur"] += extra
    tool["max"] += extra
    st.log.public("enchant", seat=p.seat, card=card, enchantment=eid, tool=tool["card"], xp=p.xp)
    if not enchant_picks(st, p, data):
        finish_enchant(st, p)


def finish_enchant(st: BlockcraftModel, p: Player) -> None:
    """BC-5.20 step 5: unpicked revealed cards go to the enchantment discard."""
    frame = st.stack.pop()
    rest = [e for e in frame.data["revealed"] if e not in frame.data["picked"]]
    st.enchant_discard.extend(rest)
    st.log.public("enchant_done", seat=p.seat, discarded=rest)


# ---- BC-5.21 chest ---------------------------------------------------------------------------------
def chest_actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
    out = []
    for i, b in enumerate(p.blocks):
        if b is None or "chest" not in b:
            continue
        if len(b["chest"]) < 4:
            for card in sorted(p.hand):
                if p.hand[card] > p.retrieved.get(card, 0):
                    out.append(Store.wire(card, i))
        for card in sorted({c for c, fresh in b["chest"] if not fresh}):
            out.append(Retrieve.wire(card, i))
    return out


def store(st: BlockcraftModel, p: Player, card: str, slot: int) -> None:
    b = p.blocks[slot]
    assert b is not None
    p.remove(card)
    b["chest"].append([card, True])
    b["chest"].sort()
    p.stored[card] = p.stored.get(card, 0) + 1
    st.log.public("store", seat=p.seat, chest_slot=slot, count=len(b["chest"]))
    st.log.private(p.seat, "stored", seat=p.seat, card=card)


def retrieve(st: BlockcraftModel, p: Player, card: str, slot: int) -> None:
    b = p.blocks[slot]
    assert b is not None
    b["chest"].remove([card, False])
    p.add(card)
    p.retrieved[card] = p.retrieved.get(card, 0) + 1
    st.log.public("retrieve", seat=p.seat, chest_slot=slot, count=len(b["chest"]))
    st.log.private(p.seat, "retrieved", seat=p.seat, card=card)


def refresh_chests(p: Player) -> None:
    """Cards stored on an earlier turn may be retrieved (BC-5.21 no round trip within a turn)."""
    for b in p.blocks:
        if b is not None and "chest" in b:
            b["chest"] = sorted([c, False] for c, _ in b["chest"])
