"""GB-5.2 round start and GB-5.6 end of round: Monster Damage, Cleanup, Recruit, Discard, Refill,
Pass marker, round limit; GB-6.3.2 shield windows."""
from __future__ import annotations

from typing import Any

from ..actions import Recruit, SpendShields
from ..effects import effect_fn
from ..model import GreyportModel
from .core import (
    TIERS,
    C,
    attack_value,
    card_def,
    draw,
    encounter_id,
    fill_slot,
    group,
    group_of,
    hand_limit,
    has_key,
    loc_has,
    loc_stands,
    location,
    lose,
    mdef,
    move_monster,
    push,
    seats_from,
    stat,
)
from .damage import take_damage
from .dispatch import RULES
from .main import marker_targets
from .tasks import task


# -- GB-5.2 ------------------------------------------------------------------------------------
@task("round_start")
def task_round_start(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.2.1 reset per-round state; GB-5.2.2 forced taunt; GB-5.3.1 priority to the defender."""
    if st.objective_met:
        push(st, [{"op": "encounter_end", "mid_action": False}])
        return
    st.phase = "round_start"
    for p in st.players_:
        p.heroes_played = 0
        p.hero_limit = 2 if st.players == 1 else 1
    st.actor = st.defender
    st.log.public("round", encounter=encounter_id(st), round=st.encounter_round,
                  defending_seat=st.defender)
    if not st.groups[st.defender] and not st.loc_group and st.marker == "taunt" \
            and marker_targets(st):
        st.stack.push("forced_taunt", st.defender)
    push(st, [{"op": "action_phase"}])


@task("action_phase")
def task_action_phase(st: GreyportModel, t: dict[str, Any]) -> None:
    st.phase = "action"
    st.priority = st.defender
    st.passes = 0


# -- GB-5.6.1 Monster Damage ------------------------------------------------------------------------
@task("monster_damage")
def task_monster_damage(st: GreyportModel, t: dict[str, Any]) -> None:
    st.phase = "monster_damage"
    tasks: list[dict[str, Any]] = [{"op": "attack", "m": m} for m in st.groups[st.defender]]
    tasks += [{"op": "festering"}, {"op": "aura"}, {"op": "location_damage"}]
    push(st, tasks)


@task("attack")
def task_attack(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.6.1 a: one active monster attacks the defending player."""
    m = t["m"]
    if m not in st.groups[st.defender]:
        return
    d = attack_value(st, m, st.defender)
    scorch = has_key(mdef(m).abilities, "monster:scorch")
    push(st, [{"op": "damage", "seat": st.defender, "n": d, "src": m, "scorch": scorch}])


@task("festering")
def task_festering(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.6.1 b / GB-3.13 K4: each Festering Wound in the defender's hand deals 1 damage."""
    wounds = sorted(c for c in st.players_[st.defender].hand
                    if card_def(st, c).effect == "wound_at_monster_damage")
    if wounds:
        st.log.public("reveal", seat=st.defender, cards=wounds, why="festering_wound")
        push(st, [{"op": "damage", "seat": st.defender, "n": 1, "src": None, "scorch": False}
                 for _ in wounds])


@task("aura")
def task_aura(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.6.1 c: searing aura of monsters in a standing location's group."""
    if not loc_stands(st):
        return
    for m in list(st.loc_group):
        for a in mdef(m).abilities:
            fn = effect_fn(a.key)
            if fn.when == "aura":
                fn(st, m, *a.args)


@task("location_damage")
def task_location_damage(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.6.1 d-e: the location loses the sum of its monsters' damage; at 0 it is destroyed."""
    if not st.loc or st.loc["status"] != "standing" or not st.loc_group:
        return
    total = sum(0 if any(effect_fn(a.key).when == "aura" for a in mdef(m).abilities)
                else attack_value(st, m, "loc") for m in st.loc_group)
    st.loc["hp"] -= total
    st.log.public("location_damage", location=st.loc["id"], amount=total, hp=st.loc["hp"])
    if st.loc["hp"] <= 0:
        push(st, [{"op": "destroy"}])


# -- GB-6.3.2 damage with a shield window ---------------------------------------------------------------
@task("damage")
def task_damage(st: GreyportModel, t: dict[str, Any]) -> None:
    victim, n = t["seat"], t["n"]
    if n <= 0:
        return
    if not t["scorch"]:
        order = [s for s in seats_from(st, victim) if st.players_[s].shields > 0]
        if order:
            st.stack.push("shield", order[0], victim=victim, remaining=n, order=order[1:], src=t["src"])
            return
    take_damage(st, victim, n, t["src"])


@RULES.on(SpendShields)
def spend_shields(st: GreyportModel, seat: int, a: SpendShields) -> None:
    """GB-6.3.2: the seat spends k shields; the next seat clockwise with shields gets the window while damage
    remains, else the rest is taken."""
    data = st.stack.pop().data
    k = a.count
    if k:
        st.players_[seat].shields -= k
        data["remaining"] -= k
        stat(st, seat, "shields_spent", k)
        if seat != data["victim"]:
            stat(st, seat, "damage_prevented_for_others", k)
        st.log.public("spend_shields", seat=seat, count=k, victim=data["victim"])
    order = [s for s in data["order"] if st.players_[s].shields > 0]
    if data["remaining"] > 0 and order:
        st.stack.push("shield", order[0], victim=data["victim"], remaining=data["remaining"],
                      order=order[1:], src=data["src"])
        return
    take_damage(st, data["victim"], data["remaining"], data["src"])


# -- GB-5.6.2 Cleanup ----------------------------------------------------------------------------------
@task("cleanup")
def task_cleanup(st: GreyportModel, t: dict[str, Any]) -> None:
    st.phase = "cleanup"
    for seat, card in list(st.played):
        if card.startswith("PH") and st.players_[seat].hero_zone != "play":
            continue
        for a in card_def(st, card).abilities:
            if a.key.startswith("cleanup:"):
                effect_fn(a.key)(st, seat, card, *a.args)
    if loc_stands(st):
        fn = effect_fn(C.location_abilities[location(st)["id"]].key)
        if fn.when == "location_cleanup":
            fn(st)
    for key in ["loc", *seats_from(st, st.defender)]:
        for m in list(group(st, key)):
            for a in mdef(m).abilities:
                fn = effect_fn(a.key)
                if fn.when == "monster_cleanup" and group_of(st, m) is not None:
                    fn(st, m, *a.args)
    for seat, card in st.played:
        p = st.players_[seat]
        if card.startswith("PH"):
            if p.hero_zone == "play":
                p.hero_zone = "return_zone"
        else:
            p.discard.append(card)
    for p in st.players_:
        p.play = []
        p.loose = []
        p.shields = 0
    st.played = []
    st.log.public("cleanup")


# -- GB-5.6.3 Recruit ----------------------------------------------------------------------------------
def recruit_pairs(st: GreyportModel, seat: int) -> list[dict[str, Any]]:
    """GB-6.9: (coin, row card) pairs; fallback copper-as-silver, then everything-as-gold."""
    coins = [t for t in TIERS if st.players_[seat].coins[t]]
    cards = [c for c in st.hero_row + st.item_row if c]
    if not coins or not cards:
        return []
    base = {"copper": 1 if loc_has(st, "copper_as_silver") else 0, "silver": 1, "gold": 2}
    cost = {c: TIERS.index(card_def(st, c).cost) for c in cards}
    for tiers in (base, {**base, "copper": max(base["copper"], 1)},
                  {"copper": 2, "silver": 2, "gold": 2}):
        out = [Recruit.wire(t, c) for t in coins for c in cards if cost[c] <= tiers[t]]
        if out:
            return out
    return []


@task("recruit")
def task_recruit(st: GreyportModel, t: dict[str, Any]) -> None:
    st.phase = "recruit"
    if recruit_pairs(st, st.defender):
        st.stack.push("recruit", st.defender)


@RULES.on(Recruit)
def recruit(st: GreyportModel, seat: int, a: Recruit) -> None:
    """GB-5.6.3: spend the coin, take the row card (its slot refills at once) into hand."""
    st.stack.pop()
    coin, card = a.coin, a.card
    p = st.players_[seat]
    p.coins[coin] -= 1
    take_from_row(st, card)
    p.hand.append(card)
    stat(st, seat, "cards_recruited")
    st.log.public("recruit", seat=seat, coin=coin, card=card)


def take_from_row(st: GreyportModel, card: str) -> None:
    """GB-6.10: a card leaves a row; its slot refills at once."""
    for row, cells in (("heroes", st.hero_row), ("items", st.item_row)):
        if card in cells:
            i = cells.index(card)
            cells[i] = None
            fill_slot(st, row, i, setup=False)
            return


# -- GB-5.6.4 Discard / GB-5.6.5 Refill
# -------------------------------------------------------------------
def is_dread(st: GreyportModel, card: str) -> bool:
    return card_def(st, card).effect == "hand_limit_minus1"


def reveal_dread(st: GreyportModel, seat: int, cards: list[str]) -> None:
    """GB-7.4: a Gnawing Dread is revealed when it lowers a hand limit being applied (each copy always
    does: the limit is at least 5 before the Dreads and never below 3)."""
    dread = sorted(c for c in cards if is_dread(st, c))
    if dread:
        st.log.public("reveal", seat=seat, cards=dread, why="gnawing_dread")


@task("discard_step")
def task_discard_step(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.6.4: the limit applies from here on; the Dreads in hand now are revealed once."""
    st.phase = "discard"
    p = st.players_[st.defender]
    if p.hero_zone == "hand":
        p.hero_zone = "return_zone"
    reveal_dread(st, st.defender, p.hand)
    st.stack.push("discard", st.defender)


@task("refill")
def task_refill(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.6.5: draw one at a time up to the limit, recomputed after every draw; a Dread drawn here
    lowers the limit being applied and is revealed as it is drawn (GB-7.4). A loss during the draws
    (Bad Omen) ends everything at once (GB-5.8.1): the player hero stays in the return zone."""
    st.phase = "refill"
    seat = st.defender
    p = st.players_[seat]
    while st.result is None and len(p.hand) < hand_limit(st, seat) and (p.deck or p.discard):
        reveal_dread(st, seat, draw(st, seat, 1))
    if st.result is not None:
        return
    if p.hero_zone == "return_zone":
        p.hero_zone = "hand"


# -- GB-5.6.6 Pass marker, GB-5.6.7 round limit
# ---------------------------------------------------------------
@task("pass_marker")
def task_pass_marker(st: GreyportModel, t: dict[str, Any]) -> None:
    st.phase = "pass_marker"
    old = st.defender
    new = (old + 1) % st.players
    st.defender = new
    st.marker = "taunt"
    if new != old:
        for m in list(st.groups[old]):
            if "ferocious" in mdef(m).tags:
                move_monster(st, m, new)
    st.log.public("marker", seat=new)
    st.encounter_round += 1
    st.total_rounds += 1
    if st.encounter_round > st.options["round_limit"]:
        lose(st, "round_limit")
        return
    push(st, [{"op": "round_start"}])
