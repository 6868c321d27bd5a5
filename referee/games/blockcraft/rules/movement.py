"""BC-5.8 move, BC-5.9 jump and landing, BC-6.1 fall damage."""
from __future__ import annotations

from ..effects import skill_of
from ..model import BlockcraftModel, Player
from .combat import damage, downed_checks
from .geometry import DIRS, height, pay


def move_cost(st: BlockcraftModel, p: Player) -> int:
    """BC-5.8: 1 hunger (h_explorer: the first move of the turn is free of hunger)."""
    return 0 if (p.moves == 0 and skill_of(st, p).first_move_free_hunger) else 1


def move_dirs(st: BlockcraftModel, p: Player) -> list[str]:
    """BC-5.8: legal directions: inside the map and H(d) <= h(P) (+2 for climbers)."""
    if p.ap < 1 or p.hunger < move_cost(st, p) or p.cell is None:
        return []
    x, y = p.cell
    limit = height(st, p) + skill_of(st, p).climb(st, p)
    out = []
    for d, (dx, dy) in DIRS.items():
        nx, ny = x + dx, y + dy
        if 0 <= nx < st.w and 0 <= ny < st.h and st.H(nx, ny) <= limit:
            out.append(d)
    return out


def move(st: BlockcraftModel, p: Player, d: str) -> None:
    """BC-5.8: step to the neighbour; a descent triggers fall damage unless airborne (landing measures it)."""
    assert p.cell is not None
    before = height(st, p)
    pay(p, 1, move_cost(st, p))
    p.moves += 1
    dx, dy = DIRS[d]
    p.cell = [p.cell[0] + dx, p.cell[1] + dy]
    st.log.public("move", seat=p.seat, dir=d, cell=list(p.cell))
    if not p.airborne:
        fall(st, p, before - st.H(p.cell[0], p.cell[1]))


def fall(st: BlockcraftModel, p: Player, descent: int) -> None:
    """BC-6.1.1: a descent of D units deals max(0, D - 2) unarmoured damage (skills modify it)."""
    if descent <= 2:
        return
    dmg = skill_of(st, p).fall(st, p, descent - 2)
    if dmg > 0:
        damage(st, p, dmg, source=None, armoured=False, why="fall")
        downed_checks(st)


def jump(st: BlockcraftModel, p: Player) -> None:
    """BC-5.9: pay 1 AP + 1 hunger, become airborne at H + 1, choose one follow-up."""
    pay(p, 1, 1)
    p.air_h = height(st, p) + 1
    p.airborne = True
    st.log.public("jump", seat=p.seat, height=p.air_h)
    st.stack.push("jump", p.seat)


def land(st: BlockcraftModel, p: Player) -> None:
    """BC-5.9: after the follow-up resolved, stand on the top of the current cell; descent -> BC-6.1."""
    if not p.alive or not p.airborne or p.cell is None:
        p.airborne = False
        return
    before = p.air_h
    p.airborne = False
    after = st.H(p.cell[0], p.cell[1])
    st.log.public("land", seat=p.seat, height=after)
    fall(st, p, before - after)
