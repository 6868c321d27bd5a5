"""DT-5.1-5.4: the turn — play an action card (first-cycle restriction), spend AP on the action
catalogue, recycle, end-of-turn cleanup; DT-8.1/8.3 end of game."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..data import content
from . import abilities, combat, movement, reveal, rotation

if TYPE_CHECKING:
    from ..model import DTModel


def card_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-5.2.1-5.2.2: while no 4 was played, ``v <= max(2, H+1)``."""
    hand = sorted(set(st.action_hand[seat]))
    allowed = [v for v in hand if not st.restricted or v <= max(2, st.high + 1)]
    return [{"type": "play_action_card", "value": v} for v in (allowed or hand)]


def apply_card(st: DTModel, seat: int, value: int) -> None:
    st.action_hand[seat].remove(value)
    st.action_top[seat] = value
    st.high = max(st.high, value)
    if value >= 4:  # DT-5.2.2: once a 4 is played the restriction is over for both players
        st.restricted = False
    st.card_played = True
    st.card_ap = value
    st.log.public("action_card", seat=seat, value=value)


_EFFECTS: dict[str, Any] = {}


def _effects() -> dict[str, Any]:
    if not _EFFECTS:
        from ..effects import object_effects

        _EFFECTS.update(object_effects())
    return _EFFECTS


def main_legal(st: DTModel, seat: int) -> list[dict[str, Any]]:
    """DT-5.3.5: the action catalogue for the active seat outside sub-phases."""
    out: list[dict[str, Any]] = []
    card = st.card_ap > 0
    potion = st.potion_ap
    for c in st.own_chars(seat):
        if c.where != "board" or not (card or potion.get(c.id)):
            continue
        caps = movement.caps_of(c.kind)
        if c.wounded:
            for ab in caps.active:
                out += ab.wounded_actions(st, c)
            continue
        if c.blocked:
            continue
        if movement.can_start_move(st, c):
            out.append({"type": "move", "character": c.id})
        out += [{"type": "reveal", "character": c.id, "slot": s} for s in reveal.reveal_slots(st, c)]
        out += rotation.rotate_actions(st, c)
        out += combat.attack_actions(st, c)
        for ab in caps.active:
            out += ab.actions(st, c)
        if c.carrying is not None:
            k = st.tokens[c.carrying]
            if not k.char:
                out += _effects()[k.kind].actions(st, c, k)
        out += abilities.jump_actions(st, c)
    out.append({"type": "end_turn"})
    return out


def apply_main(st: DTModel, seat: int, action: dict[str, Any]) -> None:
    """Start one catalogue action (1 AP from the acting character, DT-5.3.2)."""
    kind = action["type"]
    if kind == "end_turn":
        end_turn(st)
        return
    if kind == "move":
        movement.start_move(st, action["character"])
        return
    if kind == "reveal":
        if reveal.apply_reveal(st, seat, action):
            action_done(st)
        return
    if kind == "attack":
        combat.start_combat(st, action)
        return
    st.pay(action["character"])
    if kind == "rotate":
        rotation.apply_rotate(st, action)
    elif kind == "heal":
        abilities.apply_heal(st, action)
    elif kind in ("open_portcullis", "close_portcullis", "break_portcullis"):
        abilities.apply_portcullis(st, action)
    elif kind == "regenerate":
        abilities.apply_regenerate(st, action)
    elif kind == "fireball":
        abilities.apply_fireball(st, action)
    elif kind == "drink_potion":
        abilities.apply_potion(st, action)
    elif kind == "wall_walk":
        abilities.apply_wall_walk(st, action)
    elif kind == "jump":
        abilities.apply_jump(st, action)
    if st.sub is None:
        action_done(st)


def action_done(st: DTModel) -> None:
    """DT-5.3.3 the action is complete; DT-5.3.4 [design D28] phase 2 ends by itself when no AP
    can be paid any more."""
    st.sub = None
    if st.card_ap <= 0 and not st.potion_ap:
        end_turn(st)


def end_turn(st: DTModel) -> None:
    """DT-5.4: recycle an empty hand, clear flags and potion AP, count the turn, check the end."""
    seat = st.active
    assert seat is not None
    recycled = not st.action_hand[seat]
    if recycled:
        st.action_hand[seat] = sorted(content().cards["action"].values)
        st.action_top[seat] = None
    for t in st.tokens.values():
        t.blocked = False
        t.wtt = False
    st.potion_ap = {}
    st.card_ap = 0
    st.sub = None
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
