"""DT-6.3, DT-6.5, DT-6.6, DT-8.1: wounds, kills, exits and victory points."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..data import content
from ..effects import object_effects
from ..geometry import TRAP

if TYPE_CHECKING:
    from ..model import DTModel


def add_vp(st: DTModel, seat: int, n: int, cause: str) -> None:
    """DT-8.1: VP are public; reaching ``vp_target`` triggers the end at the end of the turn."""
    if n <= 0:
        return
    st.vp[seat] += n
    st.log.public("vp", seat=seat, gained=n, cause=cause, vp=list(st.vp))
    if st.vp[seat] >= st.options["vp_target"]:
        st.end_triggered = True


def kill(st: DTModel, tid: str, cause: str) -> None:
    """DT-6.3.3 / DT-6.5.1: remove a character; the opponent of its owner gains 1 VP.

    Its carried object stays on its square (removed if that square is a trap and the object is
    not a Rope); a carried wounded character is killed too.
    """
    t = st.tokens[tid]
    sq = t.square
    if t.where == "carried" and t.carrier is not None:
        sq = st.tokens[t.carrier].square
    carried = t.carrying
    by = 1 - t.colour
    st.remove(tid, "killed", by)
    st.stats[by]["vp_kills"] += 1
    st.stats[t.colour]["characters_lost"] += 1
    st.log.public("kill", character=tid, cause=cause, by_seat=by)
    if carried is not None:
        k = st.tokens[carried]
        k.carrier = None
        if k.char:
            kill(st, carried, "carrier_killed")
        elif sq is not None and st.board.kind[sq] == TRAP \
                and not object_effects()[k.kind].supports_on_trap:
            st.remove(carried, "fell_into_trap", None)
            st.log.public("object_lost", token=carried, square=list(sq))
        elif sq is not None:
            st.put(carried, sq)
        else:
            st.remove(carried, "lost", None)
    add_vp(st, by, 1, "kill")


def wound(st: DTModel, tid: str, winner: int) -> None:
    """DT-6.3.1: a carried wounded friend dies, the carried object is left on the square, the
    character turns face down (wounded this turn); on a trap it stays there (DT-6.2.5)."""
    t = st.tokens[tid]
    if t.carrying is not None:
        k = st.tokens[t.carrying]
        if k.char:
            kill(st, k.id, "carrier_lost")
        else:
            st.uncarry(tid)
            st.put(k.id, t.pos)
    t.wounded = True
    t.wtt = True
    t.blocked = False
    st.potion_ap.pop(tid, None)
    st.log.public("wounded", character=tid)


def exit_dungeon(st: DTModel, tid: str) -> None:
    """DT-6.6: leave through the enemy line: VP (Goblin 2), carried friend safe, carried object
    removed (+1 VP for a Treasure)."""
    t = st.tokens[tid]
    seat = t.colour
    vp = content().characters[t.kind].exit_vp
    carried = t.carrying
    st.remove(tid, "exited", seat)
    st.stats[seat]["vp_exits"] += vp
    st.log.public("exit", character=tid, carrying=carried, vp=vp)
    add_vp(st, seat, vp, "exit")
    if carried is not None:
        k = st.tokens[carried]
        k.carrier = None
        if k.char:
            st.remove(carried, "rescued", None)
        else:
            bonus = object_effects()[k.kind].exit_bonus()
            st.remove(carried, "carried_out", seat if bonus else None)
            if bonus:
                st.stats[seat]["vp_treasures"] += bonus
                add_vp(st, seat, bonus, "treasure")
