"""BC-1.3 / BC-5.26: the game state (players, map, piles) and the ``State`` contract.

The rules live in ``rules/`` (one module per mechanic); this class holds the data, answers the
contract's questions and dispatches decisions. Everything random comes from ``self.rng``.
"""
from __future__ import annotations

from typing import Any

from referee.engine import DecisionStack, Game, Outcome, Rng, State, Viewer
from referee.engine.events import EventLog

from .catalog import Catalog, catalog
from .observe import build_view
from .rules.endgame import make_outcome
from .rules.flow import dispatch
from .rules.hidden import redeterminize as _redeterminize
from .rules.legal import legal_for

PER_TURN = ("ap", "ap_spent", "touched", "touch_hits", "ores_gathered", "moves", "places", "digs_free",
            "timber_used", "villager_used", "skill_used", "decisions")


class Player:
    """One seat's character and area (BC-1.4 "area": hand, chest, equipment, furnace batch)."""

    __slots__ = ("seat", "character", "options", "chosen", "identity", "alive", "downed", "downed_by",
                 "cell", "airborne", "air_h", "stamina", "max_stamina", "hunger", "max_hunger", "xp",
                 "xp_earned", "kills", "kill_xp", "hand", "tools", "armour", "blocks", "fatigue",
                 "detonate_used", "stored", "retrieved", *PER_TURN)

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.character: str | None = None
        self.options: list[str] = []
        self.chosen: str | None = None
        self.identity = ""
        self.alive = True
        self.downed = False
        self.downed_by: int | None = None
        self.cell: list[int] | None = None
        self.airborne = False
        self.air_h = 0
        self.stamina = self.max_stamina = 0
        self.hunger = self.max_hunger = 0
        self.xp = self.xp_earned = self.kills = self.kill_xp = 0
        self.hand: dict[str, int] = {}
        self.tools: list[dict[str, Any] | None] = [None, None]
        self.armour: dict[str, Any] | None = None
        self.blocks: list[dict[str, Any] | None] = [None, None]
        self.fatigue = False
        self.detonate_used = False
        self.stored: dict[str, int] = {}
        self.retrieved: dict[str, int] = {}
        self.reset_turn()

    def reset_turn(self) -> None:
        """BC-5.3 step 2: per-turn counters."""
        self.ap = self.ap_spent = self.touch_hits = self.ores_gathered = 0
        self.moves = self.places = self.digs_free = self.decisions = 0
        self.touched = self.timber_used = self.villager_used = self.skill_used = False
        self.stored = {}
        self.retrieved = {}

    @property
    def active(self) -> bool:
        """Living and not downed: can act, be targeted and rescue (BC-6.3.5)."""
        return self.alive and not self.downed

    def hand_size(self) -> int:
        return sum(self.hand.values())

    def add(self, card: str, n: int = 1) -> None:
        self.hand[card] = self.hand.get(card, 0) + n

    def remove(self, card: str, n: int = 1) -> None:
        left = self.hand[card] - n
        if left:
            self.hand[card] = left
        else:
            del self.hand[card]

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__slots__}
        out["hand"] = dict(sorted(self.hand.items()))
        out["tools"] = [_copy_slot(t) for t in self.tools]
        out["armour"] = _copy_slot(self.armour)
        out["blocks"] = [_copy_slot(b) for b in self.blocks]
        out["cell"] = list(self.cell) if self.cell else None
        out["options"] = list(self.options)
        out["stored"] = dict(sorted(self.stored.items()))
        out["retrieved"] = dict(sorted(self.retrieved.items()))
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls.__new__(cls)
        for k in cls.__slots__:
            setattr(p, k, d[k])
        p.hand = dict(d["hand"])
        p.tools = [_copy_slot(t) for t in d["tools"]]
        p.armour = _copy_slot(d["armour"])
        p.blocks = [_copy_slot(b) for b in d["blocks"]]
        p.cell = list(d["cell"]) if d["cell"] else None
        p.options = list(d["options"])
        p.stored = dict(d["stored"])
        p.retrieved = dict(d["retrieved"])
        return p


def _copy_slot(slot: dict[str, Any] | None) -> dict[str, Any] | None:
    """A deep-enough copy of an equipment slot (lists inside are copied)."""
    if slot is None:
        return None
    out = dict(slot)
    if "ench" in out:
        out["ench"] = list(out["ench"])
    if "chest" in out:
        out["chest"] = [list(e) for e in out["chest"]]
    if out.get("batch") is not None:
        out["batch"] = {k: list(v) for k, v in out["batch"].items()}
    return out


