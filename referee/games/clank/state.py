"""The Clank! state: per-player data (dataclasses) and the ``ClankState`` that ties the rules together.

Zones store lists with the *top first* for decks (``deck[0]`` is drawn next) and in arrival
order for discard piles, play areas and the dungeon discard (the last item is the top).
The rules themselves live in ``rules/`` as mixins, one per mechanic.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from referee.engine import DecisionStack, Game, Rng, State, Viewer
from referee.engine.events import EventLog
from referee.engine.outcome import Outcome

from .catalog import Catalog, catalog
from .observe import build_view
from .rules.cards import CardsMixin
from .rules.decisions import DecisionsMixin
from .rules.dragon import DragonMixin
from .rules.movement import MovementMixin
from .rules.resources import ResourcesMixin
from .rules.scoring import ScoringMixin
from .rules.turn import TurnMixin

IN_DUNGEON = "in_dungeon"
ESCAPED = "escaped"
KNOCKED_OUT = "knocked_out"


@dataclass(slots=True)
class PlayerData:
    """CK-4.2: one player's pawn, cards, cubes and held tokens."""

    status: str = IN_DUNGEON
    room: str = "R0"
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    play: list[str] = field(default_factory=list)
    gold: int = 0
    supply: int = 30
    area: int = 0
    bag: int = 0
    damage: int = 0
    removed: int = 0
    artifacts: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    idols: list[str] = field(default_factory=list)
    mastery: str = ""
    rescued: bool = False
    visited: int = 0
    defeated: int = 0
    damage_taken: int = 0
    clank_made: int = 0

    def owned(self) -> list[str]:
        """Every card the player owns (CK-8.3: deck, hand, discard pile, play area)."""
        return self.deck + self.hand + self.discard + self.play

    def keys(self) -> int:
        return sum(1 for i in self.items if i.startswith("key"))

    def packs(self) -> int:
        return sum(1 for i in self.items if i.startswith("pack"))

    def to_json(self) -> dict[str, Any]:
        return {f.name: (list(v) if isinstance(v := getattr(self, f.name), list) else v)
                for f in fields(self)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PlayerData:
        kwargs: dict[str, Any] = {f.name: (list(d[f.name]) if isinstance(d[f.name], list) else d[f.name])
                                  for f in fields(cls)}
        return cls(**kwargs)

    def copy(self) -> PlayerData:
        return PlayerData(self.status, self.room, self.hand[:], self.deck[:], self.discard[:], self.play[:],
                          self.gold, self.supply, self.area, self.bag, self.damage, self.removed,
                          self.artifacts[:], self.tokens[:], self.items[:], self.idols[:], self.mastery,
                          self.rescued, self.visited, self.defeated, self.damage_taken, self.clank_made)


#: Scalar attributes of ClankState saved in snapshots (lists/dicts are handled explicitly).
_SCALARS = ("round", "active", "over", "end_reason", "rage", "cd_owner", "cd_space", "bag_black",
            "black_aside", "skill", "swords", "boots", "teleports", "credit", "exhausted", "ignore_caves",
            "ignore_monsters")
_LISTS = ("row", "ddeck", "ddiscard", "trashed", "mastery_left", "minor_aside", "major_aside",
          "removed_artifacts", "tokens_gone", "conds", "work")
_DICTS = ("reserve", "market", "minor", "major", "idols_at", "artifacts_at")


class ClankState(ResourcesMixin, CardsMixin, MovementMixin, DecisionsMixin, DragonMixin, TurnMixin,
                 ScoringMixin, State):
    """A game of Clank! in progress (see the package README for the rule map)."""

    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng | int,
                 log: EventLog | None = None) -> None:
        super().__init__(game, players, options, rng, log)
        self.cat: Catalog = catalog()
        self.p: list[PlayerData] = [PlayerData() for _ in range(players)]
        self.round = 1
        self.active = 0
        self.over = False
        self.end_reason: str | None = None
        self.rage = 0
        self.cd_owner: int | str | None = None
        self.cd_space = 0
        self.bag_black = 0
        self.black_aside = 0
        # CK-5.3 turn state of the active player
        self.skill = self.swords = self.boots = self.teleports = self.credit = 0
        self.exhausted = self.ignore_caves = self.ignore_monsters = False
        self.conds: list[dict[str, Any]] = []
        # shared zones
        self.row: list[str | None] = [None] * 6
        self.ddeck: list[str] = []
        self.ddiscard: list[str] = []
        self.trashed: list[str] = []
        self.reserve: dict[str, list[str]] = {}
        self.market: dict[str, list[str]] = {}
        self.mastery_left: list[str] = []
        self.minor: dict[str, list[str]] = {}
        self.major: dict[str, str] = {}
        self.idols_at: dict[str, list[str]] = {}
        self.artifacts_at: dict[str, str] = {}
        self.minor_aside: list[str] = []
        self.major_aside: list[str] = []
        self.removed_artifacts: list[str] = []
        self.tokens_gone: list[str] = []
        # pending effect lists (work stack, CK-5.17) and decisions
        self.work: list[dict[str, Any]] = []
        self.stack = DecisionStack()

    # -- the contract ------------------------------------------------------------------------
    def pending(self) -> list[int]:
        """CK-5.17: the owner of the top decision, else the active seat; [] once over."""
        if self.over:
            return []
        top = self.stack.top()
        return [top.seat] if top is not None else [self.active]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        """CK-5.28: the decision's actions, or the main-phase list in CK-5.5..5.16 order."""
        if self.over:
            return []
        top = self.stack.top()
        if top is not None:
            return self.legal_decision(top) if seat == top.seat else []
        return self.legal_main() if seat == self.active else []

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        kind = action["type"]
        if self.stack:
            self.apply_decision(kind, action)
        else:
            self.apply_main(kind, action)
        self.run_work()
        if not self.stack and not self.over:
            self.check_conditionals()

    STATIC_VIEW_KEYS = ("static",)  # observe.static_view(): the map, artifacts, constants

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        """CK-7: views built as a whitelist in ``observe.py``."""
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        return self.final_outcome() if self.over else None

    # -- snapshots ---------------------------------------------------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {k: getattr(self, k) for k in _SCALARS}
        for k in _LISTS:
            data[k] = list(getattr(self, k))
        for k in _DICTS:
            data[k] = {kk: (list(v) if isinstance(v, list) else v) for kk, v in getattr(self, k).items()}
        data["players"] = [p.to_json() for p in self.p]
        data["stack"] = self.stack.to_json()
        return data

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> ClankState:
        st = cls(game, players, options, rng, log)
        for k in _SCALARS:
            setattr(st, k, data[k])
        for k in _LISTS:
            setattr(st, k, list(data[k]))
        for k in _DICTS:
            setattr(st, k, {kk: (list(v) if isinstance(v, list) else v) for kk, v in data[k].items()})
        st.p = [PlayerData.from_json(d) for d in data["players"]]
        st.stack = DecisionStack.from_json(data["stack"])
        return st

    def clone(self) -> ClankState:
        """A fast copy (no JSON round trip); effect atoms and frames' option lists are never mutated."""
        st = ClankState.__new__(ClankState)
        st.game, st.players, st.options = self.game, self.players, self.options
        st.rng = self.rng.copy()
        st.log = EventLog(list(self.log.entries))
        st.cat = self.cat
        for k in _SCALARS:
            setattr(st, k, getattr(self, k))
        for k in _LISTS:
            setattr(st, k, list(getattr(self, k)))
        for k in _DICTS:
            setattr(st, k, {kk: (v[:] if isinstance(v, list) else v) for kk, v in getattr(self, k).items()})
        st.work = [{"fx": list(w["fx"]), "card": w.get("card")} for w in self.work]
        st.p = [p.copy() for p in self.p]
        st.stack = DecisionStack.from_json(self.stack.to_json())
        return st

    def redraw_hidden(self, seat: int, rng: Rng) -> ClankState:
        """CK-7.3: re-draw what ``seat`` cannot see (the engine reseeds the copy's RNG).

        Re-drawn: the order of every personal deck (``seat``'s own too), the split of each other
        player's cards between hand and deck (their union is public knowledge: owned cards minus
        the public discard pile and play area), the dungeon deck order, and which face-down secret
        lies where (board and set aside, minor and major separately). Every pool is sorted before
        it is shuffled: the copy depends only on what ``seat`` saw, not on the true order.
        """
        copy = self.clone()
        if self.over:
            return copy  # CK-7.6: nothing is hidden any more
        for s, p in enumerate(copy.p):
            if s == seat:
                p.deck = rng.shuffled(sorted(p.deck))
            else:
                pool = rng.shuffled(sorted(p.hand + p.deck))
                p.hand, p.deck = pool[:len(p.hand)], pool[len(p.hand):]
        copy.ddeck = rng.shuffled(sorted(copy.ddeck))
        rooms = sorted(copy.minor)
        pool = rng.shuffled(sorted([t for r in rooms for t in copy.minor[r]] + copy.minor_aside))
        for r in rooms:
            n = len(copy.minor[r])
            copy.minor[r], pool = pool[:n], pool[n:]
        copy.minor_aside = pool
        rooms = sorted(copy.major)
        pool = rng.shuffled(sorted([copy.major[r] for r in rooms] + copy.major_aside))
        for i, r in enumerate(rooms):
            copy.major[r] = pool[i]
        copy.major_aside = pool[len(rooms):]
        return copy
