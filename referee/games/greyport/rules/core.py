"""Shared rule helpers, functions over the model: lookups, zones, drawing, healing, coins, curses, tokens,
monsters leaving play, the reinforcement rows. The content's effects (``effects.py``) call them too; the
shared decks are in ``decks.py``; damage and defeat, which call effects back, in ``damage.py``.

GB-3.3 zones, GB-6.7 retire, GB-6.8 curses, GB-6.9.5 coins, GB-6.10 rows, GB-6.11 hand limit, GB-6.14.1
player decks.
"""
from __future__ import annotations

from typing import Any

from ..catalog import CardDef, MonsterDef, load_content
from ..model import GreyportModel
from .decks import take_top

C = load_content()
TIERS = ("copper", "silver", "gold")
# Instance id -> design, filled on first use (ids are "<design>#<k>"; player heroes "PH<seat>" change with the
# level and are never cached). A hot path: rules look designs up hundreds of times per game.
_CARD_DEFS: dict[str, CardDef] = {}
_MONSTER_DEFS: dict[str, MonsterDef] = {}
Key = Any  # a group key: a seat index or "loc"


# -- lookups ----------------------------------------------------------------------------------
def card_def(st: GreyportModel, cid: str) -> CardDef:
    """GB-3.3.1: the design of a card instance (player heroes by their current level)."""
    d = _CARD_DEFS.get(cid)
    if d is not None:
        return d
    if cid.startswith("PH"):
        p = st.players_[int(cid[2:])]
        return C.cards[f"P-{p.character}-{p.level}"]
    d = _CARD_DEFS[cid] = C.cards[cid.split("#", 1)[0]]
    return d


def seats_from(st: GreyportModel, start: int) -> list[int]:
    """GB-6.15.2: every seat from ``start`` clockwise."""
    n = st.players
    return [(start + i) % n for i in range(n)]


def group_of(st: GreyportModel, mid: str) -> Key:
    """The group key holding monster ``mid`` (None if not in play)."""
    if mid in st.loc_group:
        return "loc"
    for s, g in enumerate(st.groups):
        if mid in g:
            return s
    return None


def all_monsters(st: GreyportModel) -> list[str]:
    return [m for k in group_keys(st) for m in group(st, k)]


def entry_with_item(st: GreyportModel, seat: int, item: str) -> dict[str, Any] | None:
    for e in st.players_[seat].play:
        if e["item"] == item:
            return e
    return None


def exhausted_heroes(st: GreyportModel, exclude: str | None = None) -> list[str]:
    return [e["card"] for s in seats_from(st, st.defender) for e in st.players_[s].play
            if e["exhausted"] and e["card"] != exclude]


# -- tasks --------------------------------------------------------------------------------------
def push(st: GreyportModel, tasks: list[dict[str, Any]]) -> None:
    """Queue tasks to run next, in the given order (the task list is a stack)."""
    st.tasks.extend(reversed(tasks))


# -- player resources ----------------------------------------------------------------------------
def gain_shields(st: GreyportModel, seat: int, n: int) -> None:
    st.players_[seat].shields += n
    stat(st, seat, "shields_gained", n)
    st.log.public("shields", seat=seat, gained=n)


def gain_coin(st: GreyportModel, seat: int, tier: str) -> None:
    st.players_[seat].coins[tier] += 1
    st.log.public("coin", seat=seat, gained=tier)


def lose_lowest_coin(st: GreyportModel, seat: int) -> None:
    """GB-6.9.5: copper if any, else silver, else gold, else nothing."""
    coins = st.players_[seat].coins
    for t in TIERS:
        if coins[t]:
            coins[t] -= 1
            st.log.public("coin", seat=seat, lost=t)
            return


def heal(st: GreyportModel, seat: int, n: int, by: int | None) -> None:
    """GB-3.4 "heal n": hp = min(max_hp, hp + n)."""
    p = st.players_[seat]
    got = max(0, min(p.max_hp, p.hp + n) - p.hp)
    if got:
        p.hp += got
        stat(st, by, "healing_given", got)
        st.log.public("heal", seat=seat, amount=got)


def draw(st: GreyportModel, seat: int, n: int, by: int | None = None) -> list[str]:
    """GB-6.14.1: draw n one card at a time; an empty deck reshuffles the discard; a Bad Omen resolves
    as it is drawn, so a loss it causes stops the draw (GB-5.8.1). Returns the cards drawn."""
    p = st.players_[seat]
    got: list[str] = []
    batch: list[str] = []
    for _ in range(n):
        if st.result is not None:
            break
        if not p.deck:
            if not p.discard:
                break
            log_draw(st, seat, batch, by)
            batch = []
            p.deck = p.discard
            p.discard = []
            st.rng.shuffle(p.deck)
            st.log.public("reshuffle", seat=seat, deck_size=len(p.deck))
        c = p.deck.pop(0)
        p.hand.append(c)
        got.append(c)
        batch.append(c)
        if card_def(st, c).effect == "lose_hp_on_draw":
            log_draw(st, seat, batch, by)
            batch = []
            st.log.public("reveal", seat=seat, cards=[c], why="bad_omen")
            lose_hp(st, seat, 1, "bad_omen")
    log_draw(st, seat, batch, by)
    return got


