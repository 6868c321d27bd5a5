"""Settings from the environment, in one place (every knob of the tournament side).

=====================  ==========================================================  ===================
variable               meaning                                                     default
=====================  ==========================================================  ===================
ARENA_HOME             data directory of the embedded default                       ./.arena
ARENA_DB_URL           SQLAlchemy URL of the store (PostgreSQL for clusters)        sqlite:///$HOME/arena.db
ARENA_DB_SCHEMA        PostgreSQL schema for the store (created if missing)         (the default schema)
ARENA_BROKER_URL       Celery broker (redis://...); unset = local process pool       (unset)
ARENA_QUEUE            Celery queue name                                            arena
ARENA_REFEREE          referee address(es) host:port[,host:port...]                 (unset)
ARENA_ORGANIZER_TOKEN  organizer token for the referee's organizer service          (unset)
ARENA_LEASE_S          seconds a worker's claim on a match lasts without heartbeat  30
ARENA_WORKERS          processes of the local pool                                  CPU count
ARENA_MATCH_TIMEOUT_S  longest a worker waits for a referee's report (0 = no limit)  0
ARENA_MAX_ATTEMPTS     claims of a match before it is marked failed                 8
ARENA_VISIBILITY_S     Redis visibility timeout: an unacked task is redelivered     300
ARENA_OUTAGE_WAIT_S    longest a match waits out a referee/store outage (no attempt  21600
                       is spent while it waits)
ARENA_LADDER_INFLIGHT  continuous ladder: most matches queued or running per game   4
ARENA_LADDER_PLACEMENT continuous ladder: placement matches of a new version        6
ARENA_LADDER_WINDOW    continuous ladder: opponents within this many ranks          3
ARENA_LADDER_TICK_S    continuous ladder: seconds between matchmaker ticks (beat)   10
ARENA_SUSPEND_AFTER    suspend a ladder version after this many consecutive         5
                       matches it crashed or forfeited
=====================  ==========================================================  ===================
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _env(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return value if value not in (None, "") else default


def arena_home() -> Path:
    return Path(_env("ARENA_HOME", ".arena") or ".arena").expanduser()


def db_url() -> str:
    url = _env("ARENA_DB_URL")
    if url:
        if url.startswith(("postgresql://", "postgres://")):
            # psycopg 3 is the driver we ship; plain postgresql:// would ask for psycopg2.
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        return url
    return f"sqlite:///{(arena_home() / 'arena.db').resolve()}"


@dataclass(frozen=True)
class Settings:
    db_url: str
    db_schema: str | None
    broker_url: str | None
    queue: str
    referees: list[str] = field(default_factory=list)
    organizer_token: str = ""
    lease_s: float = 30.0
    workers: int = 0
    match_timeout_s: float | None = None
    max_attempts: int = 8
    visibility_s: float = 300.0
    outage_wait_s: float = 21600.0
    ladder_inflight: int = 4
    ladder_placement: int = 6
    ladder_window: int = 3
    ladder_tick_s: float = 10.0
    suspend_after: int = 5
    outputs_kept: int = 50

    @classmethod
    def from_env(cls) -> Settings:
        referees = [a.strip() for a in (_env("ARENA_REFEREE", "") or "").split(",") if a.strip()]
        return cls(
            db_url=db_url(),
            db_schema=_env("ARENA_DB_SCHEMA"),
            broker_url=_env("ARENA_BROKER_URL"),
            queue=_env("ARENA_QUEUE", "arena") or "arena",
            referees=referees,
            organizer_token=_env("ARENA_ORGANIZER_TOKEN", "") or "",
            lease_s=float(_env("ARENA_LEASE_S", "30") or 30),
            workers=int(_env("ARENA_WORKERS", "0") or 0) or (os.cpu_count() or 1),
            match_timeout_s=float(_env("ARENA_MATCH_TIMEOUT_S", "0") or 0) or None,
            max_attempts=int(_env("ARENA_MAX_ATTEMPTS", "8") or 8),
            visibility_s=float(_env("ARENA_VISIBILITY_S", "300") or 300),
            outage_wait_s=float(_env("ARENA_OUTAGE_WAIT_S", "21600") or 21600),
            ladder_inflight=max(1, int(_env("ARENA_LADDER_INFLIGHT", "4") or 4)),
            ladder_placement=max(0, int(_env("ARENA_LADDER_PLACEMENT", "6") or 6)),
            ladder_window=max(1, int(_env("ARENA_LADDER_WINDOW", "3") or 3)),
            ladder_tick_s=max(0.1, float(_env("ARENA_LADDER_TICK_S", "10") or 10)),
            suspend_after=max(1, int(_env("ARENA_SUSPEND_AFTER", "5") or 5)),
            outputs_kept=max(1, int(_env("ARENA_OUTPUTS_KEPT", "50") or 50)),
        )


def settings() -> Settings:
    return Settings.from_env()
