"""A test-state builder for Mice and Mystics scenarios: a small state straight from data, scripted dice."""
from __future__ import annotations

from typing import Any

from referee.engine import Rng
from referee.games.mice_and_mystics import GAME
from referee.games.mice_and_mystics.catalog import content
from referee.games.mice_and_mystics.model import Monster, Monsters, Mouse
from referee.games.mice_and_mystics.rules import flow
from referee.games.mice_and_mystics.rules.movement import move_value
from referee.games.mice_and_mystics.setup import new_state
from referee.games.mice_and_mystics.state import MMState

C = content()


class ScriptedRng(Rng):
    """Dice come from a script (MM-3.1a "tests may inject forced faces"); shuffles stay seeded."""

    def __init__(self, seed: int, faces: list[int]) -> None:
        super().__init__(seed)
        self.faces = list(faces)
        self.used = 0

    def die(self, sides: int = 6) -> int:
        if not self.faces:
            raise AssertionError(f"a die was rolled after the {self.used} scripted faces ran out")
        self.used += 1
        return self.faces.pop(0)


def faces(spec: list[str]) -> list[int]:
    return [int(f[1:]) for f in spec]


def build(setup: dict[str, Any], dice: list[str], seed: int = 0) -> MMState:
    """Build a state from a scenario's [setup] table (chapter, side, mice, monsters, board, track)."""
    chapter = int(setup.get("chapter", 1))
    options = GAME.options.validate({"chapter": chapter})
    st = new_state(GAME, 1, options, ScriptedRng(seed, faces(dice)))
    st.side = setup["side"]
    st.sides_entered = list(setup.get("sides_entered", [st.side]))
    st.end_page = setup.get("end_page", st.end_page)
    st.hourglass = setup.get("hourglass", 1)
    st.wheel = setup.get("wheel", 0)
    st.traps = sorted(setup.get("traps", []))
    st.search_deck = list(setup.get("search_deck", [c for c, r in C.cards.items() if r.deck == "search"]))
    st.enc_decks = {"blue": list(setup.get("blue_deck",
                                           [e for e, r in C.encounters.items() if r.colour == "blue"])),
                    "orange": [e for e, r in C.encounters.items() if r.colour == "orange"]}
    st.side_searched = list(setup.get("side_searched", []))
    st.defeated_total = setup.get("defeated_total", 0)
    st.party_stash = list(setup.get("party_stash", []))
    enc = setup.get("encounter", {})
    st.encounter = {"current": enc.get("current"), "surge": list(enc.get("surge", [])),
                    "surge_used": enc.get("surge_used", False), "keyword": enc.get("keyword", ""),
                    "keyword_side": st.side if enc.get("keyword") else ""}
    for hero, m in setup["mice"].items():
        mouse = Mouse(hero, 0, area=m.get("area"), captured=m.get("captured", False),
                      wounds=m.get("wounds", 0), poison=m.get("poison", 0),
                      statuses=list(m.get("statuses", [])), cheese=m.get("cheese", 0),
                      equipped=list(m.get("equipped", C.heroes[hero].gear)), pack=list(m.get("pack", [])),
                      tricks=list(m.get("tricks", [])), abilities=list(m.get("abilities", [])),
                      searched_sides=list(m.get("searched_sides", [])))
        st.mice[hero] = mouse
        st.mouse_order.append(hero)
        for a in mouse.abilities:
            st.ability_pool.remove(a)
    for mo in setup.get("monsters", []):
        st.monsters[mo["id"]] = Monster(mo["id"], mo["type"], mo["area"], mo.get("wounds", 0),
                                        mo.get("pinned", False))
        st.supply[mo["type"]] -= 1
    st.monsters = Monsters(sorted(st.monsters.items(), key=lambda kv: int(kv[0][1:])))
    st.next_monster = setup.get("next_monster", max([int(k[1:]) for k in st.monsters] + [0]) + 1)
    for mtype, left in setup.get("supply", {}).items():
        st.supply[mtype] = left
    if "boss" in setup:
        b = setup["boss"]
        st.boss = {"monster": b["monster"], "type": "gristle", "cards": dict(b["cards"]),
                   "order": list(b["cards"]), "aside": [c for c in C.boss_cards if c not in b["cards"]]}
    st.track = list(setup["track"])
    st.acted = list(setup.get("acted", []))
    return st


def start(st: MMState, how: str) -> None:
    """``turn:<hero>`` (the turn starts, move roll first), ``main:<hero>`` (after the roll; MP = move + mp),
    ``card:<init card>`` (a monster card's turn)."""
    kind, _, who = how.partition(":")
    if kind == "main":
        st.turn = {"kind": "mouse", "card": f"init:{who}", "mouse": who, "surprise": False, "ending": False,
                   "move_roll": None, "normal": "unused", "normal_mp": move_value(st, who) + 1,
                   "scurry": None, "scurry_mp": 0, "steps": 0, "action": False, "free": [], "hook": False,
                   "slip": False}
        return
    card = f"init:{who}" if kind == "turn" else who
    flow.start_card_turn(st, card, surprise=False)
    flow.advance(st)
