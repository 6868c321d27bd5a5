"""The rules table: action class -> the rule that applies it (``@RULES.on(X)`` in each mechanic's
module; ``routing`` imports them all)."""
from __future__ import annotations

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS
from ..model import DTModel

RULES = Dispatch[DTModel](ACTIONS)
