"""Bot tokens: random, shown once, stored as SHA-256 in the ``referee_bots`` table.

The database is ``ARENA_DB_URL`` when set (shared with the tournament store, our own table),
else SQLite at ``$ARENA_HOME/referee.db`` (``ARENA_HOME`` defaults to ``./.arena``).
Tokens are 32 random bytes, so a fast hash is enough (no password stretching needed).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Boolean, Column, Float, MetaData, String, Table, Text, create_engine, select, text

#: PostgreSQL advisory lock serialising the creation of ``referee_bots`` (the store's migrations use 724531,
#: the ladder's seasons 724532)
_CREATE_LOCK = 724533
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

metadata = MetaData()
referee_bots = Table(
    "referee_bots", metadata,
    Column("name", String(64), primary_key=True),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("games", Text, nullable=False, default="[]"),
    Column("created", Float, nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)


class BadBotName(ValueError):
    pass


class BotExists(ValueError):
    pass


class UnknownBotName(KeyError):
    pass


@dataclass(frozen=True)
class BotRecord:
    name: str
    games: tuple[str, ...]
    created: float


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return "arena_" + secrets.token_urlsafe(32)


def default_db_url() -> str:
    url = os.environ.get("ARENA_DB_URL")
    if url:
        return url
    home = Path(os.environ.get("ARENA_HOME", ".arena"))
    home.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{home / 'referee.db'}"


class TokenStore:
    """Registered bots. Thread-safe; the referee calls it off the event loop."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        self.engine = create_engine(self.url, future=True)
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # referees started together on one database raced to CREATE TABLE: the loser failed with a
                # UniqueViolation and exited (seen in tests/e2e/test_tournament_hosts.py); queue them instead
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _CREATE_LOCK})
            metadata.create_all(conn, tables=[referee_bots])
        self._lock = threading.Lock()

    def register(self, name: str, games: list[str] | tuple[str, ...] = ()) -> str:
        """Create bot ``name`` (or re-create a revoked one) and return its new token."""
        if not NAME_RE.match(name or ""):
            raise BadBotName(f"bot name {name!r} must be 1-64 characters of A-Z a-z 0-9 _ . -")
        token = new_token()
        row = {"name": name, "token_sha256": hash_token(token), "games": json.dumps(sorted(set(games))),
               "created": time.time(), "revoked": False}
        with self._lock, self.engine.begin() as conn:
            old = conn.execute(select(referee_bots.c.revoked).where(referee_bots.c.name == name)).first()
            if old is not None and not old.revoked:
                raise BotExists(f"bot {name!r} is already registered (revoke it first to issue a new token)")
            if old is not None:
                conn.execute(referee_bots.delete().where(referee_bots.c.name == name))
            conn.execute(referee_bots.insert().values(**row))
        return token

    def revoke(self, name: str) -> None:
        with self._lock, self.engine.begin() as conn:
            res = conn.execute(referee_bots.update().where(referee_bots.c.name == name)
                               .where(referee_bots.c.revoked.is_(False)).values(revoked=True))
            if res.rowcount == 0:
                raise UnknownBotName(name)

    def lookup(self, token: str) -> BotRecord | None:
        """The bot this token belongs to, or None (unknown or revoked)."""
        if not token or len(token) > 200:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(referee_bots).where(referee_bots.c.token_sha256 == hash_token(token))
                               .where(referee_bots.c.revoked.is_(False))).first()
        return None if row is None else BotRecord(row.name, tuple(json.loads(row.games)), row.created)

    def get(self, name: str) -> BotRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(referee_bots).where(referee_bots.c.name == name)
                               .where(referee_bots.c.revoked.is_(False))).first()
        return None if row is None else BotRecord(row.name, tuple(json.loads(row.games)), row.created)

    def all(self) -> list[BotRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(referee_bots).where(referee_bots.c.revoked.is_(False))
                                .order_by(referee_bots.c.name)).all()
        return [BotRecord(r.name, tuple(json.loads(r.games)), r.created) for r in rows]
