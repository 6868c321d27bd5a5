"""DT-5.5 (movement sub-phase), DT-5.5.5 (legal end squares), DT-6.2 (traps and the Rope),
DT-6.4 (carrying), DT-6.7 (Golden Rule 2).

A move is a sequence of small decisions: ``step``, the free ``pick_up`` / ``drop`` /
``exchange`` (at most one of each per visit, DT-5.5.10) and ``end_move``. The lookahead of
DT-5.5.3.8 guarantees ``end_move`` always becomes available.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import Drop, EndMove, Exchange, Move, PickUp, Step
from ..data import DIRS, content
from ..effects import Caps, caps, object_effects
from ..geometry import LINE, TRAP, Square, line_colour
from . import scoring
from .dispatch import RULES
from .flow import action_done, pay

if TYPE_CHECKING:
    from ..model import DTModel, Token


# Legal-list dicts, one per distinct action (they are shared and never edited: the engine's contract).
_STEPS = [Step.wire(d) for d in DIRS]
_pick_up = cache(PickUp.wire)
_DROP = Drop.wire()
_END_MOVE = EndMove.wire()


_CAPS: dict[str, Caps] = {}
_SUPPORTS: dict[str, bool] = {}
_SPEED: dict[str, int] = {}


def _load_tables() -> None:
    _CAPS.update(caps())
    _SUPPORTS.update({k: e.supports_on_trap for k, e in object_effects().items()})
    _SPEED.update({k: r.speed for k, r in content().characters.items()})


def caps_of(kind: str) -> Caps:
    """The capabilities of a character kind (``effects.Caps``)."""
    try:
        return _CAPS[kind]
    except KeyError:
        _load_tables()
        return _CAPS[kind]


def _supports(kind: str) -> bool:
    try:
        return _SUPPORTS[kind]
    except KeyError:
        _load_tables()
        return _SUPPORTS[kind]


def has_rope(st: DTModel, t: Token) -> bool:
    """DT-6.2.2: the character carries a Rope (an object whose effect supports it on traps)."""
    if t.carrying is None:
        return False
    k = st.tokens[t.carrying]
    return not k.char and _supports(k.kind)


def step_target(st: DTModel, m: Token, p: Square, d: int) -> tuple[Square, bool] | None:
    """DT-5.5.3.1-7: the square a step in direction ``d`` reaches and whether it is an exit."""
    q = st.board.conn[p][d]
    if q is None:
        return None
    kind = st.board.kind[q]
    occ = st.at.get(q, ())
    toks = st.tokens
    if kind == LINE and line_colour(q) != m.colour:
        for tid in occ:
            t = toks[tid]
            if t.char and not t.wounded:
                return None                      # DT-5.5.3.3 / DT-6.9.4
        return q, True
    cap = caps_of(m.kind)
    crossable = False
    for tid in occ:
        if tid == m.id:
            continue
        t = toks[tid]
        if t.char:
            if not t.wounded:
                if t.colour != m.colour:
                    if not cap.passes_enemies:
                        return None              # DT-5.5.3.4
                elif caps_of(t.kind).friends_cross_trap:
                    crossable = True             # DT-5.5.3.7 (d), DT-6.2.3
        elif _supports(t.kind):
            crossable = True                     # DT-5.5.3.7 (c), DT-6.2.4
    if kind == TRAP and not (crossable or cap.crosses_traps or has_rope(st, m)):
        return None                              # DT-5.5.3.7, DT-6.2.1
    return q, False


def allowed_on(st: DTModel, m: Token, q: Square) -> bool:
    """DT-5.5.3.7: the mover may be on square ``q`` (only traps restrict)."""
    if st.board.kind[q] != TRAP:
        return True
    cap = caps_of(m.kind)
    if cap.crosses_traps or has_rope(st, m):
        return True
    for tid in st.at.get(q, ()):
        t = st.tokens[tid]
        if tid == m.id:
            continue
        if t.char and not t.wounded and t.colour == m.colour and caps_of(t.kind).friends_cross_trap:
            return True
        if not t.char and _supports(t.kind):
            return True
    return False


def is_end(st: DTModel, x: Token, q: Square) -> bool:
    """DT-5.5.5: ``q`` is a legal end square for ``x`` with its carried token."""
    kind = st.board.kind[q]
    if kind == LINE and line_colour(q) != x.colour:
        return False                                                # 5
    n = 2 if x.carrying is not None else 1
    for tid in st.at.get(q, ()):
        if tid == x.id:
            continue
        t = st.tokens[tid]
        if t.char and (not t.wounded or t.colour != x.colour):
            return False                                            # 1, 2
        n += 1
    if n > 2:
        return False                                                # 4 (Golden Rule 2)
    return kind != TRAP or caps_of(x.kind).stops_on_traps or has_rope(st, x)  # 3


def end_reachable(st: DTModel, m: Token, start: Square, budget: int) -> bool:
    """DT-5.5.3.8: a legal end square or an exit is reachable within ``budget`` steps."""
    if is_end(st, m, start):
        return True
    frontier = [start]
    seen = {start}
    for _ in range(budget):
        nxt = []
        for p in frontier:
            for d in range(4):
                r = step_target(st, m, p, d)
                if r is None:
                    continue
                q, ex = r
                if ex:
                    return True
                if q in seen:
                    continue
                seen.add(q)
                if is_end(st, m, q):
                    return True
                nxt.append(q)
        if not nxt:
            return False
        frontier = nxt
    return False


def _after_ok(st: DTModel, m: Token, steps: int) -> bool:
    """DT-5.5.10: after a free sub-action the mover is still allowed here and can still end."""
    q = m.pos
    return allowed_on(st, m, q) and end_reachable(st, m, q, steps)


def legal_steps(st: DTModel, m: Token, steps: int, first_only: bool = False) -> list[dict[str, Any]]:
    """DT-5.5.3: the legal steps (with the lookahead of rule 8)."""
    out: list[dict[str, Any]] = []
    if steps < 1:
        return out
    p = m.pos
    for d in range(4):
        r = step_target(st, m, p, d)
        if r is None:
            continue
        q, ex = r
        if ex or end_reachable(st, m, q, steps - 1):
            out.append(_STEPS[d])
            if first_only:
                break
    return out


def _rope_pick_blocked(st: DTModel, m: Token, q: Square) -> bool:
    """DT-6.2.6: taking a Rope from a trap may not leave a friend unsupported there."""
    for tid in st.at.get(q, ()):
        t = st.tokens[tid]
        if tid == m.id or not t.char or t.colour != m.colour:
            continue
        if t.wounded or not (caps_of(t.kind).stops_on_traps or has_rope(st, t)):
            return True
    return False


def _rope_victims(st: DTModel, m: Token, k: Token, q: Square) -> list[str]:
    """DT-6.2.6: wounded enemies lying on a trap whose Rope is taken die."""
    if st.board.kind[q] != TRAP or k.char or not _supports(k.kind):
        return []
    return sorted(tid for tid in st.at.get(q, ()) if st.tokens[tid].char and st.tokens[tid].wounded
                  and st.tokens[tid].colour != m.colour)


def free_actions(st: DTModel, m: Token, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """DT-5.5.6-5.5.8 with the DT-5.5.10 limits: pick_up, drop, exchange on the current square."""
    out: list[dict[str, Any]] = []
    q = m.pos
    occ = st.at.get(q, ())
    toks = st.tokens
    steps = frame["steps"]
    visit = frame["visit"]
    kind = st.board.kind[q]
    others = [toks[tid] for tid in sorted(occ) if tid != m.id]
    healthy_enemy = any(t.char and not t.wounded and t.colour != m.colour for t in others)
    friend = next((t for t in others if t.char and not t.wounded and t.colour == m.colour), None)
    if m.carrying is None and visit["pick"] is None and not healthy_enemy:
        for k in others:
            if k.id == visit["drop"] or (k.char and (not k.wounded or k.colour != m.colour)):
                continue
            if kind == TRAP and not k.char and _supports(k.kind) and _rope_pick_blocked(st, m, q):
                continue
            victims = _rope_victims(st, m, k, q)
            st.lift(k.id)
            st.carry(m.id, k.id)
            for v in victims:
                st.lift(v)
            ok = _after_ok(st, m, steps)
            st.uncarry(m.id)
            st.put(k.id, q)
            for v in victims:
                st.put(v, q)
            if ok:
                out.append(_pick_up(k.id))
    k_id = m.carrying
    if k_id is not None and visit["drop"] is None and visit["pick"] != k_id and not others and kind != LINE:
        k = toks[k_id]
        if kind != TRAP or (not k.char and _supports(k.kind) and _anchors(st, q) >= 2):
            st.uncarry(m.id)
            st.put(k_id, q)
            ok = _after_ok(st, m, steps)
            st.lift(k_id)
            st.carry(m.id, k_id)
            if ok:
                out.append(_DROP)
    if friend is not None and not visit["xchg"]:
        mode = _exchange_mode(m, friend)
        if mode is not None:
            m.carrying, friend.carrying = friend.carrying, m.carrying
            ok = (kind != TRAP or caps_of(friend.kind).stops_on_traps or has_rope(st, friend)) \
                and _after_ok(st, m, steps)
            m.carrying, friend.carrying = friend.carrying, m.carrying
            if ok:
                out.append(Exchange.wire(mode, friend.id))
    return out


def _exchange_mode(m: Token, f: Token) -> str | None:
    if m.carrying is not None and f.carrying is None:
        return "give"
    if m.carrying is None and f.carrying is not None:
        return "take"
    if m.carrying is not None and f.carrying is not None:
        return "swap"
    return None


def _anchors(st: DTModel, q: Square) -> int:
    """DT-5.5.7 [design D13]: connected neighbouring floor/gear squares of a trap."""
    board = st.board
    return sum(1 for n in board.conn[q] if n is not None
               and board.kind[n] in ("floor", "gear"))


def move_legal(st: DTModel) -> list[dict[str, Any]]:
    """The move sub-phase's legal list (DT-5.5.2)."""
    frame = st.open_sub
    m = st.tokens[frame["char"]]
    out = legal_steps(st, m, frame["steps"]) + free_actions(st, m, frame)
    if is_end(st, m, m.pos):
        out.append(_END_MOVE)
    return out


