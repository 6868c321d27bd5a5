"""DT-4..DT-8: the engine contract of a Dungeon Twister game.

The data is declared in ``model.py``, the rules live in ``rules/``, the views in ``observe.py``:
each contract method hands over to them.
"""
from __future__ import annotations

from typing import Any, cast

from referee.engine import Outcome, Rng, Viewer
from referee.engine.outcome import Reason

from .model import DTModel
from .observe import observe
from .rules.dispatch import RULES
from .rules.hidden import redraw_hidden
from .rules.routing import legal


class DTState(DTModel):
    """A Dungeon Twister game in progress."""

    def pending(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "starters":
            return [s for s in (0, 1) if len(self.starters[s]) < 4]
        if self.phase == "placement":
            return [self.placer]
        frames = self.stack.frames
        if frames:
            frame = frames[-1]
            if frame.kind == "combat":  # DT-5.8.3: both seats choose a card, in secret
                cards = frame.data["cards"]
                return [s for s in (0, 1) if cards[s] is None]
            return [frame.seat]
        assert self.active is not None, "a turn has an active seat"
        return [self.active]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.pending():
            return []
        return legal(self, seat)

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        RULES(self, seat, action)

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        return observe(self, viewer)

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        details = {"stats": [dict(s) for s in self.stats], "turns": self.turn, "vp": list(self.vp)}
        return Outcome.from_scores(self.vp, reason=cast(Reason, self.end_reason), details=details)

    def redraw_hidden(self, seat: int, rng: Rng) -> DTState:
        copy = self.clone()
        assert isinstance(copy, DTState)
        redraw_hidden(copy, seat, rng)
        return copy
