"""GB-4.2 game setup steps, GB-4.4 encounter setup, GB-5.7 ending an encounter, GB-5.8 state checks,
GB-6.6 saving and destroying locations, GB-8 end of game."""
from __future__ import annotations

from functools import cache
from typing import Any

from ..effects import effect_fn
from ..model import GreyportModel
from .core import (
    C,
    all_monsters,
    card_def,
    draw,
    encounter_id,
    fill_slot,
    group,
    group_of,
    heal,
    location,
    lose,
    mdef,
    move_monster,
    push,
    remove_monster,
    seats_from,
    stat,
)
from .decks import draw_monster, shuffle_deck, shuffle_in
from .tasks import task

FACTION_ORDER = ("GOB", "COR", "DRK")


@cache
def _instances(designs: tuple[str, ...], monsters: bool = False) -> tuple[str, ...]:
    """GB-3.3 instance ids ``<design>#<k>`` of every copy, built once per design list (setup runs per
    game)."""
    table = C.monsters if monsters else C.cards
    return tuple(f"{d}#{k}" for d in designs for k in range(1, table[d].count + 1))


@cache
def _token_ids() -> dict[str, tuple[str, ...]]:
    """GB-4.2.4 the token supply's instance ids per design (built once; each game copies the lists)."""
    return {d: tuple(f"{d}#{k}" for k in range(1, C.monsters[d].count + 1)) for d in C.token_designs}


@cache
def _encounter(chapter: str, index: int) -> Any:
    return C.encounters[C.chapters[chapter].encounters[index]]


def encounter(st: GreyportModel) -> Any:
    return _encounter(st.options["chapter"], st.enc_index)


