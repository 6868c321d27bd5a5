"""What an organizer asks a referee to play, and what comes back (no gRPC here).

The tournament worker builds a ``MatchSpec`` from the store, hands it to a referee (over the
organizer service, see ``referee.client``) and records the ``MatchReport`` it gets back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.agent import TimeControl


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat.

    ``bot`` is the bot's registered name (shown in replays). A *hosted* seat has ``command``
    (the referee launches it per match with ARENA_REFEREE / ARENA_TOKEN in its environment);
    a *live* seat has ``command=None`` and is served by a connected bot session of that name.
    """

    bot: str
    command: str | None = None
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)

    @property
    def hosted(self) -> bool:
        return self.command is not None

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "command": self.command, "cwd": self.cwd, "env": dict(self.env)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatSpec:
        return cls(d["bot"], d.get("command"), d.get("cwd"), dict(d.get("env") or {}))


@dataclass(frozen=True)
class MatchSpec:
    match_id: str
    game: str
    seed: int
    seats: list[SeatSpec]
    options: dict[str, Any] = field(default_factory=dict)
    time_control: TimeControl = field(default_factory=TimeControl)
    #: other matches are dealt from this seed (a deal group): the watch feed must not reveal the end
    shared_deal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "game": self.game, "seed": self.seed, "options": self.options,
                "seats": [s.to_json() for s in self.seats], "time_control": self.time_control.to_json(),
                "shared_deal": self.shared_deal}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MatchSpec:
        return cls(d["match_id"], d["game"], int(d["seed"]), [SeatSpec.from_json(s) for s in d["seats"]],
                   dict(d.get("options") or {}), TimeControl(**(d.get("time_control") or {})),
                   bool(d.get("shared_deal", False)))


@dataclass(frozen=True)
class MatchReport:
    """The referee's answer: the outcome (``Outcome.to_json()``) and the replay (``Replay.to_json()``)."""

    match_id: str
    outcome: dict[str, Any]
    replay: dict[str, Any]
    logs: dict[str, str] = field(default_factory=dict)


class RefereeUnavailable(RuntimeError):
    """The referee (or a live bot it needs) cannot be reached now; retrying later may work."""


class MatchRejected(ValueError):
    """The referee refused the spec (unknown game, bad options, wrong seat count); retrying won't help."""
