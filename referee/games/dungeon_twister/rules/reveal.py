"""DT-5.6 (reveal a room) and DT-6.1 (placing the tokens found there)."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import PlaceRevealed, Reveal
from ..data import COLOURS, DX, DY, content
from ..geometry import FLOOR, GEAR, line_colour, slot_of, slot_squares
from .dispatch import RULES
from .flow import action_done, pay

if TYPE_CHECKING:
    from ..model import DTModel, Token


@cache
def _place(tid: str, x: int, y: int) -> dict[str, Any]:
    """A legal-list dict, one per distinct action (they are shared and never edited: the engine's
    contract)."""
    return PlaceRevealed.wire(tid, [x, y])


@cache
def line_slots(colour: int) -> list[int]:
    """DT-5.6.1 (a): the two slots touching a starting line (Blue 0, 4; Red 3, 7)."""
    return [s.slot for s in content().slots if s.line == COLOURS[colour]]


def _border() -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Room squares with an orthogonal neighbour in another slot: [(side, that slot)]."""
    out: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for x in range(1, 21):
        for y in range(10):
            own = slot_of((x, y))
            for d in range(4):
                q = (x + DX[d], y + DY[d])
                s = slot_of(q)
                if 0 <= q[1] < 10 and s is not None and s != own:
                    out.setdefault((x, y), []).append((d, s))
    return out


_BORDER = _border()


def reveal_slots(st: DTModel, c: Token) -> list[int]:
    """DT-5.6.1: face-down slots the able character ``c`` has access to.

    The hidden tile's walls never matter (DT-7.1); only ``c``'s own tile walls do.
    """
    p = c.pos
    out: set[int] = set()
    if st.all_revealed:
        return []
    if line_colour(p) == c.colour:
        out.update(s for s in line_slots(c.colour) if not st.slots[s].revealed)
    else:
        for d, s in _BORDER.get(p, ()):
            if not st.slots[s].revealed and not st.board.own_wall(p, d):
                out.add(s)
    return sorted(out)


@RULES.on(Reveal)
def reveal(st: DTModel, seat: int, a: Reveal) -> None:
    """DT-5.6.2: tokens taken off and made public, tile turned up, then DT-6.1 placement (the action
    is over when nothing is left to place)."""
    s = a.slot
    pay(st, a.character)
    found = sorted((t for t in st.tokens.values() if t.where == "hidden" and t.slot == s),
                   key=lambda t: t.handle or "")
    st.slots[s].revealed = True
    st.rebuild_board(slot=s)
    st.stats[seat]["rooms_revealed"] += 1
    for t in found:
        t.where = "placing"
    st.log.public("reveal", seat=seat, character=a.character, slot=s, tile=st.slots[s].tile,
                  orientation=st.slots[s].orientation,
                  tokens=[{"handle": t.handle, "token": t.id} for t in found])
    rev = [t.id for t in found if t.char or t.colour != seat]            # DT-6.1.1
    opp = [t.id for t in found if not t.char and t.colour == seat]
    if not rev and not opp:
        action_done(st)
        return
    placer = seat if rev else 1 - seat
    st.stack.push("place", placer, slot=s, revealer=seat, placer=placer, rev=sorted(rev), opp=sorted(opp))


def place_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-6.1.2: one token of the placer's list on an empty floor or gear square of the slot."""
    sub = st.open_sub
    todo = sub["rev"] if seat == sub["revealer"] else sub["opp"]
    squares = [sq for sq in slot_squares(sub["slot"])
               if st.board.kind[sq] in (FLOOR, GEAR) and sq not in st.at]
    return [_place(tid, x, y) for tid in todo for (x, y) in squares]


@RULES.on(PlaceRevealed)
def place_revealed(st: DTModel, seat: int, a: PlaceRevealed) -> None:
    """Place one token face up (DT-6.1.3); the reveal action is complete when all are placed."""
    sub = st.open_sub
    todo = sub["rev"] if seat == sub["revealer"] else sub["opp"]
    todo.remove(a.token)
    t = st.tokens[a.token]
    t.handle = None
    x, y = a.square
    st.put(t.id, (x, y))
    st.log.public("place_revealed", seat=seat, token=t.id, square=list(a.square))
    if todo:
        return
    if seat == sub["revealer"] and sub["opp"]:
        frame = st.stack.frames[-1]
        frame.seat = sub["placer"] = 1 - seat
        return
    action_done(st)
