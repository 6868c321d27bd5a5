"""BC-5.26: one frozen dataclass per action type (canonical JSON on the wire, JSON Schema for bots)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from referee.engine import Action, ActionSet
from referee.engine.actions import OMIT_DEFAULT

Dir = Literal["N", "E", "S", "W"]


@dataclass(frozen=True)
class ChooseCharacter(Action):
    """BC-4.5: pick one of your dealt character cards (simultaneous, secret)."""

    TYPE: ClassVar[str] = "choose_character"
    character: str


@dataclass(frozen=True)
class ChooseStart(Action):
    """BC-4.11: pick your starting cell [x, y]."""

    TYPE: ClassVar[str] = "choose_start"
    cell: list[int]


@dataclass(frozen=True)
class Move(Action):
    """BC-5.8: step N/E/S/W (1 AP, 1 hunger)."""

    TYPE: ClassVar[str] = "move"
    dir: Dir


@dataclass(frozen=True)
class Jump(Action):
    """BC-5.9: rise 1 and take one follow-up (1 AP, 1 hunger)."""

    TYPE: ClassVar[str] = "jump"


@dataclass(frozen=True)
class Land(Action):
    """BC-5.9: end a jump without a follow-up."""

    TYPE: ClassVar[str] = "land"


@dataclass(frozen=True)
class Place(Action):
    """BC-5.10: choose a placeable card type from hand (then place_at)."""

    TYPE: ClassVar[str] = "place"
    card_type: str


@dataclass(frozen=True)
class PlaceAt(Action):
    """BC-5.10: the target cell of a place (1 AP, 1 hunger)."""

    TYPE: ClassVar[str] = "place_at"
    cell: list[int]


@dataclass(frozen=True)
class Use(Action):
    """BC-5.11: use a food, ender pearl or TNT from hand."""

    TYPE: ClassVar[str] = "use"
    card_type: str


@dataclass(frozen=True)
class UseAt(Action):
    """BC-6.8: the target cell of an ender pearl or TNT."""

    TYPE: ClassVar[str] = "use_at"
    cell: list[int]


@dataclass(frozen=True)
class Cancel(Action):
    """BC-5.6.5: leave a target choice, smelt builder or menu without paying."""

    TYPE: ClassVar[str] = "cancel"


@dataclass(frozen=True)
class Dig(Action):
    """BC-5.12: dig the top card of a cell in range (1 AP, 1 hunger)."""

    TYPE: ClassVar[str] = "dig"
    cell: list[int]


@dataclass(frozen=True)
class Gather(Action):
    """BC-5.13: take a loose card into hand (free)."""

    TYPE: ClassVar[str] = "gather"
    cell: list[int]


@dataclass(frozen=True)
class Craft(Action):
    """BC-5.14: craft a recipe named by its output card id."""

    TYPE: ClassVar[str] = "craft"
    recipe: str


@dataclass(frozen=True)
class Equip(Action):
    """BC-5.15: equip a tool/armour/block card (replace_slot when the group is full; enchant with a table)."""

    TYPE: ClassVar[str] = "equip"
    card_type: str
    replace_slot: int | None
    enchant: bool


@dataclass(frozen=True)
class Touch(Action):
    """BC-5.16: attack a character in range, bare-handed (null) or with an equipped sword/axe slot."""

    TYPE: ClassVar[str] = "touch"
    target: int
    weapon_slot: int | None


@dataclass(frozen=True)
class Dodge(Action):
    """BC-5.16.4: sidestep a Touch for 2 hunger."""

    TYPE: ClassVar[str] = "dodge"


@dataclass(frozen=True)
class TakeHit(Action):
    """BC-5.16.5: take the Touch."""

    TYPE: ClassVar[str] = "take_hit"


@dataclass(frozen=True)
class Finisher(Action):
    """BC-5.17: kill a character at stamina 1-3 within distance 3 (2 AP, 1 hunger)."""

    TYPE: ClassVar[str] = "finisher"
    target: int


@dataclass(frozen=True)
class Smelt(Action):
    """BC-5.18.1: open the batch builder of a free furnace."""

    TYPE: ClassVar[str] = "smelt"
    furnace_slot: int


@dataclass(frozen=True)
class SmeltMaterial(Action):
    """BC-5.18.2: put a smeltable card in the batch."""

    TYPE: ClassVar[str] = "smelt_material"
    card_type: str


@dataclass(frozen=True)
class SmeltFuel(Action):
    """BC-5.18.2: put a fuel card in the batch."""

    TYPE: ClassVar[str] = "smelt_fuel"
    card_type: str


@dataclass(frozen=True)
class SmeltConfirm(Action):
    """BC-5.18.3-4: start the batch (1 AP)."""

    TYPE: ClassVar[str] = "smelt_confirm"


@dataclass(frozen=True)
class Till(Action):
    """BC-5.19: turn a loose dirt into farmland (1 AP, 1 hunger, 1 hoe durability)."""

    TYPE: ClassVar[str] = "till"
    cell: list[int]


@dataclass(frozen=True)
class EnchantPick(Action):
    """BC-5.20.4: attach a revealed enchantment card (pays its XP)."""

    TYPE: ClassVar[str] = "enchant_pick"
    card: str


@dataclass(frozen=True)
class EnchantDone(Action):
    """BC-5.20.4: stop picking."""

    TYPE: ClassVar[str] = "enchant_done"


@dataclass(frozen=True)
class Store(Action):
    """BC-5.21: put a hand card in an equipped chest."""

    TYPE: ClassVar[str] = "store"
    card_type: str
    chest_slot: int


@dataclass(frozen=True)
class Retrieve(Action):
    """BC-5.21: take a card from an equipped chest."""

    TYPE: ClassVar[str] = "retrieve"
    card_type: str
    chest_slot: int


@dataclass(frozen=True)
class Skill(Action):
    """BC-6.6: an active character skill (target for fatigue_beam)."""

    TYPE: ClassVar[str] = "skill"
    skill: str
    target: int | None = field(default=None, metadata=OMIT_DEFAULT)   # only fatigue_beam names one


@dataclass(frozen=True)
class SkillAt(Action):
    """BC-6.6: the target cell of Blink."""

    TYPE: ClassVar[str] = "skill_at"
    cell: list[int]


@dataclass(frozen=True)
class EndActionPhase(Action):
    """BC-5.23: end the action phase."""

    TYPE: ClassVar[str] = "end_action_phase"


@dataclass(frozen=True)
class Feed(Action):
    """BC-6.3.2: feed a food card to the downed character."""

    TYPE: ClassVar[str] = "feed"
    card_type: str


@dataclass(frozen=True)
class Pass(Action):
    """BC-6.3.2: hand the rescue window to the next rescuer."""

    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Discard(Action):
    """BC-5.24 step 2: discard down to half your hunger."""

    TYPE: ClassVar[str] = "discard"
    card_type: str


@dataclass(frozen=True)
class Brew(Action):
    """BC-6.6 m_witch: discard a food card for 2 stamina (end phase)."""

    TYPE: ClassVar[str] = "brew"
    card_type: str


@dataclass(frozen=True)
class EndTurn(Action):
    """BC-5.25: end the end phase."""

    TYPE: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class Menu(Action):
    """[design] open one group of a main action list longer than 100 entries."""

    TYPE: ClassVar[str] = "menu"
    group: str


ACTIONS = ActionSet([
    ChooseCharacter, ChooseStart, Move, Jump, Land, Place, PlaceAt, Use, UseAt, Cancel, Dig, Gather, Craft,
    Equip,
    Touch, Dodge, TakeHit, Finisher, Smelt, SmeltMaterial, SmeltFuel, SmeltConfirm, Till, EnchantPick,
    EnchantDone,
    Store, Retrieve, Skill, SkillAt, EndActionPhase, Feed, Pass, Discard, Brew, EndTurn, Menu,
])
