"""BC-5.1-BC-5.6 and BC-5.23-BC-5.25: turn order, phases, settlement, end phase; decision dispatch.

``dispatch`` applies one decision; ``advance`` then runs every automatic step (landing, rescue
windows, settlement, the next turn) until some seat must decide again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..effects import skill_of, use_effect_of
from . import combat, crafting, equipment, movement, terrain
from .endgame import finish
from .geometry import height

if TYPE_CHECKING:
    from ..model import BlockcraftModel, Player

DECISION_CAP = 200  # BC-6.12
SUB_PHASES = ("jump", "place_target", "use_target", "skill_target", "smelt", "enchant", "menu")


# ---- turn order -------------------------------------------------------------------------------
def offset(st: BlockcraftModel, seat: int) -> int:
    return (seat - st.admin) % st.players


def start_turn(st: BlockcraftModel, seat: int, prev: int | None) -> None:
    """BC-5.1 + BC-5.3-BC-5.5 + BC-5.6.1: round/day, counters, start skills, farmland, draw, AP, furnace."""
    if prev is None or offset(st, seat) <= offset(st, prev):
        st.round += 1
        if st.round > st.max_rounds:
            st.round = st.max_rounds
            finish(st, "round_limit")
            return
        st.day = (st.round - 1) % 5 < 3
    st.current = seat
    st.step = "action"
    p = st.p[seat]
    p.reset_turn()
    equipment.refresh_chests(p)
    sk = skill_of(st, p)
    sk.start_of_turn(st, p)
    assert p.cell is not None
    stack = st.cell(p.cell[0], p.cell[1])
    if stack and stack[-1]["s"] == "farmland":
        p.hunger = min(p.max_hunger, p.hunger + 2)
        got = st.take_supply("wheat", sk.wheat)
        p.add("wheat", got) if got else None
        st.log.public("farmland", seat=seat, hunger=p.hunger, wheat=got)
    st.draw(seat, "turn")
    ap = (5 if seat == st.boss_seat else 4) + sk.ap_bonus
    if p.fatigue:
        ap = max(0, ap - 2)
        p.fatigue = False
    p.ap = ap
    st.log.public("turn", seat=seat, round=st.round, day=st.day, ap=ap)
    crafting.complete_furnaces(st, p)


def next_turn(st: BlockcraftModel) -> None:
    """BC-5.1: the next living seat to the right takes its turn."""
    st.turn_over = False
    st.stack.frames = []
    prev = st.current
    for i in range(1, st.players + 1):
        s = (prev + i) % st.players
        if st.p[s].alive:
            start_turn(st, s, prev)
            return


# ---- BC-5.24 settlement -------------------------------------------------------------------------
def hand_limit(p: Player) -> int:
    return (p.hunger + 1) // 2


def settle_xp(st: BlockcraftModel, p: Player) -> None:
    """BC-5.24 step 1: ores (x2 h_miner) + Touch hits + 3 x kills + 1 by Day."""
    gain = p.ores_gathered * skill_of(st, p).ore_xp + p.touch_hits + 3 * p.kill_xp + (1 if st.day else 0)
    p.kill_xp = 0
    p.xp += gain
    p.xp_earned += gain
    st.log.public("settle", seat=p.seat, xp_gain=gain, xp=p.xp, limit=hand_limit(p))


def settle_idle(st: BlockcraftModel, p: Player) -> None:
    """BC-5.24 steps 3-4: idle hunger loss, starvation."""
    if p.ap_spent == 0:
        p.hunger = max(0, p.hunger - 1)
        st.log.public("idle", seat=p.seat, hunger=p.hunger)
    if p.hunger == 0:
        combat.damage(st, p, 1, source=None, armoured=False, why="starvation")
        combat.downed_checks(st)


# ---- the automatic driver -------------------------------------------------------------------------
def advance(st: BlockcraftModel) -> None:
    """Run automatic steps until a seat must decide (or the game is over)."""
    while st.phase == "turn":
        top = st.stack.top()
        cur = st.p[st.current]
        if top is not None:
            if top.kind == "land":
                st.stack.pop()
                movement.land(st, st.p[top.seat])
                continue
            if top.kind == "rescue":
                data = top.data
                if data.get("cur") is None or not st.p[data["cur"]].active:
                    r = combat.next_rescuer(st, data["victim"], data["asked"])
                    if r is None:
                        st.stack.pop()
                        v = st.p[data["victim"]]
                        combat.kill(st, v.seat, v.downed_by, "not_rescued")
                        continue
                    data["cur"] = r
                    data["asked"].append(r)
                    top.seat = r
                return
            if (top.kind in SUB_PHASES and top.seat == st.current and cur.decisions >= DECISION_CAP):
                close_sub_phase(st, cur)
                continue
            return
        if st.turn_over or not cur.alive:
            next_turn(st)
            continue
        if st.step == "action":
            legal = st.legal_actions(st.current)   # the engine keeps it for the next legal_actions()
            if len(legal) == 1 and legal[0]["type"] == "end_action_phase":
                end_action_phase(st, cur)
                st.forget_legal()
                continue
            return
        if st.step == "xp":
            settle_xp(st, cur)
            st.step = "discard"
            continue
        if st.step == "discard":
            if cur.hand_size() > hand_limit(cur):
                return
            st.step = "idle"
            continue
        if st.step == "idle":
            st.step = "end_check"
            settle_idle(st, cur)
            continue
        if st.step == "end_check":
            if skill_of(st, cur).end_phase and cur.stamina < cur.max_stamina:
                st.step = "end"
                return
            next_turn(st)
            continue
        return  # step "end": the m_witch decides


def close_sub_phase(st: BlockcraftModel, p: Player) -> None:
    """BC-6.12: at the decision cap an open sub-phase closes as cancel / land / enchant_done."""
    top = st.stack.top()
    assert top is not None
    if top.kind == "jump":
        st.stack.pop()
        movement.land(st, p)
    elif top.kind == "enchant":
        equipment.finish_enchant(st, p)
    elif top.kind == "smelt":
        crafting.smelt_cancel(st, p)
    else:
        cancel(st, p, {})


def end_action_phase(st: BlockcraftModel, p: Player) -> None:
    """BC-5.23: end the action phase; settlement follows."""
    st.log.public("end_action_phase", seat=p.seat)
    st.step = "xp"


# ---- decision handlers -------------------------------------------------------------------------
def followup(st: BlockcraftModel, p: Player) -> None:
    """BC-5.9: a jump's follow-up was chosen: the landing happens once it has fully resolved."""
    top = st.stack.top()
    if top is not None and top.kind == "jump":
        st.stack.pop()
        st.stack.push("land", p.seat)


