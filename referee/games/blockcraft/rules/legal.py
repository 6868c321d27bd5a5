"""BC-5.26: the legal actions of each pending-decision state (the only definition of legality)."""
from __future__ import annotations

from typing import Any

from ..actions import (
    Brew,
    Cancel,
    ChooseCharacter,
    ChooseStart,
    Craft,
    Dig,
    Discard,
    Dodge,
    EnchantDone,
    EnchantPick,
    EndActionPhase,
    EndTurn,
    Feed,
    Finisher,
    Gather,
    Jump,
    Land,
    Menu,
    Move,
    Pass,
    Place,
    PlaceAt,
    SkillAt,
    Smelt,
    TakeHit,
    Till,
    Touch,
    Use,
    UseAt,
)
from ..effects import USE_EFFECTS, skill_of, use_effect_of
from ..model import BlockcraftModel, Player
from . import combat, crafting, equipment, movement, terrain
from .geometry import attack_range
from .start import start_cells

MAX_LEGAL = 100
DECISION_CAP = 200  # BC-6.12
END = EndActionPhase.wire()   # one shared dict: ``menu_list`` finds it by identity


def legal_for(st: BlockcraftModel, seat: int) -> list[dict[str, Any]]:
    if st.phase == "choose_character":
        return [ChooseCharacter.wire(c) for c in sorted(st.p[seat].options)]
    if st.phase == "choose_start":
        return [ChooseStart.wire([x, y]) for x, y in start_cells(st, seat)]
    p = st.p[seat]
    top = st.stack.top()
    if top is not None:
        return frame_actions(st, p, top.kind, top.data)
    if st.step == "action":
        if p.decisions >= DECISION_CAP:
            return [END]
        full = action_list(st, p)
        return full if len(full) <= MAX_LEGAL else menu_list(full)
    if st.step == "discard":
        return [Discard.wire(c) for c in sorted(p.hand)]
    # step "end": BC-5.25 m_witch Brew; BC-6.12: after the cap only end_turn
    if p.decisions >= DECISION_CAP:
        return [EndTurn.wire()]
    return [Brew.wire(c) for c in sorted(p.hand) if st.cat.cards[c].kind == "food"] + [EndTurn.wire()]


def hand_limit(p: Player) -> int:
    """BC-5.24 step 2: the hand holds at most half the hunger (rounded up) after settlement."""
    return (p.hunger + 1) // 2


def frame_actions(st: BlockcraftModel, p: Player, kind: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    if kind == "jump":
        return followups(st, p)
    if kind == "place_target":
        return [PlaceAt.wire([x, y]) for x, y in terrain.place_cells(st, p)] + [Cancel.wire()]
    if kind == "use_target":
        eff = use_effect_of(st, data["card"])
        return [UseAt.wire([x, y]) for x, y in eff.targets(st, p)] + [Cancel.wire()]
    if kind == "skill_target":
        return [SkillAt.wire([x, y]) for x, y in skill_of(st, p).targets(st, p)] + [Cancel.wire()]
    if kind == "smelt":
        return crafting.smelt_options(st, p, data)
    if kind == "enchant":
        return [EnchantPick.wire(e) for e in equipment.enchant_picks(st, p, data)] + [EnchantDone.wire()]
    if kind == "dodge":
        return [Dodge.wire(), TakeHit.wire()]
    if kind == "rescue":
        # BC-6.3.2 (spec 1.1): a rescuer without food is still asked (only `pass`): skipping it would
        # tell everyone that its hidden hand holds no food (BC-7.3). BC-6.12: the current player at the
        # decision cap may only pass.
        if p.seat == st.current and p.decisions >= DECISION_CAP:
            return [Pass.wire()]
        return [Feed.wire(c) for c in sorted(p.hand) if st.cat.cards[c].kind == "food"] + [Pass.wire()]
    if kind == "menu":
        return [a for a in action_list(st, p) if group_of(a) == data["group"]] + [Cancel.wire()]
    raise AssertionError(f"unknown frame {kind}")


def followups(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
    """BC-5.9: the follow-ups of a jump (normal legality at the airborne height), plus land."""
    out: list[dict[str, Any]] = [Move.wire(d) for d in movement.move_dirs(st, p)]
    out += [Place.wire(c) for c in terrain.place_types(st, p)]
    out += [Dig.wire([x, y]) for x, y in terrain.dig_cells(st, p)]
    out += [Gather.wire([x, y]) for x, y in terrain.gather_cells(st, p)]
    out += touch_actions(st, p)
    out += finisher_actions(st, p)
    out += [Till.wire([x, y]) for x, y in terrain.till_cells(st, p)]
    out.append(Land.wire())
    return out


def touch_actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
    """BC-5.16.1: once per turn, a target in range, bare hands or an equipped sword/axe."""
    if p.touched or p.ap < 1 or p.hunger < 1:
        return []
    targets = combat.touch_targets(st, p, attack_range(st, p))
    slots = combat.weapon_slots(st, p)
    return [Touch.wire(q.seat, w) for q in targets for w in slots]


def finisher_actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
    """BC-5.17: stamina 1-3, distance <= 3 (u_tidecorpse 4), AP 2, hunger 1."""
    if p.ap < 2 or p.hunger < 1:
        return []
    return [Finisher.wire(q.seat) for q in combat.finisher_targets(st, p)]


def action_list(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
    """BC-5.26 ACTION: every action of the main action state, in a fixed order."""
    out: list[dict[str, Any]] = [Move.wire(d) for d in movement.move_dirs(st, p)]
    if p.ap >= 1 and p.hunger >= 1:
        out.append(Jump.wire())
    near = terrain.scan(st, p, attack_range(st, p))
    out += [Place.wire(c) for c in terrain.place_types(st, p, near)]
    for c in sorted(p.hand):
        card = st.cat.cards[c]
        if card.use_effect is None:
            continue
        eff = USE_EFFECTS.effects[card.use_effect]
        if eff.usable(st, p, c) and eff.targets(st, p) != []:
            out.append(Use.wire(c))
    out += [Dig.wire([x, y]) for x, y in terrain.dig_cells(st, p, near)]
    out += [Gather.wire([x, y]) for x, y in terrain.gather_cells(st, p)]
    out += [Till.wire([x, y]) for x, y in terrain.till_cells(st, p, near)]
    out += [Craft.wire(r) for r in crafting.craftable(st, p)]
    out += equipment.equip_actions(st, p)
    out += touch_actions(st, p)
    out += finisher_actions(st, p)
    out += [Smelt.wire(s) for s in crafting.furnace_slots(st, p)]
    out += equipment.chest_actions(st, p)
    out += skill_of(st, p).actions(st, p)
    out.append(END)
    return out


def group_of(action: dict[str, Any]) -> str:
    t = action["type"]
    return {"retrieve": "store", "jump": "move", "till": "gather", "finisher": "touch"}.get(t, t)


def menu_list(full: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """[design] BC-5.26: a list longer than 100 becomes a menu of action groups (each group <= 100)."""
    groups: list[str] = []
    for a in full:
        g = group_of(a)
        if a is not END and g not in groups:
            groups.append(g)
    return [Menu.wire(g) for g in groups] + [END]


__all__ = ["hand_limit", "legal_for"]
