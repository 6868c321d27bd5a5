"""MM state: mice, monsters, the story board and the running turn (all plain JSON-able data)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine import DecisionStack, Game, Outcome, Rng, State, Viewer
from referee.engine.events import EventLog

from .catalog import content

C = content()


@dataclass(slots=True)
class Mouse:
    """MM-3.2 / MM-7.5 a mouse hero in play."""
    id: str
    seat: int
    area: str | None = None
    captured: bool = False
    wounds: int = 0
    poison: int = 0
    statuses: list[str] = field(default_factory=list)
    cheese: int = 0
    equipped: list[str] = field(default_factory=list)
    pack: list[str] = field(default_factory=list)
    tricks: list[str] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    searched_sides: list[str] = field(default_factory=list)
    taunt: bool = False
    ward: bool = False
    ever_captured: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "area": self.area, "captured": self.captured,
                "wounds": self.wounds, "poison": self.poison, "statuses": list(self.statuses),
                "cheese": self.cheese, "equipped": list(self.equipped), "pack": list(self.pack),
                "tricks": list(self.tricks), "abilities": list(self.abilities),
                "searched_sides": list(self.searched_sides), "taunt": self.taunt, "ward": self.ward,
                "ever_captured": self.ever_captured}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Mouse:
        return cls(d["id"], d["seat"], d["area"], d["captured"], d["wounds"], d["poison"],
                   list(d["statuses"]), d["cheese"], list(d["equipped"]), list(d["pack"]), list(d["tricks"]),
                   list(d["abilities"]), list(d["searched_sides"]), d["taunt"], d["ward"], d["ever_captured"])

    def copy(self) -> Mouse:
        return Mouse(self.id, self.seat, self.area, self.captured, self.wounds, self.poison,
                     list(self.statuses), self.cheese, list(self.equipped), list(self.pack),
                     list(self.tricks), list(self.abilities), list(self.searched_sides), self.taunt,
                     self.ward, self.ever_captured)

    @property
    def at(self) -> str:
        """The area of a mouse on the board (MM-7.5: a captured mouse has none)."""
        assert self.area is not None, f"{self.id} is not on the board"
        return self.area

    @property
    def hero(self) -> Any:
        return C.heroes[self.id]


@dataclass(slots=True)
class Monster:
    """MM-3.6 a monster figure on the board (the boss's wounds live on its cards, MM-6.10)."""
    id: str
    type: str
    area: str
    wounds: int = 0
    pinned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.type, "area": self.area, "wounds": self.wounds,
                "pinned": self.pinned}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Monster:
        return cls(d["id"], d["type"], d["area"], d["wounds"], d["pinned"])

    def copy(self) -> Monster:
        return Monster(self.id, self.type, self.area, self.wounds, self.pinned)


STAT_KEYS = ("wounds_dealt", "monsters_defeated", "wounds_healed", "cheese_gained", "successful_searches",
             "times_captured")

# Plain-JSON attributes copied field by field by snapshot/restore/clone.
SIMPLE = ("chapter", "round", "hourglass", "end_page", "wheel", "side", "sides_entered", "traps", "encounter",
          "track", "surprise", "acted", "search_deck", "search_discard", "enc_decks", "enc_discards",
          "known_bottom", "party_stash", "ability_pool", "boss", "turn", "result", "stats", "search_queue",
          "reshuffled", "tis_pending", "next_monster", "supply", "ability_used", "side_searched",
          "draft_order", "defeated_total", "mouse_order")


_DISPATCH: Any = None


def _dispatch() -> Any:
    """The rules entry point (imported on first use: the rules modules import this one's types)."""
    global _DISPATCH
    if _DISPATCH is None:
        from .rules import dispatch
        _DISPATCH = dispatch
    return _DISPATCH


