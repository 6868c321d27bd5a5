"""DT-3.2: the board as squares and edges, derived from the slots (tiles, orientations,
revealed or not) and the portcullis states. Rebuilt after a reveal, a rotation or a portcullis
change; never part of a snapshot (it is a pure function of the state).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import NamedTuple, Protocol

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


@cache
def _slot_cells(slot: int, tile: str | None,
                orientation: int) -> tuple[tuple[Square, str, int, tuple[str | None, ...]], ...]:
    """The 25 squares of a slot in global coordinates: (square, kind, own walls, ports).

    ``tile`` None: the slot is face down (hidden)."""
    x0, y0 = slot_origin(slot)
    if tile is None:
        return tuple(((x0 + c, y0 + r), HIDDEN, 0, _NONE4) for r in range(ROOM) for c in range(ROOM))
    cells = content().geometry[tile][orientation]
    return tuple(((x0 + c, y0 + r), cell.kind, cell.walls, cell.ports)
                 for (c, r), cell in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])))


_NONE4: tuple[str | None, ...] = (None, None, None, None)


class SlotFace(Protocol):
    """What the geometry reads of a slot (``model.Slot``)."""

    @property
    def tile(self) -> str: ...
    @property
    def orientation(self) -> int: ...
    @property
    def revealed(self) -> bool: ...


class _Face(NamedTuple):
    tile: str
    orientation: int
    revealed: bool


class Board:
    """Square types, own-tile walls and passable connections for one arrangement of slots.

    ``conn[sq]`` is a 4-list: the neighbour reached through side d if the edge is passable
    (DT-3.2.9: open, or a portcullis open/broken; neither square hidden), else None.
    Immutable once built (clones share it); ``update`` returns a new board.
    """

    __slots__ = ("conn", "gears", "kind", "port_squares", "ports", "walls")

    def __init__(self, slots: Sequence[SlotFace], port_state: Mapping[str, str]) -> None:
        self.kind: dict[Square, str] = {}
        self.walls: dict[Square, int] = {}
        self.ports: dict[Square, tuple[str | None, ...]] = {}
        self.port_squares: dict[str, tuple[Square, Square]] = {}
        self.gears: dict[int, Square] = {}
        for y in range(10):
            for x in (0, 21):
                self.kind[(x, y)] = LINE
                self.walls[(x, y)] = 0
                self.ports[(x, y)] = _NONE4
        for s, slot in enumerate(slots):
            self._fill(s, slot)
        self.conn: dict[Square, list[Square | None]] = {}
        for sq in ALL_SQUARES:
            self.conn[sq] = self._conn(sq, port_state)

    def _fill(self, s: int, slot: SlotFace) -> None:
        tile = slot.tile if slot.revealed else None
        self.gears.pop(s, None)
        for pid in [p for p, sqs in self.port_squares.items() if slot_of(sqs[0]) == s]:
            del self.port_squares[pid]
        for sq, kind, walls, ports in _slot_cells(s, tile, slot.orientation):
            self.kind[sq] = kind
            self.walls[sq] = walls
            self.ports[sq] = ports
            if kind == GEAR:
                self.gears[s] = sq
            for d in (1, 2):  # record each portcullis once, from its west/north square
                port = ports[d]
                if port is not None:
                    self.port_squares[port] = (sq, (sq[0] + DX[d], sq[1] + DY[d]))

    def _conn(self, sq: Square, port_state: Mapping[str, str]) -> list[Square | None]:
        kind, walls, ports = self.kind, self.walls, self.ports
        out: list[Square | None] = [None, None, None, None]
        if kind[sq] == HIDDEN:
            return out
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
        return out

    def update(self, slots: Sequence[SlotFace], port_state: Mapping[str, str],
               slot: int | None = None, squares: Sequence[Square] = ()) -> Board:
        """A new board after slot ``slot`` changed (reveal, rotation) or the edges of ``squares``
        changed (a portcullis): only the affected squares are recomputed."""
        new = Board.__new__(Board)
        new.kind, new.walls, new.ports = dict(self.kind), dict(self.walls), dict(self.ports)
        new.port_squares, new.gears = dict(self.port_squares), dict(self.gears)
        new.conn = dict(self.conn)
        touched = set(squares)
        if slot is not None:
            new._fill(slot, slots[slot])
            for sq in slot_squares(slot):
                touched.add(sq)
                for d in range(4):
                    q = (sq[0] + DX[d], sq[1] + DY[d])
                    if q in new.kind:
                        touched.add(q)
        for sq in touched:
            new.conn[sq] = new._conn(sq, port_state)
        return new
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


def board_of(slots: Sequence[SlotFace], port_state: Mapping[str, str]) -> Board:
    """The board of this arrangement of slots and portcullis states: a pure function of them,
    so states with the same arrangement (a clone, a restore) share one board (DT-7.1: a face-down
    slot's tile and orientation do not matter)."""
    return _board_of(tuple((s.tile, s.orientation) if s.revealed else None for s in slots),
                     tuple(sorted(port_state.items())))


@lru_cache(maxsize=8)
def _board_of(slots: tuple[tuple[str, int] | None, ...], ports: tuple[tuple[str, str], ...]) -> Board:
    return Board([_Face(s[0], s[1], True) if s is not None else _Face("", 0, False) for s in slots],
                 dict(ports))
