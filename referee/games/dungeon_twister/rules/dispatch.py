"""Routes ``legal_actions`` and ``_apply`` by phase and sub-phase (DT-4, DT-5)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import abilities, combat, movement, reveal, setup_phase, turn

if TYPE_CHECKING:
    from ..model import DTModel


def legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    if st.phase == "starters":
        return setup_phase.starter_legal(st, seat)
    if st.phase == "placement":
        return setup_phase.placement_legal(st, seat)
    sub = st.sub
    if sub is not None:
        kind = sub["kind"]
        if kind == "move":
            return movement.move_legal(st)
        if kind == "place":
            return reveal.place_legal(st, seat)
        return combat.card_legal(st, seat)
    if not st.card_played:
        return turn.card_legal(st, seat)
    return turn.main_legal(st, seat)


def apply(st: DTModel, seat: int, action: dict[str, Any]) -> None:
    kind = action["type"]
    if kind == "choose_starter":
        setup_phase.apply_starter(st, seat, action)
    elif kind == "place_hidden":
        setup_phase.apply_placement(st, seat, action)
    elif kind == "play_action_card":
        turn.apply_card(st, seat, action["value"])
    elif kind in ("step", "pick_up", "drop", "exchange", "end_move"):
        if movement.apply_move_action(st, seat, action):
            turn.action_done(st)
    elif kind == "place_revealed":
        if reveal.apply_place(st, seat, action):
            turn.action_done(st)
    elif kind == "combat_card":
        if combat.apply_card(st, seat, action):
            turn.action_done(st)
    else:
        turn.apply_main(st, seat, action)


__all__ = ["abilities", "apply", "legal"]
