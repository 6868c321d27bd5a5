"""BC-4.11-BC-4.12, BC-5.1-BC-5.6 and BC-5.23-BC-5.25: turn order, phases, settlement, end phase; the
rule of each turn decision.

Each rule is registered on ``RULES`` by action class (``turn_rule``); ``advance`` then runs every automatic
step (landing, rescue windows, settlement, the next turn) until some seat must decide again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine import Action

from ..actions import (
    Brew,
    Cancel,
    ChooseStart,
    Craft,
    Dig,
    Discard,
    Dodge,
    EnchantDone,
    EnchantPick,
    EndActionPhase,
    EndTurn,
    Equip,
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
    Retrieve,
    SkillAt,
    Smelt,
    SmeltConfirm,
    SmeltFuel,
    SmeltMaterial,
    Store,
    TakeHit,
    Till,
    Touch,
    Use,
    UseAt,
)
from ..actions import Skill as UseSkill
from ..effects import skill_of, use_effect_of
from ..model import BlockcraftModel, Player
from . import combat, crafting, equipment, movement, terrain, uses  # noqa: F401  (uses: registers ender pearl, TNT)
from .dispatch import RULES
from .endgame import finish
from .geometry import height
from .legal import DECISION_CAP, END, hand_limit, legal_for

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
            legal = legal_for(st, st.current)
            if len(legal) == 1 and legal[0] is END:   # BC-5.6.4: nothing left but ending the phase
                end_action_phase(st, cur)
                continue
            st.remember_legal(st.current, legal)   # the engine's cache: the caller asks for it next
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
        cancel(st, p)


def end_action_phase(st: BlockcraftModel, p: Player) -> None:
    """BC-5.23: end the action phase; settlement follows."""
    st.log.public("end_action_phase", seat=p.seat)
    st.step = "xp"


# ---- the rule of each decision ------------------------------------------------------------------
Handler = Callable[[BlockcraftModel, Player, Any], None]


def turn_rule(*kinds: type[Action]) -> Callable[[Handler], Handler]:
    """Register the rule of a turn decision on ``RULES`` as ``fn(st, p, a)``, around it what every turn
    decision does: BC-6.12 counts the current player's decisions; any action but ``menu`` first closes an
    open menu (``cancel`` only closes it); then the automatic steps run (``advance``)."""
    def register(fn: Handler) -> Handler:
        def rule(st: BlockcraftModel, seat: int, a: Action) -> None:
            p = st.p[seat]
            if seat == st.current:
                p.decisions += 1
            top = st.stack.top()
            if top is not None and top.kind == "menu" and type(a) is not Menu:
                st.stack.pop()
                if type(a) is Cancel:
                    advance(st)
                    return
            fn(st, p, a)
            advance(st)
        RULES.on(*kinds)(rule)
        return fn
    return register


@RULES.on(ChooseStart)
def choose_start(st: BlockcraftModel, seat: int, a: ChooseStart) -> None:
    """BC-4.11 / BC-4.12: place the character; after the last seat, the administrator's turn starts."""
    cell = a.cell
    st.p[seat].cell = [cell[0], cell[1]]
    st.start_queue.pop(0)
    st.log.public("start_cell", seat=seat, cell=[cell[0], cell[1]])
    if not st.start_queue:
        st.phase = "turn"
        start_turn(st, st.admin, None)
    advance(st)


def followup(st: BlockcraftModel, p: Player) -> None:
    """BC-5.9: a jump's follow-up was chosen: the landing happens once it has fully resolved."""
    top = st.stack.top()
    if top is not None and top.kind == "jump":
        st.stack.pop()
        st.stack.push("land", p.seat)


@turn_rule(Move)
def move(st: BlockcraftModel, p: Player, a: Move) -> None:
    followup(st, p)
    movement.move(st, p, a.dir)


@turn_rule(Jump)
def jump(st: BlockcraftModel, p: Player, a: Jump) -> None:
    movement.jump(st, p)


@turn_rule(Land)
def land(st: BlockcraftModel, p: Player, a: Land) -> None:
    st.stack.pop()
    movement.land(st, p)


