"""DT-4.3-DT-5.11: one frozen dataclass per action type (canonical JSON on the wire).

[design] The spec's ``exchange`` field ``with`` is spelled ``friend`` (``with`` is a Python
keyword and cannot be a dataclass field); see README "Deviations".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from referee.engine import Action, ActionSet

Dir = Literal["N", "E", "S", "W"]


@dataclass(frozen=True)
class ChooseStarter(Action):
    """DT-4.3: put one of your characters face down on the next dot of your line."""

    TYPE: ClassVar[str] = "choose_starter"
    character: str


@dataclass(frozen=True)
class PlaceHidden(Action):
    """DT-4.5: place one of your unplaced tokens face down into a room slot."""

    TYPE: ClassVar[str] = "place_hidden"
    token: str
    slot: int


@dataclass(frozen=True)
class PlayActionCard(Action):
    """DT-5.2: play an action card and receive its AP."""

    TYPE: ClassVar[str] = "play_action_card"
    value: int


@dataclass(frozen=True)
class EndTurn(Action):
    """DT-5.3.4: end phase 2 (unused AP are lost)."""

    TYPE: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class Move(Action):
    """DT-5.5.1: 1 AP, start a movement of a character."""

    TYPE: ClassVar[str] = "move"
    character: str


@dataclass(frozen=True)
class Step(Action):
    """DT-5.5.3: one orthogonal step of the moving character."""

    TYPE: ClassVar[str] = "step"
    dir: Dir


@dataclass(frozen=True)
class PickUp(Action):
    """DT-5.5.6: pick up a lying object or wounded friend (free)."""

    TYPE: ClassVar[str] = "pick_up"
    token: str


@dataclass(frozen=True)
class Drop(Action):
    """DT-5.5.7: drop the carried token (free)."""

    TYPE: ClassVar[str] = "drop"


@dataclass(frozen=True)
class Exchange(Action):
    """DT-5.5.8: give / take / swap carried tokens with a friend on the square (free)."""

    TYPE: ClassVar[str] = "exchange"
    mode: Literal["give", "take", "swap"]
    friend: str


@dataclass(frozen=True)
class EndMove(Action):
    """DT-5.5.9: end the movement on a legal end square."""

    TYPE: ClassVar[str] = "end_move"


@dataclass(frozen=True)
class Reveal(Action):
    """DT-5.6: 1 AP, reveal a face-down room the character has access to."""

    TYPE: ClassVar[str] = "reveal"
    character: str
    slot: int


@dataclass(frozen=True)
class PlaceRevealed(Action):
    """DT-6.1.2: place one token of the revealed room on an empty floor or gear square."""

    TYPE: ClassVar[str] = "place_revealed"
    token: str
    square: list[int]


@dataclass(frozen=True)
class Rotate(Action):
    """DT-5.7: 1 AP, turn a room a quarter from a gear."""

    TYPE: ClassVar[str] = "rotate"
    character: str
    slot: int
    dir: Literal["cw", "ccw"]


@dataclass(frozen=True)
class Attack(Action):
    """DT-5.8.1: 1 AP, start a (group) combat against a connected enemy."""

    TYPE: ClassVar[str] = "attack"
    character: str
    target: str


@dataclass(frozen=True)
class CombatCard(Action):
    """DT-5.8.3: the secret, simultaneous combat card."""

    TYPE: ClassVar[str] = "combat_card"
    value: int


@dataclass(frozen=True)
class Heal(Action):
    """DT-5.9.1: Cleric, 1 AP, heal a connected wounded character."""

    TYPE: ClassVar[str] = "heal"
    character: str
    target: str


@dataclass(frozen=True)
class OpenPortcullis(Action):
    """DT-5.9.2: Thief, 1 AP, open a closed portcullis beside her."""

    TYPE: ClassVar[str] = "open_portcullis"
    character: str
    portcullis: str


@dataclass(frozen=True)
class ClosePortcullis(Action):
    """DT-5.9.2: Thief, 1 AP, close an open portcullis beside her."""

    TYPE: ClassVar[str] = "close_portcullis"
    character: str
    portcullis: str


@dataclass(frozen=True)
class Regenerate(Action):
    """DT-5.9.3: wounded Troll, 1 AP, becomes healthy (and blocked)."""

    TYPE: ClassVar[str] = "regenerate"
    character: str


@dataclass(frozen=True)
class WallWalk(Action):
    """DT-5.9.4: Wall-Walker, 1 AP, step through one wall."""

    TYPE: ClassVar[str] = "wall_walk"
    character: str
    dir: Dir


@dataclass(frozen=True)
class BreakPortcullis(Action):
    """DT-5.9.5: Warrior, 1 AP, break a closed portcullis beside him."""

    TYPE: ClassVar[str] = "break_portcullis"
    character: str
    portcullis: str


@dataclass(frozen=True)
class Fireball(Action):
    """DT-5.10.1: Wizard with the Fireball Wand, 1 AP, kill the first character in a line."""

    TYPE: ClassVar[str] = "fireball"
    character: str
    dir: Dir


@dataclass(frozen=True)
class DrinkPotion(Action):
    """DT-5.10.2: 1 AP, drink the carried Speed Potion (+4 AP for this character)."""

    TYPE: ClassVar[str] = "drink_potion"
    character: str


@dataclass(frozen=True)
class Jump(Action):
    """DT-5.11: 1 AP + a Jump card, jump over a connected trap."""

    TYPE: ClassVar[str] = "jump"
    character: str
    trap: list[int]
    land: list[int]


ACTIONS = ActionSet([
    ChooseStarter, PlaceHidden, PlayActionCard, EndTurn, Move, Step, PickUp, Drop, Exchange, EndMove,
    Reveal, PlaceRevealed, Rotate, Attack, CombatCard, Heal, OpenPortcullis, ClosePortcullis, Regenerate,
    WallWalk, BreakPortcullis, Fireball, DrinkPotion, Jump,
])
