"""MM-5.47 the action catalogue: one frozen dataclass per action type.

Field names that are Python keywords in the spec are renamed: share ``with`` -> ``mouse``, swap
``out``/``in`` -> ``out_card``/``in_card``, cheese ``from`` -> ``giver`` (README, deviations).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from referee.engine import Action, ActionSet
from referee.engine.actions import OMIT_DEFAULT


@dataclass(frozen=True)
class ChooseHero(Action):
    """MM-4.3 draft a hero."""
    TYPE: ClassVar[str] = "choose_hero"
    hero: str


@dataclass(frozen=True)
class ChooseAbility(Action):
    """MM-4.4 choose a mouse's starting ability card."""
    TYPE: ClassVar[str] = "choose_ability"
    mouse: str
    ability: str


@dataclass(frozen=True)
class Step(Action):
    """MM-5.18 step into a connected area."""
    TYPE: ClassVar[str] = "step"
    to: str


@dataclass(frozen=True)
class StepHook(Action):
    """MM-6.16 cross a red line with Hook and Twine."""
    TYPE: ClassVar[str] = "step_hook"
    to: str


@dataclass(frozen=True)
class LeaveWater(Action):
    """MM-6.1 c try to climb out of water (hook: Hook and Twine, no roll)."""
    TYPE: ClassVar[str] = "leave_water"
    to: str
    hook: bool


@dataclass(frozen=True)
class Melee(Action):
    """MM-5.22 declare a melee attack."""
    TYPE: ClassVar[str] = "melee"
    target: str
    weapon: str


@dataclass(frozen=True)
class Ranged(Action):
    """MM-5.22 declare a ranged attack."""
    TYPE: ClassVar[str] = "ranged"
    target: str
    weapon: str


@dataclass(frozen=True)
class Explore(Action):
    """MM-5.25 explore from an exit or flip area."""
    TYPE: ClassVar[str] = "explore"
    area: str


@dataclass(frozen=True)
class Mend(Action):
    """MM-5.24 Mallow's Mend."""
    TYPE: ClassVar[str] = "mend"
    target: str


@dataclass(frozen=True)
class UseAbility(Action):
    """MM-5.31 use a free or action ability card."""
    TYPE: ClassVar[str] = "ability"
    ability: str
    target: str | None = field(default=None, metadata=OMIT_DEFAULT)
    area: str | None = field(default=None, metadata=OMIT_DEFAULT)


@dataclass(frozen=True)
class UseItem(Action):
    """MM-5.30 use an item from the pack."""
    TYPE: ClassVar[str] = "use_item"
    card: str
    target: str | None = field(default=None, metadata=OMIT_DEFAULT)


@dataclass(frozen=True)
class UseParty(Action):
    """MM-5.30 use a party item from the stash."""
    TYPE: ClassVar[str] = "use_party"
    card: str
    target: str | None = field(default=None, metadata=OMIT_DEFAULT)


@dataclass(frozen=True)
class PlayTrick(Action):
    """MM-5.30 play Tripwire on a monster."""
    TYPE: ClassVar[str] = "play_trick"
    card: str
    target: str


@dataclass(frozen=True)
class ShareBegin(Action):
    """MM-5.29 start a Share with another mouse."""
    TYPE: ClassVar[str] = "share_begin"
    mouse: str


@dataclass(frozen=True)
class LevelUp(Action):
    """MM-5.32 pay 6 cheese for a new ability card."""
    TYPE: ClassVar[str] = "level_up"
    ability: str


@dataclass(frozen=True)
class AttackAbility(Action):
    """MM-5.34 an attack-timed ability for this attack."""
    TYPE: ClassVar[str] = "attack_ability"
    ability: str


@dataclass(frozen=True)
class AttackTrick(Action):
    """MM-5.34 play Feint on this attack."""
    TYPE: ClassVar[str] = "attack_trick"
    card: str


@dataclass(frozen=True)
class SecondShot(Action):
    """MM-5.36 step 6 Double Shot's second attack."""
    TYPE: ClassVar[str] = "second_shot"
    target: str


@dataclass(frozen=True)
class Discard(Action):
    """MM-5.27 discard one card of an overfull pack for cheese."""
    TYPE: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True)
class TrapStat(Action):
    """MM-6.2 b a tinkerer rolls move or lore for a mousetrap."""
    TYPE: ClassVar[str] = "trap_stat"
    stat: Literal["move", "lore"]


@dataclass(frozen=True)
class Equip(Action):
    """MM-5.28 pack -> slots."""
    TYPE: ClassVar[str] = "equip"
    card: str


@dataclass(frozen=True)
class Unequip(Action):
    """MM-5.28 slots -> pack."""
    TYPE: ClassVar[str] = "unequip"
    card: str


