"""BC-4 setup: map, piles, identities, the characters dealt, starting hands (the choices that follow are
rules: ``rules/start.py``, ``rules/flow.choose_start``)."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, Rng

from .catalog import LAYERS
from .model import BlockcraftModel, Player
from .rules.start import turn_order
from .state import BlockcraftState

FACTION_PAIRS = (("human", "monster"), ("human", "undead"), ("monster", "undead"))


def team_factions(st: BlockcraftModel) -> list[str]:
    """BC-4.4: the factions of a team game (RNG step 1 for a random pair)."""
    n = st.players
    split = st.options["team_split"]
    if n in (3, 9) or (n == 6 and split == "three_factions"):
        return ["human", "monster", "undead"]
    given = st.options["team_factions"]
    if given is not None:
        return sorted(given)
    return list(FACTION_PAIRS[st.rng.below(3)])


def setup_state(game: Game, players: int, options: dict[str, Any], seed: int) -> BlockcraftState:
    """BC-4.2: every random step in the spec's order."""
    st = BlockcraftState(game, players, options, Rng(seed))
    st.after_restore()   # the catalogue, map size and round limit of these options
    st.p = [Player(seat) for seat in range(players)]
    st.current = st.admin
    cat = st.cat
    factions = team_factions(st) if st.mode == "team" else []               # (1)
    decks = {layer: st.rng.shuffled(cat.layer_deck(st.size, layer)) for layer in LAYERS}  # (2)
    for y in range(st.h):
        for x in range(st.w):
            hgt = st.size.height_at(x, y)
            layers = ["D"] + ["U"] * (hgt - 2) + ["S"]
            st.cells.append([{"c": decks[lay].pop(), "s": "down", "l": lay, "by": None} for lay in layers])
    st.draw_pile = st.rng.shuffled(cat.reserve_deck())                       # (3)
    st.enchant_deck = st.rng.shuffled(sorted(cat.enchant_cards))             # (4)
    st.supply = {k: c.supply for k, c in cat.cards.items()
                 if not c.raw and (not c.extreme_only or st.mode == "extreme")}
    deal_identities(st, factions)                                            # (5)
    deal_characters(st)                                                      # (6)
    for s in turn_order(st):                                                 # (7)
        for _ in range(2):
            st.draw(s, "setup")
    st.log.public("setup", mode=st.mode, players=players, map=st.size.id, boss=st.boss_seat,
                  identities=[p.identity if st.identity_public or s == st.boss_seat else None
                              for s, p in enumerate(st.p)])
    return st


def deal_identities(st: BlockcraftModel, factions: list[str]) -> None:
    """BC-4.4: identity cards per mode; BOSS (boss) and all faces (team) are public."""
    n = st.players
    base = ["human"] * 3 + ["monster"] * 3 + ["undead"] * 3
    if st.mode == "boss":
        cards = ["boss"] + base[: n - 1]
    elif st.mode == "team":
        per = n // len(factions)
        cards = [f for f in factions for _ in range(per)]
    else:
        cards = (["boss"] + base)[:n]
    st.rng.shuffle(cards)
    for s, face in zip(turn_order(st), cards, strict=False):
        st.p[s].identity = face
        if face == "boss" and st.mode == "boss":
            st.boss_seat = s
    st.identity_public = st.mode == "team"


def deal_characters(st: BlockcraftModel) -> None:
    """BC-4.5: deal character options (BOSS pool, normal pool or faction pools) in turn order."""
    cat = st.cat
    chars = list(cat.characters.values())
    order = turn_order(st)
    n = st.players
    if st.mode == "team":
        pools = {f: st.rng.shuffled([c.id for c in chars if c.faction == f])
                 for f in ("human", "monster", "undead")}
        for s in order:
            pool = pools[st.p[s].identity]
            st.p[s].options = sorted([pool.pop(), pool.pop()])
        st.box_characters = sorted(c for pool in pools.values() for c in pool)
        return
    boss_pool = st.rng.shuffled([c.id for c in chars if c.faction == "boss"])
    normal = st.rng.shuffled([c.id for c in chars if c.faction != "boss"])
    if st.mode == "boss":
        k = min(3, 24 // (n - 1))
        for s in order:
            pool = boss_pool if s == st.boss_seat else normal
            st.p[s].options = sorted(pool.pop() for _ in range(3 if s == st.boss_seat else k))
        st.box_characters = sorted(boss_pool + normal)
    else:
        k = min(3, 24 // n)
        for s in order:
            st.p[s].options = sorted(normal.pop() for _ in range(k))
        st.box_characters = sorted(boss_pool + normal)
