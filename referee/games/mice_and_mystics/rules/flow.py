"""MM-5.1-5.13: rounds, the initiative track, the surprise row, turn start/end and time is short."""
from __future__ import annotations

from ..catalog import content
from ..model import MMModel
from . import board, care, cheese, monsters, movement

C = content()


def is_mouse_card(card: str) -> bool:
    return card[5:] in C.heroes


def card_alive(st: MMModel, card: str) -> bool:
    """A monster card stays while a figure of its type is on the board (boss card: while unfilled)."""
    key = card[5:]
    if key in C.heroes:
        return True
    if key in C.boss_cards:
        boss = st.boss
        return boss is not None and key in boss["cards"] and boss["cards"][key] < C.boss_cards[key].life \
            and boss["monster"] in st.monsters
    return any(m.type == key for m in st.monsters.values())


def establish_initiative(st: MMModel) -> None:
    """MM-5.4-5.6: full reshuffle when no monster card is on the track, else append new types' cards."""
    types: list[str] = []
    for m in st.monsters.values():
        if not C.monsters[m.type].boss and m.type not in types:
            types.append(m.type)
    boss_cards = [f"init:{c}" for c in st.boss["order"] if card_alive(st, f"init:{c}")] if st.boss else []
    if not any(not is_mouse_card(c) for c in st.track):
        cards = [f"init:{h}" for h in st.mouse_order] + [f"init:{t}" for t in types] + boss_cards
        st.rng.shuffle(cards)
        st.track = cards
        st.surprise = [c for c in st.surprise if c not in cards]
        st.reshuffled = True
        st.log.public("initiative", track=list(cards), reshuffle=True)
    else:
        new = [f"init:{t}" for t in types if f"init:{t}" not in st.track and f"init:{t}" not in st.surprise]
        new += [c for c in boss_cards if c not in st.track and c not in st.surprise]
        st.rng.shuffle(new)
        st.track.extend(new)
        st.log.public("initiative", track=list(st.track), reshuffle=False)


def remove_card(st: MMModel, card: str) -> None:
    """MM-5.37 / MM-6.10 c a card leaves the track and the surprise row."""
    if card in st.track:
        st.track.remove(card)
    if card in st.surprise:
        st.surprise.remove(card)
    st.log.public("card_removed", card=card)


def lowest_mouse_card(st: MMModel) -> str | None:
    for c in reversed(st.track):
        if is_mouse_card(c):
            return c
    return None


def new_round(st: MMModel) -> None:
    """MM-5.1 / MM-8.2 a new round, unless the round limit is passed."""
    st.round += 1
    st.acted = []
    if st.round > st.options["round_limit"]:
        cheese.finish(st, False, "round_limit")
        return
    st.log.public("round", round=st.round)


def advance(st: MMModel) -> None:
    """Run everything automatic until a seat must decide or the game is over."""
    while st.result is None and not st.stack:
        t = st.turn
        if t is not None:
            if t["kind"] == "mouse":
                if not t.get("ending") and st.mice[t["mouse"]].captured:
                    t["ending"] = True  # MM-6.18 b
                if t.get("ending"):
                    end_card_turn(st)
                    continue
                return
            if monsters.run_monster_turn(st):
                end_card_turn(st)
            continue
        if st.surprise:
            card = st.surprise.pop(0)
            start_card_turn(st, card, surprise=True)
            continue
        if st.tis_pending:
            st.tis_pending = False
            if not st.monsters:  # MM-5.13
                st.log.public("time_is_short")
                cheese.add_wheel(st, 1, "time_is_short")
            continue
        if st.reshuffled:
            st.reshuffled = False
            new_round(st)
            continue
        nxt = next((c for c in st.track if c not in st.acted), None)
        if nxt is None:
            new_round(st)
            continue
        start_card_turn(st, nxt, surprise=False)


def start_card_turn(st: MMModel, card: str, surprise: bool) -> None:
    """MM-5.11 (mouse) / MM-5.39 (monster) the start of one card's turn."""
    st.ability_used = []  # MM-5.31
    st.log.public("turn", card=card, surprise=surprise, round=st.round)
    key = card[5:]
    if key in C.heroes:
        m = st.mice[key]
        m.taunt = False
        m.ward = False
        if m.captured:
            st.turn = {"kind": "mouse", "card": card, "mouse": key, "surprise": surprise, "ending": True,
                       "rescue": True}
            if not st.monsters and care.rescue_areas(st):  # MM-6.5 d
                st.stack.push("rescue", m.seat, mouse=key)
            return
        face = cheese.roll(st, 1, "move", key)[0]
        st.turn = {"kind": "mouse", "card": card, "mouse": key, "surprise": surprise, "ending": False,
                   "move_roll": f"F{face}", "normal": "unused",
                   "normal_mp": movement.move_value(st, key) + board.NUMBER[face], "scurry": None,
                   "scurry_mp": 0, "steps": 0, "action": False, "free": [], "hook": False, "slip": False}
        return
    st.turn = {"kind": "monster", "card": card, "surprise": surprise,
               "order": monsters.monster_order(st, card), "i": 0, "stage": 0, "attacks": 0, "attacked": []}


def end_card_turn(st: MMModel) -> None:
    """MM-5.12 movement lost, current, limits reset; surprise cards go to the bottom of the track."""
    t = st.card_turn
    st.turn = None
    card = t["card"]
    if t["kind"] == "mouse" and not t.get("rescue"):
        movement.apply_current(st, t["mouse"])
    if t["surprise"] and card_alive(st, card) and card not in st.track:
        st.track.append(card)  # MM-5.9 to the bottom of the track
    st.acted.append(card)
    if not t["surprise"] and not st.reshuffled and card == lowest_mouse_card(st):
        st.tis_pending = True
