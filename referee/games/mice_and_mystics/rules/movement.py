"""MM-5.10, MM-5.15, MM-5.18-5.20, MM-6.1-6.3, MM-6.16: mouse movement, water, currents and mousetraps."""
from __future__ import annotations

from typing import Any

from ..actions import EndMove, LeaveWater, StandUp, Step, StepHook, TrapStat
from ..catalog import content
from ..model import MMModel
from . import board, cheese
from .board import AREAS, BURST
from .dispatch import RULES
from .hooks import mouse_has, mouse_mod

C = content()


def move_value(st: MMModel, mouse: str) -> int:
    """MM-6.12 d move value with item modifiers, minimum 0."""
    return max(0, C.heroes[mouse].move + mouse_mod(st, mouse, "move", {}))


def has_hook(st: MMModel, mouse: str) -> bool:
    return any(C.cards[c].effect == "hook_and_twine" for c in st.mice[mouse].pack)


def current_movement(t: dict[str, Any]) -> tuple[str, int] | None:
    """MM-5.15 the movement a step would use: the active one, else the unused normal movement."""
    if t["scurry"] == "active":
        return "scurry", t["scurry_mp"]
    if t["normal"] == "active":
        return "normal", t["normal_mp"]
    if t["normal"] == "unused":
        return "normal", t["normal_mp"]
    return None


def fresh_movement(t: dict[str, Any]) -> bool:
    """MM-6.1 c / MM-6.3 an available movement in which no step has been taken."""
    if t["scurry"] == "active" or t["normal"] == "active":
        return t["steps"] == 0
    return t["normal"] == "unused"


def spend(t: dict[str, Any]) -> None:
    """The active movement (or the one about to start) is spent."""
    if t["scurry"] == "active":
        t["scurry"] = "spent"
        t["scurry_mp"] = 0
    elif t["normal"] in ("active", "unused"):
        t["normal"] = "spent"
        t["normal_mp"] = 0
    t["steps"] = 0


def _pay(t: dict[str, Any], cost: int) -> None:
    if t["scurry"] == "active":
        t["scurry_mp"] -= cost
    else:
        t["normal"] = "active"
        t["normal_mp"] -= cost
    t["steps"] += 1


def _mp_left(t: dict[str, Any]) -> int:
    return t["scurry_mp"] if t["scurry"] == "active" else t["normal_mp"]


def slips(st: MMModel, mouse: str) -> bool:
    """MM-5.19 b/c exemptions: Slippery (Pip), Slip Past, Smoke Seed."""
    t = st.turn
    return bool(t and t.get("slip"))


def may_leave(st: MMModel, mouse: str) -> bool:
    """MM-5.19 b the leaving rule."""
    m = st.mice[mouse]
    foes = board.monsters_in(st, m.at)
    if not foes:
        return True
    if slips(st, mouse) or mouse_has(st, mouse, "slippery"):
        return True
    return len(board.mice_in(st, m.at)) >= len(foes)


