"""MM state data, declared once: mice, monsters, the story board and the running turn (MM-3.11, MM-7.5).

``record.py`` derives the snapshot, the restore and the clone from these fields; the rules (``rules/``)
are functions over ``MMModel`` and ``state.MMState`` is the engine's State that runs them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

from referee.engine import DecisionStack, State
from referee.engine.record import Record

from .catalog import Hero, content

C = content()

STAT_KEYS = ("wounds_dealt", "monsters_defeated", "wounds_healed", "cheese_gained", "successful_searches",
             "times_captured")


@dataclass(slots=True)
class Mouse(Record):
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

    @property
    def at(self) -> str:
        """The area of a mouse on the board (MM-7.5: a captured mouse has none)."""
        assert self.area is not None, f"{self.id} is not on the board"
        return self.area

    @property
    def hero(self) -> Hero:
        return C.heroes[self.id]


@dataclass(slots=True)
class Monster(Record):
    """MM-3.6 a monster figure on the board (the boss's wounds live on its cards, MM-6.10)."""
    id: str
    type: str
    area: str
    wounds: int = 0
    pinned: bool = False


R = TypeVar("R", bound=Record)


class ById(dict[str, R]):
    """Records by id, in insertion order; in the snapshot a list of the records (each names its id)."""

    __slots__ = ()
    RECORD: ClassVar[type[Record]]

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.values()]

    @classmethod
    def from_json(cls, data: list[dict[str, Any]]) -> Self:
        load = cls.RECORD.from_json
        return cls((d["id"], load(d)) for d in data)

    def copy(self) -> Self:
        return type(self)((k, r.copy()) for k, r in self.items())


class Mice(ById[Mouse]):
    """The mice in play by hero id (mouse order)."""
    __slots__ = ()
    RECORD = Mouse


class Monsters(ById[Monster]):
    """The monster figures on the board by figure id (``m<n>``)."""
    __slots__ = ()
    RECORD = Monster


def _encounter() -> dict[str, Any]:
    return {"current": None, "surge": [], "surge_used": False, "keyword": "", "keyword_side": ""}


def _by_colour() -> dict[str, list[str]]:
    return {"blue": [], "orange": []}


def _bottoms() -> dict[str, str | None]:
    return {"blue": None, "orange": None}


def _ability_pool() -> list[str]:
    return sorted(C.abilities)


def _supply() -> dict[str, int]:
    return {k: m.supply for k, m in C.monsters.items()}


@dataclass(init=False, eq=False, repr=False)
class MMModel(State):
    """The data of a game of Mice and Mystics (plain JSON-able values and records)."""

    chapter: str = "1"
    round: int = 1
    hourglass: int = 1
    end_page: int = 0
    wheel: int = 0
    side: str = ""
    sides_entered: list[str] = field(default_factory=list)
    traps: list[str] = field(default_factory=list)
    encounter: dict[str, Any] = field(default_factory=_encounter)
    track: list[str] = field(default_factory=list)
    surprise: list[str] = field(default_factory=list)
    acted: list[str] = field(default_factory=list)
    search_deck: list[str] = field(default_factory=list)
    search_discard: list[str] = field(default_factory=list)
    enc_decks: dict[str, list[str]] = field(default_factory=_by_colour)
    enc_discards: dict[str, list[str]] = field(default_factory=_by_colour)
    known_bottom: dict[str, str | None] = field(default_factory=_bottoms)
    party_stash: list[str] = field(default_factory=list)
    ability_pool: list[str] = field(default_factory=_ability_pool)
    boss: dict[str, Any] | None = None
    turn: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    stats: list[dict[str, int]] = field(default_factory=list)
    search_queue: list[str] = field(default_factory=list)
    reshuffled: bool = False
    tis_pending: bool = False
    next_monster: int = 1
    supply: dict[str, int] = field(default_factory=_supply)
    ability_used: list[str] = field(default_factory=list)
    side_searched: list[str] = field(default_factory=list)
    draft_order: list[int] = field(default_factory=list)
    defeated_total: int = 0
    mouse_order: list[str] = field(default_factory=list)
    mice: Mice = field(default_factory=Mice)
    monsters: Monsters = field(default_factory=Monsters)
    stack: DecisionStack = field(default_factory=DecisionStack)

    # -- small queries over the data ---------------------------------------------------------------
    @property
    def card_turn(self) -> dict[str, Any]:
        """The card turn in progress (MM-5.1)."""
        assert self.turn is not None, "no card turn is running"
        return self.turn

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
