"""The Battle for Greyport: cooperative deck-building (rules: /work/shared/rules/greyport.md).

``GAME`` is the registry entry; see README.md for the rule coverage and the view format.
"""
from __future__ import annotations

from typing import Any

from referee.engine import Game, Scenario, State

from .actions import ACTIONS
from .catalog import load_content
from .effects import check_content
from .info import INFO
from .options import OPTIONS, check_options
from .rules.dispatch import RULES
from .setup import setup
from .state import GreyportState


class Greyport(Game):
    info = INFO
    options = OPTIONS
    actions = ACTIONS
    rules = RULES
    state_class = GreyportState

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        check_options(players, options)

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        return setup(self, players, options, seed)

    def variants(self, players: int) -> list[dict[str, Any]]:
        """One option set per chapter; CH2 also exercises the seed's variants (open hands, wounded
        warrior chosen by the first player, an extra faction, random locations)."""
        return [{"chapter": "CH1"},
                {"chapter": "CH2", "open_hands": True, "wounded_warrior": "choose", "extra_factions": 1,
                 "random_locations": True, "starting_hp": 8}]

    def scenarios(self, players: int) -> list[Scenario]:
        """The chapters a team is rated against (GB-1.2)."""
        return [Scenario("CH1", "Goblins at the Gates", {"chapter": "CH1"}),
                Scenario("CH2", "Embers over Greyport", {"chapter": "CH2"})]

    def validate_content(self) -> None:
        load_content.cache_clear()
        check_content(load_content())


GAME = Greyport()
