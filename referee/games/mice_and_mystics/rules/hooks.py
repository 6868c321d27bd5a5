"""The hooks the rules ask: each sums an effect hook over what is in play (a mouse's cards and innate, a
monster's effects, the encounter keyword, a weapon). ``EFFECTS`` maps the effect keys named in the content
to their functions; ``effects.py`` registers them.

Every effect is ``fn(state, hook, row, ctx) -> int``. A *hook* names the moment that asks: modifier
hooks ("move", "attack_dice", "defence_dice", ...) return a number to add; action hooks ("use",
"event", "after_attack", "after_wound", "react", "pre_move") carry the effect out. An effect that
does not answer a hook returns 0, so call sites simply sum over every source in play.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine import EffectRegistry

from ..catalog import content
from ..model import MMModel

Effect = Callable[[MMModel, str, Any, dict[str, Any]], int]
EFFECTS: EffectRegistry[Effect] = EffectRegistry("mice_and_mystics effects")

C = content()
CARDS = C.cards
HEROES = C.heroes


def call(key: str, st: MMModel, hook: str, row: Any, ctx: dict[str, Any]) -> int:
    return EFFECTS.effects[key](st, hook, row, ctx)


def mouse_mod(st: MMModel, mouse: str, hook: str, ctx: dict[str, Any]) -> int:
    """Sum of a hook over the mouse's equipped cards, pack items and innate ability."""
    m = st.mice[mouse]
    ctx["mouse"] = mouse
    effects = EFFECTS.effects
    total = 0
    for cid in m.equipped:
        row = CARDS[cid]
        if row.effect and row.kind != "weapon":
            total += effects[row.effect](st, hook, row, ctx)
    for cid in m.pack:
        row = CARDS[cid]
        if row.effect and row.kind == "item":
            total += effects[row.effect](st, hook, row, ctx)
    hero = HEROES[mouse]
    return total + effects[hero.innate](st, hook, hero, ctx)


def mouse_has(st: MMModel, mouse: str, key: str) -> bool:
    return C.heroes[mouse].innate == key


def keyword_mod(st: MMModel, hook: str) -> int:
    enc = st.encounter
    if enc["keyword"] and enc["keyword_side"] == st.side:
        return EFFECTS.effects[enc["keyword"]](st, hook, None, {})
    return 0


def monster_mod(st: MMModel, mid: str, hook: str, ctx: dict[str, Any]) -> int:
    mo = st.monsters[mid]
    total = 0
    for key in C.monsters[mo.type].effects:
        total += EFFECTS.effects[key](st, hook, C.monsters[mo.type], {**ctx, "monster": mid})
    return total


def ability_cost(st: MMModel, mouse: str, ability: str) -> int:
    row = C.abilities[ability]
    return max(0, row.cost + mouse_mod(st, mouse, "ability_cost", {"cls": row.cls}))


def weapon_mod(st: MMModel, weapon: str, hook: str, ctx: dict[str, Any]) -> int:
    row = C.cards[weapon]
    return EFFECTS.effects[row.effect](st, hook, row, ctx) if row.effect else 0