def gain_curse(st: GreyportModel, seat: int) -> None:
    """GB-6.8.1: top curse face up onto the discard; empty curse deck -> lose 1 HP instead."""
    if not st.curse_deck:
        lose_hp(st, seat, 1, "no_curse_left")
        return
    c = take_top(st, "curse")
    st.players_[seat].discard.append(c)
    stat(st, seat, "curses_gained")
    st.log.public("curse", seat=seat, card=c)


def retire_player_hero(st: GreyportModel, seat: int) -> None:
    """GB-6.7.2: the player hero drops a level (min 1) and waits in the return zone."""
    p = st.players_[seat]
    if p.hero_zone == "play":
        ph = f"PH{seat}"
        for i, e in enumerate(p.play):
            if e["card"] == ph:
                if e["item"]:
                    p.loose.append(e["item"])
                del p.play[i]
                break
    p.level = max(1, p.level - 1)
    p.hero_zone = "return_zone"
    st.log.public("maim", seat=seat, level=p.level)


# -- monsters -------------------------------------------------------------------------------------
def put_token(st: GreyportModel, token: str, key: Key) -> None:
    """GB-3.10: the lowest-numbered token of that design in the supply; none left -> nothing."""
    supply = st.token_supply[token]
    if not supply:
        return
    tid = supply.pop(0)
    group(st, key).append(tid)
    st.dmg[tid] = 0
    st.log.public("token", monster=tid, group=key)


def place_boss(st: GreyportModel, boss: str, key: Key) -> None:
    """GB-3.11: a boss enters by special setup with its HP for the player count."""
    st.bosses[boss] = {"hp": mdef(boss).hp_for(st.players), "status": "play", "damage": 0}
    group(st, key).append(boss)
    st.dmg[boss] = 0
    st.log.public("boss", monster=boss, group=key)


def taunt_targets(st: GreyportModel, seat: int) -> list[str]:
    """GB-6.2.1: monsters in groups other than ``seat``'s own, not immovable, in group order."""
    return [m for k in group_keys(st) if k != seat for m in group(st, k)
            if "immovable" not in mdef(m).tags]


# -- lookups over monsters and locations ----------------------------------------------------------
def attack_value(st: GreyportModel, mid: str, key: Key) -> int:
    """GB-6.4.3: printed damage + commanders in the group + location modifiers (location group only)."""
    d = mdef(mid)
    members = group(st, key)
    v = d.damage + sum(1 for o in members if o != mid
                       and has_key(mdef(o).abilities, "monster:commander"))
    if key == "loc":
        if "ranged" in d.tags and loc_has(st, "ranged_plus1"):
            v += 1
        if "tank" in d.tags and loc_has(st, "tank_plus1"):
            v += 1
    return v


def encounter_id(st: GreyportModel) -> str:
    return C.chapters[st.options["chapter"]].encounters[st.enc_index]


def mdef(mid: str) -> MonsterDef:
    d = _MONSTER_DEFS.get(mid)
    if d is None:
        d = _MONSTER_DEFS[mid] = C.monsters[mid.split("#", 1)[0]]
    return d


def group(st: GreyportModel, key: Key) -> list[str]:
    return st.loc_group if key == "loc" else st.groups[key]


def group_keys(st: GreyportModel) -> list[Key]:
    """GB-6.1.7 order: active group, location, other seats clockwise from the defender."""
    d = st.defender
    return [d, "loc", *[s for s in seats_from(st, d)[1:]]]


def loc_stands(st: GreyportModel) -> bool:
    """GB-3.12 / GB-6.6.5: a location stands while standing or saved."""
    return st.loc is not None and st.loc["status"] in ("standing", "saved")


def loc_has(st: GreyportModel, ability: str) -> bool:
    loc = st.loc
    return (loc is not None and loc["status"] in ("standing", "saved")
            and C.location_abilities[loc["id"]].key[9:] == ability)   # "location:<ability>"


def has_key(abilities: Any, key: str) -> bool:
    for a in abilities:
        if a.key == key:
            return True
    return False


def monster_hp(st: GreyportModel, mid: str) -> int:
    if mid in st.bosses:
        return int(st.bosses[mid]["hp"])
    return mdef(mid).hp[0]


def armour(st: GreyportModel, mid: str, magic: bool) -> int:
    """GB-6.3.1 effective armour (printed, +1 Old Mint in the location group, +2 spellward vs magic)."""
    d = mdef(mid)
    a = d.armour
    if loc_has(st, "armour_plus1") and mid in st.loc_group:
        a += 1
    if magic and has_key(d.abilities, "monster:spellward"):
        a += 2
    return a


def hand_limit(st: GreyportModel, seat: int) -> int:
    """GB-6.11: 5 + 1 (Gilded Tankard) - Gnawing Dread in hand, minimum 3."""
    dread = 0
    for c in st.players_[seat].hand:
        if card_def(st, c).effect == "hand_limit_minus1":
            dread += 1
    return max(3, 5 + (1 if loc_has(st, "hand_limit_plus1") else 0) - dread)


