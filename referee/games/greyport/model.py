"""The state of a Greyport game as plain data (JSON-able): the seats' zones, the shared decks and rows,
the decision stack; snapshots, clones and redeterminization. The rules (``rules/``) are mixins over
``GreyportModel``; ``state.GreyportState`` is the engine's State that runs them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from referee.engine import DecisionStack, Frame, Game, Rng, State
from referee.engine.events import EventLog

from .effects import REGISTRY, Effect

STAT_NAMES = ("damage_dealt", "monsters_defeated", "bosses_defeated", "damage_taken", "shields_gained",
              "shields_spent", "damage_prevented_for_others", "healing_given", "cards_drawn_for_others",
              "cards_recruited", "curses_gained", "locations_saved", "taunts")
TEAM_NAMES = ("encounters_cleared", "locations_saved", "locations_destroyed", "monsters_defeated",
              "tokens_defeated")


@dataclass(slots=True)
class PlayerState:
    """GB-3.3.2 one seat's zones and counters. ``hand`` never holds the player hero (``hero_zone`` does)."""

    character: str = ""
    hp: int = 10
    max_hp: int = 10
    level: int = 1
    hero_zone: str = "hand"            # hand / play / return_zone
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)     # index 0 = top
    discard: list[str] = field(default_factory=list)  # last = top
    coins: dict[str, int] = field(default_factory=lambda: {"copper": 0, "silver": 0, "gold": 0})
    shields: int = 0
    play: list[dict[str, Any]] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)    # items left unattached by a retired player hero
    heroes_played: int = 0
    hero_limit: int = 1
    stats: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"character": self.character, "hp": self.hp, "max_hp": self.max_hp, "level": self.level,
                "hero_zone": self.hero_zone, "hand": list(self.hand), "deck": list(self.deck),
                "discard": list(self.discard), "coins": dict(self.coins), "shields": self.shields,
                "play": [_copy_entry(e) for e in self.play], "loose": list(self.loose),
                "heroes_played": self.heroes_played, "hero_limit": self.hero_limit, "stats": dict(self.stats)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PlayerState:
        return cls(d["character"], d["hp"], d["max_hp"], d["level"], d["hero_zone"], list(d["hand"]),
                   list(d["deck"]), list(d["discard"]), dict(d["coins"]), d["shields"],
                   [_copy_entry(e) for e in d["play"]], list(d["loose"]), d["heroes_played"], d["hero_limit"],
                   dict(d["stats"]))


def _copy_entry(e: dict[str, Any]) -> dict[str, Any]:
    return {"card": e["card"], "exhausted": e["exhausted"], "fought": e["fought"], "item": e["item"],
            "round_used": [dict(u) for u in e["round_used"]]}


def _deep(v: Any) -> Any:
    """Copy of plain JSON data (lists/dicts), faster than ``copy.deepcopy``."""
    if isinstance(v, list):
        return [_deep(x) for x in v]
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    return v


# Plain-data fields of the state, snapshotted as they are.
FIELDS = ("phase", "result", "loss_reason", "enc_index", "encounter_round", "total_rounds", "defender",
          "marker", "priority", "passes", "actor", "objective_met", "loc", "loc_group", "groups", "dmg",
          "bosses", "monster_deck", "monster_discard", "factions_in", "hero_deck", "item_deck", "hero_row",
          "item_row", "curse_deck", "token_supply", "removed", "used_locations", "destroyed", "played",
          "tasks", "fight", "team", "settled")


class GreyportModel(State):
    """The plain data of a game in progress, its snapshots and redeterminization; the rules (``rules/``)
    are mixins over it and ``state.GreyportState`` runs them."""

    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng | int,
                 log: EventLog | None = None) -> None:
        super().__init__(game, players, options, rng, log)
        self.players_ = [PlayerState() for _ in range(players)]
        self.phase = "setup"
        self.result: str | None = None
        self.loss_reason: str | None = None
        self.enc_index = 0
        self.encounter_round = 1
        self.total_rounds = 1
        self.defender = 0
        self.marker = "taunt"
        self.priority = 0
        self.passes = 0
        self.actor: int | None = None
        self.objective_met = False
        self.loc: dict[str, Any] | None = None
        self.loc_group: list[str] = []
        self.groups: list[list[str]] = [[] for _ in range(players)]
        self.dmg: dict[str, int] = {}
        self.bosses: dict[str, dict[str, Any]] = {}
        self.monster_deck: list[str] = []
        self.monster_discard: list[str] = []
        self.factions_in: list[str] = []
        self.hero_deck: list[str] = []
        self.item_deck: list[str] = []
        self.hero_row: list[str | None] = [None] * 4
        self.item_row: list[str | None] = [None] * 4
        self.curse_deck: list[str] = []
        self.settled: dict[str, int] = {}  # lazily shuffled shared decks (rules/core.py ``settle``)
        self.token_supply: dict[str, list[str]] = {}
        self.removed: list[str] = []
        self.used_locations: list[str] = []
        self.destroyed = 0
        self.played: list[list[Any]] = []
        self.tasks: list[dict[str, Any]] = []
        self.fight: dict[str, Any] | None = None
        self.team = {k: 0 for k in TEAM_NAMES}
        self.stack = DecisionStack()
        self._legal_cache: tuple[int, list[dict[str, Any]]] | None = None

    # -- helpers used by the rules ----------------------------------------------------------------------
    @staticmethod
    def effect_fn(key: str) -> Effect:
        return REGISTRY.effects[key]

    def open_hands(self) -> bool:
        """GB-7.3: open hands unless silence."""
        return bool(self.options["open_hands"]) and not self.options["silence"]

    # -- snapshots ------------------------------------------------------------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        data = {name: _deep(getattr(self, name)) for name in FIELDS}
        data["players"] = [p.to_json() for p in self.players_]
        data["stack"] = self.stack.to_json()
        return data

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> Self:
        st = cls(game, players, options, rng, log)
        for name in FIELDS:
            setattr(st, name, _deep(data[name]))
        st.players_ = [PlayerState.from_json(p) for p in data["players"]]
        st.stack = DecisionStack.from_json(_deep(data["stack"]))
        return st

    def clone(self) -> Self:
        st = type(self)(self.game, self.players, dict(self.options), self.rng.copy(),
                           EventLog(list(self.log.entries)))
        for name in FIELDS:
            setattr(st, name, _deep(getattr(self, name)))
        st.players_ = [PlayerState.from_json(p.to_json()) for p in self.players_]
        st.stack = DecisionStack([Frame(f.kind, f.seat, _deep(f.data)) for f in self.stack.frames])
        return st

    def redraw_hidden(self, seat: int, rng: Rng) -> Self:
        """GB-7.2: re-deal what ``seat`` cannot see: other hands (from their own hand + deck pool), every
        deck order (own deck included), the hero/item/monster/curse deck orders. Pools are sorted before
        the shuffle (the copy must not depend on the true order); the engine reseeds the RNG."""
        copy = self.clone()
        see_all = self.open_hands()
        for s, p in enumerate(copy.players_):
            if s == seat or see_all:
                p.deck = rng.shuffled(sorted(p.deck))
                continue
            pool = rng.shuffled(sorted(p.hand + p.deck))
            n = len(p.hand)
            p.hand, p.deck = pool[:n], pool[n:]
        for deck in (copy.hero_deck, copy.item_deck, copy.monster_deck, copy.curse_deck):
            deck[:] = rng.shuffled(sorted(deck))
        copy.settled = {}
        copy._legal_cache = None
        return copy
