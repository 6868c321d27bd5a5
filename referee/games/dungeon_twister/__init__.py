"""Dungeon Twister (2 seats): the rules engine package. See README.md for the rule coverage."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, State

from .actions import ACTIONS
from .data import content as load_content
from .effects import validate_effects
from .info import INFO
from .options import OPTIONS, check_options
from .rules.dispatch import RULES
from .setup import setup
from .state import DTState


class DungeonTwister(Game):
    """DT-1: the game object registered as ``dungeon_twister``."""

    info = INFO
    options = OPTIONS
    actions = ACTIONS
    rules = RULES
    state_class = DTState

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        check_options(players, options)

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        return setup(self, players, options, seed)

    def variants(self, players: int) -> list[dict[str, Any]]:
        """DT-1.3: one mode; the second variant exercises a higher VP target and a short game."""
        return [{}, {"vp_target": 8, "max_turns": 20}]

    def validate_content(self) -> None:
        load_content.cache_clear()
        load_content()
        validate_effects()


GAME = DungeonTwister()
