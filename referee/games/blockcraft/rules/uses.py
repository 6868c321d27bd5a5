"""BC-6.8: the use effects that hit (ender pearl, TNT), registered in ``effects.USE_EFFECTS`` next to the
damage rules they call (food and the hooks live in ``effects.py``)."""
from __future__ import annotations

from ..effects import USE_EFFECTS, UseEffect, _planar_cells
from ..model import BlockcraftModel, Player
from .combat import damage, downed_checks


@USE_EFFECTS.register("teleport")
class Teleport(UseEffect):
    """BC-6.8 ender_pearl: move to a cell at planar distance 1-3 (no fall damage), then 1 unarmoured
    damage."""

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]] | None:
        return _planar_cells(st, p, 1, 3)

    @staticmethod
    def apply(st: BlockcraftModel, p: Player, card: str, cell: tuple[int, int] | None) -> None:
        assert cell is not None
        p.cell = [cell[0], cell[1]]
        st.log.public("teleport", seat=p.seat, cell=list(cell))
        damage(st, p, 1, source=None, armoured=False, why="ender_pearl")
        downed_checks(st)


@USE_EFFECTS.register("explode")
class Explode(UseEffect):
    """BC-6.8 tnt: 3 armoured damage to everyone on the cell, remove its top card (not obsidian)."""

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]] | None:
        return _planar_cells(st, p, 0, 2)

    @staticmethod
    def apply(st: BlockcraftModel, p: Player, card: str, cell: tuple[int, int] | None) -> None:
        assert cell is not None
        x, y = cell
        st.log.public("explode", seat=p.seat, cell=[x, y])
        for q in st.p:
            if q.active and q.cell == [x, y]:
                damage(st, q, 3, source=p.seat, armoured=True, why="tnt")
        stack = st.cell(x, y)
        st.mv += 1
        if stack and not st.cat.cards[stack[-1]["c"]].tnt_proof:
            top = stack.pop()
            st.log.public("blown", cell=[x, y], card=top["c"], was=top["s"])
            st.discard_card(top["c"])
        elif stack:
            st.log.public("blast_resisted", cell=[x, y], card=stack[-1]["c"])
        downed_checks(st)
