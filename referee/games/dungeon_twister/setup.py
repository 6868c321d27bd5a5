"""DT-4.1-4.2: the random draws (all at setup, in a fixed order) and the initial holdings."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, Rng

from .data import content
from .model import Slot, Token, token_catalogue
from .state import DTState


def setup(game: Game, players: int, options: dict[str, Any], seed: int) -> DTState:
    c = content()
    st = DTState(game, players, options, Rng(seed))
    rng = st.rng
    # DT-4.1: 1. tiles into slots, 2. orientations, 3. placement first seat, 4. first seat.
    tiles = rng.shuffled(sorted(c.rooms))
    orientations = [rng.below(4) for _ in range(8)]
    placement_first = rng.below(2)
    first = rng.below(2)
    if options["fixed_layout"]:
        tiles = [e[0] for e in options["fixed_layout"]]
        orientations = [e[1] for e in options["fixed_layout"]]
    if options["placement_first_seat"] >= 0:
        placement_first = options["placement_first_seat"]
    if options["first_seat"] >= 0:
        first = options["first_seat"]
    st.slots = [Slot(t, o) for t, o in zip(tiles, orientations, strict=True)]
    st.ports = {p["id"]: "closed" for r in sorted(c.rooms) for p in c.rooms[r].portcullis}
    # DT-4.2: 8 characters + 6 objects each, all unplaced; cards; 0 VP.
    st.token_list = [Token(tid) for tid, _colour, _kind, _char in token_catalogue()]
    st.placer = placement_first
    st.first_seat = first
    st.action_hand = [sorted(c.cards["action"].values) for _ in range(2)]
    st.combat_hand = [sorted(c.cards["combat"].values) for _ in range(2)]
    st.jumps = [len(c.cards["jump"].values)] * 2
    st.derive()
    st.log.public("setup", vp_target=options["vp_target"], max_turns=options["max_turns"],
                  placement_first_seat=placement_first)
    return st
