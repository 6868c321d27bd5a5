"""CK-5.1 .. CK-5.4, CK-5.16, CK-5.24, CK-5.27, CK-8.1: turn order, the main phase, the
end-of-turn procedure, rounds, the round limit and the end of the game."""
from __future__ import annotations

from typing import Any

from ..actions import EndTurn
from ..model import IN_DUNGEON, ClankModel
from .cards import legal_cards, legal_tokens
from .dispatch import RULES
from .dragon import countdown_step, refill_row
from .movement import legal_movement
from .resources import draw_to_hand_size
from .scoring import finish

_END_TURN = EndTurn.wire()  # one dict, shared by every legal list (never edited)


def legal_main(st: ClankModel) -> list[dict[str, Any]]:
    """CK-5.4 / CK-5.28: every main-phase action in CK-5.5 .. CK-5.16 order."""
    out = legal_cards(st)
    out.extend(legal_movement(st))
    out.extend(legal_tokens(st))
    if not st.p[st.active].hand:
        out.append(_END_TURN)  # CK-5.16: the whole hand must be played first
    return out


def reset_turn(st: ClankModel) -> None:
    """CK-5.3 / CK-6.19: pools 0, flags false, no pending conditionals."""
    st.skill = st.swords = st.boots = st.teleports = st.credit = 0
    st.exhausted = st.ignore_caves = st.ignore_monsters = False
    st.conds = []


def start_turn(st: ClankModel, seat: int) -> None:
    """CK-5.2: draw up to 5; fresh pools; phase main."""
    reset_turn(st)
    st.log.public("turn", seat=seat, round=st.round)
    draw_to_hand_size(st, seat)


def all_out(st: ClankModel) -> bool:
    return not any(p.status == IN_DUNGEON for p in st.p)


def next_slot(st: ClankModel) -> None:
    """CK-5.1 / CK-5.26 / CK-5.27: pass to the next seat's slot, running countdown slots and
    round ends, until a normal turn starts or the game ends (CK-8.1 checked after each step)."""
    n = st.players
    while not st.over:
        if all_out(st):
            finish(st, "all_out")
            return
        st.active = (st.active + 1) % n
        if st.active == 0:
            end_of_round(st)
            if st.over:
                return
            if all_out(st):
                finish(st, "all_out")
                return
            st.round += 1
        if st.cd_owner == st.active:
            countdown_step(st)
            continue
        if st.p[st.active].status == IN_DUNGEON:
            start_turn(st, st.active)
            return


def end_of_round(st: ClankModel) -> None:
    """CK-5.27: at the end of round ``round_limit`` the neutral dragon pawn takes an empty
    countdown track; at the end of every later round it advances."""
    if st.cd_owner == "dragon":
        countdown_step(st)
    elif st.cd_owner is None and st.round >= st.options["round_limit"]:
        st.cd_owner = "dragon"
        st.cd_space = 1
        st.log.public("countdown", owner="dragon", space=1)


# -- the rule of end_turn (CK-5.16, CK-5.24) ------------------------------------------------------
@RULES.on(EndTurn)
def end_turn(st: ClankModel, seat: int, a: EndTurn) -> None:
    """CK-5.24: lapse, discard the play area, draw 5, refill (Arrive, one attack), then the next slot."""
    seat = st.active
    p = st.p[seat]
    st.log.public("end_turn", seat=seat)
    reset_turn(st)
    p.discard.extend(p.play)
    p.play = []
    draw_to_hand_size(st, seat)
    refill_row(st)
    next_slot(st)