@dataclass(frozen=True)
class Swap(Action):
    """MM-5.28 one equipped card out, one pack card in."""
    TYPE: ClassVar[str] = "swap"
    out_card: str
    in_card: str


@dataclass(frozen=True)
class Give(Action):
    """MM-5.29 give a pack card or trick to the partner."""
    TYPE: ClassVar[str] = "give"
    card: str


@dataclass(frozen=True)
class Take(Action):
    """MM-5.29 take a pack card or trick from the partner."""
    TYPE: ClassVar[str] = "take"
    card: str


@dataclass(frozen=True)
class Cheese(Action):
    """MM-5.29 move n cheese from the giver to the other mouse (once per Share)."""
    TYPE: ClassVar[str] = "cheese"
    giver: str
    n: int


@dataclass(frozen=True)
class Rescue(Action):
    """MM-6.5 d place a captured mouse back on the board."""
    TYPE: ClassVar[str] = "rescue"
    area: str


@dataclass(frozen=True)
class ReactAbility(Action):
    """MM-5.46 Brace or Improvised Shield against this attack."""
    TYPE: ClassVar[str] = "react_ability"
    ability: str


@dataclass(frozen=True)
class ReactTrick(Action):
    """MM-5.46 Pepper Dust against this attack."""
    TYPE: ClassVar[str] = "react_trick"
    card: str


@dataclass(frozen=True)
class ChooseEncounter(Action):
    """MM-6.15 keep one of the two Map Scrap cards."""
    TYPE: ClassVar[str] = "choose_encounter"
    card: str


# -- actions without fields ----------------------------------------------------------------------------
@dataclass(frozen=True)
class StandUp(Action):
    """MM-6.3 spend a fresh movement to stand up."""
    TYPE: ClassVar[str] = "stand_up"


@dataclass(frozen=True)
class EndMove(Action):
    """MM-5.15 end the active movement."""
    TYPE: ClassVar[str] = "end_move"


@dataclass(frozen=True)
class Scurry(Action):
    """MM-5.21 the scurry action: a new movement with a new roll."""
    TYPE: ClassVar[str] = "scurry"


@dataclass(frozen=True)
class Search(Action):
    """MM-5.26 the search action."""
    TYPE: ClassVar[str] = "search"


@dataclass(frozen=True)
class Recover(Action):
    """MM-5.23 the recover action."""
    TYPE: ClassVar[str] = "recover"


@dataclass(frozen=True)
class EquipBegin(Action):
    """MM-5.28 start the Equip free action."""
    TYPE: ClassVar[str] = "equip_begin"


@dataclass(frozen=True)
class EndTurn(Action):
    """MM-5.12 end this mouse's turn."""
    TYPE: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class Roll(Action):
    """MM-5.34 roll the attack."""
    TYPE: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Skip(Action):
    """MM-5.36 no second shot."""
    TYPE: ClassVar[str] = "skip"


@dataclass(frozen=True)
class Keep(Action):
    """MM-5.27 keep the found card in the pack."""
    TYPE: ClassVar[str] = "keep"


@dataclass(frozen=True)
class DiscardForCheese(Action):
    """MM-5.27 discard the found card for cheese."""
    TYPE: ClassVar[str] = "discard_for_cheese"


@dataclass(frozen=True)
class EquipDone(Action):
    """MM-5.28 finish the Equip."""
    TYPE: ClassVar[str] = "equip_done"


@dataclass(frozen=True)
class ShareDone(Action):
    """MM-5.29 finish the Share."""
    TYPE: ClassVar[str] = "share_done"


@dataclass(frozen=True)
class NoReaction(Action):
    """MM-5.46 no reaction to this attack."""
    TYPE: ClassVar[str] = "no_reaction"


@dataclass(frozen=True)
class UseMapScrap(Action):
    """MM-6.15 use Map Scrap for this encounter."""
    TYPE: ClassVar[str] = "use_map_scrap"


@dataclass(frozen=True)
class Decline(Action):
    """MM-6.15 keep Map Scrap for later."""
    TYPE: ClassVar[str] = "decline"


ACTIONS = ActionSet([ChooseHero, ChooseAbility, Step, StepHook, LeaveWater, Melee, Ranged, Explore, Mend,
                     UseAbility, UseItem, UseParty, PlayTrick, ShareBegin, LevelUp, AttackAbility,
                     AttackTrick, SecondShot, Discard, TrapStat, Equip, Unequip, Swap, Give, Take, Cheese,
                     Rescue, ReactAbility, ReactTrick, ChooseEncounter,
                     StandUp, EndMove, Scurry, Search, Recover, EquipBegin, EndTurn, Roll, Skip, Keep,
                     DiscardForCheese, EquipDone, ShareDone, NoReaction, UseMapScrap, Decline])
