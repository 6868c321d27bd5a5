"""MM-5.47 the rules by action class: each rules module registers the rule of its actions on ``RULES``
(``rules/decisions.py`` imports them all); ``MMState._apply`` calls ``RULES``."""
from __future__ import annotations

from referee.engine.dispatch import Dispatch

from ..actions import ACTIONS
from ..model import MMModel

RULES = Dispatch[MMModel](ACTIONS)
