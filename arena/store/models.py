"""The store's tables (SQLAlchemy 2.x). Schema changes are alembic migrations in ``arena/migrations``.

A match moves ``queued -> running -> done | failed`` (or ``cancelled``). Its result is recorded
exactly once: ``outcomes.match_id`` is the primary key, and recording is a conditional update of
the match row in the same transaction (see ``arena.store.ops.record_result``).
"""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    """Naive UTC: SQLite keeps no zone, so every timestamp in the store is naive UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


# Match states.
QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
MATCH_STATES = (QUEUED, RUNNING, DONE, FAILED, CANCELLED)
# Tournament states.
T_CREATED, T_RUNNING, T_DONE, T_CANCELLED = "created", "running", "done", "cancelled"


# The continuous ladder's tournaments (arena/ladder): a season that never finishes by itself.
CONTINUOUS = "continuous"

# Bot version states (issue 20). Only 'active' bots are matched by the continuous ladder.
B_BUILDING, B_FAILED, B_ACTIVE = "building", "failed", "active"
B_SUSPENDED, B_RETIRED = "suspended", "retired"


class Developer(Base):
    """A bot developer: submits bot packages over gRPC with its own token (never the organizer's).

    ``status`` is ``pending`` (registration awaits an organizer's approval), ``approved`` or
    ``disabled``. Only a hash of the token is stored.
    """

    __tablename__ = "developers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(), default=utcnow)


class Bot(Base):
    """A registered bot. ``kind`` is ``hosted`` (the referee launches ``command`` per match) or ``live``.

    ``command`` may contain ``{python}``, replaced by the worker's interpreter when a match is built,
    so one database serves machines whose Pythons live in different places. ``agent`` names the
    in-process equivalent (``random``, ``heuristic`` or ``module:Class``) used by the in-process
    executor; ``games`` is the list of games it plays (empty = every game). Removing a bot only
    deactivates it: its matches and ratings stay.
    """

    __tablename__ = "bots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    kind: Mapped[str] = mapped_column(String(16), default="hosted")
    command: Mapped[str | None] = mapped_column(Text, nullable=True)
    cwd: Mapped[str | None] = mapped_column(Text, nullable=True)
    env: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    agent: Mapped[str | None] = mapped_column(String(200), nullable=True)
    games: Mapped[list[Any]] = mapped_column(JSON, default=list)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(), default=utcnow)
    # Submitted versions (issue 20): a version is a bot of its own, named '<family>@<version>', so
    # matches, replays and ratings name the exact version that played. Organizer-registered bots
    # leave these empty and stay 'active'.
    developer_id: Mapped[int | None] = mapped_column(
        ForeignKey("developers.id", ondelete="SET NULL"), nullable=True, index=True)
    family: Mapped[str | None] = mapped_column(String(100), nullable=True, index=True)
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default=B_ACTIVE)
    status_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    runtime: Mapped[str | None] = mapped_column(String(16), nullable=True)  # python | node | go
    seats: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # game -> seat counts
    package_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)
    build_log: Mapped[str | None] = mapped_column(Text, nullable=True)
    submitted_at: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    game: Mapped[str] = mapped_column(String(64), index=True)
    format: Mapped[str] = mapped_column(String(32))  # round_robin | rotation | cooperative | gauntlet
    seats: Mapped[list[Any]] = mapped_column(JSON, default=list)  # seat counts played
    games_per_pairing: Mapped[int] = mapped_column(Integer, default=1)
    bots: Mapped[list[Any]] = mapped_column(JSON, default=list)  # entrant names, in entry order
    subject: Mapped[str | None] = mapped_column(String(100), nullable=True)  # gauntlet
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(Integer, default=0)  # the public label of the deals (--seed)
    # The secret HMAC key every match seed is derived from (arena.scheduling.deals); published
    # (queries.tournament) only once the tournament is over and no match is left to play.
    deal_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    deal_mode: Mapped[str] = mapped_column(String(16), default="auto")  # auto | paired | independent
    executor: Mapped[str] = mapped_column(String(16), default="referee")  # referee | inprocess
    status: Mapped[str] = mapped_column(String(16), default=T_CREATED)
    created_at: Mapped[datetime] = mapped_column(DateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)

    matches: Mapped[list[Match]] = relationship(back_populates="tournament", order_by="Match.number",
                                                lazy="raise_on_sql")


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_match_number"),
        Index("ix_matches_tournament_status", "tournament_id", "status"),
        Index("ix_matches_game_status", "game", "status"),
        Index("ix_matches_tournament_deal", "tournament_id", "deal"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # 0.. within the tournament (the fixed order)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    scenario: Mapped[str | None] = mapped_column(String(100), nullable=True)  # cooperative opponent
    group_key: Mapped[str] = mapped_column(String(200), default="")  # pairing/group label (paired seeds)
    # The public deal label its seed is derived from; matches sharing it form a deal group, and
    # nothing of the group (seed, result, replay) is published until all of it is finished.
    deal: Mapped[str] = mapped_column(String(300), default="")
    status: Mapped[str] = mapped_column(String(16), default=QUEUED)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)  # why it failed / was retried
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lease_expires: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)
    dispatched_at: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)
    not_before: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)  # retry backoff
    started_at: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)

    tournament: Mapped[Tournament] = relationship(back_populates="matches", lazy="raise_on_sql")
    seats: Mapped[list[MatchSeat]] = relationship(order_by="MatchSeat.seat", lazy="selectin",
                                                  cascade="all, delete-orphan")

    @property
    def bot_names(self) -> list[str]:
        return [s.bot for s in self.seats]


class MatchSeat(Base):
    """Who sits where (one row per seat, for per-bot queries); rank and score once recorded."""

    __tablename__ = "match_seats"
    __table_args__ = (Index("ix_match_seats_bot", "bot", "match_id"),)

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot: Mapped[str] = mapped_column(String(100))
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    # referee.health.SeatHealth.to_json(): answer times, time-outs, wrong answers, strikes, crashes
    health: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # a hosted bot's own stdout and stderr (its tail, ``OUTPUT_CAP``): shown to the bot's owner only, and
    # only once the match's deal group is over (``arena.store.queries.seat_outputs``)
    output: Mapped[str | None] = mapped_column(Text, nullable=True)


class Outcome(Base):
    """One per match, ever (the primary key is the match id): the referee's ``Outcome.to_json()``."""

    __tablename__ = "outcomes"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(String(32), default="normal")
    team_result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    plies: Mapped[int] = mapped_column(Integer, default=0)
    seconds: Mapped[float] = mapped_column(Float, default=0.0)
    worker: Mapped[str | None] = mapped_column(String(200), nullable=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(), default=utcnow)


class ReplayBlob(Base):
    """The replay JSON (``Replay.to_json()``), gzip-compressed."""

    __tablename__ = "replays"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer, default=0)  # uncompressed bytes


class Ladder(Base):
    """One row per game: which results the published ratings were fitted from."""

    __tablename__ = "ladders"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    results: Mapped[int] = mapped_column(Integer, default=0)  # number of outcomes fitted
    anchor: Mapped[str | None] = mapped_column(String(100), nullable=True)
    draw_nu: Mapped[float | None] = mapped_column(Float, nullable=True)  # Davidson draw parameter
    computed_at: Mapped[datetime] = mapped_column(DateTime(), default=utcnow)


class Rating(Base):
    """A published rating: Elo, 95% interval, and match counts (W/D/L as the player saw them)."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), default="bot")  # bot | scenario
    rating: Mapped[float] = mapped_column(Float)
    lo: Mapped[float] = mapped_column(Float)
    hi: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)


class RatingSnapshot(Base):
    """A point of rating history: taken when a tournament finishes and every N results of a game."""

    __tablename__ = "rating_snapshots"
    __table_args__ = (UniqueConstraint("game", "results", name="uq_snapshot_game_results"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    results: Mapped[int] = mapped_column(Integer)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", ondelete="SET NULL"),
                                                      nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(), default=utcnow)
    entries: Mapped[list[RatingHistory]] = relationship(lazy="selectin", cascade="all, delete-orphan")


class RatingHistory(Base):
    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player", "player", "snapshot_id"),)

    snapshot_id: Mapped[int] = mapped_column(ForeignKey("rating_snapshots.id", ondelete="CASCADE"),
                                             primary_key=True)
    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    lo: Mapped[float] = mapped_column(Float)
    hi: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
