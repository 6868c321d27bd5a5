from __future__ import annotations

import pytest

from referee.service.tokens import BadBotName, BotExists, TokenStore, UnknownBotName, hash_token


@pytest.fixture()
def store(tmp_path) -> TokenStore:
    return TokenStore(f"sqlite:///{tmp_path / 'r.db'}")


def test_token_is_shown_once_and_stored_hashed(store: TokenStore) -> None:
    token = store.register("alpha", ["sealed_bids"])
    assert store.lookup(token).name == "alpha"
    assert store.lookup(token).games == ("sealed_bids",)
    raw = store.engine.raw_connection()
    try:
        rows = raw.cursor().execute("select * from referee_bots").fetchall()
    finally:
        raw.close()
    flat = repr(rows)
    assert token not in flat and hash_token(token) in flat


def test_wrong_revoked_and_duplicate(store: TokenStore) -> None:
    token = store.register("beta")
    assert store.lookup("arena_wrong") is None and store.lookup("") is None
    with pytest.raises(BotExists):
        store.register("beta")
    store.revoke("beta")
    assert store.lookup(token) is None
    with pytest.raises(UnknownBotName):
        store.revoke("beta")
    new = store.register("beta")  # a revoked name can be registered again, with a new token
    assert new != token and store.lookup(new).name == "beta"


@pytest.mark.parametrize("name", ["", "a b", "x" * 65, "../etc", "naïve"])
def test_bad_names(store: TokenStore, name: str) -> None:
    with pytest.raises(BadBotName):
        store.register(name)
