"""GB-6.14 the shared decks (hero, item, curse, monster): shuffled lazily, taken from the top, cards shuffled
in; GB-6.14.2 drawing a monster.

[design] A shuffle of the hero, item, curse or monster deck only marks it unsettled; the order of its
top cards is drawn (partial Fisher-Yates with the state RNG) when they are taken or revealed. Every
order has the same probability as with a full shuffle up front, but a short game draws ~15 cards of
~140 (setup dominated 1-seat games). ``settled[key]`` = how many top cards have their final order; a
deck without an entry is in its final order (also decks a scenario builds).
"""
from __future__ import annotations

from ..model import GreyportModel

DECKS = {"hero": "hero_deck", "item": "item_deck", "curse": "curse_deck", "monster": "monster_deck"}


def shared_deck(st: GreyportModel, key: str) -> list[str]:
    return getattr(st, DECKS[key])


def shuffle_deck(st: GreyportModel, key: str) -> None:
    """Shuffle a shared deck: lazily, or at once with ``rng.shuffle`` on a state with ``eager_shuffles``."""
    if st.eager_shuffles:
        st.rng.shuffle(shared_deck(st, key))
        st.settled.pop(key, None)
    elif len(shared_deck(st, key)) > 1:
        st.settled[key] = 0
    else:
        st.settled.pop(key, None)


def settle(st: GreyportModel, key: str, k: int) -> list[str]:
    """Fix the order of the deck's top ``k`` cards; returns the deck."""
    deck: list[str] = getattr(st, DECKS[key])
    i = st.settled.get(key)
    if i is None:
        return deck
    n = len(deck)
    below = st.rng.below
    while i < min(k, n - 1):
        j = i + below(n - i)
        deck[i], deck[j] = deck[j], deck[i]
        i += 1
    if i >= n - 1:
        del st.settled[key]
    else:
        st.settled[key] = i
    return deck


def take_top(st: GreyportModel, key: str) -> str:
    settled = st.settled
    i = settled.get(key)
    if i is None:
        return getattr(st, DECKS[key]).pop(0)
    if i > 0:
        card = getattr(st, DECKS[key]).pop(0)
        settled[key] = i - 1
        return card
    # ``settle(key, 1)`` inlined (the common case: an unsettled deck, one card taken): the same RNG
    # draw and swap, so the same order as a full shuffle up front
    deck: list[str] = getattr(st, DECKS[key])
    n = len(deck)
    if n > 1:
        j = st.rng.below(n)
        deck[0], deck[j] = deck[j], deck[0]
    if n - 1 <= 1:
        del settled[key]
    else:
        settled[key] = 0
    return deck.pop(0)


def shuffle_in(st: GreyportModel, key: str, cards: list[str]) -> None:
    """Put cards into a deck at random (GB-4.3.2 "put back and shuffle")."""
    deck = shared_deck(st, key)
    if key in st.settled:
        deck.extend(cards)        # the unsettled part has no order yet
        return
    for c in cards:
        deck.insert(st.rng.below(len(deck) + 1), c)


def draw_monster(st: GreyportModel) -> str | None:
    """GB-6.14.2: empty deck -> shuffle the discard in; both empty -> None."""
    if not st.monster_deck:
        if not st.monster_discard:
            return None
        st.monster_deck = st.monster_discard
        st.monster_discard = []
        shuffle_deck(st, "monster")
        st.log.public("monster_reshuffle", deck_size=len(st.monster_deck))
    return take_top(st, "monster")
