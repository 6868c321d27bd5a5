"""MMState: the engine contract over the MM data (``model.py``); the rules and views do the work."""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome, Rng, Viewer

from .model import MMModel
from .observe import build_view
from .rules.cheese import outcome_of
from .rules.decisions import legal, settle
from .rules.dispatch import RULES


class MMState(MMModel):
    """A game of Mice and Mystics in progress."""

    def pending(self) -> list[int]:
        if self.result is not None:
            return []
        top = self.stack.top()
        if top is not None:
            return [top.seat]
        t = self.turn
        if t is not None and t["kind"] == "mouse" and not t.get("ending"):
            return [self.mice[t["mouse"]].seat]
        return []

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.pending():
            return []
        return legal(self)   # cached by the engine until the next apply

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        RULES(self, seat, action)
        settle(self)

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return outcome_of(self)

    def redraw_hidden(self, seat: int, rng: Rng) -> MMState:
        """MM-7.2: re-draw the search and encounter deck orders (a Map Scrap card known to be at the bottom
        stays there, MM-7.3) and the order of the set-aside boss cards. Each deck is sorted before it is
        shuffled, so the copy depends only on what the team has seen (the engine reseeds the RNG)."""
        st = self.clone()
        assert isinstance(st, MMState)
        st.search_deck = rng.shuffled(sorted(st.search_deck))
        for colour, deck in st.enc_decks.items():
            known = st.known_bottom.get(colour)
            if known is not None and deck and deck[-1] == known:
                st.enc_decks[colour] = rng.shuffled(sorted(deck[:-1])) + [known]
            else:
                st.enc_decks[colour] = rng.shuffled(sorted(deck))
        if st.boss is not None:
            st.boss["aside"] = rng.shuffled(sorted(st.boss["aside"]))
        return st
