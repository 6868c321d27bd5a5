"""What the CLI and the dashboard show of the ladder: its seasons, versions, developers, submissions.

Plain frozen dataclasses, like ``arena.store.queries``; nothing here is hidden information (status,
reasons, ratings of published results, submission times).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..store import Store, queries
from ..store import models as m
from ..store.queries import Progress
from .matchmaker import FORMAT


@dataclass(frozen=True)
class VersionRow:
    name: str
    family: str | None
    version: int | None
    developer: str | None
    status: str  # building | failed | active | suspended | retired
    reason: str | None
    kind: str
    runtime: str | None
    submitted_at: datetime | None
    rating: float | None = None
    lo: float | None = None
    hi: float | None = None
    games: int = 0
    ladder_matches: int = 0


@dataclass(frozen=True)
class SeasonView:
    game: str
    tournament_id: int
    name: str
    status: str
    progress: Progress
    versions: list[VersionRow]


@dataclass(frozen=True)
class DeveloperView:
    name: str
    status: str
    created_at: datetime
    versions: list[VersionRow]  # newest family first, then newest version first


def _developers(s: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(s.execute(select(m.Developer.id, m.Developer.name).where(m.Developer.id.in_(ids))).all())


def _row(b: m.Bot, devs: dict[int, str], rating: m.Rating | None = None, played: int = 0) -> VersionRow:
    return VersionRow(b.name, b.family, b.version, devs.get(b.developer_id) if b.developer_id else None,
                      b.status if b.active or b.status != m.B_ACTIVE else "removed", b.status_reason, b.kind,
                      b.runtime, b.submitted_at, rating.rating if rating else None,
                      rating.lo if rating else None,
                      rating.hi if rating else None, rating.games if rating else 0, played)


def _ladder_counts(s: Session, game: str) -> dict[str, int]:
    return dict(s.execute(
        select(m.MatchSeat.bot, func.count(func.distinct(m.MatchSeat.match_id)))
        .join(m.Match, m.Match.id == m.MatchSeat.match_id)
        .join(m.Tournament, m.Tournament.id == m.Match.tournament_id)
        .where(m.Tournament.game == game, m.Tournament.format == FORMAT, m.Match.status == m.DONE)
        .group_by(m.MatchSeat.bot)).all())


def season_view(store: Store, game: str) -> SeasonView | None:
    """The latest season of ``game`` (running or not) with every version that plays the game."""
    with store.read() as s:
        t = s.scalar(select(m.Tournament).where(m.Tournament.game == game, m.Tournament.format == FORMAT)
                     .order_by(m.Tournament.id.desc()).limit(1))
        if t is None:
            return None
        played = _ladder_counts(s, game)
        ratings = {r.player: r for r in s.scalars(select(m.Rating).where(m.Rating.game == game))}
        bots = [b for b in s.scalars(select(m.Bot).order_by(m.Bot.name))
                if b.plays(game) and (b.active or b.status != m.B_ACTIVE or b.name in played)]
        devs = _developers(s, {b.developer_id for b in bots if b.developer_id})
        rows = [_row(b, devs, ratings.get(b.name), played.get(b.name, 0)) for b in bots]
        tid, name, status = t.id, t.name, t.status
    rows.sort(key=lambda r: (r.status != m.B_ACTIVE, -(r.rating if r.rating is not None else -1e9), r.name))
    return SeasonView(game, tid, name, status, queries.progress(store, tid), rows)


def developer(store: Store, name: str) -> DeveloperView | None:
    with store.read() as s:
        d = s.scalar(select(m.Developer).where(m.Developer.name == name))
        if d is None:
            return None
        rows = [_row(b, {d.id: d.name}) for b in s.scalars(select(m.Bot).where(m.Bot.developer_id == d.id))]
        rows.sort(key=lambda r: (r.family or r.name, -(r.version or 0)))
        return DeveloperView(d.name, d.status, d.created_at, rows)


def version(store: Store, name: str) -> tuple[VersionRow, list[VersionRow]] | None:
    """A bot (version) and the other versions of its family, newest first."""
    with store.read() as s:
        b = s.scalar(select(m.Bot).where(m.Bot.name == name))
        if b is None:
            return None
        family = list(s.scalars(select(m.Bot).where(m.Bot.family == b.family, m.Bot.name != b.name)
                                .order_by(m.Bot.version.desc()))) if b.family else []
        devs = _developers(s, {x.developer_id for x in [b, *family] if x.developer_id})
        return _row(b, devs), [_row(x, devs) for x in family]


def submissions(store: Store, limit: int = 10) -> list[VersionRow]:
    """The most recently submitted versions, newest first."""
    with store.read() as s:
        bots = list(s.scalars(select(m.Bot).where(m.Bot.submitted_at.is_not(None))
                              .order_by(m.Bot.submitted_at.desc(), m.Bot.id.desc()).limit(limit)))
        devs = _developers(s, {b.developer_id for b in bots if b.developer_id})
        return [_row(b, devs) for b in bots]
