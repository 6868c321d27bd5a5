"""Effect keys named in the content files -> behaviour in code (BC-6.6, BC-6.7, BC-6.8).

Three registries: ``USE_EFFECTS`` (the `use_effect` of a card), ``ENCHANT_EFFECTS`` (the
`effect` of an enchantment) and ``SKILLS`` (the `skill` of a character). Each key maps to a
class whose hooks the rules call; a hook left at its default does nothing. A test checks that
every key in the data resolves and that every registered effect is named by some row.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import EffectRegistry

if TYPE_CHECKING:
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


@USE_EFFECTS.register("teleport")
class Teleport(UseEffect):
    """BC-6.8 ender_pearl: move to a cell at planar distance 1-3 (no fall damage), then 1 unarmoured
    damage."""

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]] | None:
        return _planar_cells(st, p, 1, 3)

    @staticmethod
    def apply(st: BlockcraftModel, p: Player, card: str, cell: tuple[int, int] | None) -> None:
        from .rules.combat import damage, downed_checks

        assert cell is not None
        p.cell = [cell[0], cell[1]]
        st.log.public("teleport", seat=p.seat, cell=list(cell))
        damage(st, p, 1, source=None, armoured=False, why="ender_pearl")
        downed_checks(st)


@USE_EFFECTS.register("explode")
class Explode(UseEffect):
    """BC-6.8 tnt: 3 armoured damage to everyone on the cell, remove its top card (not obsidian)."""

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]] | None:
        return _planar_cells(st, p, 0, 2)

    @staticmethod
    def apply(st: BlockcraftModel, p: Player, card: str, cell: tuple[int, int] | None) -> None:
        from .rules.combat import damage, downed_checks

        assert cell is not None
        x, y = cell
        st.log.public("explode", seat=p.seat, cell=[x, y])
        for q in st.p:
            if q.active and q.cell == [x, y]:
                damage(st, q, 3, source=p.seat, armoured=True, why="tnt")
        stack = st.cell(x, y)
        st.mv += 1
        if stack and not st.cat.cards[stack[-1]["c"]].tnt_proof:
            top = stack.pop()
            st.log.public("blown", cell=[x, y], card=top["c"], was=top["s"])
            st.discard_card(top["c"])
        elif stack:
            st.log.public("blast_resisted", cell=[x, y], card=stack[-1]["c"])
        downed_checks(st)


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


from .skills import Skill  # noqa: E402  (last: skills.py registers every skill in SKILLS)

NO_SKILL = Skill()
