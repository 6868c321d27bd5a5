"""MM-5.14-5.17, MM-5.21, MM-5.30, MM-5.31: the mouse's main phase (movement, one action, free actions)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..catalog import content
from ..effects import ability_cost, call
from . import battle, board, care, cheese, explore, gear, movement, search
from .board import AREAS

if TYPE_CHECKING:
    from ..model import MMModel

C = content()
CLEANSE_STATUSES = ("webbed", "stunned", "knocked_down")


def _needs_cleanse(st: MMModel, x: str, statuses: tuple[str, ...]) -> bool:
    m = st.mice[x]
    return m.poison > 0 or any(s in m.statuses for s in statuses)


def ability_options(st: MMModel, mouse: str, timing: str) -> list[dict[str, Any]]:
    """MM-5.31 one ability card per card turn, affordable, with something to act on."""
    if mouse in st.ability_used:
        return []
    m = st.mice[mouse]
    t = st.turn
    assert t is not None
    out: list[dict[str, Any]] = []
    for a in sorted(m.abilities):
        row = C.abilities[a]
        if row.timing != timing or ability_cost(st, mouse, a) > m.cheese:
            continue
        eff = row.effect
        base = {"type": "ability", "ability": a}
        if eff == "taunt" and not m.taunt or eff == "glamour_ward" and not m.ward or \
                eff == "slip_past" and not t["slip"] or eff == "dash" and movement.current_movement(
                    t) is not None or eff == "second_wind" and care.hurt(st, mouse):
            out.append(base)
        elif eff == "soothing_balm":
            out += [{**base, "target": x} for x in care.near_mice(st, mouse, True) if care.hurt(st, x)]
        elif eff == "cleanse":
            out += [{**base, "target": x} for x in care.near_mice(st, mouse, True)
                    if _needs_cleanse(st, x, CLEANSE_STATUSES)]
        elif eff == "ember_burst":
            areas = sorted({mo.area for mo in st.monsters.values()
                            if board.has_los(st, m.at, mo.area)},
                           key=board.ordinal)
            out += [{**base, "area": x} for x in areas]
        elif eff == "disarm":
            out += [{**base, "area": x} for x in st.traps
                    if board.adjacent_or_same(m.at, x)]
    return out


def item_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.30 items from the pack, party items from the stash, the Tripwire trick."""
    m = st.mice[mouse]
    t = st.turn
    assert t is not None
    out: list[dict[str, Any]] = []
    here = care.near_mice(st, mouse, False)
    for c in m.pack:
        eff = C.cards[c].effect
        if eff == "bread_crumb":
            out += [{"type": "use_item", "card": c, "target": x} for x in here if care.hurt(st, x)]
        elif eff == "mint_leaf":
            out += [{"type": "use_item", "card": c, "target": x} for x in here
                    if _needs_cleanse(st, x, ("webbed", "stunned"))]
        elif eff == "smoke_seed" and not t["slip"]:
            out.append({"type": "use_item", "card": c})
    for c in st.party_stash:
        eff = C.cards[c].effect
        if eff == "honey_drop":
            out += [{"type": "use_party", "card": c, "target": x} for x in here if care.hurt(st, x)]
        elif eff == "rind_offering" and st.wheel > 0:
            out.append({"type": "use_party", "card": c})
    for c in sorted(set(m.tricks)):
        if C.cards[c].effect == "tripwire":
            out += [{"type": "play_trick", "card": c, "target": k} for k, mo in st.monsters.items()
                    if not mo.pinned and board.adjacent_or_same(m.at, mo.area)]
    return out


