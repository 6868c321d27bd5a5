"""The rules table: each action class -> the rule that applies it (registered in the mechanic modules)."""
from __future__ import annotations

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS
from .base import StateBase

RULES = Dispatch[StateBase](ACTIONS)
