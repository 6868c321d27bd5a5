"""The engine's State for Greyport: the contract, each part handing over to the rules (``rules/``, functions
over the data of ``model.GreyportModel``) or the views."""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome, Viewer

from .model import GreyportModel
from .observe import build_outcome, build_view
from .rules.flow import advance, decide
from .rules.frames import frame_legal
from .rules.main import main_legal


class GreyportState(GreyportModel):
    """A game in progress. Exactly one seat decides at a time (GB-5.1)."""

    # -- contract -----------------------------------------------------------------------------------
    def pending(self) -> list[int]:
        if self.result is not None:
            return []
        top = self.stack.top()
        if top is not None:
            return [top.seat]
        return [self.priority]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if self.result is not None or seat != self.pending()[0]:
            return []
        top = self.stack.top()
        return frame_legal(self, top) if top is not None else main_legal(self, seat)

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        decide(self, seat, action, auto=False)
        advance(self)

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        return build_outcome(self) if self.result is not None else None
