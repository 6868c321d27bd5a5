"""MM-4: setup (the first state: heroes from the options, else the hero draft; rules/draft.py goes on)."""
from __future__ import annotations

from typing import Any

from referee.engine import Rng

from .catalog import content
from .model import STAT_KEYS
from .rules import draft
from .state import MMState

C = content()


def new_state(game: Any, players: int, options: dict[str, Any], rng: Rng) -> MMState:
    """An empty state; what depends on the options and the seat count: chapter, end page, figures."""
    st = MMState(game, players, options, rng)
    st.chapter = str(options.get("chapter", 1))
    st.end_page = C.chapters[st.chapter].end_page
    st.stats = [{k: 0 for k in STAT_KEYS} for _ in range(players)]
    return st


def setup(game: Any, players: int, options: dict[str, Any], seed: int) -> MMState:
    """MM-4.1-4.3 heroes from the option, else a hero draft (seats 0..n-1 repeating)."""
    st = new_state(game, players, options, Rng(seed))
    chapter = C.chapters[st.chapter]
    st.side = chapter.start_side
    st.sides_entered = [st.side]
    heroes = options["heroes"]
    if heroes:
        assignment = options["assignment"] or [i % players for i in range(4)]
        for h, seat in zip(heroes, assignment, strict=True):
            draft.add_mouse(st, h, seat)
        draft.next_ability(st)
    else:
        st.stack.push("draft_hero", 0, pick=0)
    st.log.public("setup", chapter=int(st.chapter), players=players)
    return st
