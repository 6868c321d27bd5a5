"""A bot's health over its recorded matches: answer times and faults per game (from match_seats.health)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from . import models as m
from .db import Store


@dataclass(frozen=True)
class HealthSummary:
    """One bot in one game (``game`` "all" for every game) over its most recent recorded matches."""

    game: str
    matches: int
    decisions: int
    mean_ms: float  # over every decision
    p95_ms: int  # the worst match's 95th percentile
    max_ms: int
    timeouts: int
    illegal: int
    strikes: int
    crashes: int
    forfeits: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class MatchHealth:
    match_id: int
    game: str
    seat: int
    health: dict[str, Any]


def recent(store: Store, bot: str, *, limit: int = 1000) -> list[MatchHealth]:
    """The bot's seats with recorded health, newest match first; none of a match whose deal group is
    still open (the number of decisions alone could say something about the deal its twins play)."""
    from .queries import group_open

    q = (select(m.MatchSeat.match_id, m.Match.game, m.MatchSeat.seat, m.MatchSeat.health)
         .join(m.Match, m.Match.id == m.MatchSeat.match_id)
         .where(m.MatchSeat.bot == bot, m.MatchSeat.health.is_not(None), ~group_open())
         .order_by(m.MatchSeat.match_id.desc(), m.MatchSeat.seat).limit(limit))
    with store.read() as s:
        return [MatchHealth(mid, game, seat, dict(h)) for mid, game, seat, h in s.execute(q)]


def _summary(game: str, rows: list[MatchHealth]) -> HealthSummary:
    hs = [r.health for r in rows]
    decisions = sum(int(h.get("decisions", 0)) for h in hs)
    total_ms = sum(float(h.get("mean_ms", 0)) * int(h.get("decisions", 0)) for h in hs)

    def total(key: str) -> int:
        return sum(int(h.get(key, 0)) for h in hs)

    return HealthSummary(game, len({r.match_id for r in rows}), decisions,
                         round(total_ms / decisions, 1) if decisions else 0.0,
                         max((int(h.get("p95_ms", 0)) for h in hs), default=0),
                         max((int(h.get("max_ms", 0)) for h in hs), default=0),
                         total("timeouts"), total("illegal"), total("strikes"), total("crashes"),
                         total("forfeits"))


def summary(store: Store, bot: str, *, limit: int = 1000) -> list[HealthSummary]:
    """Per game, then "all", over the bot's ``limit`` most recent seats with health."""
    return summarize(recent(store, bot, limit=limit))


def summarize(rows: list[MatchHealth]) -> list[HealthSummary]:
    games = sorted({r.game for r in rows})
    out = [_summary(g, [r for r in rows if r.game == g]) for g in games]
    if len(games) > 1:
        out.append(_summary("all", rows))
    return out


@dataclass(frozen=True)
class SeatOutput:
    """What a hosted bot wrote (stdout and stderr, the tail) in one seat of one finished match."""

    match_id: int
    game: str
    seat: int
    rank: int | None
    forfeit: str  # the forfeit reason ("" if none): a crash says how the process ended
    finished_at: datetime | None
    text: str


def outputs(store: Store, bot: str, *, limit: int = 3) -> tuple[list[SeatOutput], int]:
    """The bot's own output in its ``limit`` latest finished matches that kept any, newest first, and how
    many more wait for their deal group (a twin still to play: what the bot saw is that twin's deal).

    The output is what the bot itself saw and did, so it is its owner's to read, nobody else's: the
    organizer's CLI and the developer service (``arena developer logs``, the developer's own versions)."""
    from .queries import group_open

    base = (select(m.MatchSeat.match_id, m.Match.game, m.MatchSeat.seat, m.MatchSeat.rank, m.MatchSeat.health,
                   m.Match.finished_at, m.MatchSeat.output)
            .join(m.Match, m.Match.id == m.MatchSeat.match_id)
            .where(m.MatchSeat.bot == bot, m.MatchSeat.output.is_not(None), m.Match.status == m.DONE))
    with store.read() as s:
        sealed = int(s.scalar(select(func.count()).select_from(base.where(group_open()).subquery())) or 0)
        rows = s.execute(base.where(~group_open())
                         .order_by(m.Match.finished_at.desc(), m.MatchSeat.match_id.desc(), m.MatchSeat.seat)
                         .limit(limit)).all()
    return [SeatOutput(mid, game, seat, rank, str((h or {}).get("forfeit_reason") or ""), when, text or "")
            for mid, game, seat, rank, h, when, text in rows], sealed
