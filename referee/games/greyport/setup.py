"""GB-4.2 game setup: build the state and queue the setup steps in the spec's order."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, Rng

from .model import PlayerState
from .rules.core import push
from .rules.flow import advance
from .state import GreyportState


def setup(game: Game, players: int, options: dict[str, Any], seed: int) -> GreyportState:
    st = GreyportState(game, players, options, Rng(seed))
    st.players_ = [PlayerState() for _ in range(players)]
    st.groups = [[] for _ in range(players)]
    chars = options["characters"]
    tasks: list[dict[str, Any]] = []
    if chars is not None:
        for s, c in enumerate(chars):
            st.players_[s].character = c
    else:
        tasks += [{"op": "choose_character", "seat": s} for s in range(players)]
    tasks += [{"op": op} for op in ("deal", "rows", "curses", "first_player", "wounded", "encounter_setup")]
    st.log.public("setup", players=players, chapter=options["chapter"])
    push(st, tasks)
    advance(st)
    return st
