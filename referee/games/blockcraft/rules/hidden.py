"""BC-7.3 / BC-7.6: re-drawing what one seat cannot see (for the no-leak test and search bots)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from referee.engine import Rng

from ..model import BlockcraftModel


def redeterminize(st: BlockcraftModel, seat: int, rng: Rng) -> BlockcraftModel:
    """A copy where face-down cards (within their layer), the draw pile, other seats' hands and chests,
    the enchantment deck, unchosen and not-yet-revealed characters and ignored identity faces are
    re-drawn consistently with what ``seat`` has seen (each pool sorted before it is shuffled, so the copy
    depends only on that); the engine reseeds the copy's RNG."""
    cp = cast("BlockcraftModel", st.clone())
    cat = cp.cat
    # Face-down map cards: permuted among positions of the same layer (the layer is public).
    for layer in ("S", "U", "D"):
        spots = [c for stack in cp.cells for c in stack if c["s"] == "down" and c["l"] == layer]
        cards = rng.shuffled(sorted(c["c"] for c in spots))
        for spot, card in zip(spots, cards, strict=True):
            spot["c"] = card
    # Raw cards in the draw pile and other seats' hands/chests are one unknown pool; processed cards
    # in other seats' hands/chests another (the supply counts are public). Container sizes are kept.
    others = [p for p in cp.p if p.seat != seat]
    slots = _choice_slots(cp, seat)
    for raw in (True, False):
        pool: list[str] = list(cp.draw_pile) if raw else []
        mine = [(d, k, i, ok) for d, k, i, ok in slots if cat.cards[_get(d, k, i)].raw == raw]
        pool += [_get(d, k, i) for d, k, i, _ok in mine]
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
        pool = _deal_choices(cp, mine, pool, rng)
        for p, n in zip(others, hand_n, strict=True):
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
        for p, f in zip(hidden, faces, strict=True):
            p.identity = f
    cp.mv += 1
    return cp


def _pool_key(st: BlockcraftModel, character: str) -> str:
    fac = st.cat.characters[character].faction
    if st.mode == "team":
        return fac
    return "boss" if fac == "boss" else "normal"


# A hand card chosen for an open place / use / smelt batch of another seat is hidden (BC-7.3) until the
# action commits; re-drawn like a hand card, but only with a card that fits the choice (what the viewer
# knows: a PLACE_TARGET holds a placeable card, a USE_TARGET a card used on a cell, a batch smeltable
# materials and fuels).
Slot = tuple[dict[str, Any], str, "int | None", Callable[[Any], bool]]


def _choice_slots(st: BlockcraftModel, seat: int) -> list[Slot]:
    out: list[Slot] = []
    for f in st.stack.frames:
        if f.seat == seat:
            continue
        d = f.data
        if f.kind == "place_target":
            out.append((d, "card", None, lambda c: c.placeable))
        elif f.kind == "use_target":
            out.append((d, "card", None, lambda c: c.use_effect is not None and c.kind != "food"))
        elif f.kind == "smelt":
            out += [(d, "materials", i, lambda c: c.smelt_to is not None) for i in range(len(d["materials"]))]
            out += [(d, "fuels", i, lambda c: bool(c.fuel)) for i in range(len(d["fuels"]))]
    return out



def _get(d: dict[str, Any], key: str, i: int | None) -> str:
    return d[key] if i is None else d[key][i]


def _set(d: dict[str, Any], key: str, i: int | None, card: str) -> None:
    if i is None:
        d[key] = card
    else:
        d[key][i] = card


def _deal_choices(st: BlockcraftModel, slots: list[Slot], pool: list[str], rng: Rng) -> list[str]:
    """Fill each slot with a random fitting card of the (shuffled) pool; returns the rest of the pool. The
    true cards always fit, so a few retries find a complete assignment; if none does, the truth is kept
    (never observed in tests: every slot type has many fitting cards)."""
    if not slots:
        return pool
    cards = st.cat.cards
    for _ in range(8):
        left = list(pool)
        picks: list[str] = []
        for _d, _k, _i, ok in slots:
            fit = [j for j, c in enumerate(left) if ok(cards[c])]
            if not fit:
                break
            picks.append(left.pop(fit[rng.below(len(fit))]))
        if len(picks) == len(slots):
            for (d, k, i, _ok), c in zip(slots, picks, strict=True):
                _set(d, k, i, c)
            return left
    left = list(pool)
    for d, k, i, _ok in slots:
        left.remove(_get(d, k, i))
    return left
