"""CK-6.1 .. CK-6.4, CK-6.9, CK-6.12, CK-3.14: clank, healing, drawing, the rage track, queuing effect
lists and testing conditions (the effects themselves and their resolution: ``effects.py``)."""
from __future__ import annotations

from typing import Any

from ..model import IN_DUNGEON, ClankModel


def make_clank(st: ClankModel, seat: int, n: int) -> None:
    """CK-6.1: out players make none; the active player's credit cancels first; no supply, no clank."""
    p = st.p[seat]
    if n <= 0 or p.status != IN_DUNGEON:
        return
    if seat == st.active and st.credit:
        c = min(st.credit, n)
        st.credit -= c
        n -= c
    k = min(n, p.supply)
    if k:
        p.supply -= k
        p.area += k
        p.clank_made += k
        st.log.public("clank", seat=seat, cubes=k)


def remove_clank(st: ClankModel, seat: int, n: int) -> None:
    """CK-6.2: take own cubes back from the clank area; the excess becomes clank credit."""
    p = st.p[seat]
    if n <= 0 or p.status != IN_DUNGEON:
        return
    r = min(n, p.area)
    p.area -= r
    p.supply += r
    if seat == st.active:
        st.credit += n - r
    st.log.public("clank_removed", seat=seat, cubes=r, credit=st.credit)


def heal(st: ClankModel, seat: int, n: int) -> None:
    """CK-6.4: move min(N, damage) cubes from the health meter back to the supply."""
    p = st.p[seat]
    if p.status != IN_DUNGEON:
        return
    h = min(n, p.damage)
    if h:
        p.damage -= h
        p.supply += h
        st.log.public("healed", seat=seat, amount=h)


def draw(st: ClankModel, seat: int, n: int) -> None:
    """CK-6.12: draw one at a time; an empty deck reshuffles the discard pile (never the play area)."""
    p = st.p[seat]
    got: list[str] = []
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break
            p.deck, p.discard = p.discard, []
            st.rng.shuffle(p.deck)
            st.log.public("reshuffle", seat=seat, deck_size=len(p.deck))
        got.append(p.deck.pop(0))
    if got:
        p.hand.extend(got)
        st.log.public("draw", seat=seat, count=len(got))
        st.log.private(seat, "drew", seat=seat, cards=sorted(got))


def draw_to_hand_size(st: ClankModel, seat: int) -> None:
    """CK-5.2 / CK-5.24 step 3: draw until holding 5."""
    need = st.cat.constants["hand_size"] - len(st.p[seat].hand)
    if need > 0:
        draw(st, seat, need)


def advance_rage(st: ClankModel, n: int) -> None:
    """CK-3.14 / CK-6.17: the rage marker moves up, stopping on its last space."""
    last = len(st.cat.constants["rage_track"]) - 1
    new = min(last, st.rage + n)
    st.log.public("rage", index=new, moved=new - st.rage)
    st.rage = new


# -- effect lists (CK-3.3, CK-5.17) ----------------------------------------------------------------
def push_effects(st: ClankModel, atoms: list[dict[str, Any]], card: str | None) -> None:
    """Queue an effect list to resolve (left to right) before whatever is already queued."""
    if atoms:
        st.work.append({"fx": list(atoms), "card": card})


# -- conditionals (CK-6.9) -------------------------------------------------------------------------
def condition_holds(st: ClankModel, cond: str, card: str | None) -> bool:
    """``artifact``: the player holds one; ``companion``: another companion is in the play area."""
    p = st.p[st.active]
    if cond == "artifact":
        return bool(p.artifacts)
    types = st.cat.card_types
    type_of = st.cat.type_of
    return any(c != card and types[type_of[c]].kind == "companion" for c in p.play)
