"""Every action type of Greyport (GB-5.4 main actions, GB-5.9 sub-decisions, GB-4.2 setup choices)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from referee.engine import Action, ActionSet


@dataclass(frozen=True)
class ChooseCharacter(Action):
    """GB-4.2.1: take an unchosen character."""
    TYPE: ClassVar[str] = "choose_character"
    character: str


@dataclass(frozen=True)
class ChooseWounded(Action):
    """GB-4.2.6: the seat that starts at 3 HP."""
    TYPE: ClassVar[str] = "choose_wounded"
    seat: int


@dataclass(frozen=True)
class AmbushNext(Action):
    """GB-4.4 step 9: resolve this monster's ambush next."""
    TYPE: ClassVar[str] = "ambush_next"
    monster: str


@dataclass(frozen=True)
class PlayHero(Action):
    """GB-5.4.1: play a hero (or your player hero ``PH<seat>``) from hand."""
    TYPE: ClassVar[str] = "play_hero"
    card: str


@dataclass(frozen=True)
class PlayItem(Action):
    """GB-5.4.2: attach an item from hand to one of your heroes."""
    TYPE: ClassVar[str] = "play_item"
    card: str
    hero: str


@dataclass(frozen=True)
class Fight(Action):
    """GB-5.4.3: fight with a ready hero; ``targets`` [] = choose the targets in the next decision."""
    TYPE: ClassVar[str] = "fight"
    hero: str
    targets: list[str]


@dataclass(frozen=True)
class MarkerTaunt(Action):
    """GB-5.4.4 / GB-5.2.2: taunt with the round marker into the active group."""
    TYPE: ClassVar[str] = "marker_taunt"
    monster: str


@dataclass(frozen=True)
class UseAbility(Action):
    """GB-5.4.5: use a card's once-per-round ability (rewind, echo, retire_round)."""
    TYPE: ClassVar[str] = "use_ability"
    card: str
    ability: str


@dataclass(frozen=True)
class ShakeOff(Action):
    """GB-5.4.6: retire a curse from hand instead of a hero play."""
    TYPE: ClassVar[str] = "shake_off"
    card: str


@dataclass(frozen=True)
class Pass(Action):
    """GB-5.4.7: pass priority."""
    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Taunt(Action):
    """GB-6.2: a card's taunt: move a monster into your own group."""
    TYPE: ClassVar[str] = "taunt"
    monster: str


@dataclass(frozen=True)
class TauntSkip(Action):
    """GB-6.2.2: do not use the optional taunt."""
    TYPE: ClassVar[str] = "taunt_skip"


@dataclass(frozen=True)
class ChoosePlayer(Action):
    """GB-3.4 draw_any / heal_any / rally target."""
    TYPE: ClassVar[str] = "choose_player"
    seat: int


@dataclass(frozen=True)
class Retire(Action):
    """GB-6.7.1: retire a card (hand, or a curse from hand/discard for the L4 reward)."""
    TYPE: ClassVar[str] = "retire"
    card: str


@dataclass(frozen=True)
class RetireSkip(Action):
    """Decline an optional retire."""
    TYPE: ClassVar[str] = "retire_skip"


@dataclass(frozen=True)
class Reroll(Action):
    """GB-5.5 step 5: reroll these dice (indices into the pool; [] keeps all)."""
    TYPE: ClassVar[str] = "reroll"
    dice: list[int]


@dataclass(frozen=True)
class Splash(Action):
    """GB-5.5 step 9: splash damage onto a monster outside the fought group."""
    TYPE: ClassVar[str] = "splash"
    monster: str


@dataclass(frozen=True)
class SplashSkip(Action):
    """Decline the splash."""
    TYPE: ClassVar[str] = "splash_skip"


@dataclass(frozen=True)
class Ready(Action):
    """GB-6.5.3 rewind: ready an exhausted hero."""
    TYPE: ClassVar[str] = "ready"
    hero: str


@dataclass(frozen=True)
class SpendShields(Action):
    """GB-6.3.2: spend this many of your shields in the current window."""
    TYPE: ClassVar[str] = "spend_shields"
    count: int


@dataclass(frozen=True)
class DiscardChoice(Action):
    """Slash / ambush: discard this card from hand."""
    TYPE: ClassVar[str] = "discard_choice"
    card: str


@dataclass(frozen=True)
class TakeMonster(Action):
    """GB-6.6.3 step 4: take a monster from the destroyed location."""
    TYPE: ClassVar[str] = "take_monster"
    monster: str


@dataclass(frozen=True)
class RewardTake(Action):
    """GB-6.6.2: take a revealed / row card into hand."""
    TYPE: ClassVar[str] = "reward_take"
    card: str


@dataclass(frozen=True)
class RewardSkip(Action):
    """Decline a reward card."""
    TYPE: ClassVar[str] = "reward_skip"


@dataclass(frozen=True)
class RewardStrike(Action):
    """L7 reward: strike this monster."""
    TYPE: ClassVar[str] = "reward_strike"
    monster: str


@dataclass(frozen=True)
class Recruit(Action):
    """GB-5.6.3: spend this coin for this row card."""
    TYPE: ClassVar[str] = "recruit"
    coin: Literal["copper", "silver", "gold"]
    card: str


@dataclass(frozen=True)
class Discard(Action):
    """GB-5.6.4: discard this card."""
    TYPE: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True)
class DiscardDone(Action):
    """GB-5.6.4: stop discarding (legal once the hand fits the limit)."""
    TYPE: ClassVar[str] = "discard_done"


ACTIONS = ActionSet([ChooseCharacter, ChooseWounded, AmbushNext, PlayHero, PlayItem, Fight, MarkerTaunt,
                     UseAbility,
                     ShakeOff, Pass, Taunt, TauntSkip, ChoosePlayer, Retire, RetireSkip, Reroll, Splash,
                     SplashSkip,
                     Ready, SpendShields, DiscardChoice, TakeMonster, RewardTake, RewardSkip, RewardStrike,
                     Recruit, Discard, DiscardDone])
