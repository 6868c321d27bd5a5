"""GB-5.3 priority passing and GB-5.4 main actions (play hero/item, fight, marker taunt, abilities,
shake off, pass)."""
from __future__ import annotations

from typing import Any

from ..actions import Fight, MarkerTaunt, Pass, PlayHero, PlayItem, ShakeOff, UseAbility
from ..effects import ROUND, effect_fn
from ..model import GreyportModel
from .core import card_def, move_monster, push, stat, taunt_targets
from .dispatch import RULES
from .fight import entry_of, start_fight, target_sets, targeting
from .tasks import task

MAX_LEGAL = 100


def _round_abilities(d: Any) -> list[Any]:
    """GB-3.4 the `round:` abilities of a design, in printed order (cached per design)."""
    out = _ROUND.get(d.id)
    if out is None:
        out = _ROUND[d.id] = [a for a in d.abilities if a.key.startswith("round:")]
    return out


_ROUND: dict[str, list[Any]] = {}


def end_action_phase(st: GreyportModel) -> None:
    """GB-5.3.4: N passes in a row end the phase; GB-5.6 steps follow."""
    st.actor = st.defender
    push(st, [{"op": s} for s in ("monster_damage", "cleanup", "recruit", "discard_step", "refill",
                                 "pass_marker")])
    st.phase = "monster_damage"


def main_legal(st: GreyportModel, seat: int) -> list[dict[str, Any]]:
    """GB-5.4: every main action of the seat with priority, in a fixed order."""
    p = st.players_[seat]
    out: list[dict[str, Any]] = []
    can_hero = p.heroes_played < p.hero_limit
    hand = sorted(p.hand)
    defs = {c: card_def(st, c) for c in hand}
    if can_hero:
        if p.hero_zone == "hand":
            out.append(PlayHero.wire(f"PH{seat}"))
        out += [PlayHero.wire(c) for c in hand if defs[c].kind == "hero"]
    open_heroes = [(e["card"], card_def(st, e["card"]).type) for e in p.play
                   if e["item"] is None and not e["fought"]]
    if open_heroes:
        for c in hand:
            d = defs[c]
            if d.kind == "item":
                out += [PlayItem.wire(c, h) for h, t in open_heroes if t == d.type]
    fights: list[dict[str, Any]] = []
    fight = Fight.wire
    sets_by_flags: dict[tuple[bool, bool], list[list[str]]] = {}  # heroes that target alike share them
    for e in p.play:
        if not e["exhausted"]:
            flags = targeting(st, e)
            sets = sets_by_flags.get(flags)
            if sets is None:
                sets = sets_by_flags[flags] = target_sets(st, e, {"cleave": flags[0], "snipe": flags[1]})
                fights += [fight(e["card"], t) for t in sets]
            else:
                fights += [fight(e["card"], list(t)) for t in sets]
    rest: list[dict[str, Any]] = []
    if seat == st.defender and st.marker == "taunt":
        rest += [MarkerTaunt.wire(m) for m in marker_targets(st)]
    for e in p.play:
        for card in (e["card"], e["item"]):
            if card is None:
                continue
            abilities = _round_abilities(card_def(st, card))
            if not abilities:
                continue
            for a in abilities:
                code = a.key[6:]
                used = {"card": card, "ability": code} in e["round_used"]
                if not used and ROUND[a.key].available(st, seat, card):
                    rest.append(UseAbility.wire(card, code))
    if can_hero:
        rest += [ShakeOff.wire(c) for c in hand if defs[c].kind == "curse"]
    rest.append(Pass.wire())
    if len(out) + len(fights) + len(rest) > MAX_LEGAL:
        # [design] GB-5.9 overflow: a fight becomes two decisions (hero, then targets).
        heroes = list(dict.fromkeys(f["hero"] for f in fights))
        fights = [Fight.wire(h, []) for h in heroes]
    return out + fights + rest


def marker_targets(st: GreyportModel) -> list[str]:
    """GB-5.4.4: monsters outside the active group that are not immovable."""
    return taunt_targets(st, st.defender)


def queue_play_abilities(st: GreyportModel, seat: int, card: str) -> None:
    """GB-3.4 ``play``: resolve at once, in printed order (GB-6.15.1)."""
    push(st, [{"op": "play_ability", "seat": seat, "card": card, "i": i}
             for i, a in enumerate(card_def(st, card).abilities) if a.key.startswith("play:")])


