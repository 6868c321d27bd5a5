"""The rules by action class: ``RULES(state, seat, action)`` calls the rule registered for the action's class
(``@RULES.on(X)``, next to the mechanic it belongs to: main actions in ``main.py``, the answers to
sub-decisions in ``frames.py``)."""
from __future__ import annotations

from typing import Any

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS

#: Each rule takes the rules mixin it needs (``st: MainMixin``); the state it is called with is always a
#: ``GreyportState``, which combines them all, so the table is typed over ``Any``.
RULES: Dispatch[Any] = Dispatch(ACTIONS)
