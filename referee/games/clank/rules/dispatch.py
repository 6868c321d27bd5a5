"""The rules table: each action class -> the rule that applies it (registered in the mechanic modules)."""
from __future__ import annotations

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS
from ..model import ClankModel

RULES = Dispatch[ClankModel](ACTIONS)