@turn_rule(Place)
def place(st: BlockcraftModel, p: Player, a: Place) -> None:
    top = st.stack.top()
    p.remove(a.card_type)
    st.stack.push("place_target", p.seat, card=a.card_type, in_jump=top is not None and top.kind == "jump")
    # BC-7.3: the card stays hidden from the others until `place_at` commits (BC-7.1 logs it there).
    st.log.private(p.seat, "place_choose", seat=p.seat, card=a.card_type)


@turn_rule(PlaceAt)
def place_at(st: BlockcraftModel, p: Player, a: PlaceAt) -> None:
    frame = st.stack.pop()
    if frame.data["in_jump"]:
        followup(st, p)
    terrain.place(st, p, frame.data["card"], a.cell[0], a.cell[1])


@turn_rule(Use)
def use(st: BlockcraftModel, p: Player, a: Use) -> None:
    card = a.card_type
    eff = use_effect_of(st, card)
    p.remove(card)
    if eff.targets(st, p) is None:
        st.discard_card(card)
        eff.apply(st, p, card, None)
    else:
        st.stack.push("use_target", p.seat, card=card)
        st.log.private(p.seat, "use_choose", seat=p.seat, card=card)  # BC-7.3: public at `use_at`


@turn_rule(UseAt)
def use_at(st: BlockcraftModel, p: Player, a: UseAt) -> None:
    frame = st.stack.pop()
    card = frame.data["card"]
    st.log.public("use", seat=p.seat, card=card, cell=list(a.cell))  # BC-7.1: committed
    st.discard_card(card)
    use_effect_of(st, card).apply(st, p, card, (a.cell[0], a.cell[1]))


def cancel(st: BlockcraftModel, p: Player) -> None:
    """BC-5.6.5: leave the open target choice or smelt builder without paying."""
    top = st.stack.top()
    assert top is not None
    if top.kind == "smelt":
        crafting.smelt_cancel(st, p)
        return
    st.stack.pop()
    if top.kind in ("place_target", "use_target"):
        p.add(top.data["card"])
    st.log.public("cancel", seat=p.seat, what=top.kind)


@turn_rule(Cancel)
def cancel_rule(st: BlockcraftModel, p: Player, a: Cancel) -> None:
    cancel(st, p)


@turn_rule(Dig)
def dig(st: BlockcraftModel, p: Player, a: Dig) -> None:
    followup(st, p)
    terrain.dig(st, p, a.cell[0], a.cell[1])


@turn_rule(Gather)
def gather(st: BlockcraftModel, p: Player, a: Gather) -> None:
    followup(st, p)
    terrain.gather(st, p, a.cell[0], a.cell[1])


@turn_rule(Till)
def till(st: BlockcraftModel, p: Player, a: Till) -> None:
    followup(st, p)
    terrain.till(st, p, a.cell[0], a.cell[1])


@turn_rule(Touch)
def touch(st: BlockcraftModel, p: Player, a: Touch) -> None:
    followup(st, p)
    combat.start_touch(st, p, a.target, a.weapon_slot)


@turn_rule(Finisher)
def finisher(st: BlockcraftModel, p: Player, a: Finisher) -> None:
    followup(st, p)
    combat.finisher(st, p, a.target)


@turn_rule(Dodge)
def dodge(st: BlockcraftModel, p: Player, a: Dodge) -> None:
    frame = st.stack.pop()
    attacker = st.p[frame.data["attacker"]]
    p.hunger = max(0, p.hunger - 2)
    st.log.public("dodge", seat=p.seat, attacker=attacker.seat, hunger=p.hunger)


@turn_rule(TakeHit)
def take_hit(st: BlockcraftModel, p: Player, a: TakeHit) -> None:
    frame = st.stack.pop()
    attacker = st.p[frame.data["attacker"]]
    st.log.public("take_hit", seat=p.seat, attacker=attacker.seat)
    combat.resolve_hit(st, attacker, p, frame.data["weapon"])


