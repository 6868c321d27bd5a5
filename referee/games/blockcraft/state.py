"""BC-5.26: the ``State`` contract over the game's data (``model.py``).

The rules live in ``rules/`` (one module per mechanic); this class answers the contract's questions and
hands each decision to the rules. Everything random comes from ``self.rng``.
"""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome, Rng, Viewer

from . import skills as _skills  # noqa: F401  (registers the character skills in effects.SKILLS)
from .model import BlockcraftModel, Player
from .observe import build_view
from .rules import flow as _flow  # noqa: F401  (registers the turn rules on RULES)
from .rules.dispatch import RULES
from .rules.endgame import make_outcome
from .rules.hidden import redeterminize as _redeterminize
from .rules.legal import legal_for


class BlockcraftState(BlockcraftModel):
    """A Blockcraft game in progress (BC-4 setup through BC-8 outcome)."""

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
        return legal_for(self, seat)

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        RULES(self, seat, action)   # ``flow.advance`` primes the engine's legal cache for the next position

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        return make_outcome(self) if self.phase == "over" else None

    def redraw_hidden(self, seat: int, rng: Rng) -> BlockcraftState:
        return _redeterminize(self, seat, rng)  # type: ignore[return-value]


__all__ = ["BlockcraftState", "Player"]
