"""Alembic environment, run by ``arena.store.db.Store.migrate`` with an open connection.

To add a migration: change ``arena/store/models.py``, run
``python -m arena.store.makemigration "what changed"`` and review the generated file.
"""
from __future__ import annotations

from alembic import context

from arena.store.models import Base

config = context.config
target_metadata = Base.metadata


def _ours(name, type_, parent_names) -> bool:
    """Autogenerate looks only at our tables.

    The referee keeps its own (``referee_bots``) in a shared database."""
    return type_ != "table" or name in target_metadata.tables


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("arena migrations run through arena.store.open_store(), not the alembic CLI")
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                      compare_type=True, include_name=_ours)
    with context.begin_transaction():
        context.run_migrations()


run()