def h_move(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    followup(st, p)
    movement.move(st, p, a["dir"])


def h_jump(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    movement.jump(st, p)


def h_land(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    st.stack.pop()
    movement.land(st, p)


def h_place(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    top = st.stack.top()
    p.remove(a["card_type"])
    st.stack.push("place_target", p.seat, card=a["card_type"], in_jump=top is not None and top.kind == "jump")
    # BC-7.3: the card stays hidden from the others until `place_at` commits (BC-7.1 logs it there).
    st.log.private(p.seat, "place_choose", seat=p.seat, card=a["card_type"])


def h_place_at(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    frame = st.stack.pop()
    if frame.data["in_jump"]:
        followup(st, p)
    terrain.place(st, p, frame.data["card"], a["cell"][0], a["cell"][1])


def h_use(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    card = a["card_type"]
    eff = use_effect_of(st, card)
    p.remove(card)
    if eff.targets(st, p) is None:
        st.discard_card(card)
        eff.apply(st, p, card, None)
    else:
        st.stack.push("use_target", p.seat, card=card)
        st.log.private(p.seat, "use_choose", seat=p.seat, card=card)  # BC-7.3: public at `use_at`


def h_use_at(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    frame = st.stack.pop()
    card = frame.data["card"]
    st.log.public("use", seat=p.seat, card=card, cell=list(a["cell"]))  # BC-7.1: committed
    st.discard_card(card)
    use_effect_of(st, card).apply(st, p, card, (a["cell"][0], a["cell"][1]))


def cancel(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    top = st.stack.top()
    assert top is not None
    if top.kind == "smelt":
        crafting.smelt_cancel(st, p)
        return
    st.stack.pop()
    if top.kind in ("place_target", "use_target"):
        p.add(top.data["card"])
    st.log.public("cancel", seat=p.seat, what=top.kind)


def h_dig(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    followup(st, p)
    terrain.dig(st, p, a["cell"][0], a["cell"][1])


def h_gather(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    followup(st, p)
    terrain.gather(st, p, a["cell"][0], a["cell"][1])


def h_till(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    followup(st, p)
    terrain.till(st, p, a["cell"][0], a["cell"][1])


def h_touch(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    followup(st, p)
    combat.start_touch(st, p, a["target"], a["weapon_slot"])


def h_finisher(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    followup(st, p)
    combat.finisher(st, p, a["target"])


def h_dodge(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    frame = st.stack.pop()
    attacker = st.p[frame.data["attacker"]]
    if a["type"] == "dodge":
        p.hunger = max(0, p.hunger - 2)
        st.log.public("dodge", seat=p.seat, attacker=attacker.seat, hunger=p.hunger)
    else:
        st.log.public("take_hit", seat=p.seat, attacker=attacker.seat)
        combat.resolve_hit(st, attacker, p, frame.data["weapon"])


def h_feed(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    frame = st.stack.top()
    assert frame is not None
    if combat.feed(st, p.seat, frame.data["victim"], a["card_type"]):
        st.stack.pop()


def h_pass(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    frame = st.stack.top()
    assert frame is not None
    frame.data["cur"] = None
    st.log.public("pass", seat=p.seat, victim=frame.data["victim"])


def h_craft(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    crafting.craft(st, p, a["recipe"])


def h_equip(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    equipment.equip(st, p, a["card_type"], a["replace_slot"], a["enchant"])


def h_enchant_pick(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    equipment.pick_enchant(st, p, a["card"])


def h_enchant_done(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    equipment.finish_enchant(st, p)


def h_smelt(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    crafting.open_smelt(st, p, a["furnace_slot"])


def h_smelt_add(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    crafting.smelt_add(st, p, a["card_type"], "materials" if a["type"] == "smelt_material" else "fuels")


def h_smelt_confirm(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    crafting.smelt_confirm(st, p)


def h_store(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    equipment.store(st, p, a["card_type"], a["chest_slot"])


def h_retrieve(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    equipment.retrieve(st, p, a["card_type"], a["chest_slot"])


def h_skill(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    skill_of(st, p).act(st, p, a)


def h_skill_at(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    st.stack.pop()
    skill_of(st, p).act_at(st, p, (a["cell"][0], a["cell"][1]))


def h_end_action_phase(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    end_action_phase(st, p)


def h_discard(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    p.remove(a["card_type"])
    st.discard_card(a["card_type"])
    st.log.public("discard", seat=p.seat, card=a["card_type"])


def h_brew(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    """BC-6.6 m_witch Brew: discard 1 food, +2 stamina; the turn then ends."""
    p.remove(a["card_type"])
    st.discard_card(a["card_type"])
    p.stamina = min(p.max_stamina, p.stamina + 2)
    st.log.public("brew", seat=p.seat, card=a["card_type"], stamina=p.stamina)
    st.turn_over = True


def h_end_turn(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    st.turn_over = True


def h_menu(st: BlockcraftModel, p: Player, a: dict[str, Any]) -> None:
    st.stack.push("menu", p.seat, group=a["group"])


HANDLERS: dict[str, Callable[[BlockcraftModel, Player, dict[str, Any]], None]] = {
    "move": h_move, "jump": h_jump, "land": h_land, "place": h_place, "place_at": h_place_at, "use": h_use,
    "use_at": h_use_at, "cancel": cancel, "dig": h_dig, "gather": h_gather, "till": h_till, "touch": h_touch,
    "finisher": h_finisher, "dodge": h_dodge, "take_hit": h_dodge, "feed": h_feed, "pass": h_pass,
    "craft": h_craft, "equip": h_equip, "enchant_pick": h_enchant_pick, "enchant_done": h_enchant_done,
    "smelt": h_smelt, "smelt_material": h_smelt_add, "smelt_fuel": h_smelt_add,
    "smelt_confirm": h_smelt_confirm,
    "store": h_store, "retrieve": h_retrieve, "skill": h_skill, "skill_at": h_skill_at,
    "end_action_phase": h_end_action_phase, "discard": h_discard, "brew": h_brew, "end_turn": h_end_turn,
    "menu": h_menu,
}


def dispatch(st: BlockcraftModel, seat: int, action: dict[str, Any]) -> None:
    """Apply one (legal) decision, then run the automatic steps."""
    kind = action["type"]
    if st.phase == "choose_character":
        from ..setup import choose_character

        choose_character(st, seat, action["character"])
        return
    if st.phase == "choose_start":
        from ..setup import choose_start

        choose_start(st, seat, action["cell"])
        advance(st)
        return
    p = st.p[seat]
    if seat == st.current:
        p.decisions += 1
    top = st.stack.top()
    if top is not None and top.kind == "menu" and kind != "menu":
        st.stack.pop()
        if kind == "cancel":
            advance(st)
            return
    HANDLERS[kind](st, p, action)
    advance(st)


__all__ = ["advance", "dispatch", "height", "start_turn"]
