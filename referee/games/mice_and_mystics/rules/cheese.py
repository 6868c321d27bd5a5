"""MM-6.5-6.8, MM-8: dice, the cheese wheel, the hourglass, surges, placement, capture and the result."""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome

from ..catalog import content
from ..model import MMModel, Monster
from . import board
from .board import CHEESE

C = content()


def roll(st: MMModel, n: int, why: str, who: str = "") -> list[int]:
    """MM-3.1a n successive die draws, logged publicly with their faces."""
    faces = [st.rng.die(6) for _ in range(max(0, n))]
    st.log.public("roll", why=why, who=who, faces=[f"F{f}" for f in faces])
    return faces


def finish(st: MMModel, win: bool, reason: str) -> None:
    """MM-8.1/8.2 the first terminal event ends the game at once."""
    if st.result is None:
        st.result = {"win": win, "reason": reason}
        st.log.public("game_over", result="win" if win else "loss", reason=reason)


def advance_hourglass(st: MMModel, why: str) -> None:
    """MM-6.7 one page; reaching the chapter-end page loses at once."""
    if st.result is not None:
        return
    st.hourglass += 1
    st.log.public("hourglass", page=st.hourglass, why=why)
    if st.hourglass >= st.end_page:
        finish(st, False, "hourglass")


def add_wheel(st: MMModel, n: int, why: str) -> None:
    """MM-6.6 c: tokens one at a time; a full wheel advances the hourglass, then surges once."""
    for _ in range(n):
        if st.result is not None:
            return
        st.wheel += 1
        st.log.public("wheel", wheel=st.wheel, why=why)
        if st.wheel >= 6:
            st.wheel = 0
            advance_hourglass(st, "wheel_full")
            if st.result is not None:
                return
            enc = st.encounter
            if not enc["surge_used"]:
                enc["surge_used"] = True
                st.log.public("surge", monsters=list(enc["surge"]))
                place_figures(st, list(enc["surge"]), surprise=True)


def wheel_faces(st: MMModel, faces: list[int], why: str) -> None:
    """MM-6.6 b: each F1 on a monster roll adds a token at once."""
    for f in faces:
        if f in CHEESE:
            add_wheel(st, 1, why)
            if st.result is not None:
                return


def gain_cheese(st: MMModel, mouse: str, n: int, why: str) -> None:
    if n <= 0:
        return
    m = st.mice[mouse]
    m.cheese += n
    st.credit(mouse, "cheese_gained", n)
    st.log.public("cheese", mouse=mouse, n=n, total=m.cheese, why=why)


# -- placement (MM-6.8) --------------------------------------------------------------------------
def new_monster(st: MMModel, mtype: str, area: str) -> str:
    mid = f"m{st.next_monster}"
    st.next_monster += 1
    st.supply[mtype] -= 1
    st.monsters[mid] = Monster(mid, mtype, area)
    st.log.public("monster_placed", monster=mid, monster_type=mtype, area=area)
    return mid


def place_fixed(st: MMModel, mtype: str, area: str) -> str | None:
    """Room tables put figures in the listed areas (supply permitting)."""
    if st.supply.get(mtype, 0) <= 0:
        return None
    mid = new_monster(st, mtype, area)
    if C.monsters[mtype].boss:
        draw_boss_cards(st, mid, mtype)
    return mid


def _group(mtype: str) -> int:
    m = C.monsters[mtype]
    return 0 if m.mode == "ranged" else 1 if m.size == "large" else 2


def place_figures(st: MMModel, types: list[str], surprise: bool) -> list[str]:
    """MM-6.8 non-fixed placement; with ``surprise`` the new cards join the surprise row (MM-5.9)."""
    order = sorted(range(len(types)), key=lambda i: (_group(types[i]), i))
    placed: list[str] = []
    g = board.graph(st)
    for i in order:
        mtype = types[i]
        if st.supply.get(mtype, 0) <= 0:
            continue
        size = C.monsters[mtype].size
        occupied = board.mouse_areas(st)
        cands = [a for a in g.ids if a not in occupied and board.can_accept(st, a, size)]
        if not cands:
            continue
        d = {a: board.dist_to_mice(st, a) for a in cands}
        if C.monsters[mtype].mode == "ranged":
            best = min(cands, key=lambda a: (-d[a], board.ordinal(a)))
        elif size == "large":
            best = min(cands, key=lambda a: (d[a], board.ordinal(a)))
        else:
            best = min(cands, key=lambda a: (len(board.monsters_in(st, a)), d[a], board.ordinal(a)))
        placed.append(new_monster(st, mtype, best))
    if surprise:
        join_surprise(st, [st.monsters[p].type for p in placed])
    return placed


