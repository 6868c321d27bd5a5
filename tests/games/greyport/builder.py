"""Test-state builder for Greyport rule tests: a small state from a plain dict and a scripted RNG.

A ``setup`` table names only what matters; everything else is empty. The GB section 10 worked scenarios are
``arena-scenario/1`` files (``scenarios/*.json``, converted from this builder's states and checked against its
old runner) run by ``tests/games/test_scenarios.py``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from referee.engine import Rng
from referee.games.greyport import GAME
from referee.games.greyport.catalog import load_content
from referee.games.greyport.model import PlayerState
from referee.games.greyport.rules.core import push
from referee.games.greyport.rules.flow import advance
from referee.games.greyport.state import GreyportState

C = load_content()
T = TypeVar("T")
CHARS = ["WAR", "ROG", "PYR", "LGT", "CHR"]


#: die code by its faces (no two dice have the same faces: the faces a roll is drawn from name the die)
DIE_OF = {faces: code for code, faces in C.dice.items()}
assert len(DIE_OF) == len(C.dice)


class ScriptedRng(Rng):
    """Forced die faces (by die code) and shuffle orders; falls back to a seeded generator."""

    def __init__(self, dice: list[list[Any]] | None = None, shuffles: list[list[str]] | None = None) -> None:
        super().__init__(0)
        self.forced_dice = [list(d) for d in dice or []]
        self.forced_shuffles = [list(s) for s in shuffles or []]

    def choice(self, seq: Sequence[T]) -> T:
        """A die roll (``rules.fight.roll``: a choice among the die's faces) takes the next forced face, which
        must be one of the die the rules roll; other choices, and rolls once the script is used up, are
        seeded."""
        die = DIE_OF.get(seq) if isinstance(seq, tuple) else None
        if die is not None and self.forced_dice:
            code, face = self.forced_dice.pop(0)
            assert code == die, f"scripted die {code} but the engine rolled a {die} die"
            assert face in C.dice[die], f"{face} is not a face of a {die} die"
            return cast(T, int(face))
        return super().choice(seq)

    def shuffle(self, seq: Any) -> None:
        if self.forced_shuffles and seq:
            top = self.forced_shuffles.pop(0)
            rest = [c for c in seq if c not in top]
            missing = [c for c in top if c not in seq]
            assert not missing, f"scripted shuffle names cards not in the deck: {missing}"
            seq[:] = top + rest
            return
        super().shuffle(seq)


def build(spec: dict[str, Any]) -> tuple[GreyportState, ScriptedRng]:
    n = spec["players"]
    opts = GAME.options.validate(spec.get("options", {}))
    setup = spec.get("setup", {})
    rng_spec = spec.get("rng", {})
    rng = ScriptedRng(rng_spec.get("dice"), rng_spec.get("shuffles"))
    st = GreyportState(GAME, n, opts, rng)
    # Shared decks are shuffled lazily by the engine; a test scripts whole shuffle orders, so its shuffles
    # happen at once (scripted top, or the seeded generator) and leave the deck settled.
    st.eager_shuffles = True
    chars = setup.get("characters") or CHARS[:n]
    st.players_ = [PlayerState(character=chars[s]) for s in range(n)]
    st.groups = [[] for _ in range(n)]
    st.enc_index = setup.get("enc_index", 0)
    st.token_supply = {d: [f"{d}#{k}" for k in range(1, C.monsters[d].count + 1)] for d in C.token_designs}
    st.curse_deck = list(setup.get("curse_deck", []))
    st.phase = setup.get("phase", "action")
    st.defender = setup.get("defender", 0)
    st.priority = setup.get("priority", st.defender)
    st.marker = setup.get("marker", "taunt")
    st.passes = setup.get("passes", 0)
    st.encounter_round = setup.get("encounter_round", 1)
    for s, pd in enumerate(setup.get("seats", [])):
        p = st.players_[s]
        for k, v in pd.items():
            if k == "coins":
                p.coins.update(v)
            elif k == "play":
                p.play = [{"card": e["card"], "exhausted": e.get("exhausted", False),
                           "fought": e.get("fought", False), "item": e.get("item"), "round_used": []}
                          for e in v]
                for e in p.play:
                    st.played.append([s, e["card"]])
                    if e["item"]:
                        st.played.append([s, e["item"]])
            elif k == "group":
                st.groups[s] = list(v)
            else:
                setattr(p, k, list(v) if isinstance(v, list) else v)
        if "max_hp" not in pd and "hp" in pd:
            p.max_hp = max(p.max_hp, p.hp)
    loc = setup.get("location")
    if loc:
        hp = C.locations[loc["id"]].hp
        st.loc = {"id": loc["id"], "hp": loc.get("hp", hp), "max_hp": loc.get("max_hp", hp),
                  "status": loc.get("status", "standing")}
        st.loc_group = list(loc.get("group", []))
        st.used_locations = [loc["id"]]
    for s in range(n):
        for m in st.groups[s]:
            st.dmg[m] = 0
    for m in st.loc_group:
        st.dmg[m] = 0
    for m, d in setup.get("damage", {}).items():
        st.dmg[m] = d
    for b in setup.get("bosses", []):
        st.bosses[b] = {"hp": C.monsters[b].hp_for(n), "status": "play", "damage": 0}
    for name in ("monster_deck", "monster_discard", "hero_deck", "item_deck", "factions_in"):
        if name in setup:
            setattr(st, name, list(setup[name]))
    for name in ("hero_row", "item_row"):
        if name in setup:
            setattr(st, name, [c or None for c in setup[name]])
    st.destroyed = setup.get("destroyed", 0)
    if "tasks" in setup:
        push(st, [{"op": op} if isinstance(op, str) else dict(op) for op in setup["tasks"]])
    st.actor = st.defender
    advance(st)
    return st, rng