def main_legal(st: MMModel) -> list[dict[str, Any]]:
    """MM-5.47 the main-phase decisions, in a fixed order."""
    t = st.turn
    assert t is not None
    mouse = t["mouse"]
    m = st.mice[mouse]
    out = movement.move_options(st, mouse)
    stunned = "stunned" in m.statuses
    webbed = "webbed" in m.statuses
    if not t["action"]:
        if not stunned:
            out += battle.battle_options(st, mouse)
            if not webbed:
                out.append({"type": "scurry"})
            if search.can_search(st, mouse):
                out.append({"type": "search"})
            out += explore.explore_options(st, mouse)
            out += care.mend_options(st, mouse)
            out += ability_options(st, mouse, "action")
        if stunned or webbed:
            out.append({"type": "recover"})
    if not AREAS[m.at].water:
        if "equip" not in t["free"] and gear.equip_moves(st, mouse, []):
            out.append({"type": "equip_begin"})
        if "share" not in t["free"]:
            out += [{"type": "share_begin", "mouse": x} for x in gear.share_partners(st, mouse)]
        if "level_up" not in t["free"]:
            out += gear.level_options(st, mouse)
        out += ability_options(st, mouse, "free")
        out += item_options(st, mouse)
    out.append({"type": "end_turn"})
    return out


def _declare_action(t: dict[str, Any]) -> None:
    """MM-5.15 declaring the action spends an active movement ("move then act")."""
    t["action"] = True
    if t["normal"] == "active":
        t["normal"] = "spent"
        t["normal_mp"] = 0
        t["steps"] = 0


def main_apply(st: MMModel, action: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    mouse = t["mouse"]
    m = st.mice[mouse]
    kind = action["type"]
    if kind in ("step", "step_hook"):
        movement.do_step(st, mouse, action["to"], kind == "step_hook")
    elif kind == "leave_water":
        movement.leave_water(st, mouse, action["to"], action["hook"])
    elif kind == "stand_up":
        movement.stand_up(st, mouse)
    elif kind == "end_move":
        movement.spend(t)
    elif kind in ("melee", "ranged"):
        _declare_action(t)
        battle.declare(st, mouse, kind, action["target"], action["weapon"])
    elif kind == "scurry":
        _declare_action(t)
        face = cheese.roll(st, 1, "scurry", mouse)[0]
        t["scurry"] = "active"
        t["scurry_mp"] = movement.move_value(st, mouse) + board.NUMBER[face]
        t["steps"] = 0
        st.log.public("scurry", mouse=mouse, mp=t["scurry_mp"])
    elif kind == "search":
        _declare_action(t)
        search.search(st, mouse)
    elif kind == "recover":
        _declare_action(t)
        care.recover(st, mouse)
    elif kind == "explore":
        _declare_action(t)
        explore.explore(st, mouse, action["area"])
    elif kind == "mend":
        _declare_action(t)
        care.mend(st, mouse, action["target"])
    elif kind == "ability":
        a = action["ability"]
        row = C.abilities[a]
        if row.timing == "action":
            _declare_action(t)
        m.cheese -= ability_cost(st, mouse, a)
        st.ability_used.append(mouse)
        st.log.public("ability", mouse=mouse, ability=a, target=action.get("target"), area=action.get("area"))
        call(row.effect, st, "use", row,
             {"mouse": mouse, "target": action.get("target"), "area": action.get("area")})
    elif kind in ("use_item", "use_party", "play_trick"):
        _use_card(st, mouse, kind, action)
    elif kind == "equip_begin":
        t["free"].append("equip")
        st.stack.push("equip", m.seat, mouse=mouse, moved=[])
    elif kind == "share_begin":
        t["free"].append("share")
        st.stack.push("share", m.seat, mouse=mouse, moved=[], cheese_done=False, **{"with": action["mouse"]})
    elif kind == "level_up":
        t["free"].append("level_up")
        gear.level_up(st, mouse, action["ability"])
    elif kind == "end_turn":
        t["ending"] = True


def _use_card(st: MMModel, mouse: str, kind: str, action: dict[str, Any]) -> None:
    m = st.mice[mouse]
    card = action["card"]
    row = C.cards[card]
    if kind == "use_item":
        if row.use == "consumable":
            m.pack.remove(card)
            st.search_discard.append(card)
    elif kind == "use_party":
        st.party_stash.remove(card)
        st.search_discard.append(card)
    else:
        m.tricks.remove(card)
        st.search_discard.append(card)
    st.log.public(kind, mouse=mouse, card=card, target=action.get("target"))
    call(row.effect, st, "use", row, {"mouse": mouse, "target": action.get("target")})
