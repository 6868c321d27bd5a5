"""MM-5.14-5.17, MM-5.21, MM-5.30, MM-5.31: the mouse's main phase (movement, one action, free actions)."""
from __future__ import annotations

from typing import Any

from ..actions import (
    EndMove,
    EndTurn,
    EquipBegin,
    Explore,
    LeaveWater,
    LevelUp,
    Melee,
    Mend,
    PlayTrick,
    Ranged,
    Recover,
    Scurry,
    Search,
    ShareBegin,
    StandUp,
    Step,
    StepHook,
    UseAbility,
    UseItem,
    UseParty,
)
from ..catalog import content
from ..model import MMModel
from . import battle, board, care, cheese, explore, gear, movement, search
from .board import AREAS
from .dispatch import RULES
from .hooks import ability_cost, call

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
        if eff == "taunt" and not m.taunt or eff == "glamour_ward" and not m.ward or \
                eff == "slip_past" and not t["slip"] or eff == "dash" and movement.current_movement(
                    t) is not None or eff == "second_wind" and care.hurt(st, mouse):
            out.append(UseAbility.wire(a))
        elif eff == "soothing_balm":
            out += [UseAbility.wire(a, target=x) for x in care.near_mice(st, mouse, True) if care.hurt(st, x)]
        elif eff == "cleanse":
            out += [UseAbility.wire(a, target=x) for x in care.near_mice(st, mouse, True)
                    if _needs_cleanse(st, x, CLEANSE_STATUSES)]
        elif eff == "ember_burst":
            areas = sorted({mo.area for mo in st.monsters.values()
                            if board.has_los(st, m.at, mo.area)},
                           key=board.ordinal)
            out += [UseAbility.wire(a, area=x) for x in areas]
        elif eff == "disarm":
            out += [UseAbility.wire(a, area=x) for x in st.traps
                    if board.adjacent_or_same(m.at, x)]
    return out


def item_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.30 items from the pack, party items from the stash, the Tripwire trick."""
    m = st.mice[mouse]
    t = st.turn
    assert t is not None
    out: list[dict[str, Any]] = []
    here = care.near_mice(st, mouse, False) if m.pack or st.party_stash else []
    for c in m.pack:
        eff = C.cards[c].effect
        if eff == "bread_crumb":
            out += [UseItem.wire(c, x) for x in here if care.hurt(st, x)]
        elif eff == "mint_leaf":
            out += [UseItem.wire(c, x) for x in here
                    if _needs_cleanse(st, x, ("webbed", "stunned"))]
        elif eff == "smoke_seed" and not t["slip"]:
            out.append(UseItem.wire(c))
    for c in st.party_stash:
        eff = C.cards[c].effect
        if eff == "honey_drop":
            out += [UseParty.wire(c, x) for x in here if care.hurt(st, x)]
        elif eff == "rind_offering" and st.wheel > 0:
            out.append(UseParty.wire(c))
    for c in sorted(set(m.tricks)):
        if C.cards[c].effect == "tripwire":
            out += [PlayTrick.wire(c, k) for k, mo in st.monsters.items()
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
                out.append(Scurry.wire())
            if search.can_search(st, mouse):
                out.append(Search.wire())
            out += explore.explore_options(st, mouse)
            out += care.mend_options(st, mouse)
            out += ability_options(st, mouse, "action")
        if stunned or webbed:
            out.append(Recover.wire())
    if not AREAS[m.at].water:
        if "equip" not in t["free"] and gear.can_equip(st, mouse, []):
            out.append(EquipBegin.wire())
        if "share" not in t["free"]:
            out += [ShareBegin.wire(x) for x in gear.share_partners(st, mouse)]
        if "level_up" not in t["free"]:
            out += gear.level_options(st, mouse)
        out += ability_options(st, mouse, "free")
        out += item_options(st, mouse)
    out.append(EndTurn.wire())
    return out


def _declare_action(t: dict[str, Any]) -> None:
    """MM-5.15 declaring the action spends an active movement ("move then act")."""
    t["action"] = True
    if t["normal"] == "active":
        t["normal"] = "spent"
        t["normal_mp"] = 0
        t["steps"] = 0


def _turn(st: MMModel) -> tuple[dict[str, Any], str]:
    """The running mouse turn and its mouse."""
    t = st.turn
    assert t is not None
    return t, t["mouse"]


# -- movement (MM-5.15, MM-5.18, MM-6.1 c, MM-6.3, MM-6.16) ----------------------------------------------
@RULES.on(Step)
def step(st: MMModel, seat: int, a: Step) -> None:
    movement.do_step(st, _turn(st)[1], a.to, False)


@RULES.on(StepHook)
def step_hook(st: MMModel, seat: int, a: StepHook) -> None:
    movement.do_step(st, _turn(st)[1], a.to, True)


@RULES.on(LeaveWater)
def leave_water(st: MMModel, seat: int, a: LeaveWater) -> None:
    movement.leave_water(st, _turn(st)[1], a.to, a.hook)


@RULES.on(StandUp)
def stand_up(st: MMModel, seat: int, a: StandUp) -> None:
    movement.stand_up(st, _turn(st)[1])


@RULES.on(EndMove)
def end_move(st: MMModel, seat: int, a: EndMove) -> None:
    movement.spend(_turn(st)[0])


# -- the action (MM-5.14, MM-5.21-5.26) ----------------------------------------------------------------
@RULES.on(Melee, Ranged)
def attack(st: MMModel, seat: int, a: Melee | Ranged) -> None:
    t, mouse = _turn(st)
    _declare_action(t)
    battle.declare(st, mouse, a.TYPE, a.target, a.weapon)


@RULES.on(Scurry)
def scurry(st: MMModel, seat: int, a: Scurry) -> None:
    """MM-5.21 a new movement with a new roll."""
    t, mouse = _turn(st)
    _declare_action(t)
    face = cheese.roll(st, 1, "scurry", mouse)[0]
    t["scurry"] = "active"
    t["scurry_mp"] = movement.move_value(st, mouse) + board.NUMBER[face]
    t["steps"] = 0
    st.log.public("scurry", mouse=mouse, mp=t["scurry_mp"])


@RULES.on(Search)
def search_action(st: MMModel, seat: int, a: Search) -> None:
    t, mouse = _turn(st)
    _declare_action(t)
    search.search(st, mouse)


@RULES.on(Recover)
def recover(st: MMModel, seat: int, a: Recover) -> None:
    t, mouse = _turn(st)
    _declare_action(t)
    care.recover(st, mouse)


@RULES.on(Explore)
def explore_action(st: MMModel, seat: int, a: Explore) -> None:
    t, mouse = _turn(st)
    _declare_action(t)
    explore.explore(st, mouse, a.area)


@RULES.on(Mend)
def mend(st: MMModel, seat: int, a: Mend) -> None:
    t, mouse = _turn(st)
    _declare_action(t)
    care.mend(st, mouse, a.target)


@RULES.on(UseAbility)
def use_ability(st: MMModel, seat: int, a: UseAbility) -> None:
    """MM-5.31 one ability card per card turn; an action ability is the turn's action."""
    t, mouse = _turn(st)
    row = C.abilities[a.ability]
    if row.timing == "action":
        _declare_action(t)
    st.mice[mouse].cheese -= ability_cost(st, mouse, a.ability)
    st.ability_used.append(mouse)
    st.log.public("ability", mouse=mouse, ability=a.ability, target=a.target, area=a.area)
    call(row.effect, st, "use", row, {"mouse": mouse, "target": a.target, "area": a.area})


