"""The state of a Greyport game as plain data (JSON-able), declared once as dataclass fields: the seats'
zones, the shared decks and rows, the task list and the decision stack (``referee/engine/record.py`` derives
snapshots, restores and clones from them); redeterminization. The rules (``rules/``) and the content's effects
(``effects.py``) are functions over it; ``state.GreyportState`` is the engine's State."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine import DecisionStack, Rng, State
from referee.engine.record import TRANSIENT, Record, key

STAT_NAMES = ("damage_dealt", "monsters_defeated", "bosses_defeated", "damage_taken", "shields_gained",
              "shields_spent", "damage_prevented_for_others", "healing_given", "cards_drawn_for_others",
              "cards_recruited", "curses_gained", "locations_saved", "taunts")
TEAM_NAMES = ("encounters_cleared", "locations_saved", "locations_destroyed", "monsters_defeated",
              "tokens_defeated")


@dataclass(slots=True)
class PlayerState(Record):
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
    #: ``{card, exhausted, fought, item, round_used: [{card, ability}]}`` per card in play
    play: list[dict[str, Any]] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)    # items left unattached by a retired player hero
    heroes_played: int = 0
    hero_limit: int = 1
    stats: dict[str, int] = field(default_factory=dict)


@dataclass(init=False, eq=False, repr=False)
class GreyportModel(State):
    """The plain data of a game in progress (declared once: ``record.py`` derives the snapshot, restore
    and clone) and its redeterminization. ``players_`` and ``groups`` hold one entry per seat (``setup``
    sizes them)."""

    phase: str = "setup"
    result: str | None = None
    loss_reason: str | None = None
    enc_index: int = 0
    encounter_round: int = 1
    total_rounds: int = 1
    defender: int = 0
    marker: str = "taunt"
    priority: int = 0
    passes: int = 0
    actor: int | None = None
    objective_met: bool = False
    loc: dict[str, Any] | None = None
    loc_group: list[str] = field(default_factory=list)
    groups: list[list[str]] = field(default_factory=list)   # per seat
    dmg: dict[str, int] = field(default_factory=dict)
    bosses: dict[str, dict[str, Any]] = field(default_factory=dict)
    monster_deck: list[str] = field(default_factory=list)
    monster_discard: list[str] = field(default_factory=list)
    factions_in: list[str] = field(default_factory=list)
    hero_deck: list[str] = field(default_factory=list)
    item_deck: list[str] = field(default_factory=list)
    hero_row: list[str | None] = field(default_factory=lambda: [None] * 4)
    item_row: list[str | None] = field(default_factory=lambda: [None] * 4)
    curse_deck: list[str] = field(default_factory=list)
    token_supply: dict[str, list[str]] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    used_locations: list[str] = field(default_factory=list)
    destroyed: int = 0
    played: list[list[Any]] = field(default_factory=list)      # [seat, card] in play order
    tasks: list[dict[str, Any]] = field(default_factory=list)  # the rule steps to run (a stack)
    fight: dict[str, Any] | None = None
    team: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAM_NAMES, 0))
    settled: dict[str, int] = field(default_factory=dict)   # lazily shuffled shared decks (decks.settle)
    #: shuffle the shared decks at once, not lazily (``decks.shuffle_deck``): for a rule test that scripts
    #: whole shuffle orders; not snapshotted, off again in a clone or a restored state
    eager_shuffles: bool = field(default=False, metadata=TRANSIENT)
    players_: list[PlayerState] = field(default_factory=list, metadata=key("players"))   # per seat
    stack: DecisionStack = field(default_factory=DecisionStack)

    # -- queries -------------------------------------------------------------------------------------
    def open_hands(self) -> bool:
        """GB-7.3: open hands unless silence."""
        return bool(self.options["open_hands"]) and not self.options["silence"]

    def redraw_hidden(self, seat: int, rng: Rng) -> GreyportModel:
        """GB-7.2: re-deal what ``seat`` cannot see: other hands (from their own hand + deck pool), every
        deck order (own deck included), the hero/item/monster/curse deck orders. Pools are sorted before
        the shuffle (the copy must not depend on the true order); the engine reseeds the RNG."""
        copy = self.clone()
        assert isinstance(copy, GreyportModel)
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
        return copy
