"""Clank! — a competitive deck-building dungeon race for 2-4 players (spec: shared/rules/clank.md)."""
from __future__ import annotations

from typing import Any

from referee.engine import Game

from .actions import ACTIONS
from .catalog import load_catalog
from .info import INFO
from .options import OPTIONS
from .rules.dispatch import RULES
from .setup import setup_state
from .state import ClankState


class Clank(Game):
    """The Clank! rules engine (one mode, ``standard``)."""

    info = INFO
    options = OPTIONS
    actions = ACTIONS
    rules = RULES
    state_class = ClankState

    def setup(self, players: int, options: dict[str, Any], seed: int) -> ClankState:
        return setup_state(self, players, options, seed)

    def variants(self, players: int) -> list[dict[str, Any]]:
        """One mode; a short round limit also exercises the neutral dragon countdown (CK-5.27)."""
        return [{}, {"round_limit": 3}]

    def validate_content(self) -> None:
        load_catalog()


GAME = Clank()

__all__ = ["GAME", "Clank", "ClankState"]
