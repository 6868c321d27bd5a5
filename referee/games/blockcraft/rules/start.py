"""BC-4.5 and BC-4.11: the decisions before the first turn (character choice, start cells).

The first turn itself starts in ``flow.choose_start`` (BC-4.12).
"""
from __future__ import annotations

from ..actions import ChooseCharacter
from ..model import BlockcraftModel
from .dispatch import RULES


def turn_order(st: BlockcraftModel) -> list[int]:
    return [(st.admin + i) % st.players for i in range(st.players)]


@RULES.on(ChooseCharacter)
def choose_character(st: BlockcraftModel, seat: int, a: ChooseCharacter) -> None:
    """BC-4.5: a secret choice; revealed together once every seat has chosen."""
    st.p[seat].chosen = a.character
    st.log.public("character_chosen", seat=seat)
    if any(p.chosen is None for p in st.p):
        return
    cat = st.cat
    for p in st.p:
        assert p.chosen is not None
        c = cat.characters[p.chosen]
        p.character = c.id
        st.box_characters = sorted(st.box_characters + [o for o in p.options if o != c.id])
        p.options = []
        p.max_stamina = c.sta + (4 * (st.players - 2) if p.seat == st.boss_seat else 0)
        p.stamina = p.max_stamina
        p.max_hunger = p.hunger = c.hun
        p.xp = c.start_xp
    st.log.public("characters", characters=[p.character for p in st.p])
    st.phase = "choose_start"
    st.start_queue = turn_order(st)


def start_cells(st: BlockcraftModel, seat: int) -> list[tuple[int, int]]:
    """BC-4.11: the BOSS picks a free cell of maximum height, everyone else a free border cell."""
    taken = {tuple(p.cell) for p in st.p if p.cell is not None}
    size = st.size
    if seat == st.boss_seat:
        top = max(size.height_at(x, y) for y in range(st.h) for x in range(st.w))
        cells = [(x, y) for y in range(st.h) for x in range(st.w) if size.height_at(x, y) == top]
    else:
        cells = [(x, y) for y in range(st.h) for x in range(st.w)
                 if x in (0, st.w - 1) or y in (0, st.h - 1)]
    return [c for c in cells if c not in taken]