def move_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.18/5.19, MM-6.1 c, MM-6.3, MM-6.16 the movement decisions of the main phase."""
    t = st.turn
    assert t is not None
    m = st.mice[mouse]
    area = m.area
    assert area is not None
    out: list[dict[str, Any]] = []
    cur = current_movement(t)
    blocked = "webbed" in m.statuses or "knocked_down" in m.statuses
    water = AREAS[area].water
    if cur is not None and not blocked and may_leave(st, mouse):
        mp = cur[1]
        hook = has_hook(st, mouse) and not t["hook"]
        for n, kind, cost in board.GRAPHS[AREAS[area].side].nbrs[area]:
            dest = AREAS[n]
            if water and not dest.water:
                continue
            if dest.water and dest.current == area:
                continue  # MM-5.19 d upstream
            if not board.can_accept(st, n, "small"):
                continue
            if kind == "red":
                if hook and mp >= 1:
                    out.append(StepHook.wire(n))
                continue
            if cost <= mp:
                out.append(Step.wire(n))
        if water and fresh_movement(t):
            hook = has_hook(st, mouse) and not t["hook"]
            for n, kind, _ in board.GRAPHS[AREAS[area].side].nbrs[area]:
                if kind == "red" or AREAS[n].water or not board.can_accept(st, n, "small"):
                    continue
                out.append(LeaveWater.wire(n, False))
                if hook:
                    out.append(LeaveWater.wire(n, True))
    if "knocked_down" in m.statuses and "webbed" not in m.statuses and cur is not None and fresh_movement(t):
        out.append(StandUp.wire())
    if t["scurry"] == "active" or t["normal"] == "active":
        out.append(EndMove.wire())
    return out


def do_step(st: MMModel, mouse: str, to: str, hook: bool) -> None:
    """MM-5.18 a step (or a Hook and Twine crossing, MM-6.16)."""
    t = st.turn
    assert t is not None
    edge = board.edge_to(st, st.mice[mouse].at, to)
    assert edge is not None, "a legal step follows an edge"
    _kind, cost = edge
    if hook:
        cost = 1
        t["hook"] = True
    _pay(t, cost)
    st.mice[mouse].area = to
    st.log.public("step", mouse=mouse, to=to, cost=cost, hook=hook)
    enter(st, mouse, to)


def enter(st: MMModel, mouse: str, to: str) -> None:
    """After entering by own movement: water stop, then the mousetrap roll, then stops (MM-5.19)."""
    t = st.turn
    assert t is not None
    if AREAS[to].water:
        spend(t)  # MM-6.1 a
    if to in st.traps:
        m = st.mice[mouse]
        hero = C.heroes[mouse]
        if "tinkerer" in hero.classes and hero.lore != move_value(st, mouse):
            st.stack.push("trap_stat", m.seat, mouse=mouse)
            return
        trap_roll(st, mouse, "move")
        return
    after_enter(st, mouse)


def after_enter(st: MMModel, mouse: str) -> None:
    t = st.turn
    assert t is not None
    area = st.mice[mouse].at
    if t["scurry"] == "active" or t["normal"] == "active":
        if board.monsters_in(st, area) and not slips(st, mouse):
            spend(t)  # MM-5.19 c
        elif _mp_left(t) <= 0:
            spend(t)


def trap_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [TrapStat.wire("move"), TrapStat.wire("lore")]


@RULES.on(TrapStat)
def trap_stat(st: MMModel, seat: int, a: TrapStat) -> None:
    """MM-6.2 b a tinkerer chooses the stat of the mousetrap roll."""
    frame = st.stack.pop()
    trap_roll(st, frame.data["mouse"], a.stat)


def trap_roll(st: MMModel, mouse: str, stat: str) -> None:
    """MM-6.2 b-d roll move (or lore for a tinkerer) dice, +2 with Wire Snips."""
    t = st.turn
    assert t is not None
    m = st.mice[mouse]
    n = C.heroes[mouse].lore if stat == "lore" else move_value(st, mouse)
    n += mouse_mod(st, mouse, "trap_dice", {})
    faces = cheese.roll(st, n, "mousetrap", mouse)
    if any(f in BURST for f in faces):
        st.log.public("trap_passed", mouse=mouse, area=m.area)
        after_enter(st, mouse)
        return
    st.traps.remove(m.at)
    st.log.public("trap_sprung", mouse=mouse, area=m.area)
    if not cheese.wound_mouse(st, mouse, 1, False, "mousetrap"):
        cheese.gain_cheese(st, mouse, 1, "mousetrap")
        cheese.add_status(st, mouse, "knocked_down")
    t["ending"] = True  # MM-6.2 d the turn ends at once


def leave_water(st: MMModel, mouse: str, to: str, hook: bool) -> None:
    """MM-6.1 c roll 1 + mice in the destination; any burst puts the mouse there."""
    t = st.turn
    assert t is not None
    spend(t)
    if hook:
        t["hook"] = True
        ok = True
    else:
        faces = cheese.roll(st, 1 + len(board.mice_in(st, to)), "leave_water", mouse)
        ok = any(f in BURST for f in faces)
    st.log.public("leave_water", mouse=mouse, to=to, success=ok, hook=hook)
    if ok:
        st.mice[mouse].area = to
        if to in st.traps:
            enter(st, mouse, to)


def stand_up(st: MMModel, mouse: str) -> None:
    """MM-6.3 spend a fresh movement to remove knocked down."""
    t = st.turn
    assert t is not None
    spend(t)
    m = st.mice[mouse]
    m.statuses = [s for s in m.statuses if s != "knocked_down"]
    st.log.public("stand_up", mouse=mouse)


def apply_current(st: MMModel, mouse: str) -> None:
    """MM-6.1 e at the end of the mouse's own turn, a current moves it one area (OFF: captured)."""
    m = st.mice[mouse]
    if m.captured or m.area is None:
        return
    cur = AREAS[m.area].current
    if not cur:
        return
    if cur == "OFF":
        st.log.public("swept_off", mouse=mouse, area=m.area)
        cheese.capture(st, mouse, "current")
        return
    if board.can_accept(st, cur, "small"):
        st.log.public("current", mouse=mouse, to=cur)
        m.area = cur