# -- GB-4.2 game setup ---------------------------------------------------------------------------
@task("choose_character")
def task_choose_character(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.2.1: seats choose in order among unchosen characters."""
    st.stack.push("choose_character", t["seat"])


@task("deal")
def task_deal(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.2.2: each seat shuffles its 9 starting cards, draws 5, takes its level-1 player hero."""
    for seat, p in enumerate(st.players_):
        cards = list(_instances(tuple(C.starting[p.character])))
        st.rng.shuffle(cards)
        p.deck = cards
        p.hp = p.max_hp = st.options["starting_hp"]
        p.level = 1
        p.hero_zone = "hand"
        st.log.public("character", seat=seat, character=p.character)
        draw(st, seat, 5)


@task("rows")
def task_rows(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.2.3 / GB-4.3: shuffle the hero deck, build its row; then the item deck and row."""
    for row, designs in (("heroes", C.hero_designs), ("items", C.item_designs)):
        deck = list(_instances(tuple(designs)))
        key = "hero" if row == "heroes" else "item"
        if row == "heroes":
            st.hero_deck = deck
        else:
            st.item_deck = deck
        shuffle_deck(st, key)
        aside: list[str] = []
        for i in range(4):
            fill_slot(st, row, i, setup=True, aside=aside)
        # GB-4.3.2 "put back and shuffle": the rest of the deck is still unsettled (in random order as far
        # as anyone can tell), so the set-aside cards simply join it (deviation 8).
        shuffle_in(st, key, aside)


@task("curses")
def task_curses(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.2.4: shuffle the curse deck; fill the token supply."""
    st.curse_deck = list(_instances(tuple(C.curse_designs)))
    shuffle_deck(st, "curse")
    st.token_supply = {d: list(ids) for d, ids in _token_ids().items()}


@task("first_player")
def task_first_player(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.2.5: option or random; marker ``taunt`` side up."""
    fp = st.options["first_player"]
    st.defender = fp if fp is not None else st.rng.below(st.players)
    st.marker = "taunt"
    st.priority = st.defender
    st.log.public("first_player", seat=st.defender)


@task("wounded")
def task_wounded(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.2.6: one seat starts at 3 HP (max HP unchanged)."""
    ww = st.options["wounded_warrior"]
    if ww == "choose":
        st.stack.push("choose_wounded", st.defender)
    elif ww != "off":
        wound(st, int(ww))


def wound(st: GreyportModel, seat: int) -> None:
    st.players_[seat].hp = 3
    st.log.public("wounded", seat=seat)


# -- GB-4.4 encounter setup ----------------------------------------------------------------------------
@task("encounter_setup")
def task_encounter_setup(st: GreyportModel, t: dict[str, Any]) -> None:
    st.phase = "setup"
    enc = encounter(st)
    n = st.players
    # 1. location
    if st.options["random_locations"]:
        free = sorted(loc for loc in C.locations if loc not in st.used_locations)
        lid = st.rng.choice(free)
    else:
        lid = enc.location
    st.used_locations.append(lid)
    hp = C.locations[lid].hp
    st.loc = {"id": lid, "hp": hp, "max_hp": hp, "status": "standing"}
    st.loc_group = []
    st.log.public("encounter", encounter=enc.id, location=lid)
    # 2. monster deck
    st.monster_deck += st.monster_discard
    st.monster_discard = []
    chapter = C.chapters[st.options["chapter"]]
    add = [enc.add_faction] if enc.add_faction else []
    if st.enc_index == 0:
        extra = [chapter.later_faction, *FACTION_ORDER]
        add = [chapter.start_faction]
        for f in extra:
            if len(add) > st.options["extra_factions"]:
                break
            if f not in add:
                add.append(f)
    for f in add:
        if f not in st.factions_in:
            st.factions_in.append(f)
            st.monster_deck += _instances(tuple(C.factions[f]), monsters=True)
    shuffle_deck(st, "monster")
    # 4. location monsters, 5. player monsters
    reveal_to_threat(st, "loc", enc.location_threat[n - 1])
    for s in seats_from(st, st.defender):
        reveal_to_threat(st, s, enc.player_threat[n - 1])
    # 6. special setup
    for a in C.specials[enc.id]:
        effect_fn(a.key)(st, *a.args)
    # 7. coins
    for s in range(n):
        for c in enc.coins:
            st.players_[s].coins[c] += 1
    # 8-9. ambush
    pending = [m for m in all_monsters(st)
               if any(a.key.startswith("ambush:") for a in mdef(m).abilities)]
    push(st, [{"op": "ambush", "pending": pending}, {"op": "round_start"}])


def reveal_to_threat(st: GreyportModel, key: Any, threat: int) -> None:
    """GB-4.4 steps 4-5: draw until the group's total threat >= the target."""
    members = group(st, key)
    total = sum(mdef(m).threat for m in members)
    while total < threat:
        m = draw_monster(st)
        if m is None:
            return
        members.append(m)
        total += mdef(m).threat
        st.dmg[m] = 0
        st.log.public("reveal_monster", monster=m, group=key)


@task("ambush")
def task_ambush(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-4.4 step 9: the defending player orders ambushes (a single one resolves automatically)."""
    pending = [m for m in t["pending"] if group_of(st, m) is not None]
    if pending:
        st.stack.push("ambush", st.defender, pending=pending)


def resolve_ambush(st: GreyportModel, mid: str, rest: list[str]) -> None:
    push(st, [{"op": "ambush_effect", "m": mid}, {"op": "ambush", "pending": rest}])


@task("ambush_effect")
def task_ambush_effect(st: GreyportModel, t: dict[str, Any]) -> None:
    m = t["m"]
    st.log.public("ambush", monster=m)
    for a in mdef(m).abilities:
        if a.key.startswith("ambush:"):
            effect_fn(a.key)(st, m, *a.args)


# -- GB-5.8 state checks
# ----------------------------------------------------------------------------------
def checks(st: GreyportModel) -> None:
    """GB-5.8.1 loss at 0 HP, GB-5.8.2 location saved, GB-5.8.3 objective."""
    if st.result is not None:
        return
    for p in st.players_:
        if p.hp <= 0:
            lose(st, "hp_zero")
            return
    loc = st.loc
    if loc is None:     # no location: neither check below applies (the hot path between encounters)
        return
    if loc["status"] == "standing" and not st.loc_group and loc["hp"] >= 1:
        loc["status"] = "saved"
        saver = st.actor if st.actor is not None else st.defender
        st.team["locations_saved"] += 1
        stat(st, saver, "locations_saved")
        st.log.public("saved", location=loc["id"], seat=saver)
        push(st, [{"op": "reward", "seat": saver}])
    if not st.objective_met and st.phase != "setup":
        enc = _encounter(st.options["chapter"], st.enc_index)
        if enc.objective == "clear_all":
            met = not st.loc_group and not any(st.groups)
        else:
            met = st.bosses.get(enc.boss, {}).get("status") == "defeated"
        if met:
            st.objective_met = True
            st.log.public("objective", encounter=enc.id)


@task("reward")
def task_reward(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-6.6.2: the saving seat resolves the location's reward now."""
    a = C.location_rewards[location(st)["id"]]
    effect_fn(a.key)(st, t["seat"], *a.args)


@task("retire_curse_ask")
def task_retire_curse_ask(st: GreyportModel, t: dict[str, Any]) -> None:
    seat = t["seat"]
    p = st.players_[seat]
    curses = [c for c in p.hand + p.discard if card_def(st, c).kind == "curse"]
    if curses or (p.hand and not st.open_hands()):
        st.stack.push("retire_curse", seat)


# -- GB-6.6.3 destruction
# -----------------------------------------------------------------------------------
@task("destroy")
def task_destroy(st: GreyportModel, t: dict[str, Any]) -> None:
    loc = location(st)
    loc["status"] = "destroyed"
    st.destroyed += 1
    st.team["locations_destroyed"] += 1
    st.log.public("destroyed", location=loc["id"])
    enc = encounter(st)
    tasks: list[dict[str, Any]] = [{"op": "penalty", "i": i} for i in range(len(C.penalties[enc.id]))]
    tasks += [{"op": "chapter_loss"}, {"op": "boss_move"}, {"op": "distribute", "seat": st.defender}]
    push(st, tasks)


@task("penalty")
def task_penalty(st: GreyportModel, t: dict[str, Any]) -> None:
    a = C.penalties[encounter_id(st)][t["i"]]
    effect_fn(a.key)(st, *a.args)


@task("chapter_loss")
def task_chapter_loss(st: GreyportModel, t: dict[str, Any]) -> None:
    """GB-5.8.4: CH2 loses when all three of its locations are destroyed."""
    limit = C.chapters[st.options["chapter"]].destroyed_loss
    if limit and st.destroyed >= limit:
        lose(st, "locations_destroyed")


@task("boss_move")
def task_boss_move(st: GreyportModel, t: dict[str, Any]) -> None:
    for m in list(st.loc_group):
        if mdef(m).kind == "boss":
            move_monster(st, m, st.defender)


@task("distribute")
def task_distribute(st: GreyportModel, t: dict[str, Any]) -> None:
    if st.loc_group:
        st.stack.push("take_monster", t["seat"])


# -- GB-5.7 ending the encounter
# ------------------------------------------------------------------------------
@task("encounter_end")
def task_encounter_end(st: GreyportModel, t: dict[str, Any]) -> None:
    st.objective_met = False
    st.phase = "setup"
    st.team["encounters_cleared"] += 1
    enc = encounter(st)
    st.log.public("encounter_cleared", encounter=enc.id)
    chapter = C.chapters[st.options["chapter"]]
    if st.enc_index + 1 >= len(chapter.encounters):
        win(st)
        return
    for s in range(st.players):
        p = st.players_[s]
        p.level = min(3, p.level + 1)
        heal(st, s, st.options["rest_healing"], None)
    for s in range(st.players):
        p = st.players_[s]
        p.deck = p.hand + p.deck + p.discard
        p.hand, p.discard = [], []
        st.rng.shuffle(p.deck)
        st.log.public("reshuffle", seat=s, deck_size=len(p.deck))
        draw(st, s, 5)
        if st.result is not None:  # GB-5.8.1: a Bad Omen lost the game; nothing further resolves
            return
        p.hero_zone = "hand"
        p.shields = 0
    for m in all_monsters(st):
        remove_monster(st, m, defeated=False)
    st.loc_group = []
    st.groups = [[] for _ in range(st.players)]
    st.defender = (st.defender + 1) % st.players
    st.marker = "taunt"
    st.encounter_round = 1
    st.total_rounds += 1
    st.enc_index += 1
    if st.result is None:
        push(st, [{"op": "encounter_setup"}])


def win(st: GreyportModel) -> None:
    """GB-8.1."""
    st.result = "win"
    st.phase = "ended"
    st.tasks = []
    st.stack.frames = []
    st.log.public("game_over", result="win")
