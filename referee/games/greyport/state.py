"""The engine's State for Greyport: the decision runner over the rules mixins (``rules/``), which work
on the plain data of ``model.GreyportModel``."""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome, Viewer

from .observe import build_outcome, build_view
from .rules.core import CoreMixin
from .rules.dispatch import RULES
from .rules.encounter import checks
from .rules.frames import frame_legal
from .rules.main import main_auto_ok, main_legal
from .rules.tasks import TASKS


class GreyportState(CoreMixin):
    """A game in progress. Exactly one seat decides at a time (GB-5.1)."""

    # -- contract -----------------------------------------------------------------------------------
    def pending(self) -> list[int]:
        if self.result is not None:
            return []
        top = self.stack.top()
        if top is not None:
            return [top.seat]
        return [self.priority]

    def pending_kind(self) -> str:
        top = self.stack.top()
        return top.kind if top is not None else "main_action"

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if self.result is not None or seat != self.pending()[0]:
            return []
        top = self.stack.top()
        return frame_legal(self, top) if top is not None else main_legal(self, seat)

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        self._decide(seat, action, auto=False)
        self.advance()

    def _decide(self, seat: int, action: dict[str, Any], auto: bool) -> None:
        if auto:
            self.log.public("auto", seat=seat, action=dict(action))
        RULES(self, seat, action)
        checks(self)

    def advance(self) -> None:
        """Run queued rule steps until a seat must decide; GB-5.3.5 applies forced single options."""
        # The hottest loop of the engine: attributes are bound to locals (the lists and the stack are
        # mutated in place by the rules, never rebound, while this loop runs -- ``tasks`` is re-read
        # after each step all the same, a rule may assign a new list).
        frames = self.stack.frames
        steps = TASKS
        while self.result is None:
            if frames:
                top = frames[-1]
                if top.kind != "retire_curse" or main_auto_ok(self, top.seat):
                    legal = frame_legal(self, top)
                    if len(legal) == 1:
                        self._decide(top.seat, legal[0], auto=True)
                        frames = self.stack.frames
                        continue
                    self.remember_legal(top.seat, legal)   # the list the seat is asked with next
                return
            tasks = self.tasks
            if tasks:
                t = tasks.pop()
                steps[t["op"]](self, t)
                checks(self)
                frames = self.stack.frames
                continue
            if self.phase != "action":
                raise AssertionError(f"greyport: no decision and no task in phase {self.phase}")
            if self.objective_met:
                # GB-5.7 step 1: the action phase stops; Cleanup, then the encounter ends.
                self.push([{"op": "cleanup"}, {"op": "encounter_end", "mid_action": True}])
                continue
            seat = self.priority
            if main_auto_ok(self, seat):
                legal = main_legal(self, seat)
                if len(legal) == 1:
                    self._decide(seat, legal[0], auto=True)
                    frames = self.stack.frames
                    continue
                self.remember_legal(seat, legal)
            return
        self.stack.frames = []
        self.tasks = []

    def observe(self, viewer: Viewer) -> dict[str, Any]:
        self.check_viewer(viewer)
        return build_view(self, viewer)

    def outcome(self) -> Outcome | None:
        return build_outcome(self) if self.result is not None else None