def stat(st: GreyportModel, seat: int | None, name: str, n: int = 1) -> None:
    if seat is not None and n:
        stats = st.players_[seat].stats
        stats[name] = stats.get(name, 0) + n


def fighting(st: GreyportModel) -> dict[str, Any]:
    """The fight being resolved (GB-5.5): a fight's steps only run while there is one."""
    f = st.fight
    assert f is not None, "greyport: no fight in progress"
    return f


def location(st: GreyportModel) -> dict[str, Any]:
    """The encounter's location (GB-3.12): the steps that use it only run while there is one."""
    loc = st.loc
    assert loc is not None, "greyport: no location in play"
    return loc


def lose(st: GreyportModel, reason: str) -> None:
    """GB-8.2: the team loses immediately; nothing further resolves."""
    if st.result is not None:
        return
    st.result = "loss"
    st.loss_reason = reason
    st.phase = "ended"
    st.tasks = []
    st.stack.frames = []
    st.log.public("game_over", result="loss", reason=reason)


def lose_hp(st: GreyportModel, seat: int, n: int, why: str) -> None:
    """Unpreventable HP loss (Bad Omen, empty curse deck); GB-5.8.1 checked at once."""
    p = st.players_[seat]
    p.hp -= n
    stat(st, seat, "damage_taken", n)
    st.log.public("lose_hp", seat=seat, amount=n, why=why)
    if p.hp <= 0:
        lose(st, "hp_zero")


def log_draw(st: GreyportModel, seat: int, cards: list[str], by: int | None) -> None:
    """The public count and the drawer's private card list of one run of draws."""
    if not cards:
        return
    st.log.public("draw", seat=seat, count=len(cards))
    st.log.private(seat, "drew", seat=seat, cards=sorted(cards))
    if by is not None and by != seat:
        stat(st, by, "cards_drawn_for_others", len(cards))


def retire_card(st: GreyportModel, seat: int, card: str) -> None:
    """GB-6.7.1: a hand card (never the player hero) leaves the game to ``removed``."""
    p = st.players_[seat]
    if card in p.hand:
        p.hand.remove(card)
    elif card in p.discard:
        p.discard.remove(card)
    st.removed.append(card)
    st.log.public("retire", seat=seat, card=card)


def discard_from_hand(st: GreyportModel, seat: int, card: str, why: str) -> None:
    p = st.players_[seat]
    p.hand.remove(card)
    p.discard.append(card)
    st.log.public("discard", seat=seat, card=card, why=why)


def remove_monster(st: GreyportModel, mid: str, defeated: bool) -> None:
    """Leave play: cards to the monster discard, tokens to the supply, bosses out of the game."""
    key = group_of(st, mid)
    if key is not None:
        group(st, key).remove(mid)
    d = mdef(mid)
    dmg = st.dmg.pop(mid, 0)
    if d.kind == "token":
        supply = st.token_supply[d.id]
        supply.append(mid)
        supply.sort(key=lambda t: int(t.split("#")[1]))
    elif d.kind == "boss":
        b = st.bosses[mid]
        b["status"] = "defeated" if defeated else "removed"
        b["damage"] = b["hp"] if defeated else min(dmg, b["hp"])
    else:
        st.monster_discard.append(mid)


def move_monster(st: GreyportModel, mid: str, key: Key) -> None:
    """GB-3.3.5: arrivals go to the end of the group; damage stays."""
    src = group_of(st, mid)
    group(st, src).remove(mid)
    group(st, key).append(mid)
    st.log.public("move", monster=mid, to=key, frm=src)


# -- reinforcement rows (GB-4.3, GB-6.10) ------------------------------------------------------------
def in_play_designs(st: GreyportModel) -> set[str]:
    return {card_def(st, e["card"]).id for p in st.players_ for e in p.play}


def fill_slot(st: GreyportModel, row: str, i: int, setup: bool, aside: list[str] | None = None) -> None:
    """GB-4.3.1: reveal until a card fits the slot (cameo/duplicate removed; gold set aside at setup)."""
    deck = st.hero_deck if row == "heroes" else st.item_deck
    cells = st.hero_row if row == "heroes" else st.item_row
    heroes = row == "heroes"
    key = "hero" if heroes else "item"
    if heroes:
        # the row and the cards in play do not change while this slot is being filled
        chars = {p.character for p in st.players_}
        taken = {card_def(st, x).id for x in cells if x} | in_play_designs(st)
    while deck:
        c = take_top(st, key)
        d = card_def(st, c)
        if heroes:
            if d.cameo and d.cameo in chars:
                st.removed.append(c)
                st.log.public("row_removed", card=c, why="cameo")
                continue
            if d.id in taken:
                st.removed.append(c)
                st.log.public("row_removed", card=c, why="duplicate")
                continue
        if setup and d.cost == "gold" and aside is not None:
            aside.append(c)
            continue
        cells[i] = c
        st.log.public("row_fill", row=row, slot=i, card=c)
        return
    cells[i] = None