class BlockcraftState(State):
    """A Blockcraft game in progress (BC-4 setup through BC-8 outcome)."""

    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng,
                 log: EventLog | None = None) -> None:
        super().__init__(game, players, options, rng, log)
        self.cat: Catalog = catalog()
        self.mode: str = options["mode"]
        # BC-4.1 (spec 1.1): 36 rounds solo (it was 30), 40 otherwise
        self.max_rounds: int = options["max_rounds"] or (36 if players == 1 else 40)
        self.admin: int = options["admin_seat"]
        self.size = self.cat.size_for(players)
        self.w, self.h = self.size.width, self.size.height
        self.p = [Player(s) for s in range(players)]
        # Map: row-major list of stacks; a stack is bottom -> top; a card is a dict:
        # {"c": card id, "s": "down"|"placed"|"loose"|"farmland", "l": layer or None, "by": [seat, tool] |
        # None}
        self.cells: list[list[dict[str, Any]]] = []
        self.phase = "choose_character"   # choose_character | choose_start | turn | over
        self.step = "action"              # within a turn: action | discard | end
        self.current = self.admin
        self.round = 0
        self.day = True
        self.start_queue: list[int] = []
        self.stack = DecisionStack()
        self.draw_pile: list[str] = []
        self.discard_pile: list[str] = []
        self.supply: dict[str, int] = {}
        self.enchant_deck: list[str] = []
        self.enchant_discard: list[str] = []
        self.boss_seat: int | None = None
        self.identity_public = False
        self.box_characters: list[str] = []
        self.death_order: list[int] = []
        self.result: dict[str, Any] | None = None
        self.next_uid = 1
        self.turn_over = False
        self._legal_memo: tuple[int, list[dict[str, Any]]] | None = None
        self.mv = 0   # map version: bumped on every map change (cache key of the map view)
        self._map_view: dict[str, Any] = {}

    # -- small helpers used by every rules module ------------------------------------------
    def cell(self, x: int, y: int) -> list[dict[str, Any]]:
        return self.cells[y * self.w + x]

    def H(self, x: int, y: int) -> int:
        return len(self.cells[y * self.w + x])

    def discard_card(self, card: str, n: int = 1) -> None:
        """BC-6.9: raw cards go face up to the discard pile, processed cards back to the supply."""
        if self.cat.cards[card].raw:
            self.discard_pile.extend([card] * n)
        else:
            self.supply[card] = self.supply.get(card, 0) + n

    def draw(self, seat: int, why: str) -> str | None:
        """BC-6.9: draw one card (reshuffling the discard pile when the draw pile is empty)."""
        if not self.draw_pile and self.discard_pile:
            self.draw_pile = self.rng.shuffled(self.discard_pile)
            self.discard_pile = []
            self.log.public("reshuffle", size=len(self.draw_pile))
        if not self.draw_pile:
            return None
        card = self.draw_pile.pop()
        self.p[seat].add(card)
        self.log.public("draw", seat=seat, why=why)
        self.log.private(seat, "drew", seat=seat, card=card, why=why)
        return card

    def take_supply(self, card: str, n: int) -> int:
        got = min(n, self.supply.get(card, 0))
        if got:
            self.supply[card] -= got
        return got

    def uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1

    # -- the contract ----------------------------------------------------------------------
    def pending(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "choose_character":
            return [p.seat for p in self.p if p.chosen is None]
        if self.phase == "choose_start":
            return [self.start_queue[0]]
        top = self.stack.top()
        return [top.seat] if top is not None else [self.current]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.pending():
            return []
        if self._legal_memo is not None and self._legal_memo[0] == seat:
            return self._legal_memo[1]
        out = legal_for(self, seat)
        self._legal_memo = (seat, out)
        return out

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        self._legal_memo = None
        dispatch(self, seat, action)   # ``advance`` leaves ``_legal_memo`` valid (or None) for the new position

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        return make_outcome(self) if self.phase == "over" else None

    # -- snapshots ---------------------------------------------------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.p],
            "cells": [[dict(c, by=list(c["by"]) if c["by"] else None) for c in st] for st in self.cells],
            "phase": self.phase, "step": self.step, "current": self.current, "round": self.round,
            "day": self.day, "start_queue": list(self.start_queue), "stack": self.stack.to_json(),
            "draw_pile": list(self.draw_pile), "discard_pile": list(self.discard_pile),
            "supply": dict(sorted(self.supply.items())), "enchant_deck": list(self.enchant_deck),
            "enchant_discard": list(self.enchant_discard), "boss_seat": self.boss_seat,
            "identity_public": self.identity_public, "box_characters": list(self.box_characters),
            "death_order": list(self.death_order), "result": self.result, "next_uid": self.next_uid,
            "turn_over": self.turn_over,
        }

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> BlockcraftState:
        import copy

        st = cls(game, players, options, rng, log)
        st.p = [Player.from_json(d) for d in data["players"]]
        st.cells = [[dict(c, by=list(c["by"]) if c["by"] else None) for c in s] for s in data["cells"]]
        for k in ("phase", "step", "current", "round", "day", "boss_seat", "identity_public", "next_uid",
                  "turn_over"):
            setattr(st, k, data[k])
        st.start_queue = list(data["start_queue"])
        st.stack = DecisionStack.from_json(copy.deepcopy(data["stack"]))
        st.draw_pile = list(data["draw_pile"])
        st.discard_pile = list(data["discard_pile"])
        st.supply = dict(data["supply"])
        st.enchant_deck = list(data["enchant_deck"])
        st.enchant_discard = list(data["enchant_discard"])
        st.box_characters = list(data["box_characters"])
        st.death_order = list(data["death_order"])
        st.result = copy.deepcopy(data["result"])
        return st

    def clone(self) -> BlockcraftState:
        """A fast copy (no JSON round trip); equal digest to the original."""
        import copy

        st = BlockcraftState.__new__(BlockcraftState)
        st.__dict__.update(self.__dict__)
        st.rng = self.rng.copy()
        st.log = EventLog(list(self.log.entries))
        st.options = dict(self.options)
        st.p = [Player.from_json(p.to_json()) for p in self.p]
        st.cells = [[dict(c, by=list(c["by"]) if c["by"] else None) for c in s] for s in self.cells]
        st.start_queue = list(self.start_queue)
        st.stack = DecisionStack.from_json(copy.deepcopy(self.stack.to_json()))
        st.draw_pile = list(self.draw_pile)
        st.discard_pile = list(self.discard_pile)
        st.supply = dict(self.supply)
        st.enchant_deck = list(self.enchant_deck)
        st.enchant_discard = list(self.enchant_discard)
        st.box_characters = list(self.box_characters)
        st.death_order = list(self.death_order)
        st.result = copy.deepcopy(self.result)
        st._legal_memo = None
        st._map_view = {}
        return st

    def redraw_hidden(self, seat: int, rng: Rng) -> BlockcraftState:
        return _redeterminize(self, seat, rng)
