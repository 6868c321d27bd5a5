"""Mice and Mystics: a cooperative dungeon crawl for 1-4 seats (spec: shared/rules/mice_and_mystics.md)."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, Scenario, State

from .actions import ACTIONS
from .catalog import load_raw
from .effects import checked_content
from .info import INFO
from .options import OPTIONS, check_options
from .rules.dispatch import RULES
from .setup import setup as setup_state
from .state import MMState


class MiceAndMystics(Game):
    info = INFO
    options = OPTIONS
    actions = ACTIONS
    rules = RULES
    state_class = MMState

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        check_options(players, options)

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        return setup_state(self, players, options, seed)

    def variants(self, players: int) -> list[dict[str, Any]]:
        """Both chapters, each with the hero draft (MM-1.2, MM-4.3)."""
        return [{"chapter": 1}, {"chapter": 2}]

    def scenarios(self, players: int) -> list[Scenario]:
        """MM-1.2 a team is rated against each chapter."""
        return [Scenario("chapter1", "Chapter 1: The Larder Run", {"chapter": 1}),
                Scenario("chapter2", "Chapter 2: Gristle's Den", {"chapter": 2})]

    def validate_content(self) -> None:
        checked_content(load_raw())


GAME = MiceAndMystics()
