"""MM-4.3-4.12: the hero draft, the starting ability choice, then gear, figures and the random steps."""
from __future__ import annotations

from typing import Any

from ..actions import ChooseAbility, ChooseHero
from ..catalog import content
from ..model import MMModel, Mouse
from . import cheese, flow
from .dispatch import RULES

C = content()


def add_mouse(st: MMModel, hero: str, seat: int) -> None:
    st.mice[hero] = Mouse(hero, seat)
    st.mouse_order.append(hero)
    st.log.public("hero", hero=hero, seat=seat)


def next_ability(st: MMModel) -> None:
    """MM-4.4 each mouse in mouse order picks an unclaimed class-matching ability card."""
    for h in st.mouse_order:
        if not st.mice[h].abilities:
            st.stack.push("choose_ability", st.mice[h].seat, mouse=h)
            return
    finish_setup(st)


def ability_choices(st: MMModel, hero: str) -> list[str]:
    classes = C.heroes[hero].classes
    return [a for a in st.ability_pool if C.abilities[a].cls == "any" or C.abilities[a].cls in classes]


def hero_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [ChooseHero.wire(h) for h in C.heroes if h not in st.mice]


def ability_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [ChooseAbility.wire(data["mouse"], a) for a in ability_choices(st, data["mouse"])]


@RULES.on(ChooseHero)
def choose_hero(st: MMModel, seat: int, a: ChooseHero) -> None:
    """MM-4.3 draft a hero: seats 0..n-1 repeating, then the ability cards."""
    frame = st.stack.pop()
    add_mouse(st, a.hero, frame.seat)
    pick = frame.data["pick"] + 1
    if pick < 4:
        st.stack.push("draft_hero", pick % st.players, pick=pick)
    else:
        next_ability(st)


@RULES.on(ChooseAbility)
def choose_ability(st: MMModel, seat: int, a: ChooseAbility) -> None:
    st.stack.pop()
    st.ability_pool.remove(a.ability)
    st.mice[a.mouse].abilities.append(a.ability)
    st.log.public("ability_chosen", mouse=a.mouse, ability=a.ability)
    next_ability(st)


def finish_setup(st: MMModel) -> None:
    """MM-4.5-4.12 gear, figures, story board, then the random steps in order; round 1 starts."""
    chapter = C.chapters[st.chapter]
    for m in st.mice.values():
        m.equipped = list(C.heroes[m.id].gear)
        m.area = chapter.start_area
    room = C.rooms.get(f"{st.chapter}:{st.side}")
    if room is not None:
        for mtype, area in room.monsters:
            cheese.place_fixed(st, mtype, area)
        st.traps = sorted(room.traps)
        st.encounter["surge"] = list(room.special_surge)
    st.search_deck = [c for c, row in C.cards.items() if row.deck == "search"]
    st.rng.shuffle(st.search_deck)
    for colour in ("blue", "orange"):
        st.enc_decks[colour] = [e for e, row in C.encounters.items() if row.colour == colour]
        st.rng.shuffle(st.enc_decks[colour])
    flow.establish_initiative(st)
    st.reshuffled = False  # MM-4.12 round 1 starts with the top card
    flow.advance(st)