class MMState(State):
    """A game of Mice and Mystics in progress."""

    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng | int,
                 log: EventLog | None = None) -> None:
        super().__init__(game, players, options, rng, log)
        self.chapter = str(options.get("chapter", 1))
        self.round = 1
        self.hourglass = 1
        self.end_page = C.chapters[self.chapter].end_page
        self.wheel = 0
        self.side = ""
        self.sides_entered: list[str] = []
        self.traps: list[str] = []
        self.encounter: dict[str, Any] = {"current": None, "surge": [], "surge_used": False, "keyword": "",
                                          "keyword_side": ""}
        self.track: list[str] = []
        self.surprise: list[str] = []
        self.acted: list[str] = []
        self.search_deck: list[str] = []
        self.search_discard: list[str] = []
        self.enc_decks: dict[str, list[str]] = {"blue": [], "orange": []}
        self.enc_discards: dict[str, list[str]] = {"blue": [], "orange": []}
        self.known_bottom: dict[str, str | None] = {"blue": None, "orange": None}
        self.party_stash: list[str] = []
        self.ability_pool: list[str] = sorted(C.abilities)
        self.boss: dict[str, Any] | None = None
        self.turn: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.stats: list[dict[str, int]] = [{k: 0 for k in STAT_KEYS} for _ in range(players)]
        self.search_queue: list[str] = []
        self.reshuffled = False
        self.tis_pending = False
        self.next_monster = 1
        self.supply: dict[str, int] = {k: m.supply for k, m in C.monsters.items()}
        self.ability_used: list[str] = []
        self.side_searched: list[str] = []
        self.draft_order: list[int] = []
        self.defeated_total = 0
        self.mouse_order: list[str] = []
        self.mice: dict[str, Mouse] = {}
        self.monsters: dict[str, Monster] = {}
        self.stack = DecisionStack()

    # -- contract --------------------------------------------------------------------------
    @property
    def card_turn(self) -> dict[str, Any]:
        """The card turn in progress (MM-5.1)."""
        assert self.turn is not None, "no card turn is running"
        return self.turn

    def pending(self) -> list[int]:
        if self.result is not None:
            return []
        top = self.stack.top()
        if top is not None:
            return [top.seat]
        t = self.turn
        if t is not None and t["kind"] == "mouse" and not t.get("ending"):
            return [self.mice[t["mouse"]].seat]
        return []

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.pending():
            return []
        return _dispatch().legal(self)   # cached by the engine until the next apply

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        _dispatch().apply(self, action)

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        from .observe import build_view
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        from .rules.cheese import outcome_of
        return outcome_of(self)

    # -- phase helpers ------------------------------------------------------------------------
    def phase(self) -> str:
        """The decision being asked now (MM-5.47 phase names)."""
        if self.result is not None:
            return "over"
        top = self.stack.top()
        if top is not None:
            return top.kind
        if self.turn is not None and self.turn["kind"] == "mouse":
            return "main"
        return "auto"

    def seat_of(self, mouse: str) -> int:
        return self.mice[mouse].seat

    def credit(self, mouse: str | None, key: str, n: int = 1) -> None:
        """MM-8.5 per-seat contribution figures."""
        if mouse is not None and n:
            self.stats[self.mice[mouse].seat][key] += n

    # -- snapshot -------------------------------------------------------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        import json
        data = {k: getattr(self, k) for k in SIMPLE}
        data = json.loads(json.dumps(data))
        data["mice"] = [m.to_json() for m in self.mice.values()]
        data["monsters"] = [m.to_json() for m in self.monsters.values()]
        data["stack"] = self.stack.to_json()
        return data

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> MMState:
        import json
        st = cls(game, players, options, rng, log)
        plain = json.loads(json.dumps({k: data[k] for k in SIMPLE}))
        for k in SIMPLE:
            setattr(st, k, plain[k])
        st.mice = {d["id"]: Mouse.from_json(d) for d in data["mice"]}
        st.monsters = {d["id"]: Monster.from_json(d) for d in data["monsters"]}
        st.stack = DecisionStack.from_json(json.loads(json.dumps(data["stack"])))
        return st

    def clone(self) -> MMState:
        """A fast independent copy (same digest as restore(snapshot()))."""
        import copy
        st = MMState.__new__(MMState)
        st.game = self.game
        st.players = self.players
        st.options = self.options
        st.rng = self.rng.copy()
        st.log = EventLog(list(self.log.entries))
        for k in SIMPLE:
            v = getattr(self, k)
            setattr(st, k, copy.deepcopy(v) if isinstance(v, (dict, list)) else v)
        st.mice = {k: m.copy() for k, m in self.mice.items()}
        st.monsters = {k: m.copy() for k, m in self.monsters.items()}
        st.stack = DecisionStack.from_json(copy.deepcopy(self.stack.to_json()))
        return st

    def redraw_hidden(self, seat: int, rng: Rng) -> MMState:
        """MM-7.2: re-draw the search and encounter deck orders (a Map Scrap card known to be at the bottom
        stays there, MM-7.3) and the order of the set-aside boss cards. Each deck is sorted before it is
        shuffled, so the copy depends only on what the team has seen (the engine reseeds the RNG)."""
        st = self.clone()
        st.search_deck = rng.shuffled(sorted(st.search_deck))
        for colour, deck in st.enc_decks.items():
            known = st.known_bottom.get(colour)
            if known is not None and deck and deck[-1] == known:
                st.enc_decks[colour] = rng.shuffled(sorted(deck[:-1])) + [known]
            else:
                st.enc_decks[colour] = rng.shuffled(sorted(deck))
        if st.boss is not None:
            st.boss["aside"] = rng.shuffled(sorted(st.boss["aside"]))
        return st
