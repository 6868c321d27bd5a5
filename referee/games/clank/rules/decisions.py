"""CK-5.17 .. CK-5.22, CK-6.18: pending decisions (pickup, choose, discard, trash, secret_from)
and revealing secrets."""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from referee.engine import Action, Frame

from ..actions import Choose, Decline, Discard, SecretFrom, SkipToken, TakeToken, Trash
from ..model import ClankModel
from .cards import representatives
from .dispatch import RULES
from .resources import draw, make_clank, push_effects

#: the legal lists' dicts (one shared dict per distinct action: docs/rules-style.md)
_TAKE_TOKEN = cache(TakeToken.wire)
_SKIP_TOKEN = SkipToken.wire()
_CHOOSE = (Choose.wire(0), Choose.wire(1))
_DISCARD = cache(Discard.wire)
_TRASH = cache(Trash.wire)
_SECRET_FROM = cache(SecretFrom.wire)
_DECLINE = Decline.wire()


def legal_decision(st: ClankModel, frame: Frame) -> list[dict[str, Any]]:
    """The actions of the top decision, in CK-5.18 .. CK-5.22 order."""
    return LEGAL[frame.kind](st, frame)


def legal_pickup(st: ClankModel, frame: Frame) -> list[dict[str, Any]]:
    """CK-5.18: one token of each kind the room holds, or nothing."""
    room = frame.data["room"]
    out: list[dict[str, Any]] = []
    if st.minor.get(room):
        out.append(_TAKE_TOKEN("minor"))
    if room in st.major:
        out.append(_TAKE_TOKEN("major"))
    if st.idols_at.get(room):
        out.append(_TAKE_TOKEN("idol"))
    out.append(_SKIP_TOKEN)
    return out


def legal_choose(st: ClankModel, frame: Frame) -> list[dict[str, Any]]:
    """CK-5.19: both options are always listed."""
    return list(_CHOOSE)


def legal_discard(st: ClankModel, frame: Frame) -> list[dict[str, Any]]:
    """CK-5.20: one card per type in hand, or decline."""
    return [_DISCARD(c) for c in representatives(st.p[frame.seat].hand, st.cat.type_of)] + [_DECLINE]


def legal_trash(st: ClankModel, frame: Frame) -> list[dict[str, Any]]:
    """CK-5.21: one card per type in the play area, then in the discard pile, or decline."""
    p, type_of = st.p[frame.seat], st.cat.type_of
    return ([_TRASH("play", c) for c in representatives(p.play, type_of)]
            + [_TRASH("discard", c) for c in representatives(p.discard, type_of)]
            + [_DECLINE])


def legal_secret_from(st: ClankModel, frame: Frame) -> list[dict[str, Any]]:
    """CK-5.22: each adjacent room with a face-down secret, or decline."""
    return [_SECRET_FROM(r) for r in secret_rooms_adjacent(st, frame.seat)] + [_DECLINE]


#: decision frame kind -> its legal-list builder
LEGAL: dict[str, Callable[[ClankModel, Frame], list[dict[str, Any]]]] = {
    "pickup": legal_pickup, "choose": legal_choose, "discard": legal_discard, "trash": legal_trash,
    "secret_from": legal_secret_from,
}


def secret_rooms_adjacent(st: ClankModel, seat: int) -> list[str]:
    """CK-5.22 / CK-6.15: adjacent rooms (any tunnel) holding at least one face-down secret."""
    return [r for r in st.cat.adjacent[st.p[seat].room] if st.minor.get(r) or r in st.major]


def take_secret(st: ClankModel, seat: int, room: str, kind: str) -> None:
    """CK-5.18: minor = the RNG picks one face-down token of the room; major = the room's token."""
    if kind == "minor":
        tokens = st.minor[room]
        token = tokens.pop(st.rng.below(len(tokens)))
    else:
        token = st.major.pop(room)
    reveal_token(st, seat, room, kind, token)


def reveal_token(st: ClankModel, seat: int, room: str, kind: str, token: str) -> None:
    """CK-6.18: immediate tokens resolve and leave; potions and trophies are kept face up."""
    row = st.cat.secrets[st.cat.secret_type_of[token]]
    st.log.public("secret_revealed", seat=seat, room=room, size=kind, token=token, token_type=row.type,
                  name=row.name)
    if row.kind == "immediate":
        st.tokens_gone.append(token)
    else:
        st.p[seat].tokens.append(token)
    if row.kind != "potion":
        push_effects(st, row.effect, None)


# -- the rules of the answers (CK-5.18 .. CK-5.22) -------------------------------------------------
def answer(st: ClankModel, a: Action) -> Frame:
    """Close the top decision; its consequences run before the interrupted effect list continues.
    Decision answers are public (a discarded or trashed card becomes public as it moves)."""
    frame = st.stack.pop()
    st.log.public("decision", seat=frame.seat, decision=frame.kind, answer=a.to_json())
    return frame


@RULES.on(TakeToken)
def take_token(st: ClankModel, seat: int, a: TakeToken) -> None:
    """CK-5.18: take one token of the kind from the room just entered."""
    frame = answer(st, a)
    seat = frame.seat
    room = frame.data["room"]
    if a.kind == "idol":
        idol = st.idols_at[room].pop(0)
        st.p[seat].idols.append(idol)
        st.log.public("take_idol", seat=seat, room=room, idol=idol)
    else:
        take_secret(st, seat, room, a.kind)


@RULES.on(SkipToken, Decline)
def skip(st: ClankModel, seat: int, a: SkipToken | Decline) -> None:
    """CK-5.18 / CK-5.20 .. CK-5.22: take nothing, decline the optional effect: nothing happens."""
    answer(st, a)


@RULES.on(Choose)
def choose(st: ClankModel, seat: int, a: Choose) -> None:
    """CK-5.19: the chosen option's effects resolve."""
    frame = answer(st, a)
    push_effects(st, frame.data["options"][a.option], frame.data.get("card"))


@RULES.on(Discard)
def discard(st: ClankModel, seat: int, a: Discard) -> None:
    """CK-5.20 / CK-6.10: discard the card from hand, then draw."""
    frame = answer(st, a)
    seat = frame.seat
    p = st.p[seat]
    card = a.card
    p.hand.remove(card)
    p.discard.append(card)
    st.log.public("discard", seat=seat, card=card, card_type=st.cat.type_of[card])
    draw(st, seat, frame.data["n"])


@RULES.on(Trash)
def trash(st: ClankModel, seat: int, a: Trash) -> None:
    """CK-5.21 / CK-6.11: the card leaves the game."""
    frame = answer(st, a)
    seat = frame.seat
    p = st.p[seat]
    card = a.card
    zone = p.play if a.zone == "play" else p.discard
    zone.remove(card)
    st.trashed.append(card)
    if a.zone == "play":
        # CK-6.9: a pending conditional whose card left the play area lapses
        st.conds = [c for c in st.conds if c["card"] != card]
    st.log.public("trash", seat=seat, zone=a.zone, card=card, card_type=st.cat.type_of[card])


@RULES.on(SecretFrom)
def secret_from(st: ClankModel, seat: int, a: SecretFrom) -> None:
    """CK-5.22: pay the clank, then take a secret (minor if any) from the adjacent room."""
    frame = answer(st, a)
    seat = frame.seat
    make_clank(st, seat, frame.data["clank"])
    room = a.room
    take_secret(st, seat, room, "minor" if st.minor.get(room) else "major")
