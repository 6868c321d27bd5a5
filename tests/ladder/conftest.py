"""The ladder tests use the tournament tests' stores (SQLite and PostgreSQL) and the fixture game."""
from __future__ import annotations

from tests.arena.conftest import _no_cached_stores, pg_schema, pg_store, sealed_bids, sqlite_store, store

__all__ = ["_no_cached_stores", "pg_schema", "pg_store", "sealed_bids", "sqlite_store", "store"]
