"""The tournament store: SQLAlchemy models, migrations applied on open, writes (``ops``), reads (``queries``).

    from arena.store import open_store, queries
    store = open_store()                      # ARENA_DB_URL, or SQLite in ARENA_HOME (./.arena/arena.db)
    queries.ladder(store, "clank").rows       # published ratings, best first
"""
from __future__ import annotations

from . import ladders, models, ops, queries
from .db import Store, StoreError, forget_stores, open_store

__all__ = ["Store", "StoreError", "forget_stores", "ladders", "models", "open_store", "ops", "queries"]
