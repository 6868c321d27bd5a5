"""What an agent (a bot) receives: exactly what a remote bot receives over the wire.

The in-process runner and the gRPC referee build the same ``MatchStart`` and
``DecisionRequest``; bots in ``bots/`` see nothing else, so a bot that works in-process
works remotely.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class TimeControl:
    """Per-decision deadline and an optional per-match bank, both in milliseconds (0 = none)."""

    per_decision_ms: int = 10_000
    bank_ms: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True)
class MatchStart:
    """Sent once per seat when a match begins."""

    match_id: str
    game: str
    game_version: str
    options: dict[str, Any]
    seat: int
    players: int
    bots: list[str]
    time_control: TimeControl = field(default_factory=TimeControl)


@dataclass(frozen=True)
class DecisionRequest:
    """One decision: the seat's view, its legal actions, the events it saw since its last decision."""

    match_id: str
    decision_id: int
    game: str
    seat: int
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    events: list[dict[str, Any]]
    deadline_ms: int = 0
    time_bank_ms: int = 0

    def index_of(self, action: dict[str, Any]) -> int:
        """Position of ``action`` in the legal list (ValueError if absent)."""
        return self.legal.index(action)


@runtime_checkable
class Agent(Protocol):
    """Anything that can play a seat. ``start`` and ``end`` are optional (see ``bots.sdk.Bot``)."""

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        """Return an index into ``request.legal`` or one of its actions."""
        ...
