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

from dataclasses import dataclass, field
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
from referee.engine.dispatch import Dispatch

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


ACTIONS = ActionSet([Bid, Challenge])


@dataclass(init=False, eq=False, repr=False)
class LiarsDiceState(State):
    # The data, declared once (the engine derives snapshots, restore and clone from these fields).
    dice: list[list[int]] = field(default_factory=list)   # per seat, each sorted: order says nothing
    turn: int = 0                                          # the seat to act
    bid: list[int] | None = None                           # [quantity, face]
    bidder: int | None = None
    history: list[list[int]] = field(default_factory=list)  # this round's bids [seat, q, f]
    out_order: list[int] = field(default_factory=list)     # seats in the order they went out
    round: int = 0

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if self.dice[s]]

    def total(self) -> int:
        return sum(len(d) for d in self.dice)

    def pending(self) -> list[int]:
        return [self.turn] if len(self.alive()) > 1 else []

    def _legal(self, seat: int) -> list[dict[str, Any]]:
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
            out.append(Challenge.wire())
        out += [Bid.wire(q, f) for q, f in bids]
        return out

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        RULES(self, seat, action)

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


# -- the rules: one function per action class ----------------------------------------------------
RULES = Dispatch[LiarsDiceState](ACTIONS)


@RULES.on(Bid)
def bid(st: LiarsDiceState, seat: int, a: Bid) -> None:
    """LD-2: a raise."""
    st.bid, st.bidder = [a.quantity, a.face], seat
    st.history.append([seat, a.quantity, a.face])
    st.log.public("bid", seat=seat, quantity=a.quantity, face=a.face)
    st.turn = next_seat(st, seat)


@RULES.on(Challenge)
def challenge(st: LiarsDiceState, seat: int, a: Challenge) -> None:
    """LD-3, LD-4, LD-5."""
    assert st.bid is not None and st.bidder is not None
    quantity, face = st.bid
    shown = sum(d.count(face) for d in st.dice)
    loser = st.bidder if shown < quantity else seat
    st.log.public("challenge", seat=seat, bidder=st.bidder, quantity=quantity, face=face, shown=shown,
                  dice=[list(d) for d in st.dice], loser=loser)
    st.dice[loser].pop()
    if not st.dice[loser]:
        st.out_order.append(loser)
        st.log.public("out", seat=loser)
    opener = loser if st.dice[loser] else next_seat(st, loser)
    new_round(st, opener)


def next_seat(st: LiarsDiceState, seat: int) -> int:
    for k in range(1, st.players + 1):
        s = (seat + k) % st.players
        if st.dice[s]:
            return s
    return seat


def new_round(st: LiarsDiceState, opener: int) -> None:
    """LD-2: everyone still in rolls in secret."""
    st.bid, st.bidder, st.history = None, None, []
    if len(st.alive()) <= 1:
        return
    st.round += 1
    st.turn = opener
    for s in st.alive():
        st.dice[s] = sorted(st.rng.dice(len(st.dice[s])))
        st.log.private(s, "rolled", dice=list(st.dice[s]))
    st.log.public("round", round=st.round, opener=opener, counts=[len(d) for d in st.dice])


class LiarsDice(Game):
    info = GameInfo("liars_dice", "Liar's Dice", "1", 2, 4, cooperative=False, safety_limit=1300,
                    hidden_information=True, simultaneous=False,
                    description="Bid on everyone's hidden dice; call a bluff (an outside example game)")
    options = OptionsSpec(Option("dice", 3, "dice per seat at the start", min=1, max=5))
    actions = ACTIONS
    rules = RULES
    state_class = LiarsDiceState

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        st = LiarsDiceState(self, players, options, Rng(seed))
        st.dice = [[0] * options["dice"] for _ in range(players)]
        new_round(st, opener=0)
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
