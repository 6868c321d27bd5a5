"""DT-3.2: the board as squares and edges, derived from the slots (tiles, orientations,
revealed or not) and the portcullis states. Rebuilt after a reveal, a rotation or a portcullis
change; never part of a snapshot (it is a pure function of the state).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .data import DX, DY, ROOM, content

Square = tuple[int, int]

LINE, HIDDEN, FLOOR, GEAR, TRAP = "line", "hidden", "floor", "gear", "trap"


def slot_origin(slot: int) -> Square:
    """DT-3.2.3: the north-west square of a slot."""
    return 1 + 5 * (slot % 4), 5 * (slot // 4)


def slot_of(sq: Square) -> int | None:
    """DT-3.2.3: the slot a room square belongs to (None for a starting-line square)."""
    x, y = sq
    if x <= 0 or x >= 21:
        return None
    return (x - 1) // 5 + 4 * (y // 5)


def slot_squares(slot: int) -> list[Square]:
    x0, y0 = slot_origin(slot)
    return [(x0 + c, y0 + r) for r in range(ROOM) for c in range(ROOM)]


def line_colour(sq: Square) -> int | None:
    """DT-3.2.2: 0 for Blue's line (x=0), 1 for Red's (x=21), else None."""
    if sq[0] == 0:
        return 0
    if sq[0] == 21:
        return 1
    return None


ALL_SQUARES: list[Square] = [(x, y) for y in range(10) for x in range(22)]


class Board:
    """Square types, own-tile walls and passable connections for one arrangement of slots.

    ``conn[sq]`` is a 4-list: the neighbour reached through side d if the edge is passable
    (DT-3.2.9: open, or a portcullis open/broken; neither square hidden), else None.
    """

    __slots__ = ("kind", "walls", "ports", "conn", "port_squares", "gears")

    def __init__(self, slots: Sequence[Mapping[str, Any]], port_state: Mapping[str, str]) -> None:
        geo = content().geometry
        self.kind: dict[Square, str] = {}
        self.walls: dict[Square, int] = {}
        self.ports: dict[Square, tuple[str | None, ...]] = {}
        self.port_squares: dict[str, tuple[Square, Square]] = {}
        self.gears: dict[int, Square] = {}
        none4: tuple[str | None, ...] = (None, None, None, None)
        for y in range(10):
            for x in (0, 21):
                self.kind[(x, y)] = LINE
                self.walls[(x, y)] = 0
                self.ports[(x, y)] = none4
        for s, slot in enumerate(slots):
            x0, y0 = slot_origin(s)
            if not slot["revealed"]:
                for c in range(ROOM):
                    for r in range(ROOM):
                        self.kind[(x0 + c, y0 + r)] = HIDDEN
                        self.walls[(x0 + c, y0 + r)] = 0
                        self.ports[(x0 + c, y0 + r)] = none4
                continue
            cells = geo[slot["tile"]][slot["orientation"]]
            for (c, r), cell in cells.items():
                sq = (x0 + c, y0 + r)
                self.kind[sq] = cell.kind
                self.walls[sq] = cell.walls
                self.ports[sq] = cell.ports
                if cell.kind == GEAR:
                    self.gears[s] = sq
                for d in (1, 2):  # record each portcullis once, from its west/north square
                    pid = cell.ports[d]
                    if pid is not None:
                        self.port_squares[pid] = (sq, (sq[0] + DX[d], sq[1] + DY[d]))
        self.conn: dict[Square, list[Square | None]] = {}
        kind, walls, ports = self.kind, self.walls, self.ports
        for sq in ALL_SQUARES:
            out: list[Square | None] = [None, None, None, None]
            if kind[sq] != HIDDEN:
                x, y = sq
                for d in range(4):
                    q = (x + DX[d], y + DY[d])
                    if q not in kind or kind[q] == HIDDEN:
                        continue
                    if walls[sq] & (1 << d) or walls[q] & (1 << ((d + 2) % 4)):
                        continue
                    pid = ports[sq][d]
                    if pid is not None and port_state.get(pid, "closed") == "closed":
                        continue
                    out[d] = q
            self.conn[sq] = out

    def own_wall(self, sq: Square, d: int) -> bool:
        """The square's own tile has a wall on side d (DT-5.6.1b ignores the hidden neighbour)."""
        return bool(self.walls[sq] & (1 << d))

    def edge(self, sq: Square, d: int) -> str | None:
        """'wall', 'open', a portcullis id, 'hidden', or None off the board (DT-3.2.8)."""
        q = (sq[0] + DX[d], sq[1] + DY[d])
        if q not in self.kind:
            return None
        if self.kind[sq] == HIDDEN or self.kind[q] == HIDDEN:
            return "hidden"
        if self.walls[sq] & (1 << d) or self.walls[q] & (1 << ((d + 2) % 4)):
            return "wall"
        pid = self.ports[sq][d]
        return pid if pid is not None else "open"
