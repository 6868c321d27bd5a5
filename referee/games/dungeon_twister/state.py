"""DT-4..DT-8: the state of a Dungeon Twister game and the contract methods.

The data model is plain: ``tokens`` (every character and object, with where it is), ``at``
(what lies or stands on each square, derived), the 8 ``slots``, portcullis states, hands and
the flow (phase, active seat, AP, the current sub-phase frame). The rules live in ``rules/``;
this class dispatches to them and owns snapshots, cloning and redeterminization.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.engine import Game, Outcome, Rng, State, Viewer
from referee.engine.events import EventLog
from referee.engine.outcome import Reason

from .data import COLOURS, content
from .effects import Caps, caps, object_effects
from .geometry import Board, Square

PHASES = ("starters", "placement", "play", "over")


@dataclass(slots=True)
class Token:
    """One character or object token (DT-3.8 id ``<colour>.<kind>``).

    ``where``: pool (unplaced, setup) | starter (face down on a dot) | hidden (face down in a
    room) | placing (revealed, waiting for DT-6.1) | board (standing or lying on ``square``) |
    carried (under ``carrier``) | removed (``reason``, VP credited to seat ``by``).
    """

    id: str
    colour: int
    kind: str
    char: bool
    where: str = "pool"
    square: Square | None = None
    slot: int | None = None
    handle: str | None = None
    carrier: str | None = None
    carrying: str | None = None
    wounded: bool = False
    blocked: bool = False
    wtt: bool = False
    reason: str | None = None
    by: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "where": self.where, "square": list(self.square) if self.square else None,
                "slot": self.slot, "handle": self.handle, "carrier": self.carrier, "carrying": self.carrying,
                "wounded": self.wounded, "blocked": self.blocked, "wtt": self.wtt, "reason": self.reason,
                "by": self.by}

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

    def copy(self) -> Token:
        return Token(self.id, self.colour, self.kind, self.char, self.where, self.square, self.slot,
                     self.handle, self.carrier, self.carrying, self.wounded, self.blocked, self.wtt,
                     self.reason, self.by)


@cache
def token_catalogue() -> tuple[tuple[str, int, str, bool], ...]:
    """Every token (id, colour, kind, is_character) in a fixed order (DT-3.1: 16 + 12)."""
    c = content()
    out = []
    for colour, name in enumerate(COLOURS):
        out += [(f"{name}.{k}", colour, k, True) for k in sorted(c.characters)]
        out += [(f"{name}.{k}", colour, k, False) for k in sorted(c.objects)]
    return tuple(out)


_CAPS = caps()
_SUPPORTS = {k: e.supports_on_trap for k, e in object_effects().items()}


_DISPATCH: list[Any] = []


def _dispatch() -> Any:
    if not _DISPATCH:
        from .rules import dispatch

        _DISPATCH.append(dispatch)
    return _DISPATCH[0]


def new_stats() -> dict[str, int]:
    """DT-8.5 per-seat statistics."""
    return {"vp_kills": 0, "vp_exits": 0, "vp_treasures": 0, "characters_lost": 0, "rooms_revealed": 0,
            "combats_won": 0, "combats_lost": 0, "combats_tied": 0}


class DTState(State):
    """A Dungeon Twister game in progress."""

    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng | int,
                 log: EventLog | None = None) -> None:
        super().__init__(game, players, options, rng, log)
        self.tokens: dict[str, Token] = {}
        self.at: dict[Square, list[str]] = {}
        self.slots: list[dict[str, Any]] = []
        self.ports: dict[str, str] = {}
        self.board: Board  # built by set-up and restore (rebuild_board), shared by clones
        self.phase = "starters"
        self.starters: list[list[str]] = [[], []]
        self.placer = 0
        self.next_handle = 1
        self.first_seat = 0
        self.active: int | None = None
        self.turn = 0
        self.card_played = False
        self.card_ap = 0
        self.potion_ap: dict[str, int] = {}
        self.sub: dict[str, Any] | None = None
        self.action_hand: list[list[int]] = [[], []]
        self.action_top: list[int | None] = [None, None]
        self.combat_hand: list[list[int]] = [[], []]
        self.jumps = [0, 0]
        self.high = 0
        self.restricted = True
        self.vp = [0, 0]
        self.end_triggered = False
        self.end_reason: Reason = "normal"
        self.stats = [new_stats(), new_stats()]
        self.removed: list[str] = []
        #: the last legal list computed (seat, actions); any change of state clears it
        self._legal_cache: tuple[int, list[dict[str, Any]]] | None = None
        self._chars: list[list[Token]] | None = None
        self.all_revealed = False

    # -- derived structures ------------------------------------------------------------------
    def rebuild_board(self, slot: int | None = None, squares: tuple[Square, ...] = ()) -> None:
        """Recompute the board geometry (all of it, or after slot ``slot`` / the edges of
        ``squares`` changed: a reveal, a rotation, a portcullis)."""
        self.all_revealed = all(s["revealed"] for s in self.slots)
        if slot is None and not squares:
            self.board = Board(self.slots, self.ports)
        else:
            self.board = self.board.update(self.slots, self.ports, slot, squares)

    @property
    def open_sub(self) -> dict[str, Any]:
        """The sub-decision in progress (a move, a combat, a reveal's placements)."""
        assert self.sub is not None, "no sub-decision is open"
        return self.sub

    def rebuild_at(self) -> None:
        self.at = {}
        for t in self.tokens.values():
            if t.where == "board":
                self.at.setdefault(t.pos, []).append(t.id)

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
    def caps(self, t: Token) -> Caps:
        return _CAPS[t.kind]

    def able(self, t: Token) -> bool:
        """DT-5.1.2: healthy, not carried, not blocked, on the board."""
        return t.where == "board" and not t.wounded and not t.blocked

    def has_rope(self, t: Token) -> bool:
        """DT-6.2.2: the character carries a Rope (an object whose effect supports it on traps)."""
        if t.carrying is None:
            return False
        k = self.tokens[t.carrying]
        return not k.char and _SUPPORTS[k.kind]

    def can_pay(self, tid: str) -> bool:
        """DT-5.3.2: an action of ``tid`` can be paid from its potion AP or the card AP."""
        return self.card_ap > 0 or self.potion_ap.get(tid, 0) > 0

    def pay(self, tid: str) -> None:
        """DT-5.3.2: potion AP first, then card AP."""
        if self.potion_ap.get(tid, 0) > 0:
            self.potion_ap[tid] -= 1
            if not self.potion_ap[tid]:
                del self.potion_ap[tid]
        else:
            self.card_ap -= 1

    def own_chars(self, seat: int) -> list[Token]:
        """The seat's 8 character tokens in a fixed order (cached: the token objects never change)."""
        if self._chars is None:
            self._chars = [[t for t in self.tokens.values() if t.char and t.colour == s] for s in (0, 1)]
        return self._chars[seat]

    # -- contract ------------------------------------------------------------------------------
    def pending(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "starters":
            return [s for s in (0, 1) if len(self.starters[s]) < 4]
        if self.phase == "placement":
            return [self.placer]
        sub = self.sub
        if sub is not None:
            if sub["kind"] == "combat":
                return [s for s in (0, 1) if sub["cards"][s] is None]
            if sub["kind"] == "place":
                return [sub["placer"]]
        assert self.active is not None, "a turn has an active seat"
        return [self.active]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        cached = self._legal_cache
        if cached is not None and cached[0] == seat:
            return list(cached[1])
        if seat not in self.pending():
            return []
        legal = _dispatch().legal(self, seat)
        self._legal_cache = (seat, legal)
        return list(legal)

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        self._legal_cache = None
        _dispatch().apply(self, seat, action)
        self._legal_cache = None

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        from .observe import observe

        self.check_viewer(viewer)
        return observe(self, viewer)

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        details = {"stats": [dict(s) for s in self.stats], "turns": self.turn, "vp": list(self.vp)}
        return Outcome.from_scores(self.vp, reason=self.end_reason, details=details)

    # -- snapshots -----------------------------------------------------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        return {
            "tokens": [t.to_json() for t in self.tokens.values()],
            "slots": [dict(s) for s in self.slots], "ports": dict(sorted(self.ports.items())),
            "phase": self.phase, "starters": [list(s) for s in self.starters], "placer": self.placer,
            "next_handle": self.next_handle, "first_seat": self.first_seat, "active": self.active,
            "turn": self.turn, "card_played": self.card_played, "card_ap": self.card_ap,
            "potion_ap": dict(sorted(self.potion_ap.items())), "sub": _jsonify(self.sub),
            "action_hand": [list(h) for h in self.action_hand], "action_top": list(self.action_top),
            "combat_hand": [list(h) for h in self.combat_hand], "jumps": list(self.jumps), "high": self.high,
            "restricted": self.restricted, "vp": list(self.vp), "end_triggered": self.end_triggered,
            "end_reason": self.end_reason, "stats": [dict(s) for s in self.stats],
            "removed": list(self.removed),
        }

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> DTState:
        st = cls(game, players, options, rng, log)
        cat = {tid: (colour, kind, char) for tid, colour, kind, char in token_catalogue()}
        for d in data["tokens"]:
            colour, kind, char = cat[d["id"]]
            sq = d["square"]
            st.tokens[d["id"]] = Token(d["id"], colour, kind, char, d["where"], tuple(sq) if sq else None,
                                       d["slot"], d["handle"], d["carrier"], d["carrying"], d["wounded"],
                                       d["blocked"], d["wtt"], d["reason"], d["by"])
        st.slots = [dict(s) for s in data["slots"]]
        st.ports = dict(data["ports"])
        for key in ("phase", "placer", "next_handle", "first_seat", "active", "turn", "card_played",
                    "card_ap", "high", "restricted", "end_triggered", "end_reason"):
            setattr(st, key, data[key])
        st.starters = [list(s) for s in data["starters"]]
        st.potion_ap = dict(data["potion_ap"])
        st.sub = _jsonify(data["sub"])
        st.action_hand = [list(h) for h in data["action_hand"]]
        st.action_top = list(data["action_top"])
        st.combat_hand = [list(h) for h in data["combat_hand"]]
        st.jumps = list(data["jumps"])
        st.vp = list(data["vp"])
        st.stats = [dict(s) for s in data["stats"]]
        st.removed = list(data["removed"])
        st.rebuild_at()
        st.rebuild_board()
        return st

    def clone(self) -> DTState:
        """A fast deep copy (the board geometry is immutable and shared)."""
        st = DTState(self.game, self.players, self.options, self.rng.copy(), EventLog(list(self.log.entries)))
        st.tokens = {k: t.copy() for k, t in self.tokens.items()}
        st.at = {k: list(v) for k, v in self.at.items()}
        st.slots = [dict(s) for s in self.slots]
        st.ports = dict(self.ports)
        st.board = self.board
        st.all_revealed = self.all_revealed
        st.phase, st.placer, st.next_handle, st.first_seat = self.phase, self.placer, self.next_handle, \
            self.first_seat
        st.starters = [list(s) for s in self.starters]
        st.active, st.turn = self.active, self.turn
        st.card_played, st.card_ap = self.card_played, self.card_ap
        st.potion_ap = dict(self.potion_ap)
        st.sub = _jsonify(self.sub)
        st.action_hand = [list(h) for h in self.action_hand]
        st.action_top = list(self.action_top)
        st.combat_hand = [list(h) for h in self.combat_hand]
        st.jumps = list(self.jumps)
        st.high, st.restricted = self.high, self.restricted
        st.vp = list(self.vp)
        st.end_triggered, st.end_reason = self.end_triggered, self.end_reason
        st.stats = [dict(s) for s in self.stats]
        st.removed = list(self.removed)
        return st

    def redraw_hidden(self, seat: int, rng: Rng) -> DTState:
        from .rules.hidden import redraw_hidden

        return redraw_hidden(self, seat, rng)


def _jsonify(value: Any) -> Any:
    """A deep copy of a JSON-like value (sub-phase frames are plain JSON)."""
    if isinstance(value, dict):
        return {k: _jsonify(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonify(v) for v in value]
    return value
