"""Test-state builder for Dungeon Twister scenarios (spec section 10 conventions).

Layout L0 (slot s holds R(s+1) at orientation 0, all revealed, all portcullises closed), only
the listed tokens in play, full hands, first-cycle restriction over, VP 0-0. Not part of the
public protocol: tests build states directly, as the spec allows.
"""
from __future__ import annotations

from typing import Any

from referee.games.dungeon_twister import GAME
from referee.games.dungeon_twister.rules import turn
from referee.games.dungeon_twister.state import DTState

L0 = [[f"R{s + 1}", 0] for s in range(8)]


def build(given: dict[str, Any]) -> DTState:
    """Build a state from a scenario's ``given`` block (all keys optional)."""
    options = {"fixed_layout": given.get("layout", L0), "first_seat": 0, "placement_first_seat": 0,
               **given.get("options", {})}
    st: DTState = GAME.new_state(2, options, 0)
    st.phase = "play"
    face_down = set(given.get("face_down", []))
    for s, slot in enumerate(st.slots):
        slot.revealed = s not in face_down
    for t in st.tokens.values():
        t.where, t.reason = "out", "out_of_play"
    st.at = {}
    st.restricted = given.get("restricted", False)
    st.high = given.get("high", 5 if not st.restricted else 0)
    st.active = given.get("active", 0)
    st.card_played = "ap" in given
    st.card_ap = given.get("ap", 0)
    st.vp = list(given.get("vp", [0, 0]))
    st.log.public("test_state", given=given)
    for pid, state in given.get("ports", {}).items():
        st.ports[pid] = state
    st.rebuild_board()
    place_tokens(st, given.get("tokens", []))
    for h in given.get("hidden", []):
        t = st.tokens[h["id"]]
        t.where, t.slot, t.handle = "hidden", h["slot"], h["handle"]
    return st


def place_tokens(st: DTState, rows: list[dict[str, Any]]) -> None:
    """Rows ``{"id", "square", "wounded"?, "carrying"?, "wtt"?, "blocked"?}``; a carried
    token is taken out of play first, then put under its carrier."""
    st.forget_legal()  # a direct edit of the state
    for row in rows:
        t = st.tokens[row["id"]]
        if t.where == "board":
            st.lift(t.id)
        st.put(t.id, tuple(row["square"]))
        t.wounded = row.get("wounded", False)
        t.wtt = row.get("wtt", False)
        t.blocked = row.get("blocked", False)
        if "carrying" in row:
            k = st.tokens[row["carrying"]]
            if k.where == "board":
                st.lift(k.id)
            k.wounded = k.char
            st.carry(t.id, k.id)


def end_turn_and_play(st: DTState, value: int) -> None:
    """Helper for multi-turn scenarios: the active seat ends its turn, the next plays ``value``."""
    turn.end_turn(st)
    turn.apply_card(st, st.active, value)
