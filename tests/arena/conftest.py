"""Fixtures of the tournament tests: a fresh store on SQLite and on PostgreSQL, the fixture game."""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from arena.store import Store, forget_stores, models
from referee.engine import register
from referee.engine.registry import unregister
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

PG_URL = os.environ.get("ARENA_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
EXTRA_GAMES = "sealed_bids=tests.fixtures.sealed_bids:GAME"


def _pg_reachable() -> bool:
    try:
        with create_engine(PG_URL, connect_args={"connect_timeout": 3}).connect() as conn:
            conn.execute(text("select 1"))
        return True
    except Exception:  # noqa: BLE001
        return False


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """A PostgreSQL schema of this test session, dropped at the end."""
    if not _pg_reachable():
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}")
    schema = f"arena_t_{uuid.uuid4().hex[:10]}"
    yield schema
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


@pytest.fixture(scope="session")
def pg_store(pg_schema: str) -> Iterator[Store]:
    store = Store(PG_URL, pg_schema)
    store.migrate()
    yield store
    store.engine.dispose()


def _truncate(store: Store) -> None:
    names = ", ".join(f'"{t.name}"' for t in models.Base.metadata.sorted_tables)
    with store.engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[Store]:
    """A fresh, migrated store: SQLite in a temp dir, or PostgreSQL (a session schema, truncated)."""
    if request.param == "sqlite":
        st = Store(f"sqlite:///{tmp_path}/arena.db")
        st.migrate()
        yield st
        st.engine.dispose()
        st.read_engine.dispose()
    else:
        st = request.getfixturevalue("pg_store")
        _truncate(st)
        yield st


@pytest.fixture
def sqlite_store(tmp_path) -> Iterator[Store]:
    st = Store(f"sqlite:///{tmp_path}/arena.db")
    st.migrate()
    yield st
    st.engine.dispose()
    st.read_engine.dispose()


@pytest.fixture(autouse=True)
def sealed_bids() -> Iterator[None]:
    register(SEALED_BIDS)
    yield
    unregister("sealed_bids")


@pytest.fixture(autouse=True)
def _no_cached_stores() -> Iterator[None]:
    yield
    forget_stores()
