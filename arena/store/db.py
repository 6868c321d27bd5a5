"""Opening the store: one engine per process, migrations applied on open.

SQLite (the embedded default) runs in WAL mode with a busy timeout; write transactions start
with ``BEGIN IMMEDIATE`` so concurrent writers queue instead of failing on a lock upgrade.
PostgreSQL is used by URL; ``schema`` (``ARENA_DB_SCHEMA``) puts every table, the alembic
version table included, in a schema of its own (tests use a fresh one per session).
"""
from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import CursorResult, Engine, Executable, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from referee.engine.errors import ArenaError

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
_SCHEMA_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


class StoreError(ArenaError):
    """The store cannot be opened or used (unreachable database, bad URL, failed migration)."""

    code = "store_error"


class Store:
    """An open store: ``tx()`` for a write transaction, ``read()`` for a read-only session."""

    def __init__(self, url: str, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        self.dialect = make_url(url).get_backend_name()
        if schema and not _SCHEMA_RE.match(schema):
            raise StoreError(f"bad schema name {schema!r}")
        self.engine = self._make_engine(immediate=True)
        # Readers on SQLite must not take the write lock; on PostgreSQL one engine serves both.
        self.read_engine = self._make_engine(immediate=False) if self.dialect == "sqlite" else self.engine
        self._writer = sessionmaker(self.engine, expire_on_commit=False)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)

    def _make_engine(self, immediate: bool) -> Engine:
        if self.dialect == "sqlite":
            url = make_url(self.url)
            if url.database and url.database != ":memory:":
                db = Path(url.database)
                db.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not db.exists():  # [sandbox] the store is readable by its owner only (SQLite's
                    os.close(os.open(db, os.O_CREAT | os.O_WRONLY, 0o600))  # -wal/-shm follow it)
            engine = create_engine(self.url, connect_args={"timeout": 60, "check_same_thread": False})

            @event.listens_for(engine, "connect")
            def _connect(dbapi_conn, _record) -> None:
                dbapi_conn.isolation_level = None  # we emit BEGIN ourselves
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA busy_timeout=60000")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()

            @event.listens_for(engine, "begin")
            def _begin(conn) -> None:
                conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

            return engine
        args: dict[str, object] = {}
        if self.schema:
            args["options"] = f"-csearch_path={self.schema}"
        return create_engine(self.url, connect_args=args, pool_pre_ping=True, pool_size=5, max_overflow=5)

    @contextmanager
    def tx(self) -> Iterator[Session]:
        """A write transaction: committed on success, rolled back on error."""
        with self._writer() as session, session.begin():
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._reader() as session:
            yield session

    def dispose(self) -> None:
        """Drop pooled connections (call in a child after fork)."""
        self.engine.dispose(close=False)
        if self.read_engine is not self.engine:
            self.read_engine.dispose(close=False)

    # -- migrations ----------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest migration (idempotent; concurrent callers queue)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        try:
            if self.dialect == "postgresql" and self.schema:
                with self.engine.connect() as conn:
                    conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
                    conn.commit()
            with self.engine.begin() as conn:
                if self.dialect == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(724531)"))
                if _current_revision(conn) == _head_revision(cfg):
                    return
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except OperationalError as exc:
            raise StoreError(f"cannot open the store at {self.safe_url}: {_first_line(exc)}") from None

    @property
    def installation(self) -> str:
        """A short name of this installation, unique per database (and schema): match ids sent to a
        referee are prefixed with it, so two installations sharing a referee never collide.
        ``ARENA_INSTALLATION`` overrides it (e.g. when hosts reach the database by different names)."""
        import hashlib
        import os

        given = os.environ.get("ARENA_INSTALLATION", "").strip()
        if given:
            return given[:40]
        u = make_url(self.url)
        ident = (f"{self.dialect}|{(u.host or '').lower()}|{u.port or ''}|"
                 f"{u.database or ''}|{self.schema or ''}")
        return "a" + hashlib.sha1(ident.encode()).hexdigest()[:9]

    def referee_match_id(self, match_id: int) -> str:
        """The id a referee knows match ``match_id`` of this store by (``<installation>-<id>``)."""
        return f"{self.installation}-{match_id}"

    @property
    def safe_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)


def updated(session: Session, statement: Executable) -> int:
    """Run an UPDATE or DELETE; the number of rows it matched."""
    result = session.execute(statement)
    assert isinstance(result, CursorResult)  # what a DML statement gives (Session.execute says Result)
    return result.rowcount


def _first_line(exc: BaseException) -> str:
    msg = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return msg[0] if msg else type(exc).__name__


def _current_revision(conn) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


_heads: dict[str, str | None] = {}


def _head_revision(cfg) -> str | None:
    key = str(MIGRATIONS)
    if key not in _heads:
        from alembic.script import ScriptDirectory

        _heads[key] = ScriptDirectory.from_config(cfg).get_current_head()
    return _heads[key]


_open: dict[tuple[str, str | None], Store] = {}
_lock = threading.Lock()


def open_store(url: str | None = None, schema: str | None = None, *, migrate: bool = True,
               cached: bool = True) -> Store:
    """The store at ``url`` (default: ``ARENA_DB_URL`` or the embedded SQLite file), migrated."""
    from arena.config import db_url

    if url is None:
        import os

        url = db_url()
        schema = schema or os.environ.get("ARENA_DB_SCHEMA") or None
    key = (url, schema)
    with _lock:
        if cached and key in _open:
            return _open[key]
        try:
            store = Store(url, schema)
        except Exception as exc:
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"cannot open the store at {url}: {exc}") from None
        if migrate:
            store.migrate()
        if cached:
            _open[key] = store
        return store


def forget_stores() -> None:
    """Drop cached stores (after fork, or between tests)."""
    with _lock:
        for store in _open.values():
            store.dispose()
        _open.clear()
