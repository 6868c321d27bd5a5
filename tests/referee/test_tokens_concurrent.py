"""Referees started together on one PostgreSQL database each create the ``referee_bots`` table: the
losers of that race used to fail with a UniqueViolation and exit (a flaky three-hosts test showed it)."""
from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from referee.service.tokens import TokenStore

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


@pytest.fixture
def fresh_db() -> Iterator[str]:
    name = f"arena_tokens_{uuid.uuid4().hex[:10]}"
    admin = create_engine(f"{SERVER}/test", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{SERVER}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def test_referees_starting_together_on_one_database_all_open_the_token_store(fresh_db: str) -> None:
    for _ in range(5):  # the race is short: several fresh tables in a row
        errors: list[BaseException] = []
        go = threading.Barrier(6)

        def open_store(go: threading.Barrier = go, errors: list[BaseException] = errors) -> None:
            go.wait()
            try:
                TokenStore(fresh_db).engine.dispose()
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion
                errors.append(exc)

        threads = [threading.Thread(target=open_store) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        engine = create_engine(fresh_db)
        with engine.begin() as c:
            c.execute(text("DROP TABLE referee_bots"))
        engine.dispose()