@task("play_ability")
def task_play_ability(st: GreyportModel, t: dict[str, Any]) -> None:
    a = card_def(st, t["card"]).abilities[t["i"]]
    effect_fn(a.key)(st, t["seat"], t["card"], *a.args)


def main_auto_ok(st: GreyportModel, seat: int) -> bool:
    """GB-5.3.5 exception: a hidden hand with any card is always asked."""
    return st.open_hands() or not st.players_[seat].hand


# -- the main actions (GB-5.4), by action class -----------------------------------------------------------
def main_action(st: GreyportModel, seat: int) -> None:
    """GB-5.3.3: any main action but a pass resets the passes in a row."""
    st.actor = seat
    st.passes = 0


@RULES.on(Pass)
def pass_priority(st: GreyportModel, seat: int, a: Pass) -> None:
    """GB-5.4.7 / GB-5.3.4: N passes in a row end the action phase, else priority moves on."""
    st.actor = seat
    st.passes += 1
    st.log.public("pass", seat=seat, passes=st.passes)
    if st.passes >= st.players:
        end_action_phase(st)
    else:
        st.priority = (seat + 1) % st.players


@RULES.on(PlayHero)
def play_hero(st: GreyportModel, seat: int, a: PlayHero) -> None:
    """GB-5.4.1: to the play area, ready, no item; then its play abilities in printed order."""
    main_action(st, seat)
    card = a.card
    p = st.players_[seat]
    if card.startswith("PH"):
        p.hero_zone = "play"
    else:
        p.hand.remove(card)
    p.play.append({"card": card, "exhausted": False, "fought": False, "item": None, "round_used": []})
    p.heroes_played += 1
    st.played.append([seat, card])
    st.log.public("play_hero", seat=seat, card=card)
    queue_play_abilities(st, seat, card)


@RULES.on(PlayItem)
def play_item(st: GreyportModel, seat: int, a: PlayItem) -> None:
    """GB-5.4.2: onto a hero of the same type without an item; its play abilities resolve."""
    main_action(st, seat)
    card = a.card
    st.players_[seat].hand.remove(card)
    entry = entry_of(st, seat, a.hero)
    entry["item"] = card
    st.played.append([seat, card])
    st.log.public("play_item", seat=seat, card=card, hero=a.hero)
    queue_play_abilities(st, seat, card)


@RULES.on(Fight)
def fight(st: GreyportModel, seat: int, a: Fight) -> None:
    """GB-5.4.3; [design] GB-5.9 overflow: ``targets`` [] asks for them in a ``fight_targets`` frame, which
    this rule answers too."""
    if st.stack.frames:     # the fight_targets frame
        st.stack.pop()
    else:
        main_action(st, seat)
        if not a.targets:
            st.stack.push("fight_targets", seat, hero=a.hero)
            return
    start_fight(st, seat, a.hero, list(a.targets))


@RULES.on(MarkerTaunt)
def marker_taunt(st: GreyportModel, seat: int, a: MarkerTaunt) -> None:
    """GB-5.4.4 / GB-6.2.3 as a main action; GB-5.2.2 the forced taunt (a ``forced_taunt`` frame)."""
    if st.stack.frames:     # the forced_taunt frame
        st.stack.pop()
    else:
        main_action(st, seat)
    # GB-6.2.3: into the active group; the marker flips to ``used``
    move_monster(st, a.monster, st.defender)
    st.marker = "used"
    stat(st, st.defender, "taunts")
    st.log.public("marker_taunt", seat=st.defender, monster=a.monster)


@RULES.on(UseAbility)
def use_ability(st: GreyportModel, seat: int, a: UseAbility) -> None:
    """GB-5.4.5: once per round per card and ability."""
    main_action(st, seat)
    entry = next(e for e in st.players_[seat].play if a.card in (e["card"], e["item"]))
    entry["round_used"].append({"card": a.card, "ability": a.ability})
    st.log.public("use_ability", seat=seat, card=a.card, ability=a.ability)
    effect_fn(f"round:{a.ability}")(st, seat, a.card)


@RULES.on(ShakeOff)
def shake_off(st: GreyportModel, seat: int, a: ShakeOff) -> None:
    """GB-5.4.6: retire a curse from hand instead of a hero play."""
    main_action(st, seat)
    p = st.players_[seat]
    p.hand.remove(a.card)
    st.removed.append(a.card)
    p.heroes_played += 1
    st.log.public("shake_off", seat=seat, card=a.card)
