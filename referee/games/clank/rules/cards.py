"""CK-5.5 .. CK-5.10, CK-5.15: playing cards, buying from the row and the reserve, devices,
monsters, the Goblin and potion tokens."""
from __future__ import annotations

from functools import cache
from typing import Any

from ..actions import (
    Acquire,
    AcquireReserve,
    Defeat,
    DefeatGoblin,
    PlayCard,
    UseDevice,
    UseToken,
)
from ..catalog import CardType
from ..model import ClankModel
from .dispatch import RULES
from .resources import push_effects

BLUE = frozenset({"item", "gem", "companion"})
PILES = ("hireling", "pathfinder", "codex")

#: the legal lists' dicts, by card id / row slot / pile / token id: one shared dict per action (rules-style)
_PLAY = cache(PlayCard.wire)
_ACQUIRE = cache(Acquire.wire)
_USE_DEVICE = cache(UseDevice.wire)
_DEFEAT = cache(Defeat.wire)
_RESERVE = cache(AcquireReserve.wire)
_USE_TOKEN = cache(UseToken.wire)
_GOBLIN = DefeatGoblin.wire()


def representatives(cards: list[str], type_of: dict[str, str]) -> list[str]:
    """CK-5.28: one card per type, the lowest id (string order) of that type, sorted by id."""
    best: dict[str, str] = {}
    for c in cards:
        t = type_of[c]
        b = best.get(t)
        if b is None or c < b:
            best[t] = c
    return sorted(best.values())


# -- legal lists -------------------------------------------------------------------------------
def legal_cards(st: ClankModel) -> list[dict[str, Any]]:
    """CK-5.5 .. CK-5.10 in list order.

    play_card, acquire, acquire_reserve, use_device, defeat, goblin."""
    cat = st.cat
    types, type_of = cat.card_types, cat.type_of
    p = st.p[st.active]
    out: list[dict[str, Any]] = [_PLAY(c) for c in representatives(p.hand, type_of)]
    skill, swords = st.skill, st.swords
    row = st.row
    devices: list[dict[str, Any]] = []
    monsters: list[dict[str, Any]] = []
    for k, cid in enumerate(row):
        if cid is None:
            continue
        ct = types[type_of[cid]]
        if ct.kind == "monster":
            if ct.cost <= swords:
                monsters.append(_DEFEAT(k))
        elif ct.cost <= skill:
            if ct.kind == "device":
                devices.append(_USE_DEVICE(k))
            else:
                out.append(_ACQUIRE(k))
    for pile in PILES:
        if st.reserve[pile] and cat.reserve_piles[pile].cost <= skill:
            out.append(_RESERVE(pile))
    out.extend(devices)
    out.extend(monsters)
    if swords >= cat.constants["goblin_swords"]:
        out.append(_GOBLIN)
    return out


def legal_tokens(st: ClankModel) -> list[dict[str, Any]]:
    """CK-5.15: one ``use_token`` per potion held, by id."""
    # [design] not deduplicated by type: the spec names the token id and lists stay tiny
    kinds = st.cat.secrets
    sto = st.cat.secret_type_of
    return [_USE_TOKEN(t) for t in sorted(st.p[st.active].tokens)
            if kinds[sto[t]].kind == "potion"]


# -- the rules of the card actions (CK-5.5 .. CK-5.10, CK-5.15) ------------------------------------
@RULES.on(PlayCard)
def play_card(st: ClankModel, seat: int, a: PlayCard) -> None:
    """CK-5.5: move the card to the play area and resolve its Play effects left to right."""
    card = a.card
    p = st.p[st.active]
    p.hand.remove(card)
    p.play.append(card)
    ct = st.cat.card_types[st.cat.type_of[card]]
    st.log.public("play_card", seat=st.active, card=card, card_type=ct.type)
    push_effects(st, ct.play, card)


def take_from_row(st: ClankModel, slot: int) -> tuple[str, CardType]:
    """The card of a dungeon-row slot (CK-5.6, 5.8, 5.9), taken: the slot stays empty."""
    cid = st.row[slot]
    assert cid is not None
    st.row[slot] = None
    return cid, st.cat.card_types[st.cat.type_of[cid]]


@RULES.on(Acquire)
def acquire(st: ClankModel, seat: int, a: Acquire) -> None:
    """CK-5.6: pay Skill; the card goes on the discard pile; Acquire effects; the slot stays empty."""
    slot = a.slot
    cid, ct = take_from_row(st, slot)
    st.skill -= ct.cost
    st.p[st.active].discard.append(cid)
    st.log.public("acquire", seat=st.active, slot=slot, card=cid, card_type=ct.type)
    push_effects(st, ct.acquire, cid)


@RULES.on(AcquireReserve)
def acquire_reserve(st: ClankModel, seat: int, a: AcquireReserve) -> None:
    """CK-5.7: pay Skill; the lowest-id card of the pile goes to the discard pile."""
    pile = a.pile
    ct = st.cat.reserve_piles[pile]
    st.skill -= ct.cost
    cid = st.reserve[pile].pop(0)
    st.p[st.active].discard.append(cid)
    st.log.public("acquire_reserve", seat=st.active, pile=pile, card=cid, card_type=ct.type)


@RULES.on(UseDevice)
def use_device(st: ClankModel, seat: int, a: UseDevice) -> None:
    """CK-5.8: pay Skill; the device goes to the dungeon discard; its Use effects resolve now."""
    slot = a.slot
    cid, ct = take_from_row(st, slot)
    st.skill -= ct.cost
    st.ddiscard.append(cid)
    st.log.public("use_device", seat=st.active, slot=slot, card=cid, card_type=ct.type)
    push_effects(st, ct.use, cid)


@RULES.on(Defeat)
def defeat(st: ClankModel, seat: int, a: Defeat) -> None:
    """CK-5.9: pay Swords; the reward resolves; the monster goes to the dungeon discard."""
    slot = a.slot
    cid, ct = take_from_row(st, slot)
    st.swords -= ct.cost
    st.ddiscard.append(cid)
    st.p[st.active].defeated += 1
    st.log.public("defeat", seat=st.active, slot=slot, card=cid, card_type=ct.type)
    push_effects(st, ct.defeat, cid)


@RULES.on(DefeatGoblin)
def defeat_goblin(st: ClankModel, seat: int, a: DefeatGoblin) -> None:
    """CK-5.10: 2 Swords for 1 gold; the Goblin stays in the reserve [seed §4]."""
    ct = st.cat.reserve_piles["goblin"]
    st.swords -= ct.cost
    st.p[st.active].defeated += 1
    st.log.public("defeat_goblin", seat=st.active)
    push_effects(st, ct.defeat, None)


@RULES.on(UseToken)
def use_token(st: ClankModel, seat: int, a: UseToken) -> None:
    """CK-5.15: resolve a held potion, then remove it from the game (public)."""
    token = a.token
    st.p[st.active].tokens.remove(token)
    st.tokens_gone.append(token)
    row = st.cat.secrets[st.cat.secret_type_of[token]]
    st.log.public("use_token", seat=st.active, token=token, token_type=row.type)
    push_effects(st, row.effect, None)
