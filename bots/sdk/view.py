"""Typed, attribute-style access to views and legal actions (the JSON stays the source of truth).

    view = View(request.view)
    view.scores[0], view.get("hand", [])
    bids = actions_of(request, "bid")        # [(index, action), ...] of that type
"""
from __future__ import annotations

from typing import Any

from referee.engine.agent import DecisionRequest


class View(dict[str, Any]):
    """A JSON object whose keys can be read as attributes (nested objects too)."""

    def __getattr__(self, name: str) -> Any:
        try:
            value = self[name]
        except KeyError:
            raise AttributeError(f"view has no field {name!r} (fields: {sorted(self)})") from None
        return View(value) if isinstance(value, dict) else value


def actions_of(request: DecisionRequest, kind: str) -> list[tuple[int, dict[str, Any]]]:
    """The legal actions of one ``type``, with their indexes (answer with the index)."""
    return [(i, a) for i, a in enumerate(request.legal) if a.get("type") == kind]


def action_types(request: DecisionRequest) -> list[str]:
    """The distinct action types in the legal list, in first-seen order."""
    seen: dict[str, None] = {}
    for a in request.legal:
        seen.setdefault(str(a.get("type")), None)
    return list(seen)
