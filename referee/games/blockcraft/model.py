"""BC-1.3 / BC-1.4: the game's data, declared once (players, map, piles).

``referee/engine/record.py`` derives the snapshot, the restore and the deep ``clone`` from these fields.
What follows from the options and the seat count (the catalogue, the map size, the round limit) is
``TRANSIENT``: not snapshotted, set again by ``after_restore``. No rules here: those are functions over
``BlockcraftModel`` in ``rules/``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.engine import DecisionStack, State
from referee.engine.record import TRANSIENT, Record, key

from .catalog import Catalog, MapSize, catalog

#: a map card: {"c": card id, "s": "down"|"placed"|"loose"|"farmland", "l": layer or None,
#: "by": [seat, tool] | None (who dug a loose card), "t": the tool card id (loose cards only)}
if TYPE_CHECKING:
    MapCard = dict[str, Any]
else:
    # What record.py reads: a flat copy of each card is deep enough ("by" is replaced, never edited), and
    # the map is most of a clone's work.
    MapCard = dict[str, str | int | None]
#: an equipment slot: {"card", "dur", "max", "ench": [...], "uid"} (tools), {"card", "dur", "max"}
#: (armour), {"card", "chest": [[card, fresh], ...]} / {"card", "batch": {...} | None} (blocks)
Slot = dict[str, Any]


def _two_slots() -> list[Slot | None]:
    return [None, None]


@dataclass(slots=True)
class Player(Record):
    """One seat's character and area (BC-1.4 "area": hand, chest, equipment, furnace batch)."""

    seat: int = 0
    character: str | None = None
    options: list[str] = field(default_factory=list)
    chosen: str | None = None
    identity: str = ""
    alive: bool = True
    downed: bool = False
    downed_by: int | None = None
    cell: list[int] | None = None
    airborne: bool = False
    air_h: int = 0
    stamina: int = 0
    max_stamina: int = 0
    hunger: int = 0
    max_hunger: int = 0
    xp: int = 0
    xp_earned: int = 0
    kills: int = 0
    kill_xp: int = 0
    hand: dict[str, int] = field(default_factory=dict)
    tools: list[Slot | None] = field(default_factory=_two_slots)
    armour: Slot | None = None
    blocks: list[Slot | None] = field(default_factory=_two_slots)
    fatigue: bool = False
    detonate_used: bool = False
    stored: dict[str, int] = field(default_factory=dict)
    retrieved: dict[str, int] = field(default_factory=dict)
    # BC-5.3 step 2: per-turn counters (``reset_turn``)
    ap: int = 0
    ap_spent: int = 0
    touched: bool = False
    touch_hits: int = 0
    ores_gathered: int = 0
    moves: int = 0
    places: int = 0
    digs_free: int = 0
    timber_used: bool = False
    villager_used: bool = False
    skill_used: bool = False
    decisions: int = 0

    def reset_turn(self) -> None:
        """BC-5.3 step 2: per-turn counters."""
        self.ap = self.ap_spent = self.touch_hits = self.ores_gathered = 0
        self.moves = self.places = self.digs_free = self.decisions = 0
        self.touched = self.timber_used = self.villager_used = self.skill_used = False
        self.stored = {}
        self.retrieved = {}

    @property
    def active(self) -> bool:
        """Living and not downed: can act, be targeted and rescue (BC-6.3.5)."""
        return self.alive and not self.downed

    def hand_size(self) -> int:
        return sum(self.hand.values())

    def add(self, card: str, n: int = 1) -> None:
        self.hand[card] = self.hand.get(card, 0) + n

    def remove(self, card: str, n: int = 1) -> None:
        left = self.hand[card] - n
        if left:
            self.hand[card] = left
        else:
            del self.hand[card]


@dataclass(init=False, eq=False, repr=False)
class BlockcraftModel(State):
    """The data of a Blockcraft game in progress (BC-4 setup through BC-8 outcome)."""

    p: list[Player] = field(default_factory=list, metadata=key("players"))
    # Map: row-major list of stacks; a stack is bottom -> top (see ``MapCard``)
    cells: list[list[MapCard]] = field(default_factory=list)
    phase: str = "choose_character"   # choose_character | choose_start | turn | over
    step: str = "action"              # within a turn: action | xp | discard | idle | end_check | end
    current: int = 0
    round: int = 0
    day: bool = True
    start_queue: list[int] = field(default_factory=list)
    stack: DecisionStack = field(default_factory=DecisionStack)
    draw_pile: list[str] = field(default_factory=list)
    discard_pile: list[str] = field(default_factory=list)
    supply: dict[str, int] = field(default_factory=dict)
    enchant_deck: list[str] = field(default_factory=list)
    enchant_discard: list[str] = field(default_factory=list)
    boss_seat: int | None = None
    identity_public: bool = False
    box_characters: list[str] = field(default_factory=list)
    death_order: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None
    next_uid: int = 1
    turn_over: bool = False
    # -- derived from the options and the seat count (``after_restore``) --
    cat: Catalog = field(default=None, metadata=TRANSIENT)  # type: ignore[assignment]
    mode: str = field(default="", metadata=TRANSIENT)
    max_rounds: int = field(default=0, metadata=TRANSIENT)
    admin: int = field(default=0, metadata=TRANSIENT)
    size: MapSize = field(default=None, metadata=TRANSIENT)  # type: ignore[assignment]
    w: int = field(default=0, metadata=TRANSIENT)
    h: int = field(default=0, metadata=TRANSIENT)
    # -- caches --
    mv: int = field(default=0, metadata=TRANSIENT)   # map version: bumped on every map change
    _map_view: dict[str, Any] = field(default_factory=dict, metadata=TRANSIENT)  # observe: per map version

    def after_restore(self) -> None:
        self.cat = catalog()
        self.mode = self.options["mode"]
        # BC-4.1 (spec 1.1): 36 rounds solo (it was 30), 40 otherwise
        self.max_rounds = self.options["max_rounds"] or (36 if self.players == 1 else 40)
        self.admin = self.options["admin_seat"]
        self.size = self.cat.size_for(self.players)
        self.w, self.h = self.size.width, self.size.height

    # -- small helpers used by every rules module ------------------------------------------
    def cell(self, x: int, y: int) -> list[MapCard]:
        return self.cells[y * self.w + x]

    def H(self, x: int, y: int) -> int:
        return len(self.cells[y * self.w + x])

    def discard_card(self, card: str, n: int = 1) -> None:
        """BC-6.9: raw cards go face up to the discard pile, processed cards back to the supply."""
        if self.cat.cards[card].raw:
            self.discard_pile.extend([card] * n)
        else:
            self.supply[card] = self.supply.get(card, 0) + n

    def draw(self, seat: int, why: str) -> str | None:
        """BC-6.9: draw one card (reshuffling the discard pile when the draw pile is empty)."""
        if not self.draw_pile and self.discard_pile:
            self.draw_pile = self.rng.shuffled(self.discard_pile)
            self.discard_pile = []
            self.log.public("reshuffle", size=len(self.draw_pile))
        if not self.draw_pile:
            return None
        card = self.draw_pile.pop()
        self.p[seat].add(card)
        self.log.public("draw", seat=seat, why=why)
        self.log.private(seat, "drew", seat=seat, card=card, why=why)
        return card

    def take_supply(self, card: str, n: int) -> int:
        got = min(n, self.supply.get(card, 0))
        if got:
            self.supply[card] -= got
        return got

    def uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1
