"""DT-5.9 character abilities, DT-5.10 activated objects, DT-5.11 Jump cards.

Each ``*_actions`` generator lists the legal actions of one able character (the ability and
object registries in ``effects.py`` call them); the rule registered for each action class
resolves one chosen action (1 AP, DT-5.3.2).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..actions import (
    BreakPortcullis,
    ClosePortcullis,
    DrinkPotion,
    Fireball,
    Heal,
    Jump,
    OpenPortcullis,
    Regenerate,
    WallWalk,
)
from ..data import DIRS, DX, DY
from ..effects import ObjectEffect, object_effects
from ..geometry import LINE, TRAP, line_colour
from . import scoring
from .dispatch import RULES
from .flow import done_unless_open, pay
from .movement import is_end, new_frame

if TYPE_CHECKING:
    from ..model import DTModel, Token


def _healthy_other_on(st: DTModel, sq: Any, but: str) -> bool:
    return any(st.tokens[t].char and not st.tokens[t].wounded and t != but for t in st.at.get(sq, ()))


# -- DT-5.9.1 Heal -------------------------------------------------------------------------------
def heal_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.9.1: a wounded character of either colour, not carried, on a connected square,
    with no other healthy character standing on it."""
    out = []
    for q in st.board.conn[c.pos]:
        if q is None:
            continue
        occ = st.at.get(q)
        if not occ:
            continue
        for tid in (sorted(occ) if len(occ) > 1 else occ):
            w = st.tokens[tid]
            if w.char and w.wounded and not _healthy_other_on(st, q, tid):
                out.append(Heal.wire(c.id, tid))
    return out


@RULES.on(Heal)
def heal(st: DTModel, seat: int, a: Heal) -> None:
    """DT-5.9.1: 1 AP; the healed character is blocked this turn."""
    pay(st, a.character)
    w = st.tokens[a.target]
    w.wounded = False
    w.blocked = True
    st.log.public("healed", character=w.id, by=a.character)
    done_unless_open(st)


# -- DT-5.9.2 Lock-picking, DT-5.9.5 Break portcullis --------------------------------------------
def _adjacent_ports(st: DTModel, c: Token) -> list[str]:
    ports = st.board.ports[c.pos]
    return [p for p in ports if p is not None]


def lock_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.9.2: open a closed / close an open portcullis beside the Thief (not a broken one)."""
    out = []
    for pid in _adjacent_ports(st, c):
        state = st.ports[pid]
        if state == "closed":
            out.append(OpenPortcullis.wire(c.id, pid))
        elif state == "open":
            out.append(ClosePortcullis.wire(c.id, pid))
    return out


def break_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.9.5: break a closed portcullis beside the Warrior."""
    return [BreakPortcullis.wire(c.id, pid) for pid in _adjacent_ports(st, c) if st.ports[pid] == "closed"]


_PORTCULLIS_STATE = {OpenPortcullis: "open", ClosePortcullis: "closed", BreakPortcullis: "broken"}


@RULES.on(OpenPortcullis, ClosePortcullis, BreakPortcullis)
def portcullis(st: DTModel, seat: int, a: OpenPortcullis | ClosePortcullis | BreakPortcullis) -> None:
    """DT-5.9.2 / DT-5.9.5: 1 AP, the portcullis opens, closes or breaks (DT-3.3.1)."""
    pay(st, a.character)
    new = _PORTCULLIS_STATE[type(a)]
    st.ports[a.portcullis] = new
    st.rebuild_board(squares=st.board.port_squares[a.portcullis])
    st.log.public("portcullis", id=a.portcullis, state=new, by=a.character)
    done_unless_open(st)


# -- DT-5.9.3 Regeneration -----------------------------------------------------------------------
def regenerate_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.9.3: wounded, on the board, not wounded this turn, no other healthy character there."""
    if c.where == "board" and c.wounded and not c.wtt and not _healthy_other_on(st, c.square, c.id):
        return [Regenerate.wire(c.id)]
    return []


@RULES.on(Regenerate)
def regenerate(st: DTModel, seat: int, a: Regenerate) -> None:
    """DT-5.9.3: 1 AP; healthy again, blocked this turn."""
    pay(st, a.character)
    t = st.tokens[a.character]
    t.wounded = False
    t.blocked = True
    st.log.public("regenerated", character=t.id)
    done_unless_open(st)


# -- DT-5.9.4 Wall-walking -----------------------------------------------------------------------
def _landing_ok(st: DTModel, c: Token, q: Any) -> bool:
    """Jump / wall-walk landing: a legal end square, or an empty enemy-line square (exit)."""
    if st.board.kind[q] == LINE and line_colour(q) != c.colour:
        return not any(st.tokens[t].char for t in st.at.get(q, ()))
    return is_end(st, c, q)


def wall_walk_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.9.4: through a (single or double) wall, never a portcullis, never into a hidden room."""
    out = []
    p = c.pos
    for d in range(4):
        if st.board.edge(p, d) != "wall":
            continue
        q = (p[0] + DX[d], p[1] + DY[d])
        if _landing_ok(st, c, q):
            out.append(WallWalk.wire(c.id, DIRS[d]))
    return out


def _land(st: DTModel, c: Token, q: Any, how: str) -> None:
    """Put ``c`` on its landing square (or exit) and open one visit of free sub-actions."""
    st.lift(c.id)
    if st.board.kind[q] == LINE and line_colour(q) != c.colour:
        c.where = "limbo"
        st.log.public(how, character=c.id, to=list(q))
        scoring.exit_dungeon(st, c.id)
        return
    st.put(c.id, q)
    st.log.public(how, character=c.id, to=list(q))
    st.stack.push("move", c.colour, **new_frame(c, 0))