def can_start_move(st: DTModel, m: Token) -> bool:
    """DT-5.3.5 [design D8]: a move is offered only if a step or a free sub-action exists."""
    steps = _speed(m)
    return bool(legal_steps(st, m, steps, True)) or bool(free_actions(st, m, new_frame(m, steps)))


def _speed(m: Token) -> int:
    try:
        return _SPEED[m.kind]
    except KeyError:
        _load_tables()
        return _SPEED[m.kind]


def new_frame(m: Token, steps: int) -> dict[str, Any]:
    """The data of a ``move`` frame: the mover, its steps left, this visit's free sub-actions."""
    return {"char": m.id, "steps": steps, "visit": {"pick": None, "drop": None, "xchg": False}}


@RULES.on(Move)
def move(st: DTModel, seat: int, a: Move) -> None:
    """DT-5.5.1: 1 AP, fresh ``speed`` steps."""
    m = st.tokens[a.character]
    pay(st, m.id)
    st.stack.push("move", m.colour, **new_frame(m, _speed(m)), path=[list(m.pos)])


def _log_move(st: DTModel, frame: dict[str, Any], exited: bool) -> None:
    """DT-7.7: one event per completed move (its path), to keep the log small."""
    path = frame.get("path")
    if path:  # (after a jump / wall-walk landing the landing event says it all)
        st.log.public("move", character=frame["char"], frm=path[0], to=path[-1], steps=len(path) - 1,
                      exit=exited)


