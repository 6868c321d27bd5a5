"""DT-4, DT-5.1.1: the legal list by phase and sub-phase (the rules for the chosen action are
registered on ``dispatch.RULES`` by the mechanic modules imported here)."""
from __future__ import annotations

from typing import Any

from ..model import DTModel
from . import abilities, combat, movement, reveal, rotation, setup_phase, turn

#: every mechanic module with rules on ``RULES`` (imported for their registrations)
MECHANICS = (abilities, combat, movement, reveal, rotation, setup_phase, turn)


def legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    if st.phase == "starters":
        return setup_phase.starter_legal(st, seat)
    if st.phase == "placement":
        return setup_phase.placement_legal(st, seat)
    frames = st.stack.frames
    if frames:
        kind = frames[-1].kind
        if kind == "move":
            return movement.move_legal(st)
        if kind == "place":
            return reveal.place_legal(st, seat)
        return combat.card_legal(st, seat)
    if not st.card_played:
        return turn.card_legal(st, seat)
    return turn.main_legal(st, seat)
