"""DT-3.5/DT-3.6: ability and object-effect keys named in the content data -> behaviour in code.

Each key maps (through an ``EffectRegistry``) to one small class. Permanent abilities and
effects are capability flags or bonuses the rules read (``crosses_traps``, ``combat_bonus``...);
activated ones say so (``acts``): their actions are listed and applied by ``rules/abilities.py``
(its tables ``ABLE_ACTIONS``, ``WOUNDED_ACTIONS`` and ``OBJECT_ACTIONS``, by the same keys).
A test checks that every key in data resolves and every registered key is used.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.engine import EffectRegistry

from .data import WHERE, Content, ObjectRow, content

ABILITIES: EffectRegistry[Any] = EffectRegistry("dungeon_twister abilities")
OBJECT_EFFECTS: EffectRegistry[Any] = EffectRegistry("dungeon_twister object effects")


class Ability:
    """A character ability (DT-5.9); the defaults are 'no such capability'."""

    crosses_traps = False          # DT-5.5.3.7 (a)/(e): may pass over a trap
    stops_on_traps = False         # DT-5.5.5.3: may end on a trap
    friends_cross_trap = False     # DT-6.2.3: friends may cross the trap this character stands on
    passes_enemies = False         # DT-5.5.3.4: may pass over a healthy enemy
    chooses_rotation = False       # DT-5.7.1: chooses the rotation direction
    magic_user = False             # DT-5.10.1: may use the Fireball Wand
    acts = False                   # DT-5.3.5: offers actions to an able character
    acts_wounded = False           # DT-5.9.6: the only ability usable while wounded is Regeneration


@ABILITIES.register("heal")
class Heal(Ability):
    """DT-5.9.1 (Cleric)."""

    acts = True


@ABILITIES.register("craftsmanship")
class Craftsmanship(Ability):
    """DT-5.7.1 (Mekanork): chooses the direction of every rotation."""

    chooses_rotation = True


@ABILITIES.register("trap_walker")
class TrapWalker(Ability):
    """DT-6.2.3 (Thief): crosses and stops on traps; friends cross the trap she stands on."""

    crosses_traps = True
    stops_on_traps = True
    friends_cross_trap = True


@ABILITIES.register("lock_picking")
class LockPicking(Ability):
    """DT-5.9.2 (Thief): open / close a portcullis."""

    acts = True


@ABILITIES.register("regeneration")
class Regeneration(Ability):
    """DT-5.9.3 (Troll)."""

    acts_wounded = True


@ABILITIES.register("wall_walking")
class WallWalking(Ability):
    """DT-5.9.4 (Wall-Walker)."""

    acts = True


@ABILITIES.register("break_portcullis")
class BreakPortcullis(Ability):
    """DT-5.9.5 (Warrior)."""

    acts = True


@ABILITIES.register("levitation")
class Levitation(Ability):
    """DT-5.5.3.4/7e (Wizard): passes over traps and healthy enemies (never stops there)."""

    crosses_traps = True
    passes_enemies = True


@ABILITIES.register("magic_user")
class MagicUser(Ability):
    """DT-5.10.1 (Wizard): the only user of the Fireball Wand."""

    magic_user = True


class ObjectEffect:
    """An object's effect (DT-3.6); defaults are 'nothing'."""

    supports_on_trap = False       # DT-6.2: Rope
    acts = False                   # DT-5.10: offers an action to its able carrier

    def __init__(self, row: ObjectRow) -> None:
        self.row = row

    def combat_bonus(self, side: str) -> int:
        """DT-5.8.4: bonus for a participant on ``side`` ('attack'/'defence') carrying it."""
        return 0

    def exit_bonus(self) -> int:
        """DT-6.6.4: extra VP when carried out through the enemy line."""
        return 0

    def usable_by(self, kind: str) -> bool:
        """DT-5.10: a character of this kind may use the object's action."""
        return True


@OBJECT_EFFECTS.register("defence_bonus")
class DefenceBonus(ObjectEffect):
    """DT-5.8.4 Armor: +bonus on the defending side only."""

    def combat_bonus(self, side: str) -> int:
        return self.row.bonus if side == "defence" else 0


@OBJECT_EFFECTS.register("attack_bonus")
class AttackBonus(ObjectEffect):
    """DT-5.8.4 Sword: +bonus on the attacking side only."""

    def combat_bonus(self, side: str) -> int:
        return self.row.bonus if side == "attack" else 0


@OBJECT_EFFECTS.register("trap_support")
class TrapSupport(ObjectEffect):
    """DT-6.2 Rope."""

    supports_on_trap = True


@OBJECT_EFFECTS.register("treasure_exit")
class TreasureExit(ObjectEffect):
    """DT-6.6.4 Treasure."""

    def exit_bonus(self) -> int:
        return self.row.bonus


@OBJECT_EFFECTS.register("fireball")
class FireballEffect(ObjectEffect):
    """DT-5.10.1 Fireball Wand (needs the ability named in ``requires``)."""

    acts = True

    def usable_by(self, kind: str) -> bool:
        return not self.row.requires or self.row.requires in content().characters[kind].abilities


@OBJECT_EFFECTS.register("speed")
class SpeedEffect(ObjectEffect):
    """DT-5.10.2 Speed Potion (``bonus`` = extra AP)."""

    acts = True


@dataclass(frozen=True)
class Caps:
    """A character kind's abilities, aggregated once (permanent flags + activated ones)."""

    crosses_traps: bool
    stops_on_traps: bool
    friends_cross_trap: bool
    passes_enemies: bool
    chooses_rotation: bool
    magic_user: bool
    #: keys of the abilities that offer actions to an able / a wounded character
    active: tuple[str, ...]
    active_wounded: tuple[str, ...]


def caps_by_kind() -> dict[str, Caps]:
    out = {}
    for kind, row in content().characters.items():
        abil = [ABILITIES.resolve(a, f"characters.toml: row {kind!r}")() for a in row.abilities]
        out[kind] = Caps(
            any(a.crosses_traps for a in abil), any(a.stops_on_traps for a in abil),
            any(a.friends_cross_trap for a in abil), any(a.passes_enemies for a in abil),
            any(a.chooses_rotation for a in abil), any(a.magic_user for a in abil),
            tuple(k for k, a in zip(row.abilities, abil, strict=True) if a.acts),
            tuple(k for k, a in zip(row.abilities, abil, strict=True) if a.acts_wounded))
    return out


def effects_by_kind() -> dict[str, ObjectEffect]:
    return {k: OBJECT_EFFECTS.resolve(r.effect, f"objects.toml: row {k!r}")(r)
            for k, r in content().objects.items()}


# Built once (the rules read them on hot paths).
@cache
def caps() -> dict[str, Caps]:
    return caps_by_kind()


@cache
def object_effects() -> dict[str, ObjectEffect]:
    return effects_by_kind()


def check_content(c: Content) -> None:
    """Every ability and object effect the content names resolves (DT-3.5, DT-3.6): the content module
    sits below this one, so the check lives here (``Game.validate_content``)."""
    ABILITIES.check(f"{WHERE}/characters.toml", {k: r.abilities for k, r in c.characters.items()})
    OBJECT_EFFECTS.check(f"{WHERE}/objects.toml", {k: [r.effect] for k, r in c.objects.items()})


def validate_effects() -> None:
    check_content(content())