@RULES.on(WallWalk)
def wall_walk(st: DTModel, seat: int, a: WallWalk) -> None:
    """DT-5.9.4: 1 AP, through the wall, then one visit of free sub-actions."""
    pay(st, a.character)
    c = st.tokens[a.character]
    d = DIRS.index(a.dir)
    _land(st, c, (c.pos[0] + DX[d], c.pos[1] + DY[d]), "wall_walk")
    done_unless_open(st)


# -- DT-5.10.1 Fireball Wand -----------------------------------------------------------------------
def _fireball_target(st: DTModel, c: Token, d: int) -> Any:
    """DT-5.10.1: trace through passable edges; the first square holding any character."""
    p = c.pos
    while True:
        q = st.board.conn[p][d]
        if q is None:
            return None
        if any(st.tokens[t].char for t in st.at.get(q, ())):
            return q
        p = q


def fireball_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    return [Fireball.wire(c.id, DIRS[d]) for d in range(4)
            if _fireball_target(st, c, d) is not None]


@RULES.on(Fireball)
def fireball(st: DTModel, seat: int, a: Fireball) -> None:
    """DT-5.10.1: 1 AP, kill every character on the target square; non-Rope objects on a trap go."""
    pay(st, a.character)
    c = st.tokens[a.character]
    q = _fireball_target(st, c, DIRS.index(a.dir))
    wand = c.carrying
    assert wand is not None, "a legal fireball has a wand"
    st.remove(wand, "used", None)
    st.log.public("fireball", character=c.id, dir=a.dir, square=list(q))
    for tid in sorted(st.at.get(q, ())):
        if st.tokens[tid].char and st.tokens[tid].where == "board":
            scoring.kill(st, tid, "fireball")
    if st.board.kind[q] == TRAP:
        for tid in sorted(st.at.get(q, ())):
            t = st.tokens[tid]
            if not t.char and not object_effects()[t.kind].supports_on_trap:
                st.remove(tid, "fell_into_trap", None)
                st.log.public("object_lost", token=tid, square=list(q))
    done_unless_open(st)


# -- DT-5.10.2 Speed Potion ------------------------------------------------------------------------
def wand_actions(st: DTModel, c: Token, wand: ObjectEffect) -> list[dict[str, Any]]:
    """DT-5.10.1: only a carrier with the ability the wand ``requires`` may use it."""
    if not wand.usable_by(c.kind):
        return []
    return fireball_actions(st, c)


# -- DT-5.10.2 Speed Potion ------------------------------------------------------------------------
def potion_actions(st: DTModel, c: Token, potion: ObjectEffect) -> list[dict[str, Any]]:
    return [DrinkPotion.wire(c.id)]


@RULES.on(DrinkPotion)
def drink_potion(st: DTModel, seat: int, a: DrinkPotion) -> None:
    """DT-5.10.2: 1 AP, the potion's AP go to this character."""
    pay(st, a.character)
    c = st.tokens[a.character]
    potion = c.carrying
    assert potion is not None, "a legal potion action has a potion"
    bonus = object_effects()[st.tokens[potion].kind].row.bonus
    st.remove(potion, "used", None)
    st.potion_ap[c.id] = st.potion_ap.get(c.id, 0) + bonus
    st.log.public("potion", character=c.id, ap=bonus)
    done_unless_open(st)


# -- DT-5.11 Jump card ---------------------------------------------------------------------------
def jump_actions(st: DTModel, c: Token) -> list[dict[str, Any]]:
    """DT-5.11.1: over a connected trap holding no character, landing straight or in an L."""
    if st.jumps[c.colour] <= 0:
        return []
    out = []
    board = st.board
    p = c.pos
    for t in board.conn[p]:
        if t is None or board.kind[t] != TRAP:
            continue
        if any(st.tokens[x].char for x in st.at.get(t, ())):
            continue
        for land in board.conn[t]:
            if land is None or land == p:
                continue
            if _landing_ok(st, c, land):
                out.append(Jump.wire(c.id, list(t), list(land)))
    return out


@RULES.on(Jump)
def jump(st: DTModel, seat: int, a: Jump) -> None:
    """DT-5.11.2: 1 AP and a Jump card, then one visit of free sub-actions."""
    pay(st, a.character)
    c = st.tokens[a.character]
    st.jumps[c.colour] -= 1
    st.log.public("jump_card", seat=c.colour, left=st.jumps[c.colour])
    x, y = a.land
    _land(st, c, (x, y), "jump")
    done_unless_open(st)


# -- the activated abilities and objects, by their key in the content (``effects.py``) -----------
Builder = Callable[["DTModel", "Token"], list[dict[str, Any]]]
#: DT-5.9: ability key -> the actions it offers an able character
ABLE_ACTIONS: dict[str, Builder] = {
    "heal": heal_actions, "lock_picking": lock_actions, "wall_walking": wall_walk_actions,
    "break_portcullis": break_actions,
}
#: DT-5.9.6: the only ability usable while wounded
WOUNDED_ACTIONS: dict[str, Builder] = {"regeneration": regenerate_actions}
#: DT-5.10: object effect key -> the action the carried object offers its able carrier
OBJECT_ACTIONS: dict[str, Callable[[DTModel, Token, ObjectEffect], list[dict[str, Any]]]] = {
    "fireball": wand_actions, "speed": potion_actions,
}
