"""CK-5.5 .. CK-5.22: one frozen dataclass per action type; the wire form is ``{"type": TYPE, ...}``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from referee.engine import Action, ActionSet


@dataclass(frozen=True)
class PlayCard(Action):
    """CK-5.5: play a card from your hand (one per card type is listed)."""

    TYPE: ClassVar[str] = "play_card"
    card: str


@dataclass(frozen=True)
class Acquire(Action):
    """CK-5.6: buy the item/gem/companion in a dungeon-row slot with Skill."""

    TYPE: ClassVar[str] = "acquire"
    slot: int


@dataclass(frozen=True)
class AcquireReserve(Action):
    """CK-5.7: buy the top card of a reserve pile with Skill."""

    TYPE: ClassVar[str] = "acquire_reserve"
    pile: Literal["hireling", "pathfinder", "codex"]


@dataclass(frozen=True)
class UseDevice(Action):
    """CK-5.8: pay Skill for the device in a row slot; its effect resolves at once."""

    TYPE: ClassVar[str] = "use_device"
    slot: int


@dataclass(frozen=True)
class Defeat(Action):
    """CK-5.9: defeat the monster in a row slot with Swords."""

    TYPE: ClassVar[str] = "defeat"
    slot: int


@dataclass(frozen=True)
class DefeatGoblin(Action):
    """CK-5.10: defeat the Goblin (2 Swords, 1 gold); it stays."""

    TYPE: ClassVar[str] = "defeat_goblin"


@dataclass(frozen=True)
class Move(Action):
    """CK-5.11: walk a tunnel to an adjacent room, cancelling ``swords`` monster damage."""

    TYPE: ClassVar[str] = "move"
    to: str
    swords: int


@dataclass(frozen=True)
class Teleport(Action):
    """CK-5.12: spend a Teleport to jump to an adjacent room."""

    TYPE: ClassVar[str] = "teleport"
    to: str


@dataclass(frozen=True)
class TakeArtifact(Action):
    """CK-5.13: take the artifact in your room."""

    TYPE: ClassVar[str] = "take_artifact"


@dataclass(frozen=True)
class BuyMarket(Action):
    """CK-5.14: buy a market item for 7 gold in a market room."""

    TYPE: ClassVar[str] = "buy_market"
    item: Literal["master_key", "backpack", "crown"]


@dataclass(frozen=True)
class UseToken(Action):
    """CK-5.15: use a held potion token."""

    TYPE: ClassVar[str] = "use_token"
    token: str


@dataclass(frozen=True)
class EndTurn(Action):
    """CK-5.16: end the turn (hand must be empty)."""

    TYPE: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class TakeToken(Action):
    """CK-5.18: take one token of a kind from the room just entered."""

    TYPE: ClassVar[str] = "take_token"
    kind: Literal["minor", "major", "idol"]


@dataclass(frozen=True)
class SkipToken(Action):
    """CK-5.18: take nothing from the room just entered."""

    TYPE: ClassVar[str] = "skip_token"


@dataclass(frozen=True)
class Choose(Action):
    """CK-5.19: pick option 0 (A) or 1 (B) of a ``choose`` effect."""

    TYPE: ClassVar[str] = "choose"
    option: int


@dataclass(frozen=True)
class Discard(Action):
    """CK-5.20: discard a card from hand (then draw)."""

    TYPE: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True)
class Trash(Action):
    """CK-5.21: trash a card from your play area or discard pile."""

    TYPE: ClassVar[str] = "trash"
    zone: Literal["play", "discard"]
    card: str


@dataclass(frozen=True)
class SecretFrom(Action):
    """CK-5.22: take a secret from an adjacent room."""

    TYPE: ClassVar[str] = "secret_from"
    room: str


@dataclass(frozen=True)
class Decline(Action):
    """CK-5.20 .. CK-5.22: decline an optional effect."""

    TYPE: ClassVar[str] = "decline"


ACTIONS = ActionSet([PlayCard, Acquire, AcquireReserve, UseDevice, Defeat, DefeatGoblin, Move, Teleport,
                     TakeArtifact, BuyMarket, UseToken, EndTurn, TakeToken, SkipToken, Choose, Discard, Trash,
                     SecretFrom, Decline])
