"""DT-3.8, DT-4..DT-8: the data of a Dungeon Twister game, declared once.

The data is plain: ``tokens`` (every character and object, with where it is), ``at`` (what lies or
stands on each square, derived), the 8 ``slots``, portcullis states, hands and the flow (phase,
active seat, AP, the current sub-phase frame). ``referee/engine/record.py`` derives the snapshot,
the restore and the clone from the fields below; what is derived (the token index, ``at``, the
board geometry) is ``TRANSIENT`` and rebuilt by ``derive`` after a restore or a clone. Besides the
data, this module holds only the low-level token moves that keep ``at`` in step and small queries.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from referee.engine import State
from referee.engine.decisions import DecisionStack, Frame
from referee.engine.record import TRANSIENT, Record, deep_json, key

from .data import COLOURS, content
from .geometry import Board, Square, board_of

if TYPE_CHECKING:
    Sq = Square
else:  # the record codec's spelling of a square: a tuple in memory, [x, y] in JSON
    Sq = tuple[int, ...]

PHASES = ("starters", "placement", "play", "over")


@dataclass(slots=True)
class Token(Record):
    """One character or object token (DT-3.8 id ``<colour>.<kind>``).

    ``where``: pool (unplaced, setup) | starter (face down on a dot) | hidden (face down in a
    room) | placing (revealed, waiting for DT-6.1) | board (standing or lying on ``square``) |
    carried (under ``carrier``) | removed (``reason``, VP credited to seat ``by``).
    ``colour``, ``kind`` and ``char`` follow from the id (the token catalogue): not snapshotted.
    """

    id: str
    where: str = "pool"
    square: Sq | None = None
    slot: int | None = None
    handle: str | None = None
    carrier: str | None = None
    carrying: str | None = None
    wounded: bool = False
    blocked: bool = False
    wtt: bool = False
    reason: str | None = None
    by: int | None = None
    colour: int = field(default=0, metadata=TRANSIENT)
    kind: str = field(default="", metadata=TRANSIENT)
    char: bool = field(default=False, metadata=TRANSIENT)

    @property
    def pos(self) -> Square:
        """The square of a token on the board (``where == "board"``, DT-3.8)."""
        assert self.square is not None, f"{self.id} is not on the board"
        return self.square

    @property
    def room(self) -> int:
        """The slot of a token face down in a room (``where == "hidden"``, DT-4.5)."""
        assert self.slot is not None, f"{self.id} is not in a room"
        return self.slot


@dataclass(slots=True)
class Slot(Record):
    """A room slot (DT-3.2.3): its tile, its orientation (DT-3.2.6) and whether it is face up."""

    tile: str
    orientation: int
    revealed: bool = False


@cache
def token_catalogue() -> tuple[tuple[str, int, str, bool], ...]:
    """Every token (id, colour, kind, is_character) in a fixed order (DT-3.1: 16 + 12)."""
    c = content()
    out = []
    for colour, name in enumerate(COLOURS):
        out += [(f"{name}.{k}", colour, k, True) for k in sorted(c.characters)]
        out += [(f"{name}.{k}", colour, k, False) for k in sorted(c.objects)]
    return tuple(out)


@cache
def _index() -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The catalogue's token ids in order, and each seat's character range in it."""
    cat = token_catalogue()
    ranges = tuple((min(k for k, e in enumerate(cat) if e[3] and e[1] == s),
                    max(k for k, e in enumerate(cat) if e[3] and e[1] == s) + 1) for s in (0, 1))
    assert all(cat[k][3] for a, b in ranges for k in range(a, b)), "a seat's characters are consecutive"
    return tuple(e[0] for e in cat), ranges


def new_stats() -> dict[str, int]:
    """DT-8.5 per-seat statistics."""
    return {"vp_kills": 0, "vp_exits": 0, "vp_treasures": 0, "characters_lost": 0, "rooms_revealed": 0,
            "combats_won": 0, "combats_lost": 0, "combats_tied": 0}


