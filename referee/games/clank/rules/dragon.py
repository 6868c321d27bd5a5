"""CK-5.24 steps 4-6, CK-5.25, CK-5.26, CK-6.5, CK-6.8, CK-6.13: the dungeon row refill,
dragon attacks, knock-outs and the countdown."""
from __future__ import annotations

from ..effects import resolve_now
from ..model import IN_DUNGEON, KNOCKED_OUT, ClankModel
from .scoring import finish


def reveal_dungeon_card(st: ClankModel) -> str | None:
    """CK-6.13: the top card; an empty deck is rebuilt from the shuffled dungeon discard."""
    if not st.ddeck:
        if not st.ddiscard:
            return None
        st.ddeck, st.ddiscard = st.ddiscard, []
        st.rng.shuffle(st.ddeck)
        st.log.public("dungeon_reshuffle", deck_size=len(st.ddeck))
    return st.ddeck.pop(0)


def refill_row(st: ClankModel) -> None:
    """CK-5.24 steps 4-6: fill empty slots in order, resolve Arrive in slot order, one attack at most."""
    cat = st.cat
    revealed: list[str] = []
    for slot in range(len(st.row)):
        if st.row[slot] is None:
            cid = reveal_dungeon_card(st)
            if cid is None:
                continue
            st.row[slot] = cid
            revealed.append(cid)
            st.log.public("refill", slot=slot, card=cid, card_type=cat.type_of[cid])
    for cid in revealed:
        ct = cat.card_types[cat.type_of[cid]]
        if ct.arrive:
            st.log.public("arrive", card=cid, card_type=ct.type)
            resolve_now(st, ct.arrive, cid)
    if any(cat.card_types[cat.type_of[c]].dragon for c in revealed):
        dragon_attack(st, 0)


def danger_in_row(st: ClankModel) -> int:
    """CK-6.20.7: danger cards count at the moment of the attack."""
    cat = st.cat
    return sum(1 for c in st.row if c is not None and cat.card_types[cat.type_of[c]].danger)


def dragon_attack(st: ClankModel, extra: int) -> None:
    """CK-5.25: bag the clank area, then draw N cubes one at a time, uniformly from the bag."""
    for p in st.p:
        p.bag += p.area
        p.area = 0
    n = st.cat.constants["rage_track"][st.rage] + danger_in_row(st) + extra
    drawn: list[str | int] = []
    knocked: list[int] = []
    for _ in range(n):
        total = st.bag_black + sum(p.bag for p in st.p)
        if total == 0:
            break
        r = st.rng.below(total)
        if r < st.bag_black:
            st.bag_black -= 1
            st.black_aside += 1
            drawn.append("black")
            continue
        r -= st.bag_black
        for seat, p in enumerate(st.p):  # noqa: B007 (the cube's seat, used below)
            if r < p.bag:
                break
            r -= p.bag
        p.bag -= 1
        drawn.append(seat)
        if p.status == IN_DUNGEON:
            p.damage += 1
            p.damage_taken += 1
            if p.damage >= st.cat.constants["health"]:
                knocked.append(seat)
                knock_out(st, seat)
        else:
            p.removed += 1
    st.log.public("dragon_attack", cubes=n, extra=extra, drawn=drawn, knocked_out=knocked)


def knock_out(st: ClankModel, seat: int) -> None:
    """CK-6.5: out at once; rescued with an artifact outside the Depths; may take the countdown."""
    p = st.p[seat]
    p.status = KNOCKED_OUT
    p.rescued = bool(p.artifacts) and st.cat.rooms[p.room].zone != "depths"
    st.log.public("knocked_out", seat=seat, room=p.room, rescued=p.rescued)
    start_countdown(st, seat)


def start_countdown(st: ClankModel, seat: int) -> None:
    """CK-6.8: the first player out takes the countdown track, unless a pawn is already on it."""
    if st.cd_owner is None:
        st.cd_owner = seat
        st.cd_space = 1
        st.log.public("countdown", owner=seat, space=1)


def countdown_step(st: ClankModel) -> None:
    """CK-5.26: the countdown pawn advances; spaces 2-4 attack with extra cubes; space 5 ends it."""
    st.cd_space += 1
    space = st.cd_space
    st.log.public("countdown", owner=st.cd_owner, space=space)
    extras = st.cat.constants["countdown_extra"]
    if space < st.cat.constants["countdown_spaces"]:
        if space - 1 < len(extras) and space >= 2:
            dragon_attack(st, extras[space - 1])
        return
    for seat, p in enumerate(st.p):
        if p.status == IN_DUNGEON:
            knock_out(st, seat)
    finish(st, "countdown" if st.cd_owner != "dragon" else "round_limit")


