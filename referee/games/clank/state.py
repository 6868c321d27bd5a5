"""``ClankState``: the engine contract over the data of ``model.py`` (the rules live in ``rules/``)."""
from __future__ import annotations

from typing import Any

from referee.engine import Rng, Viewer
from referee.engine.outcome import Outcome

from .effects import check_conditionals, run_work
from .model import ClankModel
from .observe import build_view
from .rules.decisions import legal_decision
from .rules.dispatch import RULES
from .rules.scoring import final_outcome
from .rules.turn import legal_main


class ClankState(ClankModel):
    """A game of Clank! in progress (see the package README for the rule map)."""

    # -- the contract ------------------------------------------------------------------------
    def pending(self) -> list[int]:
        """CK-5.17: the owner of the top decision, else the active seat; [] once over."""
        if self.over:
            return []
        top = self.stack.top()
        return [top.seat] if top is not None else [self.active]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        """CK-5.28: the decision's actions, or the main-phase list in CK-5.5..5.16 order."""
        if self.over:
            return []
        top = self.stack.top()
        if top is not None:
            return legal_decision(self, top) if seat == top.seat else []
        return legal_main(self) if seat == self.active else []

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        RULES(self, seat, action)
        run_work(self)
        if not self.stack and not self.over:
            check_conditionals(self)

    STATIC_VIEW_KEYS = ("static",)  # observe.static_view(): the map, artifacts, constants

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        """CK-7: views built as a whitelist in ``observe.py``."""
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        return final_outcome(self) if self.over else None

    def redraw_hidden(self, seat: int, rng: Rng) -> ClankState:
        """CK-7.3: re-draw what ``seat`` cannot see (the engine reseeds the copy's RNG).

        Re-drawn: the order of every personal deck (``seat``'s own too), the split of each other
        player's cards between hand and deck (their union is public knowledge: owned cards minus
        the public discard pile and play area), the dungeon deck order, and which face-down secret
        lies where (board and set aside, minor and major separately). Every pool is sorted before
        it is shuffled: the copy depends only on what ``seat`` saw, not on the true order.
        """
        copy = self.clone()
        assert isinstance(copy, ClankState)
        if self.over:
            return copy  # CK-7.6: nothing is hidden any more
        for s, p in enumerate(copy.p):
            if s == seat:
                p.deck = rng.shuffled(sorted(p.deck))
            else:
                pool = rng.shuffled(sorted(p.hand + p.deck))
                p.hand, p.deck = pool[:len(p.hand)], pool[len(p.hand):]
        copy.ddeck = rng.shuffled(sorted(copy.ddeck))
        rooms = sorted(copy.minor)
        pool = rng.shuffled(sorted([t for r in rooms for t in copy.minor[r]] + copy.minor_aside))
        for r in rooms:
            n = len(copy.minor[r])
            copy.minor[r], pool = pool[:n], pool[n:]
        copy.minor_aside = pool
        rooms = sorted(copy.major)
        pool = rng.shuffled(sorted([copy.major[r] for r in rooms] + copy.major_aside))
        for i, r in enumerate(rooms):
            copy.major[r] = pool[i]
        copy.major_aside = pool[len(rooms):]
        return copy
