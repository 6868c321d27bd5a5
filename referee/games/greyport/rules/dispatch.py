"""The rules by action class: ``RULES(state, seat, action)`` calls the rule registered for the action's class
(``@RULES.on(X)``, beside the mechanic it belongs to: main actions in ``main.py``, fights in ``fight.py``,
recruiting and shields in ``rounds.py``, the other answers to sub-decisions in ``frames.py``)."""
from __future__ import annotations

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS
from ..model import GreyportModel

#: The rules are functions over the state's data (``GreyportModel``).
RULES = Dispatch[GreyportModel](ACTIONS)