# -- free actions (MM-5.17, MM-5.28-5.30, MM-5.32) -------------------------------------------------------
@RULES.on(UseItem)
def use_item(st: MMModel, seat: int, a: UseItem) -> None:
    mouse = _turn(st)[1]
    if C.cards[a.card].use == "consumable":
        st.mice[mouse].pack.remove(a.card)
        st.search_discard.append(a.card)
    _card_used(st, mouse, a.TYPE, a.card, a.target)


@RULES.on(UseParty)
def use_party(st: MMModel, seat: int, a: UseParty) -> None:
    st.party_stash.remove(a.card)
    st.search_discard.append(a.card)
    _card_used(st, _turn(st)[1], a.TYPE, a.card, a.target)


@RULES.on(PlayTrick)
def play_trick(st: MMModel, seat: int, a: PlayTrick) -> None:
    mouse = _turn(st)[1]
    st.mice[mouse].tricks.remove(a.card)
    st.search_discard.append(a.card)
    _card_used(st, mouse, a.TYPE, a.card, a.target)


def _card_used(st: MMModel, mouse: str, event: str, card: str, target: str | None) -> None:
    row = C.cards[card]
    st.log.public(event, mouse=mouse, card=card, target=target)
    call(row.effect, st, "use", row, {"mouse": mouse, "target": target})


@RULES.on(EquipBegin)
def equip_begin(st: MMModel, seat: int, a: EquipBegin) -> None:
    t, mouse = _turn(st)
    t["free"].append("equip")
    st.stack.push("equip", st.mice[mouse].seat, mouse=mouse, moved=[])


@RULES.on(ShareBegin)
def share_begin(st: MMModel, seat: int, a: ShareBegin) -> None:
    t, mouse = _turn(st)
    t["free"].append("share")
    st.stack.push("share", st.mice[mouse].seat, mouse=mouse, moved=[], cheese_done=False, **{"with": a.mouse})


@RULES.on(LevelUp)
def level_up(st: MMModel, seat: int, a: LevelUp) -> None:
    t, mouse = _turn(st)
    t["free"].append("level_up")
    gear.level_up(st, mouse, a.ability)


@RULES.on(EndTurn)
def end_turn(st: MMModel, seat: int, a: EndTurn) -> None:
    _turn(st)[0]["ending"] = True
