"""DT-5.8: combat — initiation, group participants, secret simultaneous cards, resolution."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import Attack, CombatCard
from ..data import content
from ..effects import object_effects
from . import scoring
from .dispatch import RULES
from .flow import action_done, pay

if TYPE_CHECKING:
    from ..model import DTModel, Token


# Legal-list dicts, one per distinct action (they are shared and never edited: the engine's contract).
_attack = cache(Attack.wire)
_card = cache(CombatCard.wire)


def attack_actions(st: DTModel, a: Token) -> list[dict[str, Any]]:
    """DT-5.8.1: an enemy, not carried, on a connected square, not wounded this turn (DT-5.8.9)."""
    out = []
    for q in st.board.conn[a.pos]:
        if q is None:
            continue
        occ = st.at.get(q)
        if not occ:
            continue
        for tid in (sorted(occ) if len(occ) > 1 else occ):
            t = st.tokens[tid]
            if t.char and t.colour != a.colour and not t.wtt:
                out.append(_attack(a.id, tid))
    return out


def _joins(st: DTModel, t: Token, colour: int) -> bool:
    return t.char and t.colour == colour and t.where == "board" and not t.wounded and not t.blocked


def participants(st: DTModel, a: str, target: str) -> tuple[list[str], list[str]]:
    """DT-5.8.2: grow both sides by connection to the other side until nothing changes.
    Wounded characters other than the target never join; blocked ones neither."""
    ta, tt = st.tokens[a], st.tokens[target]
    att, dfn = [a], [target]
    cands_a = [t for t in st.tokens.values() if t.id != a and _joins(st, t, ta.colour)]
    cands_d = [t for t in st.tokens.values() if t.id != target and _joins(st, t, tt.colour)]
    conn = st.board.conn
    changed = True
    while changed:
        changed = False
        d_squares = {st.tokens[x].square for x in dfn}
        for t in list(cands_a):
            if any(q in d_squares for q in conn[t.pos] if q is not None):
                att.append(t.id)
                cands_a.remove(t)
                changed = True
        a_squares = {st.tokens[x].square for x in att}
        for t in list(cands_d):
            if any(q in a_squares for q in conn[t.pos] if q is not None):
                dfn.append(t.id)
                cands_d.remove(t)
                changed = True
    return sorted(att), sorted(dfn)


def side_total(st: DTModel, members: list[str], side: str, target: str) -> int:
    """DT-5.8.4: combat values (a wounded target counts 0) + item bonuses of the side."""
    chars = content().characters
    total = 0
    for tid in members:
        t = st.tokens[tid]
        if not t.wounded:
            total += chars[t.kind].combat
        if t.carrying is not None and not st.tokens[t.carrying].char:
            total += object_effects()[st.tokens[t.carrying].kind].combat_bonus(side)
        if t.wounded and tid == target:  # [design D20] Armor lying under a wounded target
            for oid in st.at.get(t.pos, ()):
                o = st.tokens[oid]
                if not o.char:
                    total += object_effects()[o.kind].combat_bonus(side)
    return total


@RULES.on(Attack)
def attack(st: DTModel, seat: int, action: Attack) -> None:
    """DT-5.8.1-5.8.4: 1 AP, the group combat opens; both seats choose a card in secret."""
    a, target = action.character, action.target
    pay(st, a)
    att, dfn = participants(st, a, target)
    base = [side_total(st, att, "attack", target), side_total(st, dfn, "defence", target)]
    aseat = st.tokens[a].colour
    st.stack.push("combat", aseat, **{"attacker": a, "target": target, "att": att, "def": dfn, "aseat": aseat,
                                      "base": base, "cards": [None, None]})
    st.log.public("combat", attacker=a, target=target, attackers=att, defenders=dfn,
                  base_totals={"attack": base[0], "defence": base[1]})


def card_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-5.8.3: each distinct value of the seat's own combat hand (+0 always there)."""
    return [_card(v) for v in sorted(set(st.combat_hand[seat]))]


@RULES.on(CombatCard)
def combat_card(st: DTModel, seat: int, a: CombatCard) -> None:
    """Record a secret card; resolve when both are in (the attack action is then over)."""
    sub = st.open_sub
    sub["cards"][seat] = a.value
    st.log.public("combat_card_submitted", seat=seat)
    if None in sub["cards"]:
        return
    resolve(st)
    action_done(st)


def resolve(st: DTModel) -> None:
    """DT-5.8.5-5.8.10: higher total wins; tie = nothing; losers wounded, wounded losers killed."""
    sub = st.open_sub
    aseat = sub["aseat"]
    dseat = 1 - aseat
    cards = sub["cards"]
    totals = [sub["base"][0] + cards[aseat], sub["base"][1] + cards[dseat]]
    for seat in (0, 1):  # DT-5.8.10
        st.combat_hand[seat].remove(cards[seat])
        if cards[seat] == 0:
            st.combat_hand[seat].append(0)
        st.combat_hand[seat].sort()
    if totals[0] == totals[1]:
        winner = None
    else:
        winner = aseat if totals[0] > totals[1] else dseat
    st.log.public("combat_result", cards=list(cards), totals={"attack": totals[0], "defence": totals[1]},
                  winner_seat=winner)
    if winner is None:
        st.stats[0]["combats_tied"] += 1
        st.stats[1]["combats_tied"] += 1
        return
    st.stats[winner]["combats_won"] += 1
    st.stats[1 - winner]["combats_lost"] += 1
    losers = sub["def"] if winner == aseat else sub["att"]
    for tid in losers:
        t = st.tokens[tid]
        if t.where == "removed":
            continue
        if t.wounded:
            scoring.kill(st, tid, "combat")       # DT-5.8.6: a wounded target that loses dies
        else:
            scoring.wound(st, tid, winner)
