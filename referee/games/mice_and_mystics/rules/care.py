"""MM-5.23, MM-5.24, MM-6.4, MM-6.5 d: recover, Mend, healing targets and rescue."""
from __future__ import annotations

from typing import Any

from ..actions import Mend, Rescue
from ..catalog import content
from ..model import MMModel
from . import board, cheese
from .board import AREAS, BURST
from .dispatch import RULES
from .hooks import mouse_mod

C = content()


def near_mice(st: MMModel, mouse: str, adjacent: bool) -> list[str]:
    """Non-captured mice in this mouse's area (and adjacent areas if ``adjacent``), in mouse order."""
    area = st.mice[mouse].area
    assert area is not None
    return [m.id for m in st.mice.values() if not m.captured and m.area is not None
            and (m.area == area or (adjacent and board.adjacent_or_same(area, m.area)))]


def hurt(st: MMModel, mouse: str) -> bool:
    m = st.mice[mouse]
    return m.wounds - m.poison > 0


def recover(st: MMModel, mouse: str) -> None:
    """MM-5.23 / MM-6.18 e remove stunned; if webbed, 1 die: any burst removes it."""
    m = st.mice[mouse]
    if "stunned" in m.statuses:
        m.statuses.remove("stunned")
        st.log.public("recovered", mouse=mouse, status="stunned")
    if "webbed" in m.statuses:
        faces = cheese.roll(st, 1, "recover", mouse)
        if any(f in BURST for f in faces):
            m.statuses.remove("webbed")
            st.log.public("recovered", mouse=mouse, status="webbed")


def mend_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.24 Mallow: another mouse in her or an adjacent area with >= 1 non-poison wound."""
    if not mouse_mod(st, mouse, "mend_amount", {}):
        return []
    return [Mend.wire(x) for x in near_mice(st, mouse, True) if x != mouse and hurt(st, x)]


def mend(st: MMModel, mouse: str, target: str) -> None:
    cheese.heal(st, mouse, target, mouse_mod(st, mouse, "mend_amount", {}), "mend")


def rescue_areas(st: MMModel) -> list[str]:
    """MM-6.5 d non-water areas with or next to a non-captured mouse that can take a small figure."""
    occupied = board.mouse_areas(st)
    out = []
    for a in board.graph(st).ids:
        if AREAS[a].water or not board.can_accept(st, a, "small"):
            continue
        if a in occupied or any(n in occupied for n in board.graph(st).adj[a]):
            out.append(a)
    return out


def rescue_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [Rescue.wire(a) for a in rescue_areas(st)]


@RULES.on(Rescue)
def rescue(st: MMModel, seat: int, a: Rescue) -> None:
    """MM-6.5 d the captured mouse comes back, unwounded, in the chosen area."""
    frame = st.stack.pop()
    m = st.mice[frame.data["mouse"]]
    m.captured = False
    m.area = a.area
    m.wounds = 0
    m.poison = 0
    st.log.public("rescued", mouse=m.id, area=m.area)
