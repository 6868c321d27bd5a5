"""CK-5.1 .. CK-5.4, CK-5.16, CK-5.24, CK-5.27, CK-8.1: turn order, the main phase, the
end-of-turn procedure, rounds, the round limit and the end of the game."""
from __future__ import annotations

from typing import Any

from ..actions import EndTurn
from .base import StateBase
from .dispatch import RULES

_IN = "in_dungeon"


class TurnMixin(StateBase):
    """Whose slot it is, what a normal turn allows, and how it ends."""

    def legal_main(self) -> list[dict[str, Any]]:
        """CK-5.4 / CK-5.28: every main-phase action in CK-5.5 .. CK-5.16 order."""
        out = self.legal_cards()
        out.extend(self.legal_movement())
        out.extend(self.legal_tokens())
        if not self.p[self.active].hand:
            out.append(EndTurn.wire())  # CK-5.16: the whole hand must be played first
        return out

    def reset_turn(self) -> None:
        """CK-5.3 / CK-6.19: pools 0, flags false, no pending conditionals."""
        self.skill = self.swords = self.boots = self.teleports = self.credit = 0
        self.exhausted = self.ignore_caves = self.ignore_monsters = False
        self.conds = []

    def start_turn(self, seat: int) -> None:
        """CK-5.2: draw up to 5; fresh pools; phase main."""
        self.reset_turn()
        self.log.public("turn", seat=seat, round=self.round)
        self.draw_to_hand_size(seat)

    def all_out(self) -> bool:
        return not any(p.status == _IN for p in self.p)

    def finish(self, reason: str) -> None:
        """CK-8.1: the game is over; the outcome is computed from the final state."""
        if not self.over:
            self.over = True
            self.end_reason = reason
            self.stack.frames.clear()
            self.work.clear()
            self.log.public("game_over", reason=reason)

    def next_slot(self) -> None:
        """CK-5.1 / CK-5.26 / CK-5.27: pass to the next seat's slot, running countdown slots and
        round ends, until a normal turn starts or the game ends (CK-8.1 checked after each step)."""
        n = self.players
        while not self.over:
            if self.all_out():
                self.finish("all_out")
                return
            self.active = (self.active + 1) % n
            if self.active == 0:
                self.end_of_round()
                if self.over:
                    return
                if self.all_out():
                    self.finish("all_out")
                    return
                self.round += 1
            if self.cd_owner == self.active:
                self.countdown_step()
                continue
            if self.p[self.active].status == _IN:
                self.start_turn(self.active)
                return

    def end_of_round(self) -> None:
        """CK-5.27: at the end of round ``round_limit`` the neutral dragon pawn takes an empty
        countdown track; at the end of every later round it advances."""
        if self.cd_owner == "dragon":
            self.countdown_step()
        elif self.cd_owner is None and self.round >= self.options["round_limit"]:
            self.cd_owner = "dragon"
            self.cd_space = 1
            self.log.public("countdown", owner="dragon", space=1)


# -- the rule of end_turn (CK-5.16, CK-5.24) ------------------------------------------------------
@RULES.on(EndTurn)
def end_turn(st: StateBase, seat: int, a: EndTurn) -> None:
    """CK-5.24: lapse, discard the play area, draw 5, refill (Arrive, one attack), then the next slot."""
    seat = st.active
    p = st.p[seat]
    st.log.public("end_turn", seat=seat)
    st.reset_turn()
    p.discard.extend(p.play)
    p.play = []
    st.draw_to_hand_size(seat)
    st.refill_row()
    st.next_slot()
