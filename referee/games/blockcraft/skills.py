"""BC-6.6 character skills: one class per skill key of ``content/characters.toml``, registered in
``effects.SKILLS`` (the hooks: ``effects.Skill``). Passive skills are hook values the rules read; active
skills list and apply actions (with the rules they call: damage, distances, paying)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Skill as UseSkill
from .effects import SKILLS, Skill, _planar_cells
from .rules.combat import damage, downed_checks
from .rules.geometry import char_dist, pay

if TYPE_CHECKING:   # annotations only (pyproject's current contract still puts model above effects)
    from .model import BlockcraftModel, Player


def _pay(st: BlockcraftModel, p: Player, ap: int, hunger: int) -> None:
    pay(p, ap, hunger)


def _can_pay(p: Player, ap: int, hunger: int) -> bool:
    return p.ap >= ap and p.hunger >= hunger


@SKILLS.register("prospector")
class Prospector(Skill):
    """h_miner: ores gathered count twice in settlement XP."""

    ore_xp = 2


@SKILLS.register("green_thumb")
class GreenThumb(Skill):
    """h_farmer: till with no hoe, never spend hoe durability, farmland gives 2 wheat."""

    hoe_free = True
    wheat = 2


@SKILLS.register("timber")
class Timber(Skill):
    """h_woodcutter: once per turn a paid dig that is a log refunds its AP."""

    timber = True


@SKILLS.register("forge_sense")
class ForgeSense(Skill):
    """h_smith: smelts need sum heat >= sum specific heat."""

    heat_at_least = True


@SKILLS.register("guard")
class Guard(Skill):
    """h_knight: armoured damage taken -1 (after armour, min 0)."""

    armour_bonus = 1


@SKILLS.register("pathfinder")
class Pathfinder(Skill):
    """h_explorer: first move each turn costs 0 hunger; own fall damage -1."""

    first_move_free_hunger = True

    @staticmethod
    def fall(st: BlockcraftModel, p: Player, dmg: int) -> int:
        return max(0, dmg - 1)


@SKILLS.register("scaffold")
class Scaffold(Skill):
    """h_builder: first place each turn costs 0 AP."""

    first_place_free_ap = True


@SKILLS.register("lore")
class Lore(Skill):
    """h_scholar: enchantment XP costs -1 (min 0); starts with 2 xp (data: start_xp)."""

    enchant_discount = 1


@SKILLS.register("detonate")
class Detonate(Skill):
    """m_crawler, once per game: 4 armoured damage to everyone within distance 1, own stamina -> min(1)."""

    @staticmethod
    def actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
        if p.detonate_used or not _can_pay(p, 2, 1):
            return []
        return [UseSkill.wire("detonate")]

    @staticmethod
    def act(st: BlockcraftModel, p: Player, action: UseSkill) -> None:
        _pay(st, p, 2, 1)
        p.detonate_used = True
        st.log.public("skill", seat=p.seat, skill="detonate")
        for q in st.p:
            if q is not p and q.active and char_dist(st, p, q) <= 1:
                damage(st, q, 4, source=p.seat, armoured=True, why="detonate")
        p.stamina = min(p.stamina, 1)
        downed_checks(st)


@SKILLS.register("wall_climb")
class WallClimb(Skill):
    """m_spinner: moves may enter cells up to 2 higher."""

    @staticmethod
    def climb(st: BlockcraftModel, p: Player) -> int:
        return 2


@SKILLS.register("blink")
class Blink(Skill):
    """m_voidwalker, once per turn: 1 AP + 1 hunger, teleport to a cell at planar distance 1-3."""

    @staticmethod
    def actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
        if p.skill_used or not _can_pay(p, 1, 1):
            return []
        return [UseSkill.wire("blink")]

    @staticmethod
    def act(st: BlockcraftModel, p: Player, action: UseSkill) -> None:
        st.stack.push("skill_target", p.seat, skill="blink")

    @staticmethod
    def targets(st: BlockcraftModel, p: Player) -> list[tuple[int, int]]:
        return _planar_cells(st, p, 1, 3)

    @staticmethod
    def act_at(st: BlockcraftModel, p: Player, cell: tuple[int, int]) -> None:
        _pay(st, p, 1, 1)
        p.skill_used = True
        p.cell = [cell[0], cell[1]]
        st.log.public("skill", seat=p.seat, skill="blink", cell=list(cell))


@SKILLS.register("bouncy")
class Bouncy(Skill):
    """m_slime: never takes fall damage."""

    @staticmethod
    def fall(st: BlockcraftModel, p: Player, dmg: int) -> int:
        return 0


@SKILLS.register("brew")
class Brew(Skill):
    """m_witch, end phase: if stamina < max, discard 1 food to gain 2 stamina."""

    end_phase = True


@SKILLS.register("burrow")
class Burrow(Skill):
    """m_mite: stone and gravel have dig requirement `hand`."""

    dig_as_hand = ("stone", "gravel")


@SKILLS.register("inner_fire")
class InnerFire(Skill):
    """m_ember: own smelts count sum heat + 3."""

    heat_bonus = 3


@SKILLS.register("thorns")
class Thorns(Skill):
    """m_guardian: when a Touch hits it, the attacker takes 1 unarmoured damage (Guardian is the source)."""

    @staticmethod
    def on_hit_by(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        if attacker.active:
            damage(st, attacker, 1, source=target.seat, armoured=False, why="thorns")


@SKILLS.register("hunger_bite")
class HungerBite(Skill):
    """u_shambler: when its Touch hits, it gains 1 hunger."""

    @staticmethod
    def on_touch_hit(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        attacker.hunger = min(attacker.max_hunger, attacker.hunger + 1)


@SKILLS.register("longshot")
class Longshot(Skill):
    """u_archer: attack range +1."""

    range_bonus = 1


@SKILLS.register("heavy_blade")
class HeavyBlade(Skill):
    """u_ashknight: targets with hunger <= 4 cannot dodge its Touch."""

    @staticmethod
    def blocks_dodge(attacker: Player, target: Player) -> bool:
        return target.hunger <= 4


@SKILLS.register("undertow")
class Undertow(Skill):
    """u_tidecorpse: finisher distance <= 4."""

    finisher_range = 4


@SKILLS.register("parching_touch")
class ParchingTouch(Skill):
    """u_husk: when its Touch hits, the target loses 1 hunger."""

    @staticmethod
    def on_touch_hit(st: BlockcraftModel, attacker: Player, target: Player) -> None:
        target.hunger = max(0, target.hunger - 1)


@SKILLS.register("night_flight")
class NightFlight(Skill):
    """u_wraith: at Night, moves may enter cells up to 2 higher and it takes no fall damage."""

    @staticmethod
    def climb(st: BlockcraftModel, p: Player) -> int:
        return 0 if st.day else 2

    @staticmethod
    def fall(st: BlockcraftModel, p: Player, dmg: int) -> int:
        return dmg if st.day else 0


@SKILLS.register("old_habits")
class OldHabits(Skill):
    """u_villager, once per turn: craft one 3x3 recipe without a crafting table."""

    old_habits = True


@SKILLS.register("gallop")
class Gallop(Skill):
    """u_rider: +1 AP in phase 3."""

    ap_bonus = 1


@SKILLS.register("dragon_breath")
class DragonBreath(Skill):
    """b_drake, once per turn: 2 AP + 1 hunger; 2 armoured damage to every other active character within 2."""

    @staticmethod
    def actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
        if p.skill_used or not _can_pay(p, 2, 1):
            return []
        return [UseSkill.wire("dragon_breath")]

    @staticmethod
    def act(st: BlockcraftModel, p: Player, action: UseSkill) -> None:
        _pay(st, p, 2, 1)
        p.skill_used = True
        st.log.public("skill", seat=p.seat, skill="dragon_breath")
        for q in st.p:
            if q is not p and q.active and char_dist(st, p, q) <= 2:
                damage(st, q, 2, source=p.seat, armoured=True, why="dragon_breath")
        downed_checks(st)


@SKILLS.register("decay_aura")
class DecayAura(Skill):
    """b_witherking, start of own turn: every other living character within distance 2 loses 1 hunger."""

    @staticmethod
    def start_of_turn(st: BlockcraftModel, p: Player) -> None:
        hit = []
        for q in st.p:
            if q is not p and q.alive and char_dist(st, p, q) <= 2:
                q.hunger = max(0, q.hunger - 1)
                hit.append(q.seat)
        if hit:
            st.log.public("skill", seat=p.seat, skill="decay_aura", seats=hit)


@SKILLS.register("tremor_sense")
class TremorSense(Skill):
    """b_warden: its Touch cannot be dodged; its attack range is at most 1."""

    undodgeable = True
    range_cap = 1


@SKILLS.register("fatigue_beam")
class FatigueBeam(Skill):
    """b_sentinel, once per turn: 1 AP + 1 hunger; a living character within 3 gets a Fatigue marker."""

    @staticmethod
    def actions(st: BlockcraftModel, p: Player) -> list[dict[str, Any]]:
        if p.skill_used or not _can_pay(p, 1, 1):
            return []
        # [design] a character already carrying the (max 1) marker is not a target: it would be a no-op.
        return [UseSkill.wire("fatigue_beam", q.seat) for q in st.p
                if q is not p and q.alive and q.cell is not None and not q.fatigue
                    and char_dist(st, p, q) <= 3]

    @staticmethod
    def act(st: BlockcraftModel, p: Player, action: UseSkill) -> None:
        _pay(st, p, 1, 1)
        p.skill_used = True
        assert action.target is not None
        st.p[action.target].fatigue = True
        st.log.public("skill", seat=p.seat, skill="fatigue_beam", target=action.target)