def join_surprise(st: MMModel, types: list[str]) -> None:
    """MM-5.9 cards of newly placed types with no card on the track or in the row join the row."""
    new: list[str] = []
    for t in types:
        card = f"init:{t}"
        if card not in st.track and card not in st.surprise and card not in new:
            new.append(card)
    if len(new) > 1:
        st.rng.shuffle(new)
    if new:
        st.surprise.extend(new)
        st.log.public("surprise", cards=list(new))


def draw_boss_cards(st: MMModel, mid: str, mtype: str) -> None:
    """MM-5.8 shuffle the boss's 4 cards, take 2; they join the track when initiative is set, or the row."""
    cards = [k for k, b in C.boss_cards.items() if b.boss == mtype]
    st.rng.shuffle(cards)
    st.boss = {"monster": mid, "type": mtype, "cards": {c: 0 for c in cards[:2]}, "order": cards[:2],
               "aside": cards[2:]}
    st.log.public("boss_cards", cards=cards[:2], set_aside=len(cards[2:]))
    if any(c[5:] not in C.heroes for c in st.track):
        st.surprise.extend(f"init:{c}" for c in cards[:2])
        st.log.public("surprise", cards=[f"init:{c}" for c in cards[:2]])


# -- capture (MM-6.5) ----------------------------------------------------------------------------
def capture(st: MMModel, mouse: str, why: str) -> None:
    """MM-6.5 c in order: hourglass, all-captured check, remove figure, cheese to the wheel."""
    m = st.mice[mouse]
    st.log.public("captured", mouse=mouse, why=why)
    st.credit(mouse, "times_captured")
    m.captured = True
    m.ever_captured = True
    area = m.area
    m.area = None
    advance_hourglass(st, "capture")
    if st.result is None and all(x.captured for x in st.mice.values()):
        finish(st, False, "all_captured")
    m.wounds = 0
    m.poison = 0
    m.statuses = []
    m.taunt = False
    m.ward = False
    cheese = m.cheese
    m.cheese = 0
    del area
    if st.result is None and cheese:
        add_wheel(st, cheese, "capture")


def wound_mouse(st: MMModel, mouse: str, n: int, poison: bool, why: str) -> bool:
    """Put wounds on a mouse; True if it was captured (MM-6.5 a, c)."""
    if n <= 0:
        return False
    m = st.mice[mouse]
    m.wounds += n
    if poison:
        m.poison += n
    st.log.public("mouse_wounded", mouse=mouse, n=n, poison=poison, wounds=m.wounds, why=why)
    if m.wounds >= m.hero.life:
        capture(st, mouse, why)
        return True
    return False


def heal(st: MMModel, healer: str | None, target: str, n: int, why: str) -> int:
    """MM-6.5 b non-poison healing: removes normal wounds only."""
    m = st.mice[target]
    k = min(n, m.wounds - m.poison)
    if k > 0:
        m.wounds -= k
        st.credit(healer, "wounds_healed", k)
        st.log.public("healed", mouse=target, n=k, why=why)
    return max(k, 0)


def cleanse(st: MMModel, healer: str | None, target: str, statuses: tuple[str, ...], why: str) -> None:
    """MM-6.5 b Cleanse / Mint Leaf: poison wounds and the listed statuses."""
    m = st.mice[target]
    if m.poison:
        st.credit(healer, "wounds_healed", m.poison)
        m.wounds -= m.poison
        m.poison = 0
    m.statuses = [s for s in m.statuses if s not in statuses]
    st.log.public("cleansed", mouse=target, why=why)


def add_status(st: MMModel, mouse: str, status: str) -> None:
    m = st.mice[mouse]
    if status not in m.statuses:
        m.statuses.append(status)
        m.statuses.sort()
        st.log.public("status", mouse=mouse, status=status)


# -- the result (MM-8.3-8.5) ------------------------------------------------------------------------
def team_score(st: MMModel) -> int:
    res = st.result or {"win": False}
    if res["win"]:
        never = sum(1 for m in st.mice.values() if not m.ever_captured)
        held = sum(m.cheese for m in st.mice.values())
        return 100 + 10 * (st.end_page - st.hourglass) + 5 * never + min(10, held)
    return 15 * (len(st.sides_entered) - 1) + min(40, 2 * st.defeated_total)


def outcome_of(st: MMModel) -> Outcome:
    res = st.result
    assert res is not None
    score = team_score(st)
    details: dict[str, Any] = {"reason": res["reason"], "chapter": int(st.chapter), "hourglass": st.hourglass,
                               "rounds": st.round, "sides_entered": list(st.sides_entered),
                               "monsters_defeated": st.defeated_total,
                               "per_seat": [dict(s) for s in st.stats]}
    return Outcome.team(st.players, bool(res["win"]), score, details=details)
