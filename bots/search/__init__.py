"""Reference search bots: information-set MCTS over the forward model (``bots.sdk.forward``)."""
from __future__ import annotations

from .ismcts import Budget, SearchBot, parse_budget

__all__ = ["Budget", "SearchBot", "parse_budget"]
