"""Effect keys named in content -> functions (GB-3.4, GB-6.4, GB-3.12, GB-3.13, GB-3.14).

Every function carries ``when`` (the moment the rules call it). Passive keys (modifiers read by
the rules, e.g. ``monster:commander``) are registered too, so the data/code check covers them.
Signatures by ``when``:

- ``play`` / ``cleanup``: ``fn(st, seat, card, *args)``       (hero/item abilities)
- ``round``: ``fn(st, seat, card)`` plus ``fn.available(st, seat, card) -> bool``
- ``fight``: ``fn(profile, *args)``                            (builds the fight profile, GB-5.5)
- ``ambush`` / ``monster_cleanup`` / ``aura``: ``fn(st, monster, *args)``
- ``on_damage``: ``fn(st, seat, monster)``; ``on_defeat``: ``fn(st, monster, seat, *args)``
- ``location_cleanup``: ``fn(st)``; ``reward``: ``fn(st, saver, *args)``
- ``penalty`` / ``setup``: ``fn(st, *args)``
- ``passive``: never called; read by the rules through ``has_key``.

``st`` is the model; the effects change it through the helpers of ``rules/core.py`` (the rules and the
effects are one layer). ``check_content`` checks, when this module loads and in ``validate_content``, that
every key the content names is registered here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from referee.engine import EffectRegistry

from .catalog import Content, load_content
from .model import GreyportModel
from .rules.core import (
    all_monsters,
    card_def,
    draw,
    entry_with_item,
    exhausted_heroes,
    gain_coin,
    gain_curse,
    gain_shields,
    group_of,
    heal,
    lose_lowest_coin,
    place_boss,
    push,
    put_token,
    retire_player_hero,
    seats_from,
    taunt_targets,
)
from .rules.decks import settle


class Effect(Protocol):
    """An effect function and the moment the rules call it."""

    when: str

    def __call__(self, *args: Any) -> Any: ...


class RoundEffect(Effect, Protocol):
    """A ``round`` ability also says whether it can be used now."""

    available: Callable[[GreyportModel, int, str], bool]


REGISTRY: EffectRegistry[Effect] = EffectRegistry("greyport effects")
#: the ``round`` abilities by key (the same functions as in REGISTRY), for their ``available`` test
ROUND: dict[str, RoundEffect] = {}


def effect_fn(key: str) -> Effect:
    """The function of an effect key named in content (GB-3.4)."""
    return REGISTRY.effects[key]


def effect(key: str, when: str) -> Callable[[Callable[..., Any]], Effect]:
    def deco(fn: Callable[..., Any]) -> Effect:
        eff = cast(Effect, fn)
        eff.when = when
        return REGISTRY.register(key)(eff)
    return deco


def round_effect(key: str, available: Callable[[GreyportModel, int, str], bool]
                 ) -> Callable[[Callable[..., Any]], Effect]:
    def deco(fn: Callable[..., Any]) -> Effect:
        eff = cast(RoundEffect, effect(key, "round")(fn))
        eff.available = available
        ROUND[key] = eff
        return eff
    return deco


def passive(key: str) -> None:
    """Register a modifier the rules read directly."""
    effect(key, "passive")(lambda *a: None)


# -- GB-3.4 play abilities ------------------------------------------------------------------------
@effect("play:shield", "play")
def play_shield(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4 shield(n): you gain n shields."""
    gain_shields(st, seat, n)


