"""BC-5.26: the game's rules table, from action class to the rule that applies it (``Dispatch``).

The rules register themselves (``rules/start.py``: the character choice; ``rules/flow.py``: the start cell
and every turn decision); ``BlockcraftState._apply`` calls ``RULES(state, seat, action)``.
"""
from __future__ import annotations

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS
from ..model import BlockcraftModel

RULES = Dispatch[BlockcraftModel](ACTIONS)
