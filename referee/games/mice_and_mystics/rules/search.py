"""MM-5.26, MM-5.27, MM-6.13, MM-6.17: searching, keeping or discarding finds, pack overflow and events."""
from __future__ import annotations

from typing import Any

from ..actions import Discard, DiscardForCheese, Keep
from ..catalog import content
from ..model import MMModel
from . import cheese
from .board import AREAS, BURST
from .dispatch import RULES
from .hooks import call, keyword_mod, mouse_mod

C = content()
PACK_LIMIT = 3


def can_search(st: MMModel, mouse: str) -> bool:
    m = st.mice[mouse]
    return not (AREAS[m.at].water or "stunned" in m.statuses or st.side in m.searched_sides)


def search(st: MMModel, mouse: str) -> None:
    """MM-5.26 roll 1 die (+Whistle, +Crumbs Everywhere); a burst draws (Forgotten Cache: 2 cards)."""
    n = 1 + mouse_mod(st, mouse, "search_dice", {}) + keyword_mod(st, "search_dice")
    faces = cheese.roll(st, n, "search", mouse)
    if not any(f in BURST for f in faces):
        st.log.public("search_failed", mouse=mouse)
        return
    m = st.mice[mouse]
    m.searched_sides.append(st.side)
    st.credit(mouse, "successful_searches")
    draws = 1
    if st.side not in st.side_searched:
        st.side_searched.append(st.side)
        room = C.rooms.get(f"{st.chapter}:{st.side}")
        draws = room.first_search_draws if room is not None else 1
    for _ in range(draws):
        if not st.search_deck and st.search_discard:
            st.search_deck = list(st.search_discard)
            st.search_discard = []
            st.rng.shuffle(st.search_deck)
        if st.search_deck:
            st.search_queue.append(st.search_deck.pop(0))
    st.log.public("search_success", mouse=mouse, cards=list(st.search_queue))
    continue_search(st, mouse)


def continue_search(st: MMModel, mouse: str) -> None:
    """Resolve queued finds one after the other, by kind."""
    while st.search_queue and not st.stack and st.result is None:
        m = st.mice[mouse]
        if m.captured:
            st.search_discard.extend(st.search_queue)  # [design] a captured searcher's other find is lost
            st.search_queue = []
            return
        card = st.search_queue.pop(0)
        row = C.cards[card]
        if row.kind == "event":
            st.search_discard.append(card)
            st.log.public("event", card=card)
            call(row.effect, st, "event", row, {"mouse": mouse})
        elif row.kind == "party":
            st.party_stash.append(card)
            st.party_stash.sort()
        elif row.kind == "trick":
            m.tricks.append(card)
            m.tricks.sort()
        else:
            st.stack.push("search_result", m.seat, mouse=mouse, card=card)


def discard_cheese(st: MMModel, mouse: str) -> int:
    return 1 + mouse_mod(st, mouse, "discard_cheese", {})


def result_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [Keep.wire(), DiscardForCheese.wire()]


@RULES.on(Keep)
def keep(st: MMModel, seat: int, a: Keep) -> None:
    """MM-5.27 keep the find in the pack (overflow: discard one of 4)."""
    frame = st.stack.pop()
    mouse, card = frame.data["mouse"], frame.data["card"]
    m = st.mice[mouse]
    m.pack.append(card)
    st.log.public("keep", mouse=mouse, card=card)
    if len(m.pack) > PACK_LIMIT:
        st.stack.push("pack_overflow", m.seat, mouse=mouse)
    if not st.stack:
        continue_search(st, mouse)


@RULES.on(DiscardForCheese)
def discard_for_cheese(st: MMModel, seat: int, a: DiscardForCheese) -> None:
    """MM-5.27 discard the find for cheese."""
    frame = st.stack.pop()
    mouse = frame.data["mouse"]
    st.search_discard.append(frame.data["card"])
    cheese.gain_cheese(st, mouse, discard_cheese(st, mouse), "discard")
    if not st.stack:
        continue_search(st, mouse)


def overflow_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [Discard.wire(c) for c in st.mice[data["mouse"]].pack]


@RULES.on(Discard)
def discard(st: MMModel, seat: int, a: Discard) -> None:
    """MM-5.27 an overfull pack: discard one card for cheese."""
    frame = st.stack.pop()
    mouse = frame.data["mouse"]
    st.mice[mouse].pack.remove(a.card)
    st.search_discard.append(a.card)
    cheese.gain_cheese(st, mouse, discard_cheese(st, mouse), "discard")
    continue_search(st, mouse)
