"""Effect keys named in the content files -> functions, registered on ``rules.hooks.EFFECTS``.

Every effect is ``fn(state, hook, row, ctx) -> int`` (see ``rules/hooks.py``: modifier hooks return a
number to add, action hooks carry the effect out and return 0). The verbs that are rules (healing,
wounds, placing figures, Ember Burst) call them. When this module loads it checks the effect keys the
content names (``check_content``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .catalog import WHERE, Content, build_content, content, used_effects
from .rules import battle, board, cheese
from .rules.hooks import EFFECTS, Effect

if TYPE_CHECKING:  # annotations only: pyproject's layers still put effects below the model
    from .model import MMModel

__all__ = ["EFFECTS", "check_content", "checked_content"]

reg = EFFECTS.register


def _mod(hook_name: str) -> Effect:
    """A plain modifier: answers one hook with the row's amount."""
    def fn(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
        return row.amount if hook == hook_name else 0
    fn.__doc__ = f"adds the row's amount on hook {hook_name!r}"
    return fn


# -- equipment and items (MM-3.3, MM-3.5) -------------------------------------------------------
reg("move_mod")(_mod("move"))              # Thimble Plate -1, Clover Charm +1 (MM-6.12 d)
reg("search_die")(_mod("search_dice"))     # Cricket Whistle
reg("battle_die")(_mod("attack_dice"))     # Copper Ring
reg("wire_snips")(_mod("trap_dice"))       # Wire Snips, passive from the pack (MM-6.2 b)
reg("reach")(_mod("reach"))                # Nail Spear: melee range 2 (MM-5.35 a)
reg("deflect")(_mod("deflect"))            # Bottlecap Shield (MM-5.45 step 3)
reg("hook_and_twine")(_mod("hook"))        # MM-6.16, read by movement
reg("map_scrap")(_mod("encounter_draws"))  # MM-6.15
reg("power_strike")(_mod("attack_dice"))   # a01
reg("brace")(_mod("defence_dice"))         # a03
reg("improvised_shield")(_mod("cancel_hits"))  # a11
reg("feint")(_mod("defence_penalty"))      # s24


@reg("lore_dice")
def lore_dice(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """MM-3.3 "dice base = lore instead of battle"."""
    return 1 if hook == "dice_base_lore" else 0


@reg("backstab")
def backstab(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s05: +2 dice if another non-captured mouse is in the target's area."""
    if hook != "attack_dice":
        return 0
    area = st.monsters[ctx["target"]].area
    return row.amount if any(m.area == area and not m.captured and m.id != ctx["mouse"]
                             for m in st.mice.values()) else 0


@reg("stagger")
def stagger(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s04: if the attack deals >= 2 wounds and the target survives, it is pinned."""
    if hook == "after_attack" and ctx["wounds"] >= row.amount and ctx["target"] in st.monsters:
        _pin(st, ctx["target"])
    return 0


@reg("pinning_shot")
def pinning_shot(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a05: >= 1 wound and the target survives: pinned (MM-6.4)."""
    if hook == "after_attack" and ctx["wounds"] >= 1 and ctx["target"] in st.monsters:
        _pin(st, ctx["target"])
    return 0


@reg("double_shot")
def double_shot(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a04: after the attack, one more ranged attack (MM-5.36 step 6)."""
    return 1 if hook == "second_shot" else 0


def _pin(st: MMModel, mid: str) -> None:
    mo = st.monsters[mid]
    if not mo.pinned:
        mo.pinned = True
        st.log.public("pinned", monster=mid)


@reg("bread_crumb")
def bread_crumb(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s18/s19: remove 2 non-poison wounds from the user or a mouse in its area."""
    if hook == "use":
        cheese.heal(st, ctx["mouse"], ctx["target"], row.amount, row.name)
    return 0


@reg("honey_drop")
def honey_drop(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s32: remove 3 non-poison wounds from a mouse in the user's area."""
    return bread_crumb(st, hook, row, ctx)


@reg("mint_leaf")
def mint_leaf(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s20: all poison wounds and the webbed and stunned statuses."""
    if hook == "use":
        cheese.cleanse(st, ctx["mouse"], ctx["target"], ("webbed", "stunned"), row.name)
    return 0


@reg("smoke_seed")
def smoke_seed(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s22: as Slip Past for the user this turn."""
    if hook == "use":
        st.card_turn["slip"] = True
    return 0


@reg("slip_past")
def slip_past(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a13: ignore the stop and leaving rules this turn (MM-5.19 b/c)."""
    return smoke_seed(st, hook, row, ctx)


@reg("rind_offering")
def rind_offering(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s33: remove up to 2 cheese from the monster wheel."""
    if hook == "use":
        st.wheel = max(0, st.wheel - row.amount)
        st.log.public("wheel", wheel=st.wheel, why=row.name)
    return 0


@reg("tripwire")
def tripwire(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s26: a monster in the holder's area or an adjacent area is pinned."""
    if hook == "use":
        _pin(st, ctx["target"])
    return 0


@reg("pepper_dust")
def pepper_dust(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s25: cancels a monster attack that scored >= 1 hit."""
    return 1 if hook == "cancel_attack" else 0


# -- events (MM-6.17) ------------------------------------------------------------------------------
@reg("cats_shadow")
def cats_shadow(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s27: 2 cheese to the wheel, one at a time."""
    if hook == "event":
        cheese.add_wheel(st, row.amount, row.name)
    return 0


@reg("crumb_trail")
def crumb_trail(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s28: every non-captured mouse gains 1 cheese."""
    if hook == "event":
        for m in st.mice.values():
            if not m.captured:
                cheese.gain_cheese(st, m.id, row.amount, row.name)
    return 0


@reg("rude_awakening")
def rude_awakening(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s29: place 1 Sewer Skulker by MM-6.8 (surprise placement)."""
    if hook == "event":
        cheese.place_figures(st, ["skulker"] * row.amount, surprise=True)
    return 0


@reg("loose_floorboard")
def loose_floorboard(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """s30: the searcher suffers 1 wound, then (if not captured) gains 1 cheese."""
    if hook == "event":
        if not cheese.wound_mouse(st, ctx["mouse"], row.amount, False, row.name):
            cheese.gain_cheese(st, ctx["mouse"], 1, row.name)
    return 0


# -- abilities (MM-3.4) ----------------------------------------------------------------------------
@reg("taunt")
def taunt(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a02: melee monsters must choose this mouse until its next turn (MM-5.44)."""
    if hook == "use":
        st.mice[ctx["mouse"]].taunt = True
    return 0


@reg("glamour_ward")
def glamour_ward(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a09: mice in the caster's area roll +1 defence die until its next turn."""
    if hook == "use":
        st.mice[ctx["mouse"]].ward = True
    return 0


@reg("soothing_balm")
def soothing_balm(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a06: remove 2 non-poison wounds from a mouse in this or an adjacent area."""
    return bread_crumb(st, hook, row, ctx)


@reg("second_wind")
def second_wind(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a14: remove 2 non-poison wounds from this mouse."""
    return bread_crumb(st, hook, row, {**ctx, "target": ctx["mouse"]})


@reg("cleanse")
def cleanse_ability(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a07: poison wounds and the webbed, stunned and knocked-down statuses."""
    if hook == "use":
        cheese.cleanse(st, ctx["mouse"], ctx["target"], ("webbed", "stunned", "knocked_down"), row.name)
    return 0


@reg("dash")
def dash(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a12: +3 MP to the active movement, or start the unused normal movement with +3 (MM-5.15)."""
    if hook == "use":
        t = st.turn
        assert t is not None
        if t["scurry"] == "active":
            t["scurry_mp"] += row.amount
        else:
            t["normal"] = "active"
            t["normal_mp"] += row.amount
    return 0


@reg("ember_burst")
def ember_burst(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a08: each monster in the area suffers 2 magic hits (MM-5.38)."""
    if hook == "use":
        battle.ember_burst(st, ctx["mouse"], ctx["area"], row.amount)
    return 0


@reg("disarm")
def disarm(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """a10: remove a mousetrap token from this or an adjacent area; gain 1 cheese."""
    if hook == "use":
        st.traps.remove(ctx["area"])
        st.log.public("trap_disarmed", area=ctx["area"])
        cheese.gain_cheese(st, ctx["mouse"], row.amount, row.name)
    return 0


# -- hero innates (MM-3.2) -------------------------------------------------------------------------
@reg("stalwart")
def stalwart(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Corran: +1 defence die while another non-captured mouse is in his area."""
    if hook != "defence_dice":
        return 0
    me = st.mice[ctx["mouse"]]
    return 1 if any(m.area == me.area and not m.captured and m.id != me.id for m in st.mice.values()) else 0


@reg("sharpshot")
def sharpshot(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Wren: ranged attacks ignore the near-targets-first rule (MM-5.35 b)."""
    return 1 if hook == "ignore_near" else 0


@reg("mend")
def mend(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Mallow (an action): remove up to 2 non-poison wounds from another mouse nearby (MM-5.24)."""
    if hook == "mend_amount":
        return 2
    return 0


@reg("attuned")
def attuned(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Fennimore: his mystic-class ability cards cost 1 less."""
    return -1 if hook == "ability_cost" and ctx["cls"] == "mystic" else 0


@reg("salvage")
def salvage(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Tock: discarding a search card for cheese gives 2 instead of 1."""
    return 1 if hook == "discard_cheese" else 0


@reg("slippery")
def slippery(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Pip: may leave an area with monsters regardless of numbers (MM-5.19 b)."""
    return 1 if hook == "slippery" else 0


# -- monsters (MM-3.6, MM-3.7) ----------------------------------------------------------------------
@reg("pack")
def pack(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Skulker: +1 battle die when another Skulker is in its area (never counts the boss, MM-6.10 e)."""
    if hook != "attack_dice":
        return 0
    me = st.monsters[ctx["monster"]]
    return 1 if any(m.type == "skulker" and m.area == me.area and m.id != me.id
                    for m in st.monsters.values()) \
        else 0


@reg("hard_shell")
def hard_shell(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Beetle: +1 defence die against pierce attacks."""
    return 1 if hook == "defence_dice" and ctx["attack_type"] == "pierce" else 0


@reg("soft_underbelly")
def soft_underbelly(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Millipede: -1 defence die against magic attacks."""
    return -1 if hook == "defence_dice" and ctx["attack_type"] == "magic" else 0


@reg("venom")
def venom(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Millipede: all wounds it deals are poison wounds."""
    return 1 if hook == "poison" else 0


@reg("web")
def web(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Webspinner: a wounding attack webs the target."""
    if hook == "after_wound":
        cheese.add_status(st, ctx["mouse"], "webbed")
    return 0


@reg("lunge")
def lunge(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Gristle Lunges: movement roll +1."""
    return row.amount if hook == "monster_move" else 0


@reg("snap")
def snap(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Gristle Snaps: a wounding attack stuns the target."""
    if hook == "after_wound":
        cheese.add_status(st, ctx["mouse"], "stunned")
    return 0


@reg("thrash")
def thrash(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Gristle Thrashes: 2 attacks this turn."""
    return row.amount if hook == "attacks" else 0


@reg("squeal")
def squeal(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Gristle Squeals: before moving, place 1 Skulker (surprise placement)."""
    if hook == "pre_move":
        cheese.place_figures(st, ["skulker"] * row.amount, surprise=True)
    return 0


# -- encounter keywords (MM-3.8) ---------------------------------------------------------------------
@reg("traps")
def traps(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Traps: a token on every empty trap slot of the tile without a mouse."""
    if hook == "reveal":
        for a in board.graph(st).ids:
            if board.AREAS[a].trap_slot and a not in st.traps and not board.mice_in(st, a):
                st.traps.append(a)
                st.log.public("trap_placed", area=a)
        st.traps.sort()
    return 0


@reg("dark_tunnel")
def dark_tunnel(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Dark Tunnel: LOS only to the same or an adjacent area (read by board.has_los)."""
    return 1 if hook == "dark" else 0


@reg("crumbs_everywhere")
def crumbs_everywhere(st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    """Crumbs Everywhere: search rolls get +1 die."""
    return 1 if hook == "search_dice" else 0


# -- the content's effect keys (MM-3: the numbers are data, the verbs are here) -------------------------
def check_content(c: Content) -> None:
    """Every effect key the content names has a function (``ContentError`` names file and row)."""
    for name, used in used_effects(c).items():
        EFFECTS.check(f"{WHERE}/{name}", used)


def checked_content(raw: dict[str, dict[str, Any]]) -> Content:
    """``build_content`` with the effect keys checked too."""
    c = build_content(raw)
    check_content(c)
    return c


check_content(content())