class SubPhase(DecisionStack):
    """The engine's decision stack holding the sub-phase in progress: at most one frame, ``move``
    (a character's steps and free sub-actions, DT-5.5), ``place`` (a reveal's placements, DT-6.1)
    or ``combat`` (the secret cards, DT-5.8.3). The frame's ``seat`` is the seat that decides (the
    mover, the placer; the attacker for a combat, where both seats choose a card).

    Snapshotted as the record it replaced (key ``sub``): ``null`` or ``{"kind": ..., **data}``;
    the seat follows from the data."""

    def to_json(self) -> dict[str, Any] | None:  # type: ignore[override]  # the stored shape
        if not self.frames:
            return None
        assert len(self.frames) == 1, "one sub-phase at a time"
        f = self.frames[0]
        return {"kind": f.kind, **deep_json(f.data)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> SubPhase:  # type: ignore[override]
        if data is None:
            return cls()
        d = deep_json(data)
        kind = d.pop("kind")
        if kind == "move":
            seat = COLOURS.index(d["char"].partition(".")[0])
        else:
            seat = d["placer"] if kind == "place" else d["aseat"]
        return cls([Frame(kind, seat, d)])

    def copy(self) -> SubPhase:
        return SubPhase([Frame(f.kind, f.seat, deep_json(f.data)) for f in self.frames])


#: the board before ``derive`` builds it (never read: setup and restore derive it first)
_NO_BOARD: Board = Board.__new__(Board)


@dataclass(init=False, eq=False, repr=False)
class DTModel(State):
    """Every field of a Dungeon Twister state (the rules are functions in ``rules/``)."""

    #: every token in catalogue order (the snapshot's ``tokens`` list); ``tokens`` indexes it by id
    token_list: list[Token] = field(default_factory=list, metadata=key("tokens"))
    slots: list[Slot] = field(default_factory=list)
    #: portcullis id -> closed / open / broken
    ports: dict[str, str] = field(default_factory=dict)
    phase: str = "starters"
    starters: list[list[str]] = field(default_factory=lambda: [[], []])
    placer: int = 0
    next_handle: int = 1
    first_seat: int = 0
    active: int | None = None
    turn: int = 0
    card_played: bool = False
    card_ap: int = 0
    potion_ap: dict[str, int] = field(default_factory=dict)
    stack: SubPhase = field(default_factory=SubPhase, metadata=key("sub"))
    action_hand: list[list[int]] = field(default_factory=lambda: [[], []])
    action_top: list[int | None] = field(default_factory=lambda: [None, None])
    combat_hand: list[list[int]] = field(default_factory=lambda: [[], []])
    jumps: list[int] = field(default_factory=lambda: [0, 0])
    high: int = 0
    restricted: bool = True
    vp: list[int] = field(default_factory=lambda: [0, 0])
    end_triggered: bool = False
    end_reason: str = "normal"
    stats: list[dict[str, int]] = field(default_factory=lambda: [new_stats(), new_stats()])
    removed: list[str] = field(default_factory=list)
    # -- derived (rebuilt by ``derive``) ------------------------------------------------------------
    tokens: dict[str, Token] = field(default_factory=dict, metadata=TRANSIENT)
    at: dict[Square, list[str]] = field(default_factory=dict, metadata=TRANSIENT)
    #: the board geometry, shared by states with the same slots and portcullises (immutable)
    board: Board = field(default=_NO_BOARD, metadata=TRANSIENT)
    all_revealed: bool = field(default=False, metadata=TRANSIENT)
    #: each seat's 8 character tokens in a fixed order
    chars: list[list[Token]] = field(default_factory=list, metadata=TRANSIENT)

    # -- derived structures ------------------------------------------------------------------
    def after_restore(self) -> None:
        self.derive()

    def derive(self) -> None:
        """Index the tokens (identity from the catalogue), rebuild ``at`` and the board."""
        toks = self.token_list
        for t, (tid, colour, kind, char) in zip(toks, token_catalogue(), strict=True):
            if t.id != tid:
                raise ValueError(f"token {t.id!r} out of catalogue order (expected {tid!r})")
            t.colour, t.kind, t.char = colour, kind, char
        ids, ranges = _index()
        self.tokens = dict(zip(ids, toks, strict=True))
        self.chars = [toks[a:b] for a, b in ranges]
        self.rebuild_at()
        self.rebuild_board()

    def rebuild_board(self, slot: int | None = None, squares: tuple[Square, ...] = ()) -> None:
        """Recompute the board geometry (all of it, or after slot ``slot`` / the edges of
        ``squares`` changed: a reveal, a rotation, a portcullis)."""
        self.all_revealed = all(s.revealed for s in self.slots)
        if slot is None and not squares:
            self.board = board_of(self.slots, self.ports)
        else:
            self.board = self.board.update(self.slots, self.ports, slot, squares)

    def rebuild_at(self) -> None:
        at: dict[Square, list[str]] = {}
        for t in self.token_list:
            if t.where == "board":
                sq = t.square
                assert sq is not None
                if sq in at:
                    at[sq].append(t.id)
                else:
                    at[sq] = [t.id]
        self.at = at

    @property
    def open_sub(self) -> dict[str, Any]:
        """The data of the sub-phase in progress (a move, a combat, a reveal's placements)."""
        assert self.stack.frames, "no sub-phase is open"
        return self.stack.frames[-1].data

    # -- low-level token moves (the only places that touch ``at``) ---------------------------
    def put(self, tid: str, sq: Square) -> None:
        t = self.tokens[tid]
        t.where, t.square, t.carrier = "board", sq, None
        self.at.setdefault(sq, []).append(tid)

    def lift(self, tid: str) -> None:
        t = self.tokens[tid]
        if t.where == "board" and t.square is not None:
            lst = self.at[t.square]
            lst.remove(tid)
            if not lst:
                del self.at[t.square]
        t.square = None

    def carry(self, carrier: str, tid: str) -> None:
        """``carrier`` (on the board) takes ``tid`` (already lifted or uncarried) under it."""
        t = self.tokens[tid]
        t.where, t.carrier, t.square = "carried", carrier, None
        self.tokens[carrier].carrying = tid

    def uncarry(self, carrier: str) -> str | None:
        c = self.tokens[carrier]
        tid = c.carrying
        if tid is not None:
            c.carrying = None
            t = self.tokens[tid]
            t.carrier = None
            t.where = "limbo"
        return tid

    def remove(self, tid: str, reason: str, by: int | None) -> None:
        t = self.tokens[tid]
        if t.where == "board":
            self.lift(tid)
        elif t.where == "carried" and t.carrier is not None:
            self.tokens[t.carrier].carrying = None
            t.carrier = None
        t.where, t.reason, t.by, t.square, t.carrying = "removed", reason, by, None, None
        t.blocked = t.wtt = False
        self.potion_ap.pop(tid, None)
        self.removed.append(tid)

    # -- queries ---------------------------------------------------------------------------
    def own_chars(self, seat: int) -> list[Token]:
        """The seat's 8 character tokens in a fixed order."""
        return self.chars[seat]
