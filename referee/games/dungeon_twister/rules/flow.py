"""DT-5.3.2-5.3.4, DT-5.4, DT-8.1/8.3: paying an action, the end of an action, of a turn and of the game."""
from __future__ import annotations

from ..data import content
from ..model import DTModel


def pay(st: DTModel, tid: str) -> None:
    """DT-5.3.2: an action of ``tid`` is paid from its potion AP first, then from the card AP."""
    if st.potion_ap.get(tid, 0) > 0:
        st.potion_ap[tid] -= 1
        if not st.potion_ap[tid]:
            del st.potion_ap[tid]
    else:
        st.card_ap -= 1


def action_done(st: DTModel) -> None:
    """DT-5.3.3 the action is complete; DT-5.3.4 [design D28] phase 2 ends by itself when no AP
    can be paid any more."""
    st.stack.frames.clear()
    if st.card_ap <= 0 and not st.potion_ap:
        end_turn(st)


def done_unless_open(st: DTModel) -> None:
    """The action is complete unless it opened a sub-phase (a landing's free sub-actions)."""
    if not st.stack:
        action_done(st)


def end_turn(st: DTModel) -> None:
    """DT-5.4: recycle an empty hand, clear flags and potion AP, count the turn, check the end."""
    seat = st.active
    assert seat is not None
    recycled = not st.action_hand[seat]
    if recycled:
        st.action_hand[seat] = sorted(content().cards["action"].values)
        st.action_top[seat] = None
    for t in st.token_list:
        t.blocked = False
        t.wtt = False
    st.potion_ap = {}
    st.card_ap = 0
    st.stack.frames.clear()
    st.turn += 1
    st.log.public("end_turn", seat=seat, recycled=recycled)
    if st.end_triggered or st.turn >= st.options["max_turns"]:
        st.end_reason = "normal" if st.end_triggered else "safety_limit"
        st.phase = "over"
        st.active = None
        st.log.public("game_over", vp=list(st.vp), reason=st.end_reason)
        return
    st.active = 1 - seat
    st.card_played = False
