"""Liar's Dice: the rules (LD-1 .. LD-6, see README.md), on the Arena engine contract.

LD-1 2-4 seats, each with ``dice`` dice (option, 1-5). LD-2 a round: every seat rolls its dice in
secret; the opener bids "at least Q dice show face F"; in seat order each next seat raises (a higher
quantity with any face, or the same quantity with a higher face; at most 2 above the current quantity,
never more than the dice on the table) or challenges. LD-3 a challenge reveals every die: if fewer than
Q dice show F the bidder loses a die, else the challenger does. LD-4 the loser opens the next round
(the next seat still in, if it has no dice left). LD-5 a seat without dice is out; the last seat in
wins. LD-6 ranks: the later a seat went out, the better.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from referee.engine import (
    ALL,
    PUBLIC,
    Action,
    ActionSet,
    Game,
    GameInfo,
    Option,
    OptionsSpec,
    Outcome,
    Rng,
    State,
    Viewer,
)
from referee.engine.events import EventLog

FACES = 6
RAISE_SPAN = 2  # LD-2: a raise is at most this many above the current quantity (keeps the list <= 19)


@dataclass(frozen=True)
class Bid(Action):
    """LD-2: at least ``quantity`` dice on the table show ``face``."""

    TYPE: ClassVar[str] = "bid"
    quantity: int
    face: int


@dataclass(frozen=True)
class Challenge(Action):
    """LD-3: call the last bid a lie."""

    TYPE: ClassVar[str] = "challenge"


class LiarsDiceState(State):
    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng,
                 log: EventLog | None = None) -> None:
        super().__init__(game, players, options, rng, log)
        self.dice: list[list[int]] = [[] for _ in range(players)]   # each sorted: order says nothing
        self.turn = 0                                               # the seat to act
        self.bid: list[int] | None = None                           # [quantity, face]
        self.bidder: int | None = None
        self.history: list[list[int]] = []                          # this round's bids [seat, q, f]
        self.out_order: list[int] = []                              # seats in the order they went out
        self.round = 0

    # -- the rules ---------------------------------------------------------------------------
    def alive(self) -> list[int]:
        return [s for s in range(self.players) if self.dice[s]]

    def total(self) -> int:
        return sum(len(d) for d in self.dice)

    def pending(self) -> list[int]:
        return [self.turn] if len(self.alive()) > 1 else []

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.pending():
            return []
        total = self.total()
        out: list[dict[str, Any]] = []
        if self.bid is None:
            bids = [(q, f) for q in range(1, min(RAISE_SPAN + 1, total) + 1) for f in range(1, FACES + 1)]
        else:
            q0, f0 = self.bid
            bids = [(q, f) for q in range(q0, min(q0 + RAISE_SPAN, total) + 1) for f in range(1, FACES + 1)
                    if (q, f) > (q0, f0)]
            out.append(Challenge().to_json())
        out += [Bid(q, f).to_json() for q, f in bids]
        return out

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        if action["type"] == "challenge":
            self._challenge(seat)
            return
        self.bid, self.bidder = [action["quantity"], action["face"]], seat
        self.history.append([seat, action["quantity"], action["face"]])
        self.log.public("bid", seat=seat, quantity=action["quantity"], face=action["face"])
        self.turn = self._next(seat)

    def _challenge(self, seat: int) -> None:
        """LD-3, LD-4, LD-5."""
        assert self.bid is not None and self.bidder is not None
        quantity, face = self.bid
        shown = sum(d.count(face) for d in self.dice)
        loser = self.bidder if shown < quantity else seat
        self.log.public("challenge", seat=seat, bidder=self.bidder, quantity=quantity, face=face, shown=shown,
                        dice=[list(d) for d in self.dice], loser=loser)
        self.dice[loser].pop()
        if not self.dice[loser]:
            self.out_order.append(loser)
            self.log.public("out", seat=loser)
        opener = loser if self.dice[loser] else self._next(loser)
        self._new_round(opener)

    def _next(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if self.dice[s]:
                return s
        return seat

    def _new_round(self, opener: int) -> None:
        """LD-2: everyone still in rolls in secret."""
        self.bid, self.bidder, self.history = None, None, []
        if len(self.alive()) <= 1:
            return
        self.round += 1
        self.turn = opener
        for s in self.alive():
            self.dice[s] = sorted(self.rng.dice(len(self.dice[s])))
            self.log.private(s, "rolled", dice=list(self.dice[s]))
        self.log.public("round", round=self.round, opener=opener, counts=[len(d) for d in self.dice])

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        view: dict[str, Any] = {
            "round": self.round, "turn": self.turn if self.pending() else None,
            "counts": [len(d) for d in self.dice], "total": self.total(),
            "bid": list(self.bid) if self.bid else None, "bidder": self.bidder,
            "history": [list(h) for h in self.history], "out": list(self.out_order),
        }
        if viewer == ALL:
            view["dice"] = [list(d) for d in self.dice]
        elif viewer != PUBLIC:
            view["seat"] = viewer
            view["my_dice"] = list(self.dice[viewer])
        return view

    def outcome(self) -> Outcome | None:
        if self.pending():
            return None
        # LD-6: the winner scores players, the first out 1
        score = [0] * self.players
        for k, s in enumerate(self.out_order):
            score[s] = k + 1
        for s in self.alive():
            score[s] = self.players
        return Outcome.from_scores(score)

    # -- snapshots ---------------------------------------------------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        return {"dice": [list(d) for d in self.dice], "turn": self.turn, "bid": self.bid,
                "bidder": self.bidder,
                "history": [list(h) for h in self.history], "out_order": list(self.out_order),
                "round": self.round}

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> LiarsDiceState:
        st = cls(game, players, options, rng, log)
        st.dice = [list(d) for d in data["dice"]]
        st.turn = data["turn"]
        st.bid = list(data["bid"]) if data["bid"] is not None else None
        st.bidder = data["bidder"]
        st.history = [list(h) for h in data["history"]]
        st.out_order = list(data["out_order"])
        st.round = data["round"]
        return st

    # -- hidden information ------------------------------------------------------------------
    def redraw_hidden(self, seat: int, rng: Rng) -> LiarsDiceState:
        """Other seats' dice are unknown to ``seat``: re-roll them (same counts), in seat order. Fresh rolls
        depend on nothing the truth holds, so the copy depends only on what ``seat`` saw."""
        copy = self.clone()
        assert isinstance(copy, LiarsDiceState)
        if not self.pending():
            return copy  # over: every die was revealed
        for s in range(self.players):
            if s != seat and copy.dice[s]:
                copy.dice[s] = sorted(rng.dice(len(copy.dice[s])))
        return copy


class LiarsDice(Game):
    info = GameInfo("liars_dice", "Liar's Dice", "1", 2, 4, cooperative=False, safety_limit=1300,
                    hidden_information=True, simultaneous=False,
                    description="Bid on everyone's hidden dice; call a bluff (an outside example game)")
    options = OptionsSpec(Option("dice", 3, "dice per seat at the start", min=1, max=5))
    actions = ActionSet([Bid, Challenge])
    state_class = LiarsDiceState

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        st = LiarsDiceState(self, players, options, Rng(seed))
        st.dice = [[0] * options["dice"] for _ in range(players)]
        st._new_round(opener=0)
        return st

    def decision_limit(self, players: int, options: dict[str, Any]) -> int:
        # Each round ends a die (one fewer on the table); within a round the bids strictly rise through at
        # most total*6 values, plus the challenge.
        total = players * options["dice"]
        return sum(t * FACES + 1 for t in range(2, total + 1))

    def variants(self, players: int) -> list[dict[str, Any]]:
        return [{}, {"dice": 1}, {"dice": 5}]

    def renderer_file(self) -> Path | None:
        return Path(__file__).with_name("renderer.js")

    def heuristic_bot(self) -> str | None:
        return "arena_liars_dice.bot:HeuristicBot"

    def golden_file(self) -> Path | None:
        return Path(__file__).with_name("golden.txt")


GAME = LiarsDice()
