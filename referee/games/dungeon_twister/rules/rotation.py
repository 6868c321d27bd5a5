"""DT-5.7: rotating a room from its gear (and the paired room), Mekanork's craftsmanship."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import Rotate
from ..data import content, rotate_ccw, rotate_cw
from ..geometry import GEAR, slot_of, slot_origin, slot_squares
from .dispatch import RULES
from .flow import action_done, pay
from .movement import caps_of

if TYPE_CHECKING:
    from ..model import DTModel, Token


# Legal-list dicts, one per distinct action (they are shared and never edited: the engine's contract).
_rotate = cache(Rotate.wire)


def rotate_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.7.1: own slot, or the pair tile's slot if revealed; the rotating tile's arrow unless
    the character chooses the direction (Mekanork)."""
    p = c.pos
    if st.board.kind[p] != GEAR:
        return []
    t = slot_of(p)
    assert t is not None, "a gear lies in a room"
    rooms = content().rooms
    tile = st.slots[t].tile
    pair_tile = content().pair_of[tile]
    targets = [t]
    for s, slot in enumerate(st.slots):
        if slot.revealed and slot.tile == pair_tile:
            targets.append(s)
    free = caps_of(c.kind).chooses_rotation
    out = []
    for s in sorted(targets):
        dirs = ("cw", "ccw") if free else (rooms[st.slots[s].tile].arrow,)
        for d in dirs:
            out.append(_rotate(c.id, s, d))
    return out


@RULES.on(Rotate)
def rotate(st: DTModel, seat: int, a: Rotate) -> None:
    """DT-5.7.2: 1 AP, one quarter turn; every token on the slot turns with it; nothing else moves."""
    pay(st, a.character)
    s, d = a.slot, a.dir
    slot = st.slots[s]
    slot.orientation = (slot.orientation + (1 if d == "cw" else 3)) % 4
    x0, y0 = slot_origin(s)
    turn = rotate_cw if d == "cw" else rotate_ccw
    moving = [(tid, sq) for sq in slot_squares(s) for tid in st.at.get(sq, ())]
    for tid, _ in moving:
        st.lift(tid)
    for tid, (x, y) in moving:
        c, r = turn(x - x0, y - y0)
        st.put(tid, (x0 + c, y0 + r))
    st.rebuild_board(slot=s)
    st.log.public("rotate", character=a.character, slot=s, dir=d, orientation=slot.orientation)
    action_done(st)
