"""MM-5.25, MM-6.9, MM-6.11, MM-6.15: exploring, room rules, encounter cards and Map Scrap."""
from __future__ import annotations

from typing import Any

from ..actions import ChooseEncounter, Decline, Explore, UseMapScrap
from ..catalog import content
from ..model import MMModel
from . import cheese, flow
from .board import AREAS
from .dispatch import RULES
from .hooks import call

C = content()


def exit_of(st: MMModel, area: str) -> Any:
    return C.exits.get(f"{st.chapter}:{area}")


def room_of(st: MMModel, side: str) -> Any:
    return C.rooms.get(f"{st.chapter}:{side}")


def explore_options(st: MMModel, mouse: str) -> list[dict[str, Any]]:
    """MM-5.25 in a usable exit/flip area, no monster on the side, not in water, not stunned."""
    m = st.mice[mouse]
    if st.monsters or m.area is None or AREAS[m.area].water or "stunned" in m.statuses:
        return []
    return [Explore.wire(m.area)] if exit_of(st, m.area) is not None else []


def explore(st: MMModel, mouse: str, area: str) -> None:
    """MM-6.9 steps 1-5 (a Map Scrap decision may interrupt step 5)."""
    ex = exit_of(st, area)
    st.log.public("explore", mouse=mouse, area=area)
    if ex.kind == "victory":
        cheese.finish(st, True, "escaped")  # MM-8.1 chapter 1
        return
    if ex.kind == "flip":
        st.traps = [t for t in st.traps if AREAS[t].side != st.side]
    for m in st.mice.values():
        if not m.captured:
            m.area = ex.to_area
    st.side = ex.to_side
    if ex.to_side not in st.sides_entered:
        st.sides_entered.append(ex.to_side)
    st.encounter["keyword"] = ""
    st.encounter["keyword_side"] = ""
    st.log.public("enter_side", side=st.side)
    room = room_of(st, st.side)
    if room is not None:
        for t in room.traps:
            if t not in st.traps:
                st.traps.append(t)
        st.traps.sort()
    if room is not None and room.monsters:
        for mtype, where in room.monsters:
            cheese.place_fixed(st, mtype, where)
        if room.special_surge:
            st.encounter["surge"] = list(room.special_surge)
            st.encounter["surge_used"] = False
        flow.establish_initiative(st)
        return
    colour = room.encounter if room is not None and room.encounter else C.sides[st.side].colour
    draws = 0
    if "s31" in st.party_stash:
        draws = call("map_scrap", st, "encounter_draws", C.cards["s31"], {})
    if draws and len(st.enc_decks[colour]) + len(st.enc_discards[colour]) >= 2:
        st.stack.push("map_scrap", st.mice[mouse].seat, mouse=mouse, colour=colour)
        return
    reveal(st, colour, draw_card(st, colour))


def draw_card(st: MMModel, colour: str) -> str:
    """The top card; an empty deck is refilled by shuffling that colour's discard pile (MM-6.9 step 5)."""
    deck = st.enc_decks[colour]
    if not deck:
        deck.extend(st.enc_discards[colour])
        st.enc_discards[colour] = []
        st.rng.shuffle(deck)
        st.known_bottom[colour] = None
    card = deck.pop(0)
    if st.known_bottom[colour] == card:
        st.known_bottom[colour] = None
    return card


def reveal(st: MMModel, colour: str, card: str) -> None:
    """MM-6.9 step 5-6: discard the previous card, place the page's column, keyword, surge, initiative."""
    enc = st.encounter
    if enc["current"] is not None:
        st.enc_discards[C.encounters[enc["current"]].colour].append(enc["current"])
    row = C.encounters[card]
    enc["current"] = card
    st.log.public("encounter", card=card)
    column = row.p1 if st.hourglass <= 3 else row.p4 if st.hourglass <= 6 else row.p7
    cheese.place_figures(st, list(column), surprise=False)
    if row.keyword:
        enc["keyword"] = row.keyword
        enc["keyword_side"] = st.side
        call(row.keyword, st, "reveal", row, {})
    enc["surge"] = list(row.surge)
    enc["surge_used"] = False
    flow.establish_initiative(st)


def map_scrap_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [UseMapScrap.wire(), Decline.wire()]


@RULES.on(Decline)
def decline(st: MMModel, seat: int, a: Decline) -> None:
    """MM-6.15 keep Map Scrap: the top card is revealed."""
    colour = st.stack.pop().data["colour"]
    reveal(st, colour, draw_card(st, colour))


@RULES.on(UseMapScrap)
def use_map_scrap(st: MMModel, seat: int, a: UseMapScrap) -> None:
    """MM-6.15 draw 2, choose 1, the other to the bottom (publicly known, MM-7.3)."""
    frame = st.stack.pop()
    colour = frame.data["colour"]
    st.party_stash.remove("s31")
    st.search_discard.append("s31")
    first = draw_card(st, colour)
    second = draw_card(st, colour)
    st.log.public("map_scrap", cards=[first, second])
    st.stack.push("choose_encounter", frame.seat, colour=colour, cards=[first, second])


def choose_encounter_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [ChooseEncounter.wire(c) for c in data["cards"]]


@RULES.on(ChooseEncounter)
def choose_encounter(st: MMModel, seat: int, a: ChooseEncounter) -> None:
    frame = st.stack.pop()
    colour = frame.data["colour"]
    other = next(c for c in frame.data["cards"] if c != a.card)
    st.enc_decks[colour].append(other)
    st.known_bottom[colour] = other
    reveal(st, colour, a.card)
