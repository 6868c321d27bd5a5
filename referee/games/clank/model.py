"""The Clank! state's data, declared once: ``ClankModel`` (every field of the state) and ``PlayerData``.

``referee/engine/record.py`` derives the snapshot, the restore and the clone from these fields; nothing
is listed a second time. Zones store lists with the *top first* for decks (``deck[0]`` is drawn next)
and in arrival order for discard piles, play areas and the dungeon discard (the last item is the top).
No rules here: they live in ``rules/``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine import DecisionStack, State
from referee.engine.record import TRANSIENT, Record, key

from .catalog import Catalog, catalog

IN_DUNGEON = "in_dungeon"
ESCAPED = "escaped"
KNOCKED_OUT = "knocked_out"


@dataclass(slots=True)
class PlayerData(Record):
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


def _empty_row() -> list[str | None]:
    return [None] * 6


@dataclass(init=False, eq=False, repr=False)
class ClankModel(State):
    """Every field of a Clank! game in progress (setup fills what depends on the seat count)."""

    #: the content tables (derived: not snapshotted; set again on restore and clone)
    cat: Catalog = field(default_factory=catalog, metadata=TRANSIENT)
    p: list[PlayerData] = field(default_factory=list, metadata=key("players"))
    round: int = 1
    active: int = 0
    over: bool = False
    end_reason: str | None = None
    rage: int = 0
    cd_owner: int | str | None = None
    cd_space: int = 0
    bag_black: int = 0
    black_aside: int = 0
    # CK-5.3 turn state of the active player
    skill: int = 0
    swords: int = 0
    boots: int = 0
    teleports: int = 0
    credit: int = 0
    exhausted: bool = False
    ignore_caves: bool = False
    ignore_monsters: bool = False
    #: CK-6.9 pending conditionals ``{"card", "cond", "then"}``
    conds: list[dict[str, Any]] = field(default_factory=list)
    # shared zones
    row: list[str | None] = field(default_factory=_empty_row)
    ddeck: list[str] = field(default_factory=list)
    ddiscard: list[str] = field(default_factory=list)
    trashed: list[str] = field(default_factory=list)
    reserve: dict[str, list[str]] = field(default_factory=dict)
    market: dict[str, list[str]] = field(default_factory=dict)
    mastery_left: list[str] = field(default_factory=list)
    minor: dict[str, list[str]] = field(default_factory=dict)
    major: dict[str, str] = field(default_factory=dict)
    idols_at: dict[str, list[str]] = field(default_factory=dict)
    artifacts_at: dict[str, str] = field(default_factory=dict)
    minor_aside: list[str] = field(default_factory=list)
    major_aside: list[str] = field(default_factory=list)
    removed_artifacts: list[str] = field(default_factory=list)
    tokens_gone: list[str] = field(default_factory=list)
    #: CK-5.17 pending effect lists (the work stack) ``{"fx": [atom, ...], "card"}``, and decisions
    work: list[dict[str, Any]] = field(default_factory=list)
    stack: DecisionStack = field(default_factory=DecisionStack)