@RULES.on(Step)
def step(st: DTModel, seat: int, a: Step) -> None:
    """DT-5.5.3: one step; leaving through the enemy line ends the move (DT-6.6)."""
    frame = st.open_sub
    m = st.tokens[frame["char"]]
    r = step_target(st, m, m.pos, DIRS.index(a.dir))
    assert r is not None, "a legal step has a target"
    q, ex = r
    st.lift(m.id)
    frame["steps"] -= 1
    frame["visit"] = {"pick": None, "drop": None, "xchg": False}
    frame.setdefault("path", []).append(list(q))
    if ex:
        m.where = "limbo"
        _log_move(st, frame, True)
        scoring.exit_dungeon(st, m.id)
        action_done(st)
        return
    st.put(m.id, q)


@RULES.on(EndMove)
def end_move(st: DTModel, seat: int, a: EndMove) -> None:
    """DT-5.5.9: the move ends on a legal end square."""
    _log_move(st, st.open_sub, False)
    action_done(st)


@RULES.on(PickUp)
def pick_up(st: DTModel, seat: int, a: PickUp) -> None:
    """DT-5.5.6 (DT-6.2.6: taking a Rope kills the wounded enemies it held on the trap)."""
    frame = st.open_sub
    m = st.tokens[frame["char"]]
    q = m.pos
    k = st.tokens[a.token]
    victims = _rope_victims(st, m, k, q)
    st.lift(k.id)
    st.carry(m.id, k.id)
    frame["visit"]["pick"] = k.id
    st.log.public("pick_up", character=m.id, token=k.id, square=list(q))
    for v in victims:
        scoring.kill(st, v, "rope_taken")


@RULES.on(Drop)
def drop(st: DTModel, seat: int, a: Drop) -> None:
    """DT-5.5.7."""
    frame = st.open_sub
    m = st.tokens[frame["char"]]
    q = m.pos
    k_id = st.uncarry(m.id)
    assert k_id is not None, "a legal drop has something to drop"
    st.put(k_id, q)
    frame["visit"]["drop"] = k_id
    st.log.public("drop", character=m.id, token=k_id, square=list(q))


@RULES.on(Exchange)
def exchange(st: DTModel, seat: int, a: Exchange) -> None:
    """DT-5.5.8."""
    frame = st.open_sub
    m = st.tokens[frame["char"]]
    f = st.tokens[a.friend]
    x, y = m.carrying, f.carrying
    m.carrying, f.carrying = y, x
    if y is not None:
        st.tokens[y].carrier = m.id
    if x is not None:
        st.tokens[x].carrier = f.id
    frame["visit"]["xchg"] = True
    st.log.public("exchange", character=m.id, friend=f.id, mode=a.mode, gave=x, took=y)
