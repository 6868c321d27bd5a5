"""MM-5.47 the action catalogue: one frozen dataclass per action type.

Field names that are Python keywords in the spec are renamed: share ``with`` -> ``mouse``, swap
``out``/``in`` -> ``out_card``/``in_card``, cheese ``from`` -> ``giver`` (README, deviations).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from referee.engine import Action, ActionSet


def _simple(type_name: str, doc: str) -> type[Action]:
    cls: type[Action] = dataclass(frozen=True)(type(type_name.title().replace("_", ""), (Action,),
                                                     {"__doc__": doc, "TYPE": type_name,
                                                      "__annotations__": {}}))
    return cls


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
    target: str | None = None
    area: str | None = None


@dataclass(frozen=True)
class UseItem(Action):
    """MM-5.30 use an item from the pack."""
    TYPE: ClassVar[str] = "use_item"
    card: str
    target: str | None = None


@dataclass(frozen=True)
class UseParty(Action):
    """MM-5.30 use a party item from the stash."""
    TYPE: ClassVar[str] = "use_party"
    card: str
    target: str | None = None


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


SIMPLE = [_simple(name, doc) for name, doc in [
    ("stand_up", "MM-6.3 spend a fresh movement to stand up."),
    ("end_move", "MM-5.15 end the active movement."),
    ("scurry", "MM-5.21 the scurry action: a new movement with a new roll."),
    ("search", "MM-5.26 the search action."),
    ("recover", "MM-5.23 the recover action."),
    ("equip_begin", "MM-5.28 start the Equip free action."),
    ("end_turn", "MM-5.12 end this mouse's turn."),
    ("roll", "MM-5.34 roll the attack."),
    ("skip", "MM-5.36 no second shot."),
    ("keep", "MM-5.27 keep the found card in the pack."),
    ("discard_for_cheese", "MM-5.27 discard the found card for cheese."),
    ("equip_done", "MM-5.28 finish the Equip."),
    ("share_done", "MM-5.29 finish the Share."),
    ("no_reaction", "MM-5.46 no reaction to this attack."),
    ("use_map_scrap", "MM-6.15 use Map Scrap for this encounter."),
    ("decline", "MM-6.15 keep Map Scrap for later."),
]]

ACTIONS = ActionSet([ChooseHero, ChooseAbility, Step, StepHook, LeaveWater, Melee, Ranged, Explore, Mend,
                     UseAbility, UseItem, UseParty, PlayTrick, ShareBegin, LevelUp, AttackAbility,
                     AttackTrick, SecondShot, Discard, TrapStat, Equip, Unequip, Swap, Give, Take, Cheese,
                     Rescue, ReactAbility, ReactTrick, ChooseEncounter, *SIMPLE])
