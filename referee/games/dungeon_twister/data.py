"""DT-3: content as data. Loads ``content/*.toml|json``, validates every row, and precomputes
the rotated geometry of every room tile (DT-3.2.6, DT-3.4).

Every error names the file and the row (``ContentError``). Loaded once, cached.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.engine import ContentError, build_rows, check_count, check_refs, load_data

PKG = "referee.games.dungeon_twister.content"
WHERE = "referee/games/dungeon_twister/content"

COLOURS = ("blue", "red")
DIRS = ("N", "E", "S", "W")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
N, E, S, W = 0, 1, 2, 3
ROOM = 5


@dataclass(frozen=True)
class CharacterRow:
    """DT-3.5: one character kind (the same for both colours)."""

    kind: str
    name: str
    speed: int
    combat: int
    exit_vp: int
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class ObjectRow:
    """DT-3.6: one object kind; ``effect`` is a key of the object-effect registry."""

    kind: str
    name: str
    use: str
    ap: int
    effect: str
    bonus: int
    requires: str


@dataclass(frozen=True)
class CardRow:
    """DT-3.7: one card family per player."""

    id: str
    values: tuple[int, ...]
    returns: str


@dataclass(frozen=True)
class PortcullisRow:
    id: str
    between: tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class RoomRow:
    """DT-3.4: one room tile, printed (orientation 0) local coordinates."""

    id: str
    name: str
    pair: int
    colour: str
    arrow: str
    gear: tuple[int, int]
    traps: tuple[tuple[int, int], ...]
    portcullis: tuple[dict[str, Any], ...]
    open: dict[str, list[int]]
    walls: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class SlotRow:
    """DT-3.2.3-3.2.4: one room slot of the board."""

    slot: int
    col: int
    row: int
    capacity: int
    line: str


@dataclass(frozen=True)
class LineRow:
    """DT-3.2.2, DT-3.2.5: a starting line and its 4 dots."""

    colour: str
    x: int
    dots: tuple[int, ...]


@dataclass(frozen=True)
class Cell:
    """One square of a tile in a given orientation: type, own walls (bit d = wall on side d),
    portcullis id per side."""

    kind: str
    walls: int
    ports: tuple[str | None, str | None, str | None, str | None]


@dataclass(frozen=True)
class Content:
    characters: dict[str, CharacterRow]
    objects: dict[str, ObjectRow]
    cards: dict[str, CardRow]
    rooms: dict[str, RoomRow]
    slots: list[SlotRow]
    lines: dict[str, LineRow]
    width: int
    height: int
    #: geometry[room][orientation][(c, r)] -> Cell (rotated local coordinates)
    geometry: dict[str, list[dict[tuple[int, int], Cell]]]
    pair_of: dict[str, str]


def rotate_cw(c: int, r: int) -> tuple[int, int]:
    """DT-3.2.6: one clockwise quarter turn of a local square."""
    return 4 - r, c


def rotate_ccw(c: int, r: int) -> tuple[int, int]:
    """DT-3.2.6: one counter-clockwise quarter turn of a local square."""
    return r, 4 - c


def _printed_cells(where: str, room: RoomRow) -> dict[tuple[int, int], list[Any]]:
    """Printed tile -> {(c, r): [kind, wallbits, ports]}; checks every coordinate."""
    label = f"{where}: row {room.id!r}"

    def inside(c: Any, r: Any, what: Any) -> None:
        if not (isinstance(c, int) and isinstance(r, int) and 0 <= c < ROOM and 0 <= r < ROOM):
            raise ContentError(f"{label}: {what} ({c}, {r}) is outside the 5x5 tile")

    cells: dict[tuple[int, int], list[Any]] = {
        (c, r): ["floor", 0, [None, None, None, None]] for c in range(ROOM) for r in range(ROOM)}
    inside(*room.gear, "gear")
    cells[room.gear[0], room.gear[1]][0] = "gear"
    for t in room.traps:
        inside(*t, "trap")
        if tuple(t) == tuple(room.gear):
            raise ContentError(f"{label}: trap {list(t)} is on the gear")
        cells[t[0], t[1]][0] = "trap"
    if set(room.open) - set(DIRS):
        raise ContentError(f"{label}: field 'open' has unknown sides {sorted(set(room.open) - set(DIRS))}")
    for side, edge in ((N, [(c, 0) for c in range(ROOM)]), (S, [(c, 4) for c in range(ROOM)]),
                       (E, [(4, r) for r in range(ROOM)]), (W, [(0, r) for r in range(ROOM)])):
        opened = room.open.get(DIRS[side], [])
        for pos in opened:
            if not isinstance(pos, int) or not 0 <= pos < ROOM:
                raise ContentError(f"{label}: open {DIRS[side]} position {pos!r} is outside 0..4")
        for i, sq in enumerate(edge):
            if i not in opened:
                cells[sq][1] |= 1 << side
    for w in room.walls:
        c, r, side = w
        inside(c, r, "wall")
        if side == "E":
            inside(c + 1, r, "wall neighbour")
            cells[(c, r)][1] |= 1 << E
            cells[(c + 1, r)][1] |= 1 << W
        elif side == "S":
            inside(c, r + 1, "wall neighbour")
            cells[(c, r)][1] |= 1 << S
            cells[(c, r + 1)][1] |= 1 << N
        else:
            raise ContentError(f"{label}: wall side must be 'E' or 'S', not {side!r}")
    for p in room.portcullis:
        if set(p) != {"id", "between"}:
            raise ContentError(f"{label}: a portcullis needs exactly 'id' and 'between'")
        pid = p["id"]
        if not str(pid).startswith(f"{room.id}-P"):
            raise ContentError(f"{label}: portcullis id {pid!r} must start with '{room.id}-P'")
        (a, b) = p["between"]
        inside(a[0], a[1], "portcullis square")
        inside(b[0], b[1], "portcullis square")
        d = next((i for i in range(4) if (a[0] + DX[i], a[1] + DY[i]) == tuple(b)), None)
        if d is None:
            raise ContentError(f"{label}: portcullis {pid!r} squares are not neighbours")
        if cells[tuple(a)][1] & (1 << d):
            raise ContentError(f"{label}: portcullis {pid!r} is also listed as a wall")
        cells[tuple(a)][2][d] = pid
        cells[tuple(b)][2][(d + 2) % 4] = pid
    return cells


def _orientations(cells: dict[tuple[int, int], list[Any]]) -> list[dict[tuple[int, int], Cell]]:
    """The tile under 0..3 clockwise quarter turns (DT-3.2.6): squares and sides both turn."""
    out = []
    for o in range(4):
        rot: dict[tuple[int, int], Cell] = {}
        for (c, r), (kind, walls, ports) in cells.items():
            cc, rr = c, r
            for _ in range(o):
                cc, rr = rotate_cw(cc, rr)
            nw = 0
            np: list[str | None] = [None] * 4
            for d in range(4):
                if walls & (1 << d):
                    nw |= 1 << ((d + o) % 4)
                np[(d + o) % 4] = ports[d]
            rot[(cc, rr)] = Cell(kind, nw, (np[0], np[1], np[2], np[3]))
        out.append(rot)
    return out


@cache
def content() -> Content:
    """Load and validate all content files (DT-3); cached."""
    ch_where, ob_where = f"{WHERE}/characters.toml", f"{WHERE}/objects.toml"
    ca_where, ro_where, bo_where = f"{WHERE}/cards.toml", f"{WHERE}/rooms.json", f"{WHERE}/board.toml"
    chars = build_rows(ch_where, load_data(PKG, "characters.toml").get("characters", []), CharacterRow,
                       "kind")
    objs = build_rows(ob_where, load_data(PKG, "objects.toml").get("objects", []), ObjectRow, "kind")
    cards = build_rows(ca_where, load_data(PKG, "cards.toml").get("cards", []), CardRow)
    rooms = build_rows(ro_where, load_data(PKG, "rooms.json").get("rooms", []), RoomRow)
    board = load_data(PKG, "board.toml")
    slots = build_rows(bo_where, board.get("slots", []), SlotRow, "slot")
    lines = build_rows(bo_where, board.get("lines", []), LineRow, "colour")

    check_count(ch_where, len(chars), 8, "character kinds")
    check_count(ob_where, len(objs), 6, "object kinds")
    check_count(ro_where, len(rooms), 8, "room tiles")
    check_count(bo_where, len(slots), 8, "slots")
    check_count(bo_where, sum(s.capacity for s in slots.values()), 20, "setup capacity in total")
    check_refs(bo_where, lines, "colour", COLOURS, "colour")
    check_count(bo_where, len(lines), 2, "starting lines")
    for cid, expected in (("action", 4), ("combat", 9), ("jump", 3)):
        if cid not in cards:
            raise ContentError(f"{ca_where}: missing row {cid!r}")
        check_count(f"{ca_where}: row {cid!r}", len(cards[cid].values), expected, "cards")
    for row in chars.values():
        if row.speed < 1 or row.combat < 0 or row.exit_vp < 1:
            raise ContentError(f"{ch_where}: row {row.kind!r}: speed/combat/exit_vp out of range")
    for orow in objs.values():
        if orow.use not in ("permanent", "activated"):
            raise ContentError(f"{ob_where}: row {orow.kind!r}: use must be 'permanent' or 'activated'")
    for line in lines.values():
        check_count(f"{bo_where}: line {line.colour!r}", len(line.dots), 4, "dots")

    geometry: dict[str, list[dict[tuple[int, int], Cell]]] = {}
    pairs: dict[int, list[RoomRow]] = {}
    for room in rooms.values():
        if room.arrow not in ("cw", "ccw"):
            raise ContentError(f"{ro_where}: row {room.id!r}: arrow must be 'cw' or 'ccw'")
        geometry[room.id] = _orientations(_printed_cells(ro_where, room))
        pairs.setdefault(room.pair, []).append(room)
    pair_of: dict[str, str] = {}
    for num, members in sorted(pairs.items()):
        if len(members) != 2:
            raise ContentError(
                f"{ro_where}: row {members[0].id!r}: pair {num} has {len(members)} tiles, not 2")
        a, b = members
        if a.colour != b.colour or a.arrow == b.arrow:
            raise ContentError(f"{ro_where}: row {b.id!r}: a pair shares its colour and has opposite arrows")
        pair_of[a.id], pair_of[b.id] = b.id, a.id
    check_count(ro_where, sum(len(r.traps) for r in rooms.values()), 10, "traps in total")
    check_count(ro_where, sum(len(r.portcullis) for r in rooms.values()), 7, "portcullises in total")
    ordered = [slots[k] for k in sorted(slots, key=int)]
    for i, s in enumerate(ordered):
        if s.slot != i or s.slot != 4 * s.row + s.col:
            raise ContentError(f"{bo_where}: row {s.slot!r}: slot must equal 4*row+col and be numbered 0..7")
    out = Content(chars, objs, cards, rooms, ordered, lines, int(board["width"]), int(board["height"]),
                  geometry, pair_of)
    known = {a for r in out.characters.values() for a in r.abilities}
    for k, r in out.objects.items():
        if r.requires and r.requires not in known:
            raise ContentError(
                f"{WHERE}/objects.toml: row {k!r}: 'requires' names unknown ability {r.requires!r}")
    # the effect keys it names are checked against the effects registries by effects.check_content
    return out


