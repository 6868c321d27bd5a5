"""MM-4: setup (hero draft, ability choice, gear, board, figures, story board, random steps)."""
from __future__ import annotations

from typing import Any

from referee.engine import Rng

from .catalog import content
from .model import STAT_KEYS, MMModel, Mouse
from .rules import cheese, flow
from .state import MMState

C = content()


def new_state(game: Any, players: int, options: dict[str, Any], rng: Rng) -> MMState:
    """An empty state; what depends on the options and the seat count: chapter, end page, figures."""
    st = MMState(game, players, options, rng)
    st.chapter = str(options.get("chapter", 1))
    st.end_page = C.chapters[st.chapter].end_page
    st.stats = [{k: 0 for k in STAT_KEYS} for _ in range(players)]
    return st


def setup(game: Any, players: int, options: dict[str, Any], seed: int) -> MMState:
    """MM-4.1-4.3 heroes from the option, else a hero draft (seats 0..n-1 repeating)."""
    st = new_state(game, players, options, Rng(seed))
    chapter = C.chapters[st.chapter]
    st.side = chapter.start_side
    st.sides_entered = [st.side]
    heroes = options["heroes"]
    if heroes:
        assignment = options["assignment"] or [i % players for i in range(4)]
        for h, seat in zip(heroes, assignment, strict=True):
            _add_mouse(st, h, seat)
        _next_ability(st)
    else:
        st.stack.push("draft_hero", 0, pick=0)
    st.log.public("setup", chapter=int(st.chapter), players=players)
    return st


def _add_mouse(st: MMModel, hero: str, seat: int) -> None:
    st.mice[hero] = Mouse(hero, seat)
    st.mouse_order.append(hero)
    st.log.public("hero", hero=hero, seat=seat)


def _next_ability(st: MMModel) -> None:
    """MM-4.4 each mouse in mouse order picks an unclaimed class-matching ability card."""
    for h in st.mouse_order:
        if not st.mice[h].abilities:
            st.stack.push("choose_ability", st.mice[h].seat, mouse=h)
            return
    finish_setup(st)


def ability_choices(st: MMModel, hero: str) -> list[str]:
    classes = C.heroes[hero].classes
    return [a for a in st.ability_pool if C.abilities[a].cls == "any" or C.abilities[a].cls in classes]


def draft_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    top = st.stack.top()
    assert top is not None
    if top.kind == "draft_hero":
        return [{"type": "choose_hero", "hero": h} for h in C.heroes if h not in st.mice]
    return [{"type": "choose_ability", "mouse": data["mouse"], "ability": a}
            for a in ability_choices(st, data["mouse"])]


def draft_apply(st: MMModel, action: dict[str, Any]) -> None:
    frame = st.stack.pop()
    if action["type"] == "choose_hero":
        _add_mouse(st, action["hero"], frame.seat)
        pick = frame.data["pick"] + 1
        if pick < 4:
            st.stack.push("draft_hero", pick % st.players, pick=pick)
        else:
            _next_ability(st)
        return
    st.ability_pool.remove(action["ability"])
    st.mice[action["mouse"]].abilities.append(action["ability"])
    st.log.public("ability_chosen", mouse=action["mouse"], ability=action["ability"])
    _next_ability(st)


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
