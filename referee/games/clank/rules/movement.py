"""CK-5.11 .. CK-5.14, CK-5.23, CK-6.6, CK-6.14 .. CK-6.17: moving, teleporting, room entry,
artifacts, the market and escaping."""
from __future__ import annotations

from functools import cache
from typing import Any

from ..actions import BuyMarket, Move, TakeArtifact, Teleport
from ..model import ESCAPED, IN_DUNGEON, ClankModel
from .dispatch import RULES
from .dragon import start_countdown
from .resources import advance_rage, heal, make_clank

MARKET_KINDS = ("master_key", "backpack", "crown")

#: the legal lists' dicts, by (room, swords) / room / item kind: one shared dict per action (rules-style)
_MOVE = cache(Move.wire)
_TELEPORT = cache(Teleport.wire)
_BUY_MARKET = cache(BuyMarket.wire)
_TAKE_ARTIFACT = TakeArtifact.wire()


def legal_movement(st: ClankModel) -> list[dict[str, Any]]:
    """CK-5.11 .. CK-5.14 in list order: move, teleport, take_artifact, buy_market."""
    p = st.p[st.active]
    if p.status != IN_DUNGEON:
        return []  # CK-6.6: an escaped player no longer moves, takes artifacts or shops
    cat = st.cat
    out: list[dict[str, Any]] = []
    exit_room = cat.constants["exit_room"]
    has_artifact = bool(p.artifacts)
    boots = st.boots
    if boots and not (st.exhausted and not st.ignore_caves):
        has_key = p.keys() > 0
        swords = st.swords
        for to, t in cat.out_edges[p.room]:
            if t.boots > boots or (t.locked and not has_key) or (to == exit_room and not has_artifact):
                continue
            m = 0 if st.ignore_monsters else t.monsters
            for s in range(min(m, swords) + 1):
                d = m - s
                if d > 0 and (p.supply < d or p.damage + d > cat.constants["health"] - 1):
                    continue
                out.append(_MOVE(to, s))
    if st.teleports:
        for to in cat.adjacent[p.room]:
            if to != exit_room or has_artifact:
                out.append(_TELEPORT(to))
    if p.room in st.artifacts_at and len(p.artifacts) < 1 + p.packs():
        out.append(_TAKE_ARTIFACT)
    if cat.rooms[p.room].market and p.gold >= cat.constants["market_price"]:
        for kind in MARKET_KINDS:
            if st.market[kind]:
                out.append(_BUY_MARKET(kind))
    return out


def enter_room(st: ClankModel, to: str) -> None:
    """CK-5.23: escape at R0; crystal cave exhausts; room effects; offer a pickup."""
    seat = st.active
    p = st.p[seat]
    p.room = to
    p.visited += 1
    cat = st.cat
    if to == cat.constants["exit_room"]:
        escape(st, seat)
        return
    room = cat.rooms[to]
    if room.crystal_cave:
        st.exhausted = True
    if room.gold:
        p.gold += room.gold
        st.log.public("room_gold", seat=seat, room=to, gold=room.gold)
    if room.heal:
        heal(st, seat, room.heal)
    if room.clank:
        make_clank(st, seat, room.clank)
    if st.minor.get(to) or to in st.major or st.idols_at.get(to):
        st.stack.push("pickup", seat, room=to)


def escape(st: ClankModel, seat: int) -> None:
    """CK-6.6: status escaped, a mastery token, and the countdown if first out (CK-6.8)."""
    p = st.p[seat]
    p.status = ESCAPED
    p.mastery = st.mastery_left.pop(0)
    st.log.public("escaped", seat=seat, mastery=p.mastery)
    start_countdown(st, seat)


# -- the rules of the pawn's actions (CK-5.11 .. CK-5.14) ----------------------------------------
@RULES.on(Move)
def move(st: ClankModel, seat: int, a: Move) -> None:
    """CK-5.11: pay Boots and Swords, take the rest of the monster damage, enter the room."""
    to = a.to
    swords = a.swords
    p = st.p[st.active]
    t = next(t for r, t in st.cat.out_edges[p.room] if r == to)
    m = 0 if st.ignore_monsters else t.monsters
    d = m - swords
    st.boots -= t.boots
    st.swords -= swords
    if d > 0:
        p.supply -= d
        p.damage += d
        p.damage_taken += d
    st.log.public("move", seat=st.active, **{"from": p.room}, to=to, tunnel=t.id, swords=swords,
                  damage=max(d, 0))
    enter_room(st, to)


@RULES.on(Teleport)
def teleport(st: ClankModel, seat: int, a: Teleport) -> None:
    """CK-5.12 / CK-6.14: spend a Teleport; ignore every tunnel marking; enter the room."""
    to = a.to
    p = st.p[st.active]
    st.teleports -= 1
    st.log.public("teleport", seat=st.active, **{"from": p.room}, to=to)
    enter_room(st, to)


@RULES.on(TakeArtifact)
def take_artifact(st: ClankModel, seat: int, a: TakeArtifact) -> None:
    """CK-5.13 / CK-6.17: take the room's artifact; the dragon's rage rises by one."""
    p = st.p[st.active]
    art = st.artifacts_at.pop(p.room)
    p.artifacts.append(art)
    st.log.public("take_artifact", seat=st.active, room=p.room, artifact=art)
    advance_rage(st, 1)


@RULES.on(BuyMarket)
def buy_market(st: ClankModel, seat: int, a: BuyMarket) -> None:
    """CK-5.14: 7 gold for one item of the kind (crowns highest first); effective at once."""
    kind = a.item
    p = st.p[st.active]
    p.gold -= st.cat.constants["market_price"]
    item = st.market[kind].pop(0)
    p.items.append(item)
    st.log.public("buy_market", seat=st.active, item=item, item_kind=kind)
