"""Effect keys named in the content files -> behaviour in code (BC-6.6, BC-6.7, BC-6.8).

Three registries: ``USE_EFFECTS`` (the `use_effect` of a card), ``ENCHANT_EFFECTS`` (the
`effect` of an enchantment) and ``SKILLS`` (the `skill` of a character). Each key maps to a
class whose hooks the rules call; a hook left at its default does nothing. A test checks that
every key in the data resolves and that every registered effect is named by some row.

This module holds the registries, the hook base classes and the verbs that need no rule (food, the
enchantments); the verbs that do are registered next to the rules they call: ``rules/uses.py`` (ender
pearl, TNT), ``skills.py`` (the character skills).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import EffectRegistry

from .actions import Skill as UseSkill
from .catalog import WHERE, Catalog

if TYPE_CHECKING:   # annotations only (pyproject's current contract still puts model above effects)
    from .model import BlockcraftModel, Player

USE_EFFECTS: EffectRegistry[Any] = EffectRegistry("blockcraft use effects")
ENCHANT_EFFECTS: EffectRegistry[Any] = EffectRegistry("blockcraft enchantments")
SKILLS: EffectRegistry[Any] = EffectRegistry("blockcraft skills")


# ---- BC-6.8 use-card effects ------------------------------------------------------------------
class UseEffect:
    """A `use` verb: ``usable`` says whether the card may be used now; ``targets`` lists cells
    (None = no target step); ``apply`` resolves it."""

    @staticmethod
    def usable(st: BlockcraftModel, p: Player, card: str) -> bool:
        return True

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]] | None:
        return None

    @staticmethod
    def apply(st: BlockcraftModel, p: Player, card: str, cell: tuple[int, int] | None) -> None:
        raise NotImplementedError


def _planar_cells(st: BlockcraftModel, p: Player, lo: int, hi: int) -> list[tuple[int, int]]:
    assert p.cell is not None
    px, py = p.cell
    return [(x, y) for y in range(st.h) for x in range(st.w) if lo <= abs(x - px) + abs(y - py) <= hi]


@USE_EFFECTS.register("eat")
class Eat(UseEffect):
    """BC-6.8 food: hunger += food value (cap max); golden_apple also +2 stamina (BC-3.12)."""

    @staticmethod
    def usable(st: BlockcraftModel, p: Player, card: str) -> bool:
        c = st.cat.cards[card]
        return p.hunger < p.max_hunger or (c.heal > 0 and p.stamina < p.max_stamina)

    @staticmethod
    def apply(st: BlockcraftModel, p: Player, card: str, cell: tuple[int, int] | None) -> None:
        c = st.cat.cards[card]
        p.hunger = min(p.max_hunger, p.hunger + c.food)
        if c.heal:
            p.stamina = min(p.max_stamina, p.stamina + c.heal)
        st.log.public("eat", seat=p.seat, card=card, hunger=p.hunger, stamina=p.stamina)


# ---- BC-6.7 enchantment effects -----------------------------------------------------------------
class EnchantEffect:
    """Hooks an enchanted tool offers; the rules call them at the points BC-6.7 names."""

    dig_free = False          # efficiency: one dig per turn costs 0 AP
    gather_reach = False      # silk_touch: gather at distance <= R
    fortune = False           # fortune: draw 1 when gathering an ore this tool dug
    extra_durability = 0      # unbreaking: +3 on attaching

    @staticmethod
    def damage_bonus(target_tags: tuple[str, ...]) -> int:
        return 0

    @staticmethod
    def on_hit(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        return None


@ENCHANT_EFFECTS.register("efficiency")
class Efficiency(EnchantEffect):
    """BC-6.7 efficiency: one dig per turn per efficiency tool costs 0 AP."""

    dig_free = True


@ENCHANT_EFFECTS.register("fortune")
class Fortune(EnchantEffect):
    """BC-6.7 fortune: gathering an ore dug by this tool draws 1 card."""

    fortune = True


@ENCHANT_EFFECTS.register("silk_touch")
class SilkTouch(EnchantEffect):
    """BC-6.7 silk_touch: gather loose cards at distance <= R."""

    gather_reach = True


@ENCHANT_EFFECTS.register("unbreaking")
class Unbreaking(EnchantEffect):
    """BC-6.7 unbreaking: durability and max durability +3 on attaching."""

    extra_durability = 3


@ENCHANT_EFFECTS.register("sharpness")
class Sharpness(EnchantEffect):
    """BC-6.7 sharpness: +1 Touch damage."""

    @staticmethod
    def damage_bonus(target_tags: tuple[str, ...]) -> int:
        return 1


@ENCHANT_EFFECTS.register("smite")
class Smite(EnchantEffect):
    """BC-6.7 smite: +2 Touch damage against `undead`."""

    @staticmethod
    def damage_bonus(target_tags: tuple[str, ...]) -> int:
        return 2 if "undead" in target_tags else 0


@ENCHANT_EFFECTS.register("bane")
class Bane(EnchantEffect):
    """BC-6.7 bane: +2 Touch damage against `arthropod`."""

    @staticmethod
    def damage_bonus(target_tags: tuple[str, ...]) -> int:
        return 2 if "arthropod" in target_tags else 0


@ENCHANT_EFFECTS.register("fire_aspect")
class FireAspect(EnchantEffect):
    """BC-6.7 fire_aspect: on a hit the target loses 2 hunger."""

    @staticmethod
    def on_hit(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        target.hunger = max(0, target.hunger - 2)
        st.log.public("burn", seat=target.seat, hunger=target.hunger)


@ENCHANT_EFFECTS.register("looting")
class Looting(EnchantEffect):
    """BC-6.7 looting: take one card chosen by RNG from the target's hand (BC-7.4: type private)."""

    @staticmethod
    def on_hit(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        if not target.hand:
            return
        pool = [c for c, n in sorted(target.hand.items()) for _ in range(n)]
        card = pool[st.rng.below(len(pool))]
        target.remove(card)
        attacker.add(card)
        st.log.public("loot_card", seat=attacker.seat, victim=target.seat)
        st.log.private((attacker.seat, target.seat), "looted", seat=attacker.seat, victim=target.seat,
                       card=card)


# ---- BC-6.6 character skills (the hooks; each skill is a class in ``skills.py``) -----------------------
class Skill:
    """Hooks a character's skill offers (defaults: no effect). Active skills list actions."""

    ap_bonus = 0
    range_bonus = 0
    range_cap: int | None = None
    ore_xp = 1
    armour_bonus = 0
    hoe_free = False
    wheat = 1
    enchant_discount = 0
    finisher_range = 3
    undodgeable = False
    dig_as_hand: tuple[str, ...] = ()
    first_move_free_hunger = False
    first_place_free_ap = False
    timber = False
    old_habits = False
    heat_bonus = 0
    heat_at_least = False
    end_phase = False

    @staticmethod
    def climb(st: BlockcraftModel, p: Player) -> int:
        return 0

    @staticmethod
    def fall(st: BlockcraftModel, p: Player, dmg: int) -> int:
        return dmg

    @staticmethod
    def blocks_dodge(attacker: Player, target: Player) -> bool:
        return False

    @staticmethod
    def on_touch_hit(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        return None

    @staticmethod
    def on_hit_by(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        return None

    @staticmethod
    def start_of_turn(st: BlockcraftModel, p: Player) -> None:
        return None

    @staticmethod
    def actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
        return []

    @staticmethod
    def act(st: BlockcraftModel, p: Player, action: UseSkill) -> None:
        raise NotImplementedError

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]]:
        return []

    @staticmethod
    def act_at(st: BlockcraftModel, p: Player, cell: tuple[int, int]) -> None:
        raise NotImplementedError


def use_effect_of(st: BlockcraftModel, card: str) -> Any:
    """The use-effect class of a usable card (BC-5.11)."""
    key = st.cat.cards[card].use_effect
    assert key is not None, f"{card} has no use effect"
    return USE_EFFECTS.effects[key]


def skill_of(st: BlockcraftModel, p: Player) -> Any:
    """The skill class of a player's character (a do-nothing skill before the choice)."""
    if p.character is None:
        return NO_SKILL
    return SKILLS.effects[st.cat.characters[p.character].skill]


#: the hooks of a seat without a character yet
NO_SKILL = Skill()


def check_effect_keys(cat: Catalog) -> None:
    """Every effect key the content names resolves (``ContentError`` names the file and the row). Called by
    ``Blockcraft.validate_content`` once every verb is registered (``skills.py``, ``rules/uses.py``)."""
    for name, raw in (("raw_cards.toml", True), ("processed.toml", False)):
        USE_EFFECTS.check(f"{WHERE}/{name}", {rid: [c.use_effect] for rid, c in cat.cards.items()
                                              if c.use_effect and c.raw == raw})
    ench = cat.enchantments
    ENCHANT_EFFECTS.check(f"{WHERE}/enchantments.toml", {rid: [e.effect] for rid, e in ench.items()})
    SKILLS.check(f"{WHERE}/characters.toml", {rid: [c.skill] for rid, c in cat.characters.items()})
