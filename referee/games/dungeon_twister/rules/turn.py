"""DT-5.1-5.4: the turn — play an action card (first-cycle restriction), spend AP on the action
catalogue, recycle, end-of-turn cleanup (``flow``); DT-8.1/8.3 end of game."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import EndTurn, Move, PlayActionCard, Reveal
from ..effects import object_effects
from . import abilities, combat, movement, reveal, rotation
from .dispatch import RULES
from .flow import action_done, end_turn

if TYPE_CHECKING:
    from ..model import DTModel

__all__ = ["action_done", "apply_card", "card_legal", "end_turn", "main_legal"]

# Legal-list dicts, one per distinct action (they are shared and never edited: the engine's contract).
_card = cache(PlayActionCard.wire)
_move = cache(Move.wire)
_reveal = cache(Reveal.wire)
_END_TURN = EndTurn.wire()


def card_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-5.2.1-5.2.2: while no 4 was played, ``v <= max(2, H+1)``."""
    hand = sorted(set(st.action_hand[seat]))
    allowed = [v for v in hand if not st.restricted or v <= max(2, st.high + 1)]
    return [_card(v) for v in (allowed or hand)]


def apply_card(st: DTModel, seat: int, value: int) -> None:
    st.action_hand[seat].remove(value)
    st.action_top[seat] = value
    st.high = max(st.high, value)
    if value >= 4:  # DT-5.2.2: once a 4 is played the restriction is over for both players
        st.restricted = False
    st.card_played = True
    st.card_ap = value
    st.log.public("action_card", seat=seat, value=value)


@RULES.on(PlayActionCard)
def play_action_card(st: DTModel, seat: int, a: PlayActionCard) -> None:
    apply_card(st, seat, a.value)


def main_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-5.3.5: the action catalogue for the active seat outside sub-phases."""
    out: list[dict[str, Any]] = []
    card = st.card_ap > 0
    potion = st.potion_ap
    effects = object_effects()
    for c in st.own_chars(seat):
        if c.where != "board" or not (card or potion.get(c.id)):
            continue
        caps = movement.caps_of(c.kind)
        if c.wounded:
            for key in caps.active_wounded:
                out += abilities.WOUNDED_ACTIONS[key](st, c)
            continue
        if c.blocked:
            continue
        if movement.can_start_move(st, c):
            out.append(_move(c.id))
        out += [_reveal(c.id, s) for s in reveal.reveal_slots(st, c)]
        out += rotation.rotate_actions(st, c)
        out += combat.attack_actions(st, c)
        for key in caps.active:
            out += abilities.ABLE_ACTIONS[key](st, c)
        if c.carrying is not None:
            k = st.tokens[c.carrying]
            if not k.char:
                effect = effects[k.kind]
                if effect.acts:
                    out += abilities.OBJECT_ACTIONS[effect.row.effect](st, c, effect)
        out += abilities.jump_actions(st, c)
    out.append(_END_TURN)
    return out


@RULES.on(EndTurn)
def end_turn_rule(st: DTModel, seat: int, a: EndTurn) -> None:
    """DT-5.3.4: end phase 2 (unused AP are lost)."""
    end_turn(st)


# The catalogue actions' rules (1 AP from the acting character, DT-5.3.2) live with their mechanic:
# move (movement), reveal (reveal), rotate (rotation), attack (combat), abilities and objects
# (abilities); each ends with ``flow.action_done`` once nothing is left to decide.
