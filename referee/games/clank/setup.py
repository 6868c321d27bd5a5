"""CK-4: setting up a game; every random step uses the state's RNG in the order of the spec."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, Rng

from .effects import resolve_now
from .model import PlayerData
from .rules.resources import draw
from .rules.turn import start_turn
from .state import ClankState


def setup_state(game: Game, players: int, options: dict[str, Any], seed: int) -> ClankState:
    """CK-4.1 .. CK-4.13."""
    st = ClankState(game, players, options, Rng(seed))
    st.p = [PlayerData() for _ in range(players)]
    cat = st.cat
    const = cat.constants
    log = st.log
    # CK-4.2 / CK-4.3: supplies and shuffled starting decks, seat by seat
    starting = [ct for ct in cat.card_types.values() if ct.kind == "starting"]
    for s, p in enumerate(st.p):
        p.supply = const["player_cubes"]
        p.room = const["start_room"]
        p.deck = sorted(cid for ct in starting for cid in ct.ids if cid.startswith(f"s{s}-"))
        st.rng.shuffle(p.deck)
    # CK-4.4
    for s in range(players):
        draw(st, s, const["hand_size"])
    # CK-4.5
    st.rage = const["rage_start"][str(players)]
    st.bag_black = const["dragon_cubes"]
    # CK-4.6
    arts = sorted(cat.artifacts)
    removed = const["artifacts_removed"][str(players)]
    if removed:
        st.rng.shuffle(arts)
        st.removed_artifacts, arts = sorted(arts[:removed]), arts[removed:]
    st.artifacts_at = {cat.artifacts[a].room: a for a in sorted(arts)}
    log.public("artifacts_removed", artifacts=list(st.removed_artifacts))
    # CK-4.7 / CK-4.8: face-down secrets, rooms in ascending number; the rest set aside unseen
    rooms = sorted(cat.rooms.values(), key=lambda r: int(r.id[1:]))
    minor = st.rng.shuffled(cat.minor_ids)
    for r in rooms:
        if r.minor_secrets:
            st.minor[r.id], minor = minor[:r.minor_secrets], minor[r.minor_secrets:]
    st.minor_aside = minor
    major = st.rng.shuffled(cat.major_ids)
    for r in rooms:
        if r.major_secrets:
            st.major[r.id], major = major[0], major[1:]
    st.major_aside = major
    # CK-4.9
    idols = sorted(t for t, tok in cat.tokens.items() if tok.kind == "idol")
    for r in rooms:
        if r.idols:
            st.idols_at[r.id], idols = idols[:r.idols], idols[r.idols:]
    st.mastery_left = sorted(t for t, tok in cat.tokens.items() if tok.kind == "mastery")
    for kind in ("master_key", "backpack", "crown"):
        items = [m for m in cat.market.values() if m.kind == kind]
        st.market[kind] = [m.id for m in sorted(items, key=lambda m: (-m.vp, m.id))]
    st.reserve = {pile: list(ct.ids) for pile, ct in cat.reserve_piles.items() if pile != "goblin"}
    # CK-4.10: opening row without dragon cards; those go back and the whole deck is reshuffled
    deck = st.rng.shuffled(cat.dungeon_ids)
    aside: list[str] = []
    slot = 0
    while slot < const["row_size"]:
        cid = deck.pop(0)
        if cat.card_types[cat.type_of[cid]].dragon:
            aside.append(cid)
            log.public("opening_set_aside", card=cid, card_type=cat.type_of[cid])
        else:
            st.row[slot] = cid
            log.public("refill", slot=slot, card=cid, card_type=cat.type_of[cid])
            slot += 1
    deck.extend(aside)
    st.rng.shuffle(deck)
    st.ddeck = deck
    # CK-4.11: starting clank
    for s, p in enumerate(st.p):
        k = const["start_clank"][s]
        p.supply -= k
        p.area += k
    # CK-4.12: Arrive text of the opening row, slot order; no attack at setup
    for opening in st.row:
        assert opening is not None
        ct = cat.card_types[cat.type_of[opening]]
        if ct.arrive:
            log.public("arrive", card=opening, card_type=ct.type)
            resolve_now(st, ct.arrive, opening)
    # CK-4.13
    st.round = 1
    st.active = 0
    start_turn(st, 0)
    return st
