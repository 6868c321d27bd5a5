"""DT-4.3-DT-4.7: secret starting teams, alternate face-down placement, reveal of the teams."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import ChooseStarter, PlaceHidden
from ..data import COLOURS, content
from .dispatch import RULES

if TYPE_CHECKING:
    from ..model import DTModel


# Legal-list dicts, one per distinct action (they are shared and never edited: the engine's contract).
_place = cache(PlaceHidden.wire)


def dot_square(seat: int, k: int) -> tuple[int, int]:
    """DT-3.2.5: dot D<k+1> of a seat's line."""
    line = content().lines[COLOURS[seat]]
    return line.x, line.dots[k]


def starter_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-4.3: the seat's characters not chosen yet."""
    return [ChooseStarter.wire(t.kind) for t in st.own_chars(seat) if t.where == "pool"]


@RULES.on(ChooseStarter)
def choose_starter(st: DTModel, seat: int, a: ChooseStarter) -> None:
    t = st.tokens[f"{COLOURS[seat]}.{a.character}"]
    k = len(st.starters[seat])
    t.where = "starter"
    t.handle = f"S-{COLOURS[seat]}-D{k + 1}"
    st.starters[seat].append(t.id)
    st.log.public("choose_starter", seat=seat, dot=k + 1)   # DT-7.7: seat and dot only
    if len(st.starters[0]) == 4 and len(st.starters[1]) == 4:
        st.phase = "placement"


def placement_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-4.5: own unplaced token x slot below its capacity."""
    counts = [0] * 8
    for t in st.tokens.values():
        if t.where == "hidden":
            counts[t.room] += 1
    slots = [s.slot for s in content().slots if counts[s.slot] < s.capacity]
    pool = sorted(t.id for t in st.tokens.values() if t.colour == seat and t.where == "pool")
    return [_place(tid, s) for tid in pool for s in slots]


@RULES.on(PlaceHidden)
def place_hidden(st: DTModel, seat: int, a: PlaceHidden) -> None:
    t = st.tokens[a.token]
    t.where = "hidden"
    t.slot = a.slot
    t.handle = f"H{st.next_handle:02d}"
    st.next_handle += 1
    st.log.public("place_hidden", seat=seat, handle=t.handle, slot=t.slot)
    if any(x.where == "pool" for x in st.tokens.values()):
        st.placer = 1 - seat
        return
    # DT-4.6: both teams revealed together; DT-4.7: the first player is announced.
    for s in (0, 1):
        for k, tid in enumerate(st.starters[s]):
            st.tokens[tid].handle = None
            st.put(tid, dot_square(s, k))
    st.log.public("starters_revealed", blue=list(st.starters[0]), red=list(st.starters[1]))
    st.phase = "play"
    st.active = st.first_seat
    st.card_played = False
    st.log.public("first_player", seat=st.first_seat)
