"""BC-7.3 / BC-7.6: re-drawing what one seat cannot see (for the no-leak test and search bots)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Rng

if TYPE_CHECKING:
    from ..state import BlockcraftState


def redeterminize(st: BlockcraftState, seat: int, rng: Rng) -> BlockcraftState:
    """A copy where face-down cards (within their layer), the draw pile, other seats' hands and chests,
    the enchantment deck, unchosen and not-yet-revealed characters and ignored identity faces are
    re-drawn consistently with what ``seat`` has seen (each pool sorted before it is shuffled, so the copy
    depends only on that); the engine reseeds the copy's RNG."""
    cp = st.clone()
    cat = cp.cat
    # Face-down map cards: permuted among positions of the same layer (the layer is public).
    for layer in ("S", "U", "D"):
        spots = [c for stack in cp.cells for c in stack if c["s"] == "down" and c["l"] == layer]
        cards = rng.shuffled(sorted(c["c"] for c in spots))
        for spot, card in zip(spots, cards):
            spot["c"] = card
    # Raw cards in the draw pile and other seats' hands/chests are one unknown pool; processed cards
    # in other seats' hands/chests another (the supply counts are public). Container sizes are kept.
    others = [p for p in cp.p if p.seat != seat]
    for raw in (True, False):
        pool: list[str] = list(cp.draw_pile) if raw else []
        hand_n = []
        for p in others:
            cards = [c for c, n in p.hand.items() if cat.cards[c].raw == raw for _ in range(n)]
            hand_n.append(len(cards))
            pool += cards
            for c in cards:
                p.remove(c)
        chest_spots = [e for p in others for b in p.blocks if b is not None and "chest" in b
                       for e in b["chest"] if cat.cards[e[0]].raw == raw]
        pool += [e[0] for e in chest_spots]
        pool = rng.shuffled(sorted(pool))  # sorted: the copy must not depend on the true order
        for p, n in zip(others, hand_n):
            for c in pool[:n]:
                p.add(c)
            pool = pool[n:]
        for e in chest_spots:
            e[0] = pool.pop()
        for p in others:
            for b in p.blocks:
                if b is not None and "chest" in b:
                    b["chest"].sort()
        if raw:
            cp.draw_pile = pool
    cp.enchant_deck = rng.shuffled(sorted(cp.enchant_deck))
    # Characters: other seats' dealt options (during the choice) and the box are re-dealt per pool.
    if cp.phase == "choose_character":
        pools: dict[str, list[str]] = {}
        for c in cp.box_characters:
            pools.setdefault(_pool_key(cp, c), []).append(c)
        for p in others:
            for c in p.options:
                pools.setdefault(_pool_key(cp, c), []).append(c)
        for v in pools.values():
            v[:] = rng.shuffled(sorted(v))
        for p in others:
            opts = [pools[_pool_key(cp, c)].pop() for c in p.options]
            p.options = sorted(opts)
            if p.chosen is not None:
                p.chosen = p.options[rng.below(len(p.options))]
        cp.box_characters = sorted(c for v in pools.values() for c in v)
    else:
        rng.shuffle(cp.box_characters)
        cp.box_characters.sort()
    # Identity faces the mode ignores (never shown to anyone).
    if cp.mode != "team":
        hidden = [p for p in cp.p if not (cp.mode == "boss" and p.seat == cp.boss_seat)]
        faces = rng.shuffled(sorted(p.identity for p in hidden))
        for p, f in zip(hidden, faces):
            p.identity = f
    cp.mv += 1
    cp._legal = None
    return cp


def _pool_key(st: BlockcraftState, character: str) -> str:
    fac = st.cat.characters[character].faction
    if st.mode == "team":
        return fac
    return "boss" if fac == "boss" else "normal"