@effect("play:shield_all", "play")
def play_shield_all(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4 shield_all(n): each player gains n shields."""
    for s in seats_from(st, st.defender):
        gain_shields(st, s, n)


@effect("play:draw_any", "play")
def play_draw_any(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4 draw_any(n): choose any player; they draw n."""
    st.stack.push("choose_player", seat, effect="draw", n=n, card=card)


@effect("play:draw_self", "play")
def play_draw_self(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4 draw_self(n)."""
    draw(st, seat, n)


@effect("play:heal_any", "play")
def play_heal_any(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4 heal_any(n): choose any player; they heal n."""
    st.stack.push("choose_player", seat, effect="heal", n=n, card=card)


@effect("play:heal_all", "play")
def play_heal_all(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4 heal_all(n)."""
    for s in seats_from(st, st.defender):
        heal(st, s, n, seat)


@effect("play:taunt", "play")
def play_taunt(st: GreyportModel, seat: int, card: str) -> None:
    """GB-3.4 / GB-6.2.2: an optional taunt, only while the card's play abilities resolve."""
    if taunt_targets(st, seat):
        st.stack.push("taunt", seat, card=card)


@effect("play:retire_hand", "play")
def play_retire_hand(st: GreyportModel, seat: int, card: str) -> None:
    """GB-3.4 retire_hand: you may retire one hand card other than your player hero."""
    if st.players_[seat].hand:
        st.stack.push("retire", seat, optional=True, card=card)


@effect("play:rally", "play")
def play_rally(st: GreyportModel, seat: int, card: str) -> None:
    """GB-3.4 / GB-6.5.4 rally: another player's hero limit +1 this round (no effect solo)."""
    if st.players > 1:
        st.stack.push("choose_player", seat, effect="rally", n=1, card=card)


# -- GB-3.4 fight abilities (build the fight profile) ----------------------------------------------
@effect("fight:cleave", "fight")
def fight_cleave(p: dict[str, Any]) -> None:
    """GB-6.1.4: up to 2 targets of one group (no stacking)."""
    p["cleave"] = True


@effect("fight:snipe", "fight")
def fight_snipe(p: dict[str, Any]) -> None:
    """GB-6.1.5: any group; Tank/Ranged ignored."""
    p["snipe"] = True


@effect("fight:splash", "fight")
def fight_splash(p: dict[str, Any], n: int) -> None:
    """GB-5.5 step 9: one splash window of n."""
    p["splash"].append(n)


@effect("fight:reroll", "fight")
def fight_reroll(p: dict[str, Any], n: int) -> None:
    """GB-5.5 step 5: one reroll window of up to n dice."""
    p["reroll"].append(n)


@effect("fight:bonus_vs", "fight")
def fight_bonus_vs(p: dict[str, Any], tag: str, n: int) -> None:
    """GB-5.5 step 7: +n against targets having ``tag`` (amounts add)."""
    p["bonus"].append([tag, n])


@effect("fight:ignore_armour", "fight")
def fight_ignore_armour(p: dict[str, Any]) -> None:
    """GB-6.3.1: target armour counts as 0 (not for splash)."""
    p["ignore_armour"] = True


@effect("fight:bounty", "fight")
def fight_bounty(p: dict[str, Any]) -> None:
    """GB-3.4 bounty: 1 copper if the fight defeats at least one target."""
    p["bounty"] = True


# -- GB-3.4 round abilities ---------------------------------------------------------------------------
def _rewind_available(st: GreyportModel, seat: int, card: str) -> bool:
    return bool(exhausted_heroes(st, exclude=card))


@round_effect("round:rewind", _rewind_available)
def round_rewind(st: GreyportModel, seat: int, card: str) -> None:
    """GB-6.5.3 rewind: ready one exhausted hero in play other than this card."""
    st.stack.push("ready", seat, card=card)



def _echo_available(st: GreyportModel, seat: int, card: str) -> bool:
    entry = entry_with_item(st, seat, card)
    return entry is not None and entry["exhausted"]


@round_effect("round:echo", _echo_available)
def round_echo(st: GreyportModel, seat: int, card: str) -> None:
    """GB-6.5.3 echo: ready the hero this item is attached to."""
    entry = entry_with_item(st, seat, card)
    assert entry is not None, "greyport: echo is used only while its item is attached (_echo_available)"
    entry["exhausted"] = False
    st.log.public("ready", seat=seat, hero=entry["card"], by=card)



def _retire_round_available(st: GreyportModel, seat: int, card: str) -> bool:
    return bool(st.players_[seat].hand)


@round_effect("round:retire_round", _retire_round_available)
def round_retire_round(st: GreyportModel, seat: int, card: str) -> None:
    """GB-3.4 retire_round: retire one hand card other than your player hero."""
    st.stack.push("retire", seat, optional=False, card=card)



# -- GB-3.4 cleanup abilities -----------------------------------------------------------------------
@effect("cleanup:heal_defender", "cleanup")
def cleanup_heal_defender(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4: the defending player heals n."""
    heal(st, st.defender, n, seat)


@effect("cleanup:heal_all", "cleanup")
def cleanup_heal_all(st: GreyportModel, seat: int, card: str, n: int) -> None:
    """GB-3.4: each player heals n."""
    for s in seats_from(st, st.defender):
        heal(st, s, n, seat)


# -- GB-6.4 monster abilities ---------------------------------------------------------------------------
for _key in ("monster:commander", "monster:spellward", "monster:scorch"):
    passive(_key)


@effect("ambush:token_front", "ambush")
def ambush_token_front(st: GreyportModel, monster: str, token: str) -> None:
    """GB-6.4 / GB-6.4.1: one token into the group of the player this is in front of."""
    where = group_of(st, monster)
    if where != "loc":
        put_token(st, token, where)


@effect("ambush:discard_front", "ambush")
def ambush_discard_front(st: GreyportModel, monster: str) -> None:
    """GB-6.4: the player this is in front of discards one card of their choice."""
    where = group_of(st, monster)
    if where != "loc" and st.players_[where].hand:
        st.stack.push("discard_choice", where, why="ambush")


@effect("ambush:token_group", "ambush")
def ambush_token_group(st: GreyportModel, monster: str, token: str) -> None:
    """GB-6.4: one token into this monster's own group."""
    put_token(st, token, group_of(st, monster))


@effect("monster:cursed", "on_damage")
def on_cursed(st: GreyportModel, seat: int, monster: str) -> None:
    """GB-6.4 cursed: the damaged player gains a curse."""
    gain_curse(st, seat)


@effect("monster:slash", "on_damage")
def on_slash(st: GreyportModel, seat: int, monster: str) -> None:
    """GB-6.4 slash: the damaged player discards a card of their choice (not the player hero)."""
    if st.players_[seat].hand:
        st.stack.push("discard_choice", seat, why="slash")


@effect("monster:maim", "on_damage")
def on_maim(st: GreyportModel, seat: int, monster: str) -> None:
    """GB-6.4 maim: the damaged player retires their player hero (GB-6.7.2)."""
    retire_player_hero(st, seat)


@effect("monster:pickpocket", "on_damage")
def on_pickpocket(st: GreyportModel, seat: int, monster: str) -> None:
    """GB-6.4 pickpocket: lose one coin of the lowest tier."""
    lose_lowest_coin(st, seat)


@effect("monster:explosive", "on_defeat")
def on_explosive(st: GreyportModel, monster: str, seat: int, n: int) -> None:
    """GB-6.4 explosive(n): the credited seat takes n damage (shield window)."""
    push(st, [{"op": "damage", "seat": seat, "n": n, "src": None, "scorch": False}])


@effect("monster:regenerate", "monster_cleanup")
def cl_regenerate(st: GreyportModel, monster: str, n: int) -> None:
    """GB-6.4 regenerate(n): remove up to n damage."""
    st.dmg[monster] = max(0, st.dmg.get(monster, 0) - n)


@effect("monster:summoner", "monster_cleanup")
def cl_summoner(st: GreyportModel, monster: str, token: str) -> None:
    """GB-6.4 summoner(T): if in front of a player, one T into that player's group."""
    where = group_of(st, monster)
    if where != "loc":
        put_token(st, token, where)


@effect("monster:spawner", "monster_cleanup")
def cl_spawner(st: GreyportModel, monster: str, token: str) -> None:
    """GB-6.4 spawner(T): one T into its own group."""
    put_token(st, token, group_of(st, monster))


@effect("monster:searing_aura", "aura")
def aura_searing(st: GreyportModel, monster: str, n: int) -> None:
    """GB-5.6.1 c: each player takes n damage (not an attack: no on-damage abilities)."""
    push(st, [{"op": "damage", "seat": s, "n": n, "src": None,
              "scorch": False} for s in seats_from(st, st.defender)])


# -- GB-3.12 location abilities and rewards --------------------------------------------------------------
for _key in ("location:copper_as_silver", "location:ranged_plus1", "location:no_cleave",
             "location:hand_limit_plus1", "location:armour_plus1", "location:magic_die",
             "location:tank_plus1"):
    passive(_key)


@effect("location:cleanup_heal", "location_cleanup")
def loc_cleanup_heal(st: GreyportModel) -> None:
    """GB-3.12 L8: at Cleanup the defending player heals 1."""
    heal(st, st.defender, 1, None)


@effect("reward:each_gain_copper", "reward")
def rw_each_copper(st: GreyportModel, saver: int) -> None:
    """L1: each player gains 1 copper."""
    for s in seats_from(st, saver):
        gain_coin(st, s, "copper")


@effect("reward:reveal5_items", "reward")
def rw_reveal5(st: GreyportModel, saver: int) -> None:
    """L2 / GB-6.6.2: reveal min(5, deck) items; the saver may take one; the rest to the bottom."""
    cards = settle(st, "item", 5)[:5]
    del st.item_deck[:5]
    if "item" in st.settled:
        st.settled["item"] = max(0, st.settled["item"] - len(cards))
    if cards:
        st.log.public("reveal", cards=list(cards), why="reward")
        st.stack.push("reward_take", saver, cards=list(cards), mode="reveal5")


@effect("reward:heal_all", "reward")
def rw_heal_all(st: GreyportModel, saver: int, n: int) -> None:
    """L3: each player heals n."""
    for s in seats_from(st, saver):
        heal(st, s, n, None)


@effect("reward:each_retire_curse", "reward")
def rw_retire_curse(st: GreyportModel, saver: int) -> None:
    """L4: each player, from the saver clockwise, may retire one curse from hand or discard."""
    push(st, [{"op": "retire_curse_ask", "seat": s} for s in seats_from(st, saver)])


@effect("reward:saver_gain_gold", "reward")
def rw_gold(st: GreyportModel, saver: int) -> None:
    """L5: the saving seat gains 1 gold."""
    gain_coin(st, saver, "gold")


@effect("reward:draw_all", "reward")
def rw_draw_all(st: GreyportModel, saver: int, n: int) -> None:
    """L6: each player draws n, from the saver clockwise."""
    for s in seats_from(st, saver):
        if st.result is not None:  # GB-5.8.1: a Bad Omen lost the game; nothing further resolves
            return
        draw(st, s, n)


@effect("reward:strike", "reward")
def rw_strike(st: GreyportModel, saver: int, n: int) -> None:
    """L7: the saver deals n damage to one monster in any group (armour applies)."""
    if all_monsters(st):
        st.stack.push("reward_strike", saver, n=n)


@effect("reward:free_recruit", "reward")
def rw_free_recruit(st: GreyportModel, saver: int) -> None:
    """L8: the saver may take one copper- or silver-cost row card into hand."""
    cards = [c for c in st.hero_row + st.item_row if c and card_def(st, c).cost in ("copper", "silver")]
    if cards:
        st.stack.push("reward_take", saver, cards=cards, mode="free_recruit")


# -- GB-3.14 penalties and special setup ----------------------------------------------------------------
@effect("penalty:damage_each", "penalty")
def pen_damage_each(st: GreyportModel, n: int) -> None:
    """Each player takes n damage, from the defending player clockwise."""
    push(st, [{"op": "damage", "seat": s, "n": n, "src": None,
              "scorch": False} for s in seats_from(st, st.defender)])


@effect("penalty:boss_heal", "penalty")
def pen_boss_heal(st: GreyportModel, boss: str, n: int) -> None:
    """E1-2: the boss removes n damage."""
    if boss in st.dmg:
        st.dmg[boss] = max(0, st.dmg[boss] - n)
        st.log.public("boss_heal", boss=boss, amount=n)


@effect("penalty:curse_each", "penalty")
def pen_curse_each(st: GreyportModel) -> None:
    """Each player gains a curse (GB-6.8.3 order)."""
    for s in seats_from(st, st.defender):
        gain_curse(st, s)


@effect("penalty:lose_coin_each", "penalty")
def pen_lose_coin_each(st: GreyportModel) -> None:
    """Each player loses one coin of their lowest tier."""
    for s in seats_from(st, st.defender):
        lose_lowest_coin(st, s)


@effect("setup:boss_location", "setup")
def setup_boss_location(st: GreyportModel, boss: str) -> None:
    place_boss(st, boss, "loc")


@effect("setup:boss_defender", "setup")
def setup_boss_defender(st: GreyportModel, boss: str) -> None:
    place_boss(st, boss, st.defender)


@effect("setup:token_location", "setup")
def setup_token_location(st: GreyportModel, token: str) -> None:
    put_token(st, token, "loc")


@effect("setup:token_defender", "setup")
def setup_token_defender(st: GreyportModel, token: str) -> None:
    put_token(st, token, st.defender)


# -- GB-3.13 curses (read by the rules) ---------------------------------------------------------------
for _key in ("curse:hand_limit_minus1", "curse:fight_total_minus1", "curse:lose_hp_on_draw",
             "curse:wound_at_monster_damage", "curse:no_effect"):
    passive(_key)


# -- the content names only effects defined here ------------------------------------------------------
def check_content(c: Content) -> None:
    """GB-3.4: every effect key a content row names has its function here; else a ``ContentError`` naming
    the file, the row and the key."""
    for where, used in c.effect_uses.items():
        REGISTRY.check(where, used)


check_content(load_content())
