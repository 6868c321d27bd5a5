"""Blockcraft (spec: shared/rules/blockcraft.md): the ``Game`` object registered as ``blockcraft``."""
from __future__ import annotations

from typing import Any

from referee.engine import Game, State

from .actions import ACTIONS
from .catalog import catalog
from .effects import check_effect_keys
from .info import INFO
from .options import OPTIONS, check_options, resolve, variants
from .rules.dispatch import RULES
from .setup import setup_state
from .state import BlockcraftState

#: conformance variants use a short round limit (3 rounds of Day) to keep CI fast; Night, real endings and
#: full-length games are covered by tests/games/blockcraft (test_hidden, test_full_games, scenarios).
CONFORMANCE_ROUNDS = 3


class Blockcraft(Game):
    info = INFO
    options = OPTIONS
    actions = ACTIONS
    rules = RULES
    state_class = BlockcraftState

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        check_options(players, options)

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        return setup_state(self, players, resolve(players, options), seed)

    def variants(self, players: int) -> list[dict[str, Any]]:
        return variants(players, CONFORMANCE_ROUNDS)

    def validate_content(self) -> None:
        catalog.cache_clear()
        check_effect_keys(catalog())   # every verb is registered by now (the rules are imported)


GAME = Blockcraft()