@turn_rule(Feed)
def feed(st: BlockcraftModel, p: Player, a: Feed) -> None:
    frame = st.stack.top()
    assert frame is not None
    if combat.feed(st, p.seat, frame.data["victim"], a.card_type):
        st.stack.pop()


@turn_rule(Pass)
def pass_(st: BlockcraftModel, p: Player, a: Pass) -> None:
    frame = st.stack.top()
    assert frame is not None
    frame.data["cur"] = None
    st.log.public("pass", seat=p.seat, victim=frame.data["victim"])


@turn_rule(Craft)
def craft(st: BlockcraftModel, p: Player, a: Craft) -> None:
    crafting.craft(st, p, a.recipe)


@turn_rule(Equip)
def equip(st: BlockcraftModel, p: Player, a: Equip) -> None:
    equipment.equip(st, p, a.card_type, a.replace_slot, a.enchant)


@turn_rule(EnchantPick)
def enchant_pick(st: BlockcraftModel, p: Player, a: EnchantPick) -> None:
    equipment.pick_enchant(st, p, a.card)


@turn_rule(EnchantDone)
def enchant_done(st: BlockcraftModel, p: Player, a: EnchantDone) -> None:
    equipment.finish_enchant(st, p)


@turn_rule(Smelt)
def smelt(st: BlockcraftModel, p: Player, a: Smelt) -> None:
    crafting.open_smelt(st, p, a.furnace_slot)


@turn_rule(SmeltMaterial)
def smelt_material(st: BlockcraftModel, p: Player, a: SmeltMaterial) -> None:
    crafting.smelt_add(st, p, a.card_type, "materials")


@turn_rule(SmeltFuel)
def smelt_fuel(st: BlockcraftModel, p: Player, a: SmeltFuel) -> None:
    crafting.smelt_add(st, p, a.card_type, "fuels")


@turn_rule(SmeltConfirm)
def smelt_confirm(st: BlockcraftModel, p: Player, a: SmeltConfirm) -> None:
    crafting.smelt_confirm(st, p)


@turn_rule(Store)
def store(st: BlockcraftModel, p: Player, a: Store) -> None:
    equipment.store(st, p, a.card_type, a.chest_slot)


@turn_rule(Retrieve)
def retrieve(st: BlockcraftModel, p: Player, a: Retrieve) -> None:
    equipment.retrieve(st, p, a.card_type, a.chest_slot)


@turn_rule(UseSkill)
def skill(st: BlockcraftModel, p: Player, a: UseSkill) -> None:
    skill_of(st, p).act(st, p, a)


@turn_rule(SkillAt)
def skill_at(st: BlockcraftModel, p: Player, a: SkillAt) -> None:
    st.stack.pop()
    skill_of(st, p).act_at(st, p, (a.cell[0], a.cell[1]))


@turn_rule(EndActionPhase)
def end_action_phase_rule(st: BlockcraftModel, p: Player, a: EndActionPhase) -> None:
    end_action_phase(st, p)


@turn_rule(Discard)
def discard(st: BlockcraftModel, p: Player, a: Discard) -> None:
    p.remove(a.card_type)
    st.discard_card(a.card_type)
    st.log.public("discard", seat=p.seat, card=a.card_type)


@turn_rule(Brew)
def brew(st: BlockcraftModel, p: Player, a: Brew) -> None:
    """BC-6.6 m_witch Brew: discard 1 food, +2 stamina; the turn then ends."""
    p.remove(a.card_type)
    st.discard_card(a.card_type)
    p.stamina = min(p.max_stamina, p.stamina + 2)
    st.log.public("brew", seat=p.seat, card=a.card_type, stamina=p.stamina)
    st.turn_over = True


@turn_rule(EndTurn)
def end_turn(st: BlockcraftModel, p: Player, a: EndTurn) -> None:
    st.turn_over = True


@turn_rule(Menu)
def menu(st: BlockcraftModel, p: Player, a: Menu) -> None:
    st.stack.push("menu", p.seat, group=a.group)


__all__ = ["DECISION_CAP", "advance", "height", "start_turn"]
